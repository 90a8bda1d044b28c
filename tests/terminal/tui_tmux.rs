//! The release binary in a real terminal (tmux): filter, expand, copy the output schema through
//! OSC 52 (tmux keeps it as a paste buffer), help, quit, and the shell is left as it was.

use crate::peers;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The tests run one at a time: they look for left-over demo servers by command line.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub(crate) struct Tmux {
    socket: String,
    _serial: std::sync::MutexGuard<'static, ()>,
}

impl Tmux {
    pub(crate) fn start(name: &str, width: u16, height: u16) -> Tmux {
        let socket = format!("mcp-inspect-{name}-{}", std::process::id());
        // Each test keeps its saved calls and tokens apart from the user's and the other tests'.
        let data = std::env::temp_dir().join(format!("{socket}-data"));
        let _ = std::fs::remove_dir_all(&data);
        let serial = SERIAL
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let t = Tmux {
            socket,
            _serial: serial,
        };
        t.run(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "main",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
            &format!(
                "env -u DISPLAY -u WAYLAND_DISPLAY XDG_DATA_HOME={0} XDG_STATE_HOME={0} PS1='$ ' bash --norc --noprofile",
                data.display()
            ),
        ]);
        t.run(&["set-option", "-g", "set-clipboard", "on"]);
        t
    }

    pub(crate) fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub(crate) fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.run(&["send-keys", "-t", "main", k]);
            std::thread::sleep(Duration::from_millis(60));
        }
    }

    /// Types a command at the shell's prompt, once the shell has the terminal.
    pub(crate) fn type_line(&self, line: &str) {
        self.wait_for_shell();
        self.run(&["send-keys", "-t", "main", "-l", line]);
        self.run(&["send-keys", "-t", "main", "Enter"]);
    }

    /// This terminal's `XDG_DATA_HOME` and `XDG_STATE_HOME`: its own, removed with it.
    pub(crate) fn data_dir(&self) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("{}-data", self.socket))
    }

    pub(crate) fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "main"])
    }

    pub(crate) fn wait_for(&self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let screen = self.screen();
            if screen.contains(needle) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "`{needle}` never appeared; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Tmux {
    /// From a call's results, filters the list down to `tool` and sends it with its skeleton
    /// (Esc in the filter clears it, so the second `/` starts a new one).
    pub(crate) fn call_from_results(&self, tool: &str) {
        self.keys(&["Escape", "1", "/", "Escape", "/"]);
        self.run(&["send-keys", "-t", "main", "-l", tool]);
        self.keys(&["Enter", "a"]);
        self.wait_for(&format!("call {tool}"));
        self.keys(&["C-s"]);
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
        let _ = std::fs::remove_dir_all(std::env::temp_dir().join(format!("{}-data", self.socket)));
    }
}

pub(crate) fn release_binary() -> Option<String> {
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/mcp-inspect");
    if bin.exists() {
        return Some(bin.to_string_lossy().into_owned());
    }
    if std::env::var("MCP_INSPECT_REQUIRE_PEERS").as_deref() == Ok("1") {
        panic!(
            "{} is missing: run `cargo build --release` (scripts/test.sh does)",
            bin.display()
        );
    }
    eprintln!("skipped: no release binary");
    None
}

#[test]
fn filter_expand_copy_help_quit_in_a_real_terminal() {
    let Some(bin) = release_binary() else { return };
    let tmux = Tmux::start("demo", 120, 40);
    tmux.wait_for("$");
    let modes = tmux.stty("before");
    tmux.type_line(&format!("{bin} --demo"));
    tmux.wait_for("Tools (17)");
    tmux.keys(&["/"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "build"]);
    let screen = tmux.wait_for("Tools (1/17)");
    assert!(screen.contains("build_tree"));
    tmux.keys(&["Enter", "Enter", "e"]);
    let screen = tmux.wait_for("recursive, back to");
    assert!(screen.contains("children*: Node[]"), "{screen}");
    tmux.keys(&["y", "o"]);
    let screen = tmux.wait_for("copied output schema");
    assert!(screen.contains("via OSC 52"), "{screen}");
    let copied = tmux.run(&["show-buffer"]);
    let expected = Command::new(&bin)
        .args(["inspect", "build_tree", "--demo"])
        .output()
        .expect("inspect");
    let expected: serde_json::Value =
        serde_json::from_slice(&expected.stdout).expect("inspect json");
    let copied: serde_json::Value = serde_json::from_str(&copied)
        .unwrap_or_else(|e| panic!("clipboard is not JSON ({e}): {copied}"));
    assert_eq!(
        copied, expected["outputSchema"],
        "the copied text is exactly the output schema"
    );
    tmux.keys(&["?"]);
    tmux.wait_for("Help: keys");
    tmux.keys(&["Escape", "q"]);
    let after = tmux.stty("after");
    let screen = tmux.screen();
    assert!(
        !screen.contains("Tools (17)"),
        "the alternate screen is gone:\n{screen}"
    );
    assert_eq!(modes, after, "terminal modes restored");
    let demo_left = Command::new("pgrep")
        .args(["-f", &format!("{bin} demo-server")])
        .output()
        .expect("pgrep");
    assert!(
        demo_left.stdout.is_empty(),
        "the demo server was left running"
    );
}

/// A click as a terminal sends it (SGR mouse report) selects the tool under it; the mouse is
/// captured while the TUI runs and given back when it quits.
/// Under `timeout` from a script (not `--foreground`) the TUI's process group does not have
/// the terminal: it says so on stderr and exits 1, never a blank screen stopped by SIGTTOU.
#[test]
fn outside_the_terminals_foreground_it_says_so_instead_of_stopping() {
    let Some(bin) = release_binary() else {
        return;
    };
    let tmux = Tmux::start("background", 200, 20);
    // `bash -c` with two commands: bash does not exec `timeout`, which then makes a group of
    // its own, not the terminal's.
    tmux.type_line(&format!(
        "bash -c 'timeout 20 {bin} --demo; echo exit-$((40+2))-$?'"
    ));
    let screen = tmux.wait_for("exit-42-");
    assert!(
        screen.contains("the TUI is not in the terminal's foreground")
            && screen.contains("SIGTTOU")
            && screen.contains("exit-42-1"),
        "{screen}"
    );
}

