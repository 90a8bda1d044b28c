//! The server picker: servers from a Claude Desktop and a VS Code config in a temporary HOME,
//! listed with where they came from; a broken entry said, not connected to; secrets never
//! shown; the filter; Enter on a good one connects.

use crate::tui::{key_event, text};
use mcp_inspect::testing::app::keymap::Keymap;
use mcp_inspect::testing::app::picker::{Picked, Picker};
use mcp_inspect::testing::app::theme::Theme;
use mcp_inspect::testing::config::client_configs::{Places, discover};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// A HOME holding a Claude Desktop config and a VS Code `mcp.json` (with comments).
fn home() -> std::path::PathBuf {
    // The same path each run (its length decides the snapshot's padding), short enough for
    // the file's line at 80 columns.
    let home = std::path::PathBuf::from("/tmp/mcpi-picker");
    let write = |path: &str, text: &str| {
        let path = home.join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("dirs");
        std::fs::write(path, text).expect("write");
    };
    write(
        ".config/Claude/claude_desktop_config.json",
        r#"{"mcpServers": {
            "files": {"command": "sh", "args": ["-c", "exec npx -y @modelcontextprotocol/server-filesystem /srv"],
                      "env": {"API_KEY": "sk-live-abcdef123456"}},
            "broken": {"args": ["x"]},
            "gone": {"command": "mcpi-no-such-server", "env": {"TOKEN": "${input:token}"}}}}"#,
    );
    write(
        ".config/Code/User/mcp.json",
        "{\n  // the user's servers\n  \"servers\": {\n    \"remote\": {\"type\": \"http\", \"url\": \"https://mcp.example.com/mcp\",\n      \"headers\": {\"Authorization\": \"Bearer sk-live-zzzzzzzzzz\"}},\n  },\n}\n",
    );
    home
}

fn draw(picker: &mut Picker, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
    terminal
        .draw(|frame| picker.scroll = mcp_inspect::testing::ui::draw_picker(frame, picker))
        .expect("draw");
    text(terminal.backend().buffer())
}

#[test]
fn the_picker_lists_servers_from_claude_desktop_and_vs_code() {
    let home = home();
    let places = Places {
        config: home.join(".config"),
        codex: home.join(".codex"),
        cwd: home.join("project"),
        home: home.clone(),
    };
    let found = discover(&places);
    let theme = Theme { color: true };
    let mut picker = Picker::new(
        found,
        "your client configs".into(),
        Keymap::default_map(),
        theme,
    );
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = draw(&mut picker, w, h);
        insta::assert_snapshot!(format!("picker_{w}x{h}"), screen);
        assert!(!screen.contains("sk-live"), "{screen}");
    }
    let screen = draw(&mut picker, 120, 40);
    assert!(
        screen.contains(
            "files  Claude Desktop  sh -c exec npx -y @modelcontextprotocol/server-filesystem /srv"
        ),
        "{screen}"
    );
    assert!(
        screen.contains("remote  VS Code  https://mcp.example.com/mcp"),
        "{screen}"
    );
    assert!(
        screen.contains("environment: API_KEY (values not shown)"),
        "{screen}"
    );
    let press = |picker: &mut Picker, key: &str| picker.key(key_event(key));
    // The broken entry says why, and is not connected to.
    press(&mut picker, "j");
    assert_eq!(press(&mut picker, "enter"), Picked::Stay);
    let screen = draw(&mut picker, 120, 40);
    assert!(
        screen.contains("cannot connect: server `broken` has no `command`"),
        "{screen}"
    );
    // A server that may not start is marked, and says why before it is picked.
    press(&mut picker, "j");
    let screen = draw(&mut picker, 120, 40);
    for said in [
        "⚠ gone  Claude Desktop  mcpi-no-such-server",
        "⚠ `mcpi-no-such-server` is not found on PATH",
        "⚠ holds a `${input…}` placeholder its client fills in",
    ] {
        assert!(screen.contains(said), "{said}:\n{screen}");
    }
    // The filter narrows to the HTTP one; Enter connects to it.
    press(&mut picker, "/");
    for c in ["e", "x", "a", "m"] {
        press(&mut picker, c);
    }
    press(&mut picker, "enter");
    let screen = draw(&mut picker, 120, 40);
    assert!(screen.contains("· 1 shown /exam"), "{screen}");
    assert!(
        screen.contains("headers: Authorization (values not shown)"),
        "{screen}"
    );
    assert!(!screen.contains("sk-live"), "{screen}");
    assert_eq!(press(&mut picker, "enter"), Picked::Connect(3));
    assert_eq!(press(&mut picker, "q"), Picked::Quit);
    // While filtering, `q` is a letter, and ctrl-c still quits.
    press(&mut picker, "/");
    assert_eq!(press(&mut picker, "q"), Picked::Stay);
    assert_eq!(press(&mut picker, "ctrl-c"), Picked::Quit);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn with_nothing_configured_the_picker_says_where_it_looked() {
    let home = std::path::PathBuf::from("/tmp/mcpi-picker-empty");
    let places = Places {
        config: home.join(".config"),
        codex: home.join(".codex"),
        cwd: home.join("project"),
        home: home.clone(),
    };
    let theme = Theme { color: false };
    let mut picker = Picker::new(
        discover(&places),
        "your client configs".into(),
        Keymap::default_map(),
        theme,
    );
    let screen = draw(&mut picker, 100, 30);
    assert!(
        screen.contains("No MCP server configured there. Looked for:"),
        "{screen}"
    );
    assert!(
        screen.contains("/tmp/mcpi-picker-empty/.config/Claude/claude_desktop_config.json"),
        "{screen}"
    );
    assert!(
        screen.contains("/tmp/mcpi-picker-empty/.codex/config.toml"),
        "{screen}"
    );
    assert!(
        screen.contains("or try the built-in demo: mcp-inspect --demo"),
        "{screen}"
    );
    assert_eq!(picker.key(key_event("enter")), Picked::Stay);
}

