//! The TUI attached to a tap in a real terminal: a scripted host drives the demo server through
//! `mcp-inspect tap`, `mcp-inspect attach` watches: the banner the server printed on stdout
//! flagged, the host's call judged in its tool's panel, the session's end said.

use crate::hostile::StderrLines;
use crate::tui_tmux::{Tmux, release_binary};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{}},"clientInfo":{"name":"host","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
const PROMPTS: &str = r#"{"jsonrpc":"2.0","id":4,"method":"prompts/list"}"#;
const CALL: &str = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"bad_output","arguments":{}}}"#;

#[test]
fn the_tui_attached_to_a_tap_shows_the_hosts_call_judged_and_the_banner_flagged() {
    let Some(bin) = release_binary() else {
        return;
    };
    let tmux = Tmux::start("attach", 160, 45);
    let server = format!("echo 'Server started!'; exec {bin} demo-server");
    let mut tap = Command::new(&bin)
        .args(["tap", "--", "sh", "-c", &server])
        .env("XDG_STATE_HOME", tmux.data_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tap");
    let mut host_in = tap.stdin.take().expect("stdin");
    let mut host_out = StderrLines::of_stdout(&mut tap);
    for line in [INITIALIZE, INITIALIZED, LIST, PROMPTS] {
        writeln!(host_in, "{line}").expect("write");
    }
    host_out.wait_for(r#""id":4"#, Duration::from_secs(20));
    tmux.type_line(&format!("{bin} attach"));
    // What came before the viewer: the handshake, the banner, the listing.
    tmux.wait_for("the host declared roots");
    tmux.wait_for("a non-JSON line to stdout (a strict host fails here): Server started!");
    tmux.wait_for("17 tools listed");
    // The prompts the host was given, in their tab.
    tmux.wait_for("Prompts 2");
    writeln!(host_in, "{CALL}").expect("write");
    host_out.wait_for(r#""id":3"#, Duration::from_secs(20));
    tmux.wait_for("the host called bad_output (id 3): 3 violations");
    tmux.keys(&["/"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "bad_output"]);
    tmux.keys(&["Enter", "a"]);
    let panel = tmux.wait_for("the host's call (id 3)");
    assert!(panel.contains("3 violations"), "{panel}");
    // Calls are the host's to make: one sent from here is refused, said why.
    tmux.keys(&["C-s"]);
    tmux.wait_for("mcp-inspect only watches it");
    tmux.keys(&["5"]);
    let protocol = tmux.wait_for("← #3 result of tools/call");
    assert!(protocol.contains("→ tools/call #3"), "{protocol}");
    drop(host_in);
    assert!(tap.wait().expect("tap").success());
    tmux.wait_for("the tapped session ended: 9 messages, 1 host call, 1 violating");
    tmux.keys(&["q"]);
    tmux.wait_for("$ ");
}
