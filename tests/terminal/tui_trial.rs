//! `V` and `M` in a real terminal on the release binary: the demo's `bad_output` verified (its
//! finding listed, then opened as a call), `pi` under load with its rate drawn, and the shell
//! given back as it was; headless `verify`'s and `load`'s status lines in a terminal, never in
//! a pipe.

use crate::tui_tmux::{Tmux, release_binary};

#[test]
fn verify_and_load_in_a_real_terminal() {
    let Some(bin) = release_binary() else { return };
    let tmux = Tmux::start("trial", 120, 40);
    tmux.wait_for("$");
    tmux.type_line(&format!("{bin} --demo"));
    tmux.wait_for("Tools (17)");
    tmux.keys(&["/"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "bad_output"]);
    tmux.keys(&["Enter", "1", "V"]);
    tmux.wait_for("bad_output may destroy (no destructiveHint)");
    tmux.keys(&["V"]);
    let screen = tmux.wait_for("FAIL: 1 failure in 5 calls");
    assert!(
        screen.contains("✗ breaks its outputSchema") && screen.contains("smallest input {}"),
        "{screen}"
    );
    tmux.keys(&["Enter"]);
    tmux.wait_for("the finding's input is in the editor: ctrl-s sends it");
    tmux.keys(&["C-s"]);
    tmux.wait_for("3 violations (2020-12)");
    // Load on `pi` (no arguments): the rate drawn while it runs, the numbers when it ends.
    tmux.keys(&["Escape", "Escape", "1", "/", "Escape", "/"]);
    tmux.run(&["send-keys", "-t", "main", "-l", "pi"]);
    tmux.keys(&["Enter", "1", "M", "M"]);
    let screen = tmux.wait_for("calls/s · p50");
    assert!(screen.contains("load pi · 4 callers"), "{screen}");
    let screen = tmux.wait_for("0 failed, 0 not checked");
    assert!(screen.contains("calls/s, p50"), "{screen}");
    tmux.keys(&["q"]);
    tmux.wait_for("$ ");
}

/// Headless `verify` in a terminal: while a tool runs (here a silent call, sent again), a
/// status line at the foot of stderr says which tool, its calls so far and for how long; it is
/// taken off for the tool's result, and never reaches a pipe. `load` has one too.
#[test]
fn verify_shows_a_status_line_in_a_terminal_only() {
    let Some(bin) = release_binary() else { return };
    let tmux = Tmux::start("verify-status", 120, 30);
    tmux.wait_for("$");
    let verify = format!("{bin} verify answer_late --hostile --allow-all --call-timeout 1");
    tmux.type_line(&verify);
    tmux.wait_for("verify answer_late: 0 calls so far, 0 failures, ");
    let screen = tmux.wait_for("NOT CHECKED answer_late: 1 calls");
    assert!(!screen.contains("calls so far"), "{screen}");
    tmux.wait_for("$ ");
    // `load` counts as it goes, the same way.
    tmux.type_line(&format!(
        "{bin} load echo --demo --duration 3 --arg message=hi"
    ));
    tmux.wait_for("load echo: ");
    let screen = tmux.wait_for("calls of echo by 4 callers");
    assert!(!screen.contains("load echo: "), "{screen}");
    // Piped, stderr holds no status line.
    let piped = std::process::Command::new("sh")
        .args(["-c", &format!("{verify} 2>&1 | cat")])
        .output()
        .expect("sh");
    let piped = String::from_utf8_lossy(&piped.stdout);
    assert!(piped.contains("NOT CHECKED answer_late"), "{piped}");
    assert!(
        !piped.contains("so far") && !piped.contains('\u{1b}'),
        "{piped}"
    );
}