#[test]
fn a_click_in_a_real_terminal_and_the_mouse_given_back() {
    let Some(bin) = release_binary() else { return };
    let tmux = Tmux::start("mouse", 120, 40);
    tmux.wait_for("$");
    tmux.type_line(&format!("{bin} --demo"));
    let screen = tmux.wait_for("Tools (17)");
    let mouse = || tmux.run(&["display", "-p", "-t", "main", "#{mouse_any_flag}"]);
    assert_eq!(mouse().trim(), "1", "the TUI asked for mouse reports");
    let (row, line) = screen
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("lookup_user ro"))
        .expect("listed");
    let column = line.chars().position(|c| c == 'l').unwrap_or(3) + 1;
    let (x, y) = (column, row + 1);
    tmux.run(&[
        "send-keys",
        "-t",
        "main",
        "-l",
        &format!("\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m"),
    ]);
    tmux.wait_for("┌ lookup_user ─");
    // The border between the panes, dragged to the right: the left pane follows.
    let corner = |screen: &str| {
        let first = screen.lines().next().unwrap_or("");
        first.chars().position(|c| c == '┐').unwrap_or(0)
    };
    let border = corner(&tmux.screen()) + 1;
    tmux.run(&[
        "send-keys",
        "-t",
        "main",
        "-l",
        &format!("\x1b[<0;{border};5M\x1b[<32;50;5M\x1b[<32;70;5M\x1b[<0;70;5m"),
    ]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while corner(&tmux.screen()) < 60 {
        assert!(Instant::now() < deadline, "not resized:\n{}", tmux.screen());
        std::thread::sleep(Duration::from_millis(50));
    }
    tmux.keys(&["q"]);
    tmux.type_line("echo mouse-$((3+4))");
    tmux.wait_for("mouse-7");
    assert_eq!(mouse().trim(), "0", "mouse reports are off again");
    // --no-mouse leaves the mouse to the terminal.
    tmux.type_line(&format!("{bin} --demo --no-mouse"));
    tmux.wait_for("Tools (17)");
    assert_eq!(mouse().trim(), "0", "no mouse reports asked for");
    tmux.keys(&["q"]);
    tmux.type_line("echo mouse-$((4+4))");
    tmux.wait_for("mouse-8");
}

