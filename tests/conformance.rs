//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, client scenarios)
//! with mcp-inspect as the client, started the way the suite starts any client: a command with
//! the scenario server's URL appended. The auth scenarios are not run (no OAuth yet).

#[path = "support/cli.rs"]
mod cli;
#[path = "support/peers.rs"]
mod peers;

use std::process::Command;

/// Runs one client scenario; returns the suite's report (its stdout and stderr).
fn scenario(runner: &str, name: &str, client: &str) -> (bool, String) {
    let bin = std::path::Path::new(runner).parent().expect("bin folder");
    // The runner is a Node 22 script: its `node` comes first on PATH.
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new(runner)
        .args([
            "client",
            "--command",
            &format!("{} {client}", cli::BIN),
            "--scenario",
            name,
        ])
        .env("PATH", path)
        .output()
        .expect("run the conformance suite");
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (report.contains("OVERALL: PASSED"), report)
}

#[test]
fn client_scenarios_pass() {
    let Some(runner) = peers::conformance() else {
        return;
    };
    for (name, client) in [
        ("initialize", "tools --url"),
        ("tools_call", "call add_numbers --arg a=2 --arg b=40 --url"),
        ("sse-retry", "call test_reconnection --url"),
        (
            "elicitation-sep1034-client-defaults",
            "call test_client_elicitation_defaults --on-elicitation defaults --url",
        ),
    ] {
        let (passed, report) = scenario(&runner, name, client);
        assert!(passed, "{name} failed:\n{report}");
    }
}
