//! Bad conditions get a clear one-line error and the right exit code, promptly, without leaking
//! secrets or leaving a server process behind. Also the demo server over Streamable HTTP.

use crate::cli;

use cli::{BIN, free_port, run, start_listening};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::Command;
use std::time::Duration;

/// Answers every HTTP request on a fresh port with what `respond` makes of the request as
/// received; returns the port.
fn http_server(respond: impl Fn(&str) -> String + Send + 'static) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let mut buf = [0u8; 8192];
            let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
            let n = stream.read(&mut buf).unwrap_or(0);
            let _ = stream.write_all(respond(&String::from_utf8_lossy(&buf[..n])).as_bytes());
        }
    });
    port
}

/// Answers every HTTP request on a fresh port with `response`; returns the port.
fn canned_http(response: &'static str) -> u16 {
    http_server(move |_| response.to_string())
}

#[test]
fn command_not_found() {
    let r = run(&["tools", "--", "no-such-command-mcp-inspect"]);
    assert_eq!(r.code, 4);
    assert_eq!(
        r.stderr.trim(),
        "error: command not found: `no-such-command-mcp-inspect` (is it installed and on PATH?)"
    );
}

#[test]
fn server_exiting_during_handshake_shows_its_stderr() {
    let r = run(&[
        "tools",
        "--",
        "sh",
        "-c",
        "echo 'fatal: missing API key' >&2; exit 3",
    ]);
    assert_eq!(r.code, 4);
    assert!(
        r.stderr
            .contains("the server exited during the handshake (exit status: 3)"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("fatal: missing API key"));
}

#[test]
fn connection_refused_and_404() {
    let refused = run(&[
        "tools",
        "--url",
        &format!("http://127.0.0.1:{}/mcp", free_port()),
    ]);
    assert_eq!(refused.code, 4);
    assert!(
        refused.stderr.contains("connection refused"),
        "{}",
        refused.stderr
    );
    let port = free_port();
    let mut demo = Command::new(BIN);
    demo.args(["demo-server", "--http", &port.to_string()]);
    let _server = start_listening(demo, port);
    let missing = run(&["tools", "--url", &format!("http://127.0.0.1:{port}/nope")]);
    assert_eq!(missing.code, 4);
    assert!(
        missing.stderr.contains("HTTP 404 Not Found"),
        "{}",
        missing.stderr
    );
}

/// Without a token of the user's, a 401 is OAuth's to handle: a headless command that may not
/// open a browser stops with exit 3 and says what to do; allowed to, against a server with no
/// authorization server behind it, the flow fails with exit 3 and the browser is never started.
#[test]
fn a_401_without_a_token_is_oauths_and_a_headless_command_stops_with_exit_3() {
    let port = canned_http(
        "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer realm=\"demo\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    let url = format!("http://127.0.0.1:{port}/mcp");
    let state = std::env::temp_dir().join(format!("mcp-inspect-401-{}", std::process::id()));
    let opened = state.join("opened");
    let browser = format!("touch {}", opened.display());
    let envs = [
        ("XDG_STATE_HOME", state.display().to_string()),
        ("BROWSER", browser),
    ];
    let run_with = |args: &[&str]| {
        let out = std::process::Command::new(cli::BIN)
            .args(args)
            .envs(envs.iter().map(|(k, v)| (k, v)))
            .output()
            .expect("run");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    std::fs::create_dir_all(&state).expect("state");
    let (code, stderr) = run_with(&["tools", "--url", &url]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains("--interactive-auth"), "{stderr}");
    assert!(stderr.contains("--bearer-env"), "{stderr}");
    let (code, stderr) = run_with(&["tools", "--interactive-auth", "--url", &url]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains("OAuth authorization for"), "{stderr}");
    assert!(!opened.exists(), "no authorization URL, no browser");
    let _ = std::fs::remove_dir_all(&state);
}

#[test]
fn unauthorized_shows_the_challenge_but_never_the_token() {
    let port = canned_http(
        "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer realm=\"demo\", error=\"invalid_token\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    let r = run(&[
        "tools",
        "--url",
        &format!("http://127.0.0.1:{port}/mcp"),
        "--header",
        "Authorization: Bearer TOPSECRET-123",
    ]);
    assert_eq!(r.code, 4);
    assert!(r.stderr.contains("HTTP 401 Unauthorized"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("give a token with --bearer-env VAR or --header"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("WWW-Authenticate: Bearer realm=\"demo\""),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("TOPSECRET") && !r.stdout.contains("TOPSECRET"));
    let sse = run(&[
        "tools",
        "--url",
        &format!("http://127.0.0.1:{port}/sse"),
        "--header",
        "X-Api-Key: TOPSECRET-456",
        "--format",
        "json",
    ]);
    assert_eq!(sse.error_json()["exitCode"], 4);
    assert!(!sse.stderr.contains("TOPSECRET"));
}

/// Answers every HTTP request with a 400 whose body is the request as received (headers
/// included): a server that reflects what the client sent.
fn reflecting_http() -> u16 {
    http_server(|request| {
        let body = request.replace("\r\n", " | ");
        format!(
            "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    })
}

#[test]
fn a_url_password_reflected_as_basic_authorization_is_redacted() {
    use base64::Engine as _;
    let port = reflecting_http();
    let r = run(&[
        "tools",
        "--url",
        &format!("http://alice:pa%24%24-w0rd-99@127.0.0.1:{port}/mcp"),
    ]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    // The server saw the header (the reflection reached the error) but never shows it.
    assert!(
        r.stderr.to_lowercase().contains("authorization: basic"),
        "{}",
        r.stderr
    );
    let basic = base64::engine::general_purpose::STANDARD.encode("alice:pa$$-w0rd-99");
    for leaked in [basic.as_str(), "pa$$-w0rd-99", "pa%24%24-w0rd-99"] {
        assert!(
            !r.stderr.contains(leaked) && !r.stdout.contains(leaked),
            "{leaked} shown: {}",
            r.stderr
        );
    }
    assert!(r.stderr.contains("[redacted]"), "{}", r.stderr);
}

#[test]
fn a_web_page_is_not_an_mcp_server() {
    let port = canned_http(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 13\r\nConnection: close\r\n\r\n<html></html>",
    );
    let r = run(&["tools", "--url", &format!("http://127.0.0.1:{port}/mcp")]);
    assert_eq!(r.code, 4);
    assert!(r.stderr.contains("not an MCP server"), "{}", r.stderr);
    let sse = run(&["tools", "--url", &format!("http://127.0.0.1:{port}/sse")]);
    assert!(
        sse.stderr.contains("did not answer with an event stream"),
        "{}",
        sse.stderr
    );
}

#[test]
fn a_silent_server_times_out_promptly() {
    let r = run(&[
        "tools",
        "--timeout",
        "1",
        "--",
        "sh",
        "-c",
        "cat > /dev/null",
    ]);
    assert_eq!(r.code, 4);
    assert!(
        r.stderr.contains("no answer to the handshake within 1s"),
        "{}",
        r.stderr
    );
    assert!(r.took < Duration::from_secs(8), "took {:?}", r.took);
}

#[test]
fn a_lingering_server_is_ended_without_orphans() {
    let marker = format!("31.{}", std::process::id());
    let script = format!("trap '' TERM; {BIN} demo-server; sleep {marker}");
    let r = run(&["tools", "--protocol", "legacy", "--", "sh", "-c", &script]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.took < Duration::from_secs(5), "took {:?}", r.took);
    crate::hostile::assert_none_matching(&format!("sleep {marker}"), Duration::from_secs(10));
}

#[test]
fn usage_errors_exit_1_and_json_errors_are_one_object() {
    let none = run(&["tools"]);
    assert_eq!(none.code, 1);
    assert!(none.stderr.contains("no server given"));
    let bad = run(&[
        "call", "x", "--args", "not json", "--format", "json", "--demo",
    ]);
    assert_eq!(bad.code, 1);
    assert!(
        bad.error_json()["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("--args is not JSON"))
    );
}

#[test]
fn demo_server_over_streamable_http_in_both_eras() {
    let port = free_port();
    let mut demo = Command::new(BIN);
    demo.args(["demo-server", "--http", &port.to_string()]);
    let _server = start_listening(demo, port);
    let url = format!("http://127.0.0.1:{port}/mcp");
    for (protocol, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let j = run(&[
            "tools",
            "--format",
            "json",
            "--protocol",
            protocol,
            "--url",
            &url,
        ])
        .json();
        assert_eq!(j["server"]["protocolVersion"], version);
        assert_eq!(j["server"]["transport"], "streamable-http");
        assert_eq!(j["tools"].as_array().map(Vec::len), Some(17));
        let add = run(&[
            "call",
            "add",
            "--arg",
            "a=1",
            "--arg",
            "b=2",
            "--protocol",
            protocol,
            "--url",
            &url,
        ])
        .json();
        assert_eq!(add["verdict"]["value"], 3);
    }
}

#[test]
fn ctrl_c_during_a_call_exits_promptly_and_ends_the_server() {
    let marker = format!("{}", 900_000 + std::process::id() % 99_999);
    let mut child = Command::new(BIN)
        .args([
            "call",
            "slow",
            "--args",
            r#"{"seconds": 30}"#,
            "--",
            BIN,
            "demo-server",
            "--page-size",
            &marker,
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let pattern = format!("demo-server --page-size {marker}");
    // The call is in flight once its first progress is told.
    let mut stderr = crate::hostile::StderrLines::of(&mut child);
    stderr.wait_for("progress", Duration::from_secs(10));
    let started = std::time::Instant::now();
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    let status = child.wait().expect("wait");
    // Exit 130 says the signal ended it (the call runs 30 s); the bound keeps a hang out.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(status.code(), Some(130));
    let err = stderr.all();
    assert!(err.contains("interrupted by Ctrl-C"), "{err}");
    crate::hostile::assert_none_matching(&pattern, Duration::from_secs(10));
}

#[test]
fn usage_errors_exit_1_as_documented_and_help_exits_0() {
    // A server's command without `--` before it: where it goes is said.
    let r = run(&["tools", "node", "index.js", "--port", "3"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains(
            "tip: a stdio server's command goes after `--`: mcp-inspect tools [FLAGS] -- node index.js --port 3"
        ),
        "{}",
        r.stderr
    );
    let r = run(&["--no-such-flag"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("--no-such-flag"), "{}", r.stderr);
    let r = run(&["call"]);
    assert_eq!(r.code, 1, "a missing argument: {}", r.stderr);
    let r = run(&["--help"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("Exit codes"), "{}", r.stdout);
}

#[test]
fn the_tui_without_a_terminal_says_so_and_names_the_headless_commands() {
    let r = run(&["--demo"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("the TUI needs a terminal") && r.stderr.contains("mcp-inspect tools"),
        "{}",
        r.stderr
    );
}

/// Flags that would exhaust memory or panic are refused with their range, before any
/// server is started (exit 1, as any flag error): a million callers, 1e30 s, a NaN budget.
#[test]
fn run_lengths_and_callers_out_of_range_are_refused_with_their_range() {
    for (args, says) in [
        (
            vec!["load", "add", "-c", "1000000", "--demo"],
            "from 1 to 10000",
        ),
        (
            vec!["load", "add", "--duration", "1e30", "--demo"],
            "from 0 to 86400",
        ),
        (
            vec!["verify", "--time-budget", "NaN", "--demo"],
            "from 0 to 86400",
        ),
        (
            vec!["verify", "--call-timeout", "inf", "--demo"],
            "from 0 to 86400",
        ),
    ] {
        let r = run(&args);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
    }
}

/// A stdio server that exits at once is started twice (an older server may exit on the 2026
/// probe), and what happened is said once: the error with its stderr, no warning beside it.
#[test]
fn a_server_that_cannot_start_is_told_once() {
    let r = run(&[
        "tools",
        "--",
        "python3",
        "-c",
        "import sys; print('no config file', file=sys.stderr); sys.exit(3)",
    ]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("exited during the handshake (exit status: 3)")
            && r.stderr.contains("no config file"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("warning"), "{}", r.stderr);
}