/// A tap running now is listed first, its file name escaped, and Enter on it attaches (it
/// watches, never connects); the filter matches it like a server.
#[test]
fn a_running_tap_is_listed_first_and_enter_watches_it() {
    use mcp_inspect::testing::app::picker::LiveTap;
    let home = std::path::PathBuf::from("/tmp/mcpi-picker-taps");
    let places = Places {
        config: home.join(".config"),
        codex: home.join(".codex"),
        cwd: home.join("project"),
        home: home.clone(),
    };
    let mut picker = Picker::new(
        discover(&places),
        "your client configs".into(),
        Keymap::default_map(),
        Theme { color: false },
    );
    let path = std::path::PathBuf::from("/state/mcp-inspect/taps/weather-1795963160-1.jsonl");
    let hostile = "\u{1b}]0;owned\u{7}evil-1.jsonl";
    picker.set_taps(vec![
        LiveTap {
            path: path.clone(),
            name: "weather-1795963160-1.jsonl".into(),
        },
        LiveTap {
            path: path.with_file_name(hostile),
            name: hostile.into(),
        },
    ]);
    let screen = draw(&mut picker, 120, 30);
    assert!(screen.contains("· 2 taps running"), "{screen}");
    assert!(
        screen.contains("▶ ● live tap  weather-1795963160-1.jsonl  (Enter watches it)"),
        "{screen}"
    );
    assert!(screen.contains("enter watch"), "{screen}");
    assert!(!screen.contains("No MCP server configured"), "{screen}");
    assert!(
        !screen.contains('\u{1b}') && !screen.contains('\u{7}'),
        "{screen}"
    );
    crate::hostile::assert_terminal_safe("the picker", &screen);
    assert_eq!(picker.key(key_event("enter")), Picked::Attach(path.clone()));
    picker.key(key_event("/"));
    for c in ["e", "v", "i", "l"] {
        picker.key(key_event(c));
    }
    picker.key(key_event("enter"));
    let Picked::Attach(evil) = picker.key(key_event("enter")) else {
        panic!("the filtered tap is attached to");
    };
    assert!(evil.ends_with(hostile));
}
