//! The interaction layer's rest in a real terminal, at the two sizes a person has: conditions
//! in a schema tree, an image drawn with half-blocks, the left pane resized and remembered, and
//! a recording with a list change replayed until it settles.

use crate::tui_tmux::{Tmux, release_binary};

/// Columns of the pane whose top border starts with `┌ {title}` (its corners included).
fn pane_width(screen: &str, title: &str) -> usize {
    let line = screen
        .lines()
        .find(|l| l.starts_with(&format!("┌ {title}")))
        .unwrap_or_else(|| panic!("no `{title}` pane:\n{screen}"));
    line.chars().take_while(|c| *c != '┐').count() + 1
}

/// Waits until the left pane (titled `title`) is `width` columns wide.
fn wait_for_width(tmux: &Tmux, title: &str, width: usize) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let screen = tmux.screen();
        if screen.contains(&format!("┌ {title}")) && pane_width(&screen, title) == width {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the {title} pane never became {width} wide:\n{screen}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn conditions_images_widths_and_a_replay_at_80x24_and_140x45() {
    let Some(bin) = release_binary() else { return };
    for (width, height) in [(80u16, 24u16), (140, 45)] {
        let tmux = Tmux::start(&format!("layout{width}"), width, height);
        let recording = std::env::temp_dir().join(format!(
            "mcp-inspect-layout-{width}-{}.jsonl",
            std::process::id()
        ));
        let recording = recording.display();
        tmux.wait_for("$");
        tmux.type_line(&format!(
            "{bin} --protocol legacy --record {recording} --demo"
        ));
        tmux.wait_for("Tools (17)");
        // `then` is a condition, with what it requires; zoomed, the whole tree has the room.
        tmux.keys(&["/"]);
        tmux.run(&["send-keys", "-t", "main", "-l", "configure"]);
        tmux.keys(&["Enter", "Tab", "z"]);
        tmux.wait_for("(then: when if holds): any · requires: overwrite");
        tmux.keys(&["z"]);
        // The demo's image resource, drawn with half-blocks under what is said of it.
        tmux.keys(&["Escape", "1", "6", "j", "j", "Enter"]);
        let screen = tmux.wait_for("image contents[0] (image/png)");
        let below = screen
            .split("image contents[0] (image/png)")
            .nth(1)
            .unwrap_or_default();
        assert!(below.contains('▀'), "a half-block:\n{screen}");
        // The left pane made wider by key: side by side at once, or when the terminal is.
        tmux.keys(&[">", ">"]);
        tmux.wait_for("left pane 40% of the width");
        if width < 100 {
            tmux.run(&["resize-window", "-t", "main", "-x", "140", "-y", "45"]);
        }
        wait_for_width(&tmux, "Resources", 56);
        tmux.keys(&["<"]);
        wait_for_width(&tmux, "Resources", 50);
        tmux.run(&[
            "resize-window",
            "-t",
            "main",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
        ]);
        // A call that changes the tool list, recorded.
        tmux.call_from_results("toggle_extra");
        tmux.wait_for("18 tools listed");
        tmux.keys(&["Escape", "q"]);
        // The recording replayed: the list change comes once, with the call that made it, and
        // the second call's answer brings none (a loop would fill the log meanwhile).
        tmux.type_line(&format!("{bin} -- {bin} replay {recording}"));
        tmux.wait_for("17 tools listed");
        tmux.call_from_results("toggle_extra");
        tmux.wait_for("18 tools listed");
        tmux.call_from_results("toggle_extra");
        let screen = tmux.wait_for("call #2 ");
        let logged: usize = screen
            .split("Log (")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a log count:\n{screen}"));
        assert!(logged < 20, "{logged} log lines:\n{screen}");
        // The width chosen in the first session is this one's too.
        if width < 100 {
            tmux.run(&["resize-window", "-t", "main", "-x", "140", "-y", "45"]);
        }
        tmux.keys(&["Escape"]);
        wait_for_width(&tmux, "Tools", 50);
        tmux.keys(&["q"]);
        tmux.type_line(&format!("echo layout-$((1+{width}))"));
        tmux.wait_for(&format!("layout-{}", width + 1));
        let _ = std::fs::remove_file(recording.to_string());
    }
}

/// Every box on the screen is whole: as many top-left corners as bottom-left ones.
fn boxes_closed(screen: &str) -> bool {
    let count = |c: char| screen.chars().filter(|x| *x == c).count();
    count('┌') == count('└') && count('┐') == count('┘')
}

/// In a small terminal (50×14, 60×16) the call panel is laid out by need: the arguments box
/// whole or absent, the result's `verdict` heading on a line of its own, nothing drawn over.
#[test]
fn a_call_in_a_small_terminal_is_never_drawn_over() {
    let Some(bin) = release_binary() else { return };
    for (width, height) in [(50u16, 14u16), (60, 16)] {
        let tmux = Tmux::start(&format!("small{width}"), width, height);
        tmux.wait_for("$");
        tmux.type_line(&format!("{bin} --demo"));
        tmux.wait_for("Tools (17)");
        tmux.keys(&["/"]);
        tmux.run(&["send-keys", "-t", "main", "-l", "bad_output"]);
        tmux.keys(&["Enter", "a"]);
        let screen = tmux.wait_for("call bad_output");
        assert!(
            boxes_closed(&screen),
            "{width}×{height}, the form:\n{screen}"
        );
        tmux.keys(&["C-s"]);
        let screen = tmux.wait_for("call #1");
        let screen = match screen.contains("verdict") {
            true => screen,
            false => tmux.wait_for("verdict"),
        };
        assert!(
            boxes_closed(&screen),
            "{width}×{height}, the result:\n{screen}"
        );
        let heading = screen
            .lines()
            .find(|l| l.contains("verdict"))
            .expect("a verdict line");
        assert_eq!(
            heading.trim_matches(|c: char| c == '│' || c.is_whitespace()),
            "verdict",
            "{width}×{height}:\n{screen}"
        );
        tmux.keys(&["q"]);
        tmux.type_line("echo small-$((6+6))");
        tmux.wait_for("small-12");
    }
}
