//! `--watch` in a real terminal: an edit to a Python server (the official SDK) restarts it,
//! the new tool appears with what changed since the last start, the call panel's draft stays;
//! a server broken by an edit says why, and the next edit brings it back.

use crate::peers;
use crate::tui_tmux::{Tmux, release_binary};
use std::time::Instant;

/// The author's server with one more tool, written where the marker line is.
fn with_tool(source: &str, name: &str) -> String {
    let tool = format!(
        "@mcp.tool()\ndef {name}(text: str) -> str:\n    \"\"\"Says the text.\"\"\"\n    return text\n\n\n# EDIT-HERE"
    );
    source.replace("# EDIT-HERE", &tool)
}

#[test]
fn an_edit_restarts_the_server_keeps_the_draft_and_says_what_changed() {
    let Some(bin) = release_binary() else { return };
    let Some(python) = peers::python() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("mcp-inspect-watch-tui-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let source = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/author_server.py"),
    )
    .expect("author server");
    let server = dir.join("server.py");
    std::fs::write(&server, &source).expect("write");
    let tmux = Tmux::start("watch", 140, 40);
    tmux.wait_for("$");
    tmux.type_line(&format!(
        "cd {} && {bin} --watch server.py -- {python} server.py",
        dir.display()
    ));
    tmux.wait_for("Tools (2)");
    tmux.wait_for("watching server.py: a change restarts the server");
    tmux.keys(&["a"]);
    tmux.wait_for("call add");
    tmux.run(&["send-keys", "-t", "main", "-l", "7"]);
    tmux.wait_for("a*     7");
    let edited = with_tool(&source, "shout");
    std::fs::write(&server, &edited).expect("edit");
    let changed = Instant::now();
    tmux.wait_for("Tools (3)");
    eprintln!("the new tool shown {:?} after the edit", changed.elapsed());
    let screen = tmux.wait_for("since the last start: 0 breaking, 0 unknown, 1 compatible");
    assert!(screen.contains("added: shout"), "{screen}");
    assert!(
        screen.contains("changed: server.py: restarting the server"),
        "{screen}"
    );
    assert!(screen.contains("a*     7"), "the draft is kept:\n{screen}");
    // Broken by an edit: the server's own words; the next edit brings it back.
    std::fs::write(&server, format!("{edited}\ndef broken(:\n")).expect("break");
    tmux.wait_for("SyntaxError");
    std::fs::write(&server, with_tool(&edited, "whisper")).expect("mend");
    let screen = tmux.wait_for("Tools (4)");
    tmux.wait_for("added: whisper");
    assert!(screen.contains("a*     7"), "the draft is kept:\n{screen}");
    // The call, then `K` keeps it as a test in the file asked for once; `test` runs it.
    tmux.keys(&["Down"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "5"]);
    tmux.keys(&["C-s"]);
    tmux.wait_for("call #1 · ");
    tmux.keys(&["K"]);
    tmux.wait_for("which test file keeps `add` and its result");
    tmux.keys(&["C-s"]);
    tmux.wait_for("call #1 (kept as a test)");
    tmux.wait_for("kept `add` as a test in author.tests.toml (1 case)");
    let kept = std::fs::read_to_string(dir.join("author.tests.toml")).expect("test file");
    assert!(
        kept.contains("args = { a = 7, b = 5 }") && kept.contains("value = 12"),
        "{kept}"
    );
    tmux.keys(&["q"]);
    tmux.type_line(&format!(
        "{bin} test author.tests.toml -- {python} server.py"
    ));
    tmux.wait_for("1 passed, 0 failed (1 test");
    // --rerun: an edit makes the last call again and says what changed; the test fails.
    tmux.type_line(&format!(
        "{bin} --watch server.py --rerun -- {python} server.py"
    ));
    tmux.wait_for("Tools (4)");
    tmux.keys(&["a", "C-s"]);
    // The earlier session's result is kept, and it is the one in the test file.
    tmux.wait_for("call #1 (kept as a test) · result 2/2");
    let current = std::fs::read_to_string(&server).expect("read");
    std::fs::write(&server, current.replace("return a + b", "return a + b + 1")).expect("edit");
    tmux.wait_for(r#"made again: add {"a":7,"b":5}: value at /: expected 12, got 13"#);
    tmux.keys(&["q"]);
    tmux.type_line(&format!(
        "{bin} test author.tests.toml -- {python} server.py"
    ));
    tmux.wait_for("0 passed, 1 failed (1 test");
    let _ = std::fs::remove_dir_all(dir);
}