/// As a newcomer would, at 80×24 and 120×40: every server-filesystem tool opened from the list,
/// zoomed (`z`), its whole description (`d`) read to its last word, with its signature and hints;
/// the hint line follows the pane.
#[test]
fn a_newcomer_reads_every_filesystem_tool_at_both_sizes() {
    let Some(bin) = release_binary() else { return };
    let Some(index) = peers::filesystem() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("mcp-inspect-fs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let dir = dir.display().to_string();
    // What each tool says, from the headless listing: name, last word, whether it has hints.
    let listed = Command::new(&bin)
        .args(["tools", "--format", "json", "--", "node", &index, &dir])
        .output()
        .expect("tools");
    let listing: serde_json::Value = serde_json::from_slice(&listed.stdout).expect("json");
    let tools: Vec<(String, String, bool)> = listing["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            let description = t["description"].as_str().unwrap_or_default();
            let last = description.split_whitespace().last().unwrap_or_default();
            let hinted = t["annotations"].as_object().is_some_and(|a| !a.is_empty());
            (
                t["name"].as_str().unwrap_or_default().to_string(),
                last.to_string(),
                hinted,
            )
        })
        .collect();
    assert!(tools.len() >= 10, "{listing}");
    for (width, height) in [(80, 24), (120, 40)] {
        let tmux = Tmux::start(&format!("filesystem-{width}"), width, height);
        tmux.wait_for("$");
        tmux.type_line(&format!("{bin} -- node {index} {dir}"));
        let screen = tmux.wait_for(&format!("Tools ({})", tools.len()));
        assert!(screen.contains("/ filter"), "the list's keys: {screen}");
        tmux.keys(&["z"]);
        for (i, (name, last, hinted)) in tools.iter().enumerate() {
            tmux.keys(&["1", "g"]);
            for _ in 0..i {
                tmux.keys(&["j"]);
            }
            tmux.keys(&["Enter"]);
            tmux.wait_for(&format!("┌ {name} "));
            tmux.keys(&["d"]);
            let screen = tmux.wait_for(last);
            assert!(
                !screen.contains("d shows all"),
                "{name} at {width}: {screen}"
            );
            assert!(
                screen.contains(&format!("{name}(")),
                "{name}'s signature: {screen}"
            );
            assert!(
                !hinted || screen.contains("hints:"),
                "{name}'s hints: {screen}"
            );
            assert!(
                screen.contains("a call") && screen.contains("z unzoom"),
                "{screen}"
            );
            tmux.keys(&["d"]);
        }
        tmux.keys(&["q"]);
        tmux.type_line("echo fs-$((3+3))");
        tmux.wait_for("fs-6");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README's tour, as a new user takes it, at 80×24 and 140×45: the demo's list, a call
/// from the form with its verdict, `V` verifying a tool and `x` stopping a long run, the
/// protocol pane, the library's tabs, help, and the shell given back.
#[test]
fn the_readmes_tour_at_both_sizes() {
    let Some(bin) = release_binary() else { return };
    for (width, height) in [(80, 24), (140, 45)] {
        let tmux = Tmux::start(&format!("tour-{width}"), width, height);
        tmux.wait_for("$");
        tmux.type_line(&format!("{bin} --demo"));
        tmux.wait_for("Tools (17)");
        let select = |tool: &str| {
            tmux.keys(&["Escape", "1", "/"]);
            tmux.run(&["send-keys", "-t", "main", "-l", tool]);
            tmux.keys(&["Enter"]);
            tmux.wait_for(&format!("┌ {tool} "));
        };
        // `a` calls from a form built from the schema; the verdict comes with the result.
        select("add");
        tmux.keys(&["a"]);
        tmux.wait_for("call add");
        tmux.run(&["send-keys", "-t", "main", "-l", "1"]);
        tmux.keys(&["Down"]);
        tmux.run(&["send-keys", "-t", "main", "-l", "2"]);
        tmux.keys(&["C-s"]);
        tmux.wait_for("call #1 · ");
        tmux.wait_for("conforms");
        // `V` verifies a read-only tool at once; its verdict is said in the trial pane.
        select("echo");
        tmux.keys(&["V"]);
        tmux.wait_for("ok: 0 failures");
        // A long run (its calls set with `e`) is stopped by `x`.
        tmux.keys(&["e"]);
        tmux.wait_for("ctrl-s run it");
        tmux.run(&["send-keys", "-t", "main", "-l", "99999"]);
        tmux.keys(&["C-s"]);
        tmux.wait_for("running:");
        tmux.keys(&["x"]);
        tmux.wait_for("stopped:");
        // `5` shows every JSON-RPC message; `t` moves to the library's tabs; `?` every key.
        tmux.keys(&["5"]);
        tmux.wait_for("tools/call");
        tmux.keys(&["Escape", "1", "t"]);
        tmux.wait_for("[Resources 4]");
        tmux.keys(&["?"]);
        tmux.wait_for("Help: keys");
        tmux.wait_for("Everywhere");
        tmux.keys(&["Escape"]);
        tmux.keys(&["q"]);
        tmux.type_line("echo tour-$((5+5))");
        tmux.wait_for("tour-10");
    }
}

#[test]
fn tui_against_server_everything() {
    let Some(bin) = release_binary() else { return };
    let Some(index) = peers::everything() else {
        return;
    };
    let tmux = Tmux::start("everything", 100, 30);
    tmux.wait_for("$");
    tmux.type_line(&format!("{bin} -- node {index}"));
    let screen = tmux.wait_for("get-structured-content");
    assert!(screen.contains("mcp-servers/everything"), "{screen}");
    tmux.keys(&["/"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "structured"]);
    tmux.keys(&["Enter", "Enter"]);
    let screen = tmux.wait_for("Output schema");
    assert!(screen.contains("temperature*: number"), "{screen}");
    // A call with a real outputSchema is shown as conforming.
    tmux.keys(&["a"]);
    tmux.wait_for("call get-structured-content");
    // The city is a choice the user makes: → picks the first.
    tmux.wait_for("location* ‹ none of 3 ›");
    tmux.keys(&["Right"]);
    tmux.wait_for("‹ New York ›");
    tmux.keys(&["C-s"]);
    let screen = tmux.wait_for("conforms (draft-07)");
    assert!(screen.contains("\"temperature\""), "{screen}");
    // This client declares roots but hands over none the user did not name: the server asked
    // for them (when it chose to) and got an empty list, not the working directory.
    tmux.call_from_results("get-roots-list");
    tmux.wait_for("The client provided an empty roots list");
    // An image in a result, drawn with half-blocks (the result zoomed to have the room).
    tmux.call_from_results("get-tiny-image");
    tmux.wait_for("call #3 · ");
    tmux.keys(&["z"]);
    tmux.wait_for("▀▀▀▀▀▀▀▀▀▀");
    tmux.keys(&["z"]);
    // The server asks the user to fill a form: a panel, answered with its defaults.
    // Every field a row, titled choices by their titles; the required name typed in.
    tmux.call_from_results("trigger-elicitation-request");
    tmux.wait_for("the server asks: elicitation/create");
    let screen = tmux.wait_for("‹ Superman › hero-1");
    for row in [
        "name*",
        "check",
        "email",
        "homepage",
        "birthdate",
        "legacyTitledEnum",
    ] {
        assert!(screen.contains(row), "{row}:\n{screen}");
    }
    assert!(screen.contains("Your full, legal name"), "{screen}");
    tmux.run(&["send-keys", "-t", "main", "-l", "Ada"]);
    tmux.keys(&["C-s"]);
    tmux.wait_for("User provided the requested information");
    tmux.wait_for("- Name: Ada");
    // The library's tabs: a template read with its variable typed in, a prompt got with its
    // argument, and one whose second argument completes from the first (the server's
    // completions, context included).
    tmux.keys(&["6"]);
    tmux.wait_for("[Resources ");
    tmux.keys(&["t"]);
    tmux.wait_for("uri template: demo://resource/dynamic/text/{resourceId}");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the template's variables, then ctrl-s opens it");
    tmux.run(&["send-keys", "-t", "main", "-l", "7"]);
    tmux.keys(&["C-s"]);
    tmux.wait_for("Resource 7: This is a plaintext resource");
    tmux.keys(&["t"]);
    tmux.wait_for("[Prompts ");
    tmux.keys(&["j", "Enter"]);
    tmux.wait_for("the prompt's arguments, then ctrl-s opens it");
    tmux.run(&["send-keys", "-t", "main", "-l", "Paris"]);
    tmux.keys(&["C-s"]);
    tmux.wait_for("user: What's weather in Paris?");
    tmux.keys(&["j", "Enter"]);
    tmux.wait_for("completable-prompt(department*, name*)");
    tmux.run(&["send-keys", "-t", "main", "-l", "E"]);
    tmux.wait_for("department: Engineering (1 of 1)");
    tmux.keys(&["C-n", "Down", "C-n"]);
    tmux.wait_for("name: Alice · Bob · Charlie (3 of 3)");
    tmux.keys(&["C-s"]);
    tmux.wait_for("user: Please promote Alice to the head of the Engineering team.");
    tmux.keys(&["q"]);
    tmux.type_line("echo done-$((1+1))");
    tmux.wait_for("done-2");
}

#[test]
fn calls_in_a_real_terminal_boxed_violating_and_cancelled() {
    let Some(bin) = release_binary() else { return };
    let tmux = Tmux::start("calls", 120, 40);
    tmux.wait_for("$");
    // A directory of its own, where the blob saved from the library pane lands.
    let dir = std::env::temp_dir().join(format!("mcp-inspect-calls-{}", tmux.socket));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    tmux.type_line(&format!("cd {} && {bin} --demo", dir.display()));
    tmux.wait_for("Tools (17)");
    // A boxed scalar: the unboxed value with its badge.
    tmux.keys(&["/"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "add"]);
    tmux.keys(&["Enter", "a"]);
    tmux.wait_for("call add");
    tmux.run(&["send-keys", "-t", "main", "-l", "21"]);
    tmux.keys(&["Down"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "21"]);
    tmux.keys(&["C-s"]);
    let screen = tmux.wait_for("value (unboxed; w shows it as sent)");
    assert!(screen.contains("  42"), "21 + 21, as typed:\n{screen}");
    assert!(
        screen.contains("[boxed by fastmcp in `result`]"),
        "{screen}"
    );
    // A result that breaks its schema: listed and marked in place.
    tmux.keys(&["Escape", "Escape", "Escape"]);
    tmux.keys(&["/"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "bad_output"]);
    tmux.keys(&["Enter", "a", "C-s"]);
    let screen = tmux.wait_for("3 violations (2020-12)");
    assert!(
        screen.contains("\"count\": -3  ← -3 is less than the minimum of 0"),
        "{screen}"
    );
    assert!(
        screen.contains("✗ /items/1: 2 is not of type \"string\""),
        "{screen}"
    );
    // The slow tool: progress, then cancel, recorded.
    tmux.keys(&["Escape", "Escape", "Escape"]);
    tmux.keys(&["/"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "slow"]);
    tmux.keys(&["Enter", "a", "C-s"]);
    let screen = tmux.wait_for("step 2 of 10");
    assert!(screen.contains("timeout in"), "{screen}");
    tmux.keys(&["x"]);
    let screen = tmux.wait_for("slow cancelled at step");
    assert!(screen.contains("⊘ cancelled"), "{screen}");
    // The log names the request's JSON-RPC id too, the one the protocol pane shows.
    let logged = screen
        .lines()
        .find(|l| l.contains("slow: cancelled (notifications/cancelled sent)"))
        .unwrap_or_else(|| panic!("no cancelled line:\n{screen}"));
    let id = logged
        .split("call #3 (request #")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .unwrap_or_else(|| panic!("no request id: {logged}"));
    // The protocol pane lists what went over the wire: the call, its progress, the cancellation.
    tmux.keys(&["5"]);
    let screen = tmux.wait_for("→ notifications/cancelled");
    assert!(screen.contains("Protocol ("), "{screen}");
    assert!(screen.contains("← notifications/progress"), "{screen}");
    assert!(
        screen.contains(&format!("→ tools/call #{id}")),
        "{id}:\n{screen}"
    );
    // A request of any method, composed here and sent; the exchange is listed.
    tmux.keys(&["n"]);
    tmux.wait_for("before it is sent: request");
    tmux.run(&["send-keys", "-t", "main", "-l", "prompts/list"]);
    tmux.keys(&["C-s"]);
    tmux.wait_for("prompts/list: answered (the protocol pane shows it)");
    tmux.wait_for("→ prompts/list #");
    // The library's tabs: the demo's resources, template and prompts; a resource read, a
    // prompt's arguments filled in its form and its messages shown.
    tmux.keys(&["6"]);
    tmux.wait_for("[Resources 4] Templates 1");
    tmux.keys(&["Enter"]);
    tmux.wait_for("  # The mcp-inspect demo");
    // A blob read, described, and saved where the form says: the same bytes as sent.
    tmux.keys(&["j", "j", "Enter"]);
    tmux.wait_for("blob: 70 bytes, PNG 1×1");
    tmux.keys(&["w"]);
    tmux.wait_for("overwrite");
    tmux.wait_for("pixel.png");
    tmux.keys(&["C-s"]);
    tmux.wait_for("wrote 70 bytes to pixel.png");
    let saved = std::fs::read(dir.join("pixel.png")).expect("saved");
    let sent = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    use base64::Engine;
    let sent = base64::engine::general_purpose::STANDARD.decode(sent);
    assert_eq!(saved, sent.expect("base64"));
    // The template: its variable completed as it is typed, then put in with ctrl-n.
    tmux.keys(&["t", "Enter"]);
    tmux.wait_for("the template's variables, then ctrl-s opens it");
    // Typing starts in the first required value.
    tmux.run(&["send-keys", "-t", "main", "-l", "4"]);
    tmux.wait_for("id: 42 (1 of 1) · ctrl-n puts the first");
    tmux.keys(&["C-n", "C-s"]);
    let screen = tmux.wait_for("read demo://users/42");
    // A JSON content is a value tree.
    assert!(
        screen.contains(r#""name": "User 42""#) && screen.contains(r#""admin": true"#),
        "{screen}"
    );
    tmux.keys(&["t", "G", "Enter"]);
    tmux.wait_for("before it opens: arguments");
    tmux.run(&["send-keys", "-t", "main", "-l", "fn main() {}"]);
    // The language from the demo's completions (ctrl-n on its line).
    tmux.keys(&["Down", "C-n"]);
    tmux.wait_for("language: python · rust · typescript (3 of 3)");
    tmux.keys(&["C-n"]);
    tmux.wait_for("language rust");
    tmux.keys(&["C-s"]);
    let screen = tmux.wait_for("user: Review this rust code:");
    assert!(screen.contains("fn main() {}"), "{screen}");
    assert!(screen.contains("assistant: image (image/png"), "{screen}");
    tmux.keys(&["q"]);
    tmux.type_line("echo calls-$((2+2))");
    tmux.wait_for("calls-4");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `mcp-inspect` alone, as a new user starts it: the servers in their Claude Desktop and VS
/// Code configs (a temporary HOME) to pick from; Enter connects, `S` comes back to the picker
/// (the server it left is stopped), `q` quits.
#[test]
fn the_server_picker_connects_and_s_switches() {
    let Some(bin) = release_binary() else { return };
    let home = std::env::temp_dir().join(format!("mcp-inspect-home-{}", std::process::id()));
    let desktop = home.join(".config/Claude");
    let vscode = home.join(".config/Code/User");
    std::fs::create_dir_all(&desktop).expect("dirs");
    std::fs::create_dir_all(&vscode).expect("dirs");
    let demo =
        serde_json::json!({"mcpServers": {"demo": {"command": bin, "args": ["demo-server"]}}});
    std::fs::write(desktop.join("claude_desktop_config.json"), demo.to_string()).expect("write");
    let remote = "{\n  // comments are allowed here\n  \"servers\": {\"remote\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:9/mcp\"}},\n}";
    std::fs::write(vscode.join("mcp.json"), remote).expect("write");
    let tmux = Tmux::start("picker", 100, 30);
    tmux.wait_for("$");
    tmux.type_line(&format!("HOME={} {bin}", home.display()));
    // Each waited for on its own: a capture may catch a frame half written.
    tmux.wait_for("Pick a server: 2 servers in your client configs");
    tmux.wait_for("remote  VS Code  http://127.0.0.1:9/mcp");
    tmux.wait_for("client: Claude Desktop");
    tmux.keys(&["Enter"]);
    tmux.wait_for("Tools (17)");
    // One key never ends a session: the first S asks, the second switches.
    tmux.keys(&["S"]);
    tmux.wait_for("S again ends this session");
    tmux.keys(&["S"]);
    tmux.wait_for("Pick a server: 2 servers");
    let left = Command::new("pgrep")
        .args(["-f", &format!("{bin} demo-server")])
        .output()
        .expect("pgrep");
    assert!(left.stdout.is_empty(), "the demo server was left running");
    tmux.keys(&["q"]);
    tmux.type_line("echo picked-$((3+4))");
    tmux.wait_for("picked-7");
    // With no client configs, `S` still offers the server given on the command line.
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).expect("home");
    tmux.type_line(&format!("HOME={} {bin} --demo", home.display()));
    tmux.wait_for("Tools (17)");
    tmux.keys(&["S"]);
    tmux.wait_for("S again ends this session");
    tmux.keys(&["S"]);
    tmux.wait_for("Pick a server: 1 server in the command line and your client configs");
    tmux.wait_for("the command line");
    tmux.keys(&["Enter"]);
    tmux.wait_for("Tools (17)");
    tmux.keys(&["q"]);
    tmux.type_line("echo given-$((4+4))");
    tmux.wait_for("given-8");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn tui_call_against_fastmcp_is_conforming_and_unboxed() {
    let Some(bin) = release_binary() else { return };
    let Some(python) = peers::python() else {
        return;
    };
    let tmux = Tmux::start("fastmcp", 120, 40);
    tmux.wait_for("$");
    tmux.type_line(&format!("{bin} -- {python} {}", peers::fastmcp_script()));
    tmux.wait_for("Tools (7)");
    tmux.keys(&["a"]);
    tmux.wait_for("call add");
    tmux.run(&["send-keys", "-t", "main", "-l", "2"]);
    tmux.keys(&["Down"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "3"]);
    tmux.keys(&["C-s"]);
    let screen = tmux.wait_for("conforms (2020-12)");
    assert!(
        screen.contains("[boxed by fastmcp in `result`]"),
        "{screen}"
    );
    assert!(
        screen.contains("value (unboxed; w shows it as sent)"),
        "{screen}"
    );
    tmux.keys(&["q"]);
    tmux.type_line("echo fastmcp-$((3+3))");
    tmux.wait_for("fastmcp-6");
}

/// A call outlives its session: quit, start the same server again, and the tool's panel has
/// its result back (judged again, marked as an earlier session's); `R` runs it again.
#[test]
fn calls_are_kept_for_the_next_session_with_the_server() {
    let Some(bin) = release_binary() else { return };
    let tmux = Tmux::start("kept", 120, 40);
    tmux.wait_for("$");
    let open_add = || {
        tmux.wait_for("Tools (17)");
        tmux.keys(&["/"]);
        tmux.run(&["send-keys", "-t", "main", "-l", "add"]);
        tmux.keys(&["Enter", "a"]);
        tmux.wait_for("call add");
    };
    tmux.type_line(&format!("{bin} --demo"));
    open_add();
    tmux.run(&["send-keys", "-t", "main", "-l", "1"]);
    tmux.keys(&["Down"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "2"]);
    tmux.keys(&["C-s"]);
    tmux.wait_for("call #1 · ");
    tmux.keys(&["q"]);
    tmux.type_line("echo first-$((1+1))");
    tmux.wait_for("first-2");
    tmux.type_line(&format!("{bin} --demo"));
    // Kept for the server and the directory it was started in, which the log names.
    let screen = tmux.wait_for("1 draft and 1 result kept from earlier sessions with");
    // The line wraps where the path is long: read without borders and line breaks.
    let said: String = screen
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(said.contains(" in /"), "{screen}");
    open_add();
    tmux.keys(&["Escape"]);
    tmux.wait_for("an earlier session's call · ");
    tmux.keys(&["R"]);
    let screen = tmux.wait_for("call #1 · result 2/2");
    assert!(screen.contains("conforms (2020-12)"), "{screen}");
    tmux.keys(&["q"]);
    tmux.type_line("echo second-$((2+2))");
    tmux.wait_for("second-4");
}

#[test]
fn arguments_round_trip_through_the_external_editor() {
    let Some(bin) = release_binary() else { return };
    let tmux = Tmux::start("editor", 120, 40);
    tmux.wait_for("$");
    // A scripted "editor" that rewrites the arguments file it is given.
    tmux.type_line(&format!("EDITOR='sed -i s/0/7/g' {bin} --demo"));
    tmux.wait_for("Tools (17)");
    tmux.keys(&["/"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "add"]);
    tmux.keys(&["Enter", "a"]);
    tmux.wait_for("call add");
    tmux.run(&["send-keys", "-t", "main", "-l", "0"]);
    tmux.keys(&["Down"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "0"]);
    tmux.keys(&["C-e"]);
    // Back in the form; the same arguments as JSON a key away.
    tmux.wait_for("a*     7");
    tmux.keys(&["C-f"]);
    tmux.wait_for("\"a\": 7");
    tmux.keys(&["C-s"]);
    let screen = tmux.wait_for("conforms (2020-12)");
    assert!(
        screen.contains("  14"),
        "7 + 7 came back unboxed:\n{screen}"
    );
    tmux.keys(&["q"]);
    tmux.type_line("echo editor-$((5+5))");
    tmux.wait_for("editor-10");
}

use crate::hostile;

impl Tmux {
    /// Waits until `needle` is off the screen (the UI has left the alternate screen).
    fn wait_gone(&self, needle: &str) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.screen().contains(needle) {
            assert!(
                Instant::now() < deadline,
                "`{needle}` stayed:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn pane_title(&self) -> String {
        self.run(&["display-message", "-p", "-t", "main", "#{pane_title}"])
    }

    /// Waits until the pane's foreground process is the shell again: the inspector may still be
    /// stopping its server after its screen is gone (a dead one's process group is named by the
    /// pane's own command line until the shell takes the terminal back), and keys typed
    /// meanwhile are not the shell's.
    fn wait_for_shell(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let foreground = self.run(&[
                "display-message",
                "-p",
                "-t",
                "main",
                "#{pane_current_command}",
            ]);
            if foreground.trim() == "bash" {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the inspector never gave the terminal back"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Terminal modes, saved by the shell in the pane.
    fn stty(&self, tag: &str) -> String {
        let path = std::env::temp_dir().join(format!("mcp-inspect-stty-{}-{tag}", self.socket));
        // The shell computes the marker, so the typed command line never matches it.
        self.type_line(&format!(
            "stty -g > {}; echo saved-{tag}-$((6*7))",
            path.display()
        ));
        self.wait_for(&format!("saved-{tag}-42"));
        std::fs::read_to_string(&path).expect("stty")
    }
}

/// A process's parent, from `/proc`.
fn parent_of(pid: i32) -> i32 {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .expect("stat")
        .rsplit(')')
        .next()
        .and_then(|rest| rest.split_whitespace().nth(1).and_then(|p| p.parse().ok()))
        .expect("ppid")
}

/// The inspector that started a server: the server's parent is the guard, whose parent it is.
fn inspector_of(server: i32) -> i32 {
    let mut pid = parent_of(server);
    while std::fs::read_to_string(format!("/proc/{pid}/cmdline"))
        .is_ok_and(|c| c.contains("__guard"))
    {
        pid = parent_of(pid);
    }
    pid
}

/// The Tools pane's title for the hostile server with `attacks`: as many tools as `tools`
/// lists with them (`garbage` adds its `progress_liar`, `many-tools` ten thousand).
fn hostile_tools(bin: &str, attacks: &[&str]) -> String {
    let hostile = match attacks {
        [] => "--hostile".to_string(),
        _ => format!("--hostile={}", attacks.join(",")),
    };
    let listed = Command::new(bin)
        .args(["tools", &hostile])
        .output()
        .expect("tools");
    assert!(listed.status.success(), "tools {hostile}");
    let count = String::from_utf8_lossy(&listed.stdout).lines().count();
    format!("Tools ({count})")
}

/// The inspector on a stubborn hostile server (ignores SIGTERM, has a grandchild) with `attacks`;
/// returns the server's and grandchild's pids once the tools are listed.
fn start_hostile(tmux: &Tmux, bin: &str, tag: &str, attacks: &[&str], env: &str) -> [i32; 2] {
    let pid_file = std::env::temp_dir().join(format!("mcp-inspect-{}-{tag}.pids", tmux.socket));
    let _ = std::fs::remove_file(&pid_file);
    let more: String = attacks.iter().map(|a| format!(" --attack {a}")).collect();
    tmux.type_line(&format!(
        "{env} {bin} --timeout 5 -- {bin} hostile-server --attack stubborn{more} --pid-file {}",
        pid_file.display()
    ));
    tmux.wait_for(&hostile_tools(bin, attacks));
    hostile::read_pids(&pid_file)
}

#[test]
fn hostile_server_attacks_leave_the_terminal_intact() {
    let Some(bin) = release_binary() else { return };
    let tmux = Tmux::start("hostile", 120, 40);
    tmux.wait_for("$");
    let modes = tmux.stty("before");
    let title = tmux.pane_title();

    // Escapes everywhere, under a flood of notifications and garbage lines: every tool shown,
    // two results, the log; then quit.
    let pids = start_hostile(&tmux, &bin, "escapes", &["flood", "garbage"], "");
    let screen = tmux.screen();
    assert!(screen.contains("evil\\e]0;pwned-title\\x07"), "{screen}");
    for _ in 0..21 {
        tmux.keys(&["j"]);
    }
    for tool in ["escape_result", "lying_output"] {
        tmux.keys(&["1", "Escape", "/"]);
        tmux.run(&["send-keys", "-t", "main", "-l", tool]);
        tmux.keys(&["Enter", "a", "C-s"]);
        tmux.wait_for(&format!("call {tool}"));
        tmux.wait_for(" ms · ");
    }
    tmux.keys(&["Escape", "4"]);
    let screen = tmux.wait_for("Log (");
    assert!(
        screen.contains("Tools ("),
        "the screen was not cleared:\n{screen}"
    );
    assert_eq!(tmux.pane_title(), title, "the window title changed");
    assert!(
        !tmux.run(&["show-buffer"]).contains("pwned"),
        "the server wrote the clipboard"
    );
    tmux.keys(&["q"]);
    tmux.wait_gone(&hostile_tools(&bin, &["garbage"]));
    hostile::assert_gone(&pids, "quit");
    assert_eq!(tmux.stty("after-quit"), modes, "terminal modes after quit");

    // The server crashes mid-call: the UI says so, the grandchild goes with it.
    let plain = hostile_tools(&bin, &[]);
    let pids = start_hostile(&tmux, &bin, "crash", &[], "");
    tmux.keys(&["/"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "crash_mid_call"]);
    tmux.keys(&["Enter", "a", "C-s"]);
    tmux.wait_for("connection lost");
    hostile::assert_gone(&pids, "server crash");
    tmux.keys(&["q"]);
    tmux.wait_gone(&plain);

    // Ten thousand tools, schema bombs and a 100 MB answer: each bomb opens, the answer is
    // refused with its size, and the keys still answer.
    tmux.type_line(&format!("{bin} --timeout 5 --hostile=many-tools"));
    tmux.wait_for(&hostile_tools(&bin, &["many-tools"]));
    for tool in [
        "ref_bomb",
        "wide_schema",
        "huge_enum",
        "deep_schema",
        "regex_bomb",
        "long_description",
        "generated_09999",
    ] {
        tmux.keys(&["1", "Escape", "/"]);
        tmux.run(&["send-keys", "-t", "main", "-l", tool]);
        tmux.keys(&["Enter"]);
        tmux.wait_for(&format!("┌ {tool} "));
    }
    tmux.keys(&["1", "Escape", "/"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "huge_result"]);
    tmux.keys(&["Enter", "a", "C-s"]);
    tmux.wait_for("over the 16 MiB limit");
    assert_eq!(tmux.pane_title(), title, "the window title changed");
    tmux.keys(&["q"]);
    tmux.wait_gone("Tools (");
    // Gone once its guard has ended it (the TUI may leave before that, on a busy machine).
    hostile::assert_none_matching("hostile-server --attack many-tools", Duration::from_secs(5));

    // Ended from outside (SIGTERM; SIGHUP as when an SSH connection drops), and by its own
    // panic: the terminal is restored and no process is left.
    for (how, env) in [
        ("TERM", ""),
        ("HUP", ""),
        ("panic", "MCP_INSPECT_PANIC_ON_KEY=P"),
    ] {
        let pids = start_hostile(&tmux, &bin, how, &[], env);
        if how == "panic" {
            tmux.keys(&["P"]);
            tmux.wait_for("panic requested by MCP_INSPECT_PANIC_ON_KEY");
        } else {
            let inspector = inspector_of(pids[0]);
            Command::new("kill")
                .args([&format!("-{how}"), &inspector.to_string()])
                .status()
                .expect("kill");
        }
        tmux.wait_gone(&plain);
        hostile::assert_gone(&pids, how);
        assert_eq!(
            tmux.stty(&format!("after-{how}")),
            modes,
            "terminal modes after {how}"
        );
        let screen = tmux.screen();
        assert!(
            !screen.contains(&plain),
            "{how}: still on the alternate screen:\n{screen}"
        );
        tmux.type_line("clear");
    }
}

const ATTACKER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/peers/attacker.py");

/// Waits for a process to be gone (ten seconds at most).
fn wait_until_gone(pid: i32) {
    let started = Instant::now();
    while hostile::alive(pid) {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{pid} never exited"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The pid of the newest process whose command line contains `needle`.
fn newest(needle: &str) -> i32 {
    let out = Command::new("pgrep")
        .args(["-n", "-f", needle])
        .output()
        .expect("pgrep");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("no process matching {needle}"))
}

#[test]
fn attacks_written_elsewhere_in_a_real_terminal() {
    let Some(bin) = release_binary() else { return };
    let tmux = Tmux::start("attacks", 120, 40);
    tmux.wait_for("$");
    let modes = tmux.stty("before");

    // Paste-jacking: a tool name with ^C and a newline in it. The command-line copy must type
    // exactly that name when pasted into bash, and carry no control character itself.
    let _ = std::fs::remove_file("/tmp/mcp-inspect-pwned");
    tmux.type_line(&format!("{bin} -- python3 {ATTACKER} paste"));
    tmux.wait_for("Tools (2)");
    tmux.keys(&["a", "C-s"]);
    tmux.wait_for("called list_files");
    tmux.keys(&["y", "c"]);
    tmux.wait_for("copied call as a command line");
    let copied = tmux.run(&["show-buffer"]);
    hostile::assert_terminal_safe("the command-line copy", &copied);
    let rest = copied
        .strip_prefix("mcp-inspect call ")
        .unwrap_or_else(|| panic!("a command line: {copied:?}"));
    let typed = Command::new("bash")
        .arg("-c")
        .arg(format!("f() {{ printf '%s' \"$1\"; }}; f {rest}"))
        .output()
        .expect("bash");
    assert_eq!(
        String::from_utf8_lossy(&typed.stdout),
        "list_files\u{3}  touch /tmp/mcp-inspect-pwned\n",
        "bash reads back exactly the tool's name"
    );
    assert!(!Path::new("/tmp/mcp-inspect-pwned").exists());
    // A pointer copy holds the server's property name escaped, never raw.
    tmux.keys(&["Escape", "1", "j", "Enter", "j", "y", "p"]);
    tmux.wait_for("copied pointer /inputSchema/properties/pa");
    hostile::assert_terminal_safe("the pointer copy", &tmux.run(&["show-buffer"]));
    tmux.keys(&["q"]);
    tmux.wait_gone("Tools (2)");

    // A 60,000-link $ref chain (once a stack overflow that left the terminal raw): named.
    tmux.type_line(&format!("{bin} -- python3 {ATTACKER} ref-chain"));
    tmux.wait_for("Tools (1)");
    tmux.keys(&["a", "C-s"]);
    tmux.wait_for("schema too deep");
    tmux.keys(&["q"]);
    tmux.wait_gone("Tools (1)");

    // Logs as fast as a pipe takes them while the server asks the user: the form still comes
    // (what the user must answer never waits behind logs, nor is dropped for them) and the
    // answer reaches the server.
    tmux.type_line(&format!("{bin} -- python3 {ATTACKER} elicit-flood"));
    tmux.wait_for("Tools (1)");
    tmux.keys(&["a", "C-s"]);
    tmux.wait_for("the server asks: elicitation/create");
    tmux.keys(&["C-s"]);
    tmux.wait_for("the user answered the form: accept");
    tmux.keys(&["q"]);
    tmux.wait_gone("Tools (1)");

    // A list change mid-call, then endless slow pages: the call still ends on time.
    tmux.type_line(&format!("{bin} --timeout 60 -- python3 {ATTACKER} relist"));
    tmux.wait_for("Tools (1)");
    tmux.keys(&["a", "C-s"]);
    let started = Instant::now();
    tmux.wait_for("slow answer");
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "the call waited for the listing: {:?}",
        started.elapsed()
    );
    tmux.keys(&["q"]);
    tmux.wait_gone("Tools (1)");

    // A validation that runs for seconds: SIGTERM still ends the inspector at once.
    let answered =
        std::env::temp_dir().join(format!("mcp-inspect-answered-{}", std::process::id()));
    let _ = std::fs::remove_file(&answered);
    tmux.type_line(&format!(
        "ATTACKER_ANSWERED={} {bin} -- python3 {ATTACKER} slow-enum",
        answered.display()
    ));
    tmux.wait_for("Tools (1)");
    tmux.keys(&["a", "C-s"]);
    // The server answered, so the inspector read the ctrl-s: none is left in the terminal's
    // input for the shell (where it would start a search that eats the next typed line).
    let deadline = Instant::now() + Duration::from_secs(20);
    while !answered.exists() {
        assert!(
            Instant::now() < deadline,
            "the call never reached the server"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The validation starts after this: it cannot end before its budget from here.
    let validating = Instant::now();
    let inspector = newest(&format!("{bin} -- python3"));
    // The validation runs once the inspector burns CPU on it.
    hostile::wait_busy(inspector, 20, Duration::from_secs(30));
    Command::new("kill")
        .args(["-TERM", &inspector.to_string()])
        .status()
        .expect("kill");
    wait_until_gone(inspector);
    // Ended by the signal, not by the work: gone before the validation could have ended. An
    // order of events, not a speed: an inspector that acted on the signal only once the
    // validation was over would be gone after its budget.
    let budget = mcp_inspect::testing::schema::validate::VALIDATION_BUDGET;
    let gone = validating.elapsed();
    assert!(gone < budget, "gone {gone:?} after the answer came");
    tmux.wait_gone("Tools (1)");
    assert_eq!(tmux.stty("after"), modes, "terminal modes restored");
}

/// Forms at both sizes a user has: typed numbers go where the fingers expect (`21` in `add`'s
/// first row is 21, not 210), and server-everything's elicitation shows every field with its
/// title, description and titled choices.
#[test]
fn forms_fill_as_typed_at_80x24_and_140x45() {
    let Some(bin) = release_binary() else { return };
    for (width, height) in [(80, 24), (140, 45)] {
        let tmux = Tmux::start(&format!("forms{width}"), width, height);
        tmux.wait_for("$");
        tmux.type_line(&format!("{bin} --demo"));
        tmux.wait_for("Tools (17)");
        tmux.keys(&["/"]);
        tmux.run(&["send-keys", "-t", "main", "-l", "add"]);
        tmux.keys(&["Enter", "a"]);
        tmux.wait_for("b*     ‹integer›");
        tmux.run(&["send-keys", "-t", "main", "-l", "21"]);
        tmux.keys(&["Down"]);
        tmux.run(&["send-keys", "-t", "main", "-l", "21"]);
        tmux.keys(&["C-s"]);
        // The demo server logs what it was sent.
        tmux.wait_for(r#"call add {"a":21,"b":21}"#);
        tmux.wait_for("conforms (2020-12)  [boxed by fastmcp in `result`]");
        tmux.keys(&["q"]);
        tmux.type_line(&format!("echo forms-$((1+{width}))"));
        tmux.wait_for(&format!("forms-{}", width + 1));
    }
    let Some(index) = peers::everything() else {
        return;
    };
    for (width, height) in [(80, 24), (140, 45)] {
        let tmux = Tmux::start(&format!("elicit{width}"), width, height);
        tmux.wait_for("$");
        tmux.type_line(&format!("{bin} -- node {index}"));
        tmux.wait_for("get-structured-content");
        tmux.call_from_results("trigger-elicitation-request");
        let screen = tmux.wait_for("‹ Superman › hero-1");
        for row in [
            "name*",
            "check",
            "firstLine",
            "email",
            "homepage",
            "birthdate",
            "integer",
        ] {
            assert!(screen.contains(row), "{row} at {width}×{height}:\n{screen}");
        }
        assert!(screen.contains("Your full, legal name"), "{screen}");
        // Down to the hero: its choices by title, the next one picked with →.
        tmux.keys(&["Down"; 10]);
        tmux.wait_for("Choose your favorite hero");
        tmux.keys(&["Right"]);
        tmux.wait_for("‹ Green Lantern › hero-2");
        tmux.keys(&["Up"; 10]);
        tmux.run(&["send-keys", "-t", "main", "-l", "Ada"]);
        tmux.keys(&["C-s"]);
        // The result, zoomed (at 80×24 the panel is short).
        tmux.wait_for("call #1 · ");
        tmux.keys(&["z"]);
        tmux.wait_for("- Name: Ada");
        tmux.keys(&["q"]);
        tmux.type_line(&format!("echo elicit-$((1+{width}))"));
        tmux.wait_for(&format!("elicit-{}", width + 1));
    }
}
