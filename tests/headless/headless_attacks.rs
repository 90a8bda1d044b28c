//! Attacks written apart from the inspector (`tests/peers/attacker.py`, stdlib Python) against
//! the headless commands: each README guarantee is asserted as a figure (exit code, time, peak
//! RSS, connections to a listener, surviving processes, bytes printed).

use crate::cli;
use crate::hostile;

use cli::BIN;
use hostile::{
    CountingListener, Measured, assert_gone, assert_terminal_safe, read_pids, run_measured,
};
use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const ATTACKER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/peers/attacker.py");
/// The issue's bound on memory under any attack.
const PEAK_KB: u64 = 300 * 1024;

fn attack(args: &[&str], mode: &str) -> Measured {
    attack_env(args, mode, &[])
}

fn attack_env(args: &[&str], mode: &str, env: &[(&str, &str)]) -> Measured {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--", "python3", ATTACKER, mode]);
    run_measured(BIN, &all, env)
}

/// An HTTP attacker on a loopback port, killed when dropped.
struct HttpAttacker {
    child: Child,
    url: String,
    /// What the attacker prints after its port line.
    stdout: std::io::BufReader<std::process::ChildStdout>,
}

impl HttpAttacker {
    fn start(mode: &str, target: &str, path: &str) -> HttpAttacker {
        let mut child = Command::new("python3")
            .args([ATTACKER, "http", mode, target])
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3");
        let mut line = String::new();
        let mut stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        stdout.read_line(&mut line).expect("port line");
        let port = line
            .trim()
            .strip_prefix("PORT ")
            .expect("PORT n")
            .to_string();
        HttpAttacker {
            child,
            url: format!("http://127.0.0.1:{port}{path}"),
            stdout,
        }
    }

    /// The lines it printed so far, once it is stopped (so reading cannot block).
    fn printed(mut self) -> Vec<String> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut self.stdout, &mut text);
        text.lines().map(str::to_string).collect()
    }
}

impl Drop for HttpAttacker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `tools --timeout 3` against `url` over `transport`, with more flags.
fn http_tools(url: &str, transport: &str, more: &[&str], env: &[(&str, &str)]) -> Measured {
    let mut args = vec![
        "tools",
        "--timeout",
        "3",
        "--url",
        url,
        "--transport",
        transport,
    ];
    args.extend(more);
    run_measured(BIN, &args, env)
}

fn assert_no_secret(m: &Measured, secret: &str) {
    assert!(
        !m.stdout.contains(secret) && !m.stderr.contains(secret),
        "the secret was printed:\nstdout: {}\nstderr: {}",
        m.stdout,
        m.stderr
    );
}

#[test]
fn invisible_and_control_characters_in_names_never_reach_the_terminal() {
    for args in [
        vec!["tools"],
        vec!["tools", "--format", "json"],
        vec!["check"],
        vec!["inspect", "ad\u{200b}min"],
    ] {
        let m = attack(&args, "paste");
        assert_terminal_safe(&format!("{args:?} stdout"), &m.stdout);
        assert_terminal_safe(&format!("{args:?} stderr"), &m.stderr);
        assert!(
            m.stdout.contains("ad\\u{200b}min") || m.stdout.contains("ad\\u200bmin"),
            "{args:?}: the hidden character should be visible:\n{}",
            m.stdout
        );
    }
    let json = attack(&["tools", "--format", "json"], "paste");
    let parsed: serde_json::Value = serde_json::from_str(&json.stdout).expect("exact JSON");
    assert!(
        parsed.to_string().contains("list_files\\u0003  touch"),
        "the JSON keeps the exact name"
    );
}

#[test]
fn a_sixty_thousand_link_ref_chain_is_named_too_deep_not_a_crash() {
    let m = attack(&["call", "deep"], "ref-chain");
    assert_eq!(m.code, 0, "stderr: {}", m.stderr);
    assert!(
        m.stdout.contains("schema too deep: more than 1000 levels"),
        "{}",
        m.stdout
    );
    assert!(m.peak_kb < PEAK_KB, "peak {} kB", m.peak_kb);
}

#[test]
fn a_two_megabyte_schema_is_parsed_once_not_once_a_layer() {
    // 60,000 one-key objects in 2.26 MB: one parsed copy is ~36 MB of heap. Each layer (the
    // transport, rmcp's buffered and typed reads, the output) once held its own: 155-161 MB
    // for `inspect` and `snapshot` (debug build), now under 135 MB.
    let snapshot = std::env::temp_dir().join(format!("ref-chain-{}.json", std::process::id()));
    let snapshot = snapshot.to_string_lossy().into_owned();
    for args in [
        vec!["tools"],
        vec!["inspect", "deep"],
        vec!["snapshot", "-o", &snapshot],
    ] {
        let m = attack(&args, "ref-chain");
        assert_eq!(m.code, 0, "{args:?}: {}", m.stderr);
        assert!(m.peak_kb < 135 * 1024, "{args:?}: peak {} kB", m.peak_kb);
    }
    let _ = std::fs::remove_file(&snapshot);
}

#[test]
fn exponential_validation_ends_at_its_budget_with_a_named_verdict() {
    // 2^40 subschema visits for a conforming instance: stopped by a budget, never judged.
    let m = attack(&["call", "fan"], "fan");
    assert_eq!(m.code, 0, "stderr: {}", m.stderr);
    assert!(
        m.stdout.contains("\"status\": \"not_checked\"")
            && (m.stdout.contains("validation exceeded 5 s")
                || m.stdout.contains("validation grew too large")),
        "{}",
        m.stdout
    );
    // Unbounded it would run for ever; the budget is 5 s (loaded CI machines add start-up).
    assert!(m.took < Duration::from_secs(20), "took {:?}", m.took);
    // Few visits, each slow (a 50,000-object enum for 100,000 items): stopped by the clock.
    let m = attack(&["call", "slow", "--timeout", "5"], "slow-enum");
    assert_eq!(m.code, 0, "stderr: {}", m.stderr);
    assert!(
        m.stdout
            .contains("validation stopped (validation exceeded 5 s)"),
        "{}",
        m.stdout
    );
    // Unbounded it takes minutes (5e9 comparisons); the budget is 5 s.
    assert!(m.took < Duration::from_secs(25), "took {:?}", m.took);
}

#[test]
fn sigterm_during_a_runaway_validation_is_honoured_at_once() {
    let answered =
        std::env::temp_dir().join(format!("mcp-inspect-answered-{}", std::process::id()));
    let _ = std::fs::remove_file(&answered);
    let mut child = Command::new(BIN)
        .args(["call", "slow", "--", "python3", ATTACKER, "slow-enum"])
        .env("ATTACKER_ANSWERED", &answered)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run");
    // The server says when its answer is out; the validation of it then runs for five seconds.
    let waiting = std::time::Instant::now();
    while !answered.exists() {
        assert!(waiting.elapsed() < Duration::from_secs(60), "no answer");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Then the inspector is validating: it burns CPU.
    crate::hostile::wait_busy(child.id() as i32, 10, Duration::from_secs(30));
    let _ = std::fs::remove_file(&answered);
    let sent = std::time::Instant::now();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .expect("kill");
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(130), "interrupted, not finished");
    // Exit 130 says the signal ended it, not the validation's end (measured at 140 ms on an
    // idle machine); the bound only keeps a hang from passing.
    assert!(
        sent.elapsed() < Duration::from_secs(10),
        "SIGTERM took {:?}",
        sent.elapsed()
    );
}

#[test]
fn log_floods_during_the_handshake_cost_bytes_not_gigabytes() {
    let m = attack(&["tools", "--timeout", "300"], "handshake-logs");
    assert_eq!(m.code, 0, "stderr: {}", m.stderr);
    assert!(m.stdout.contains("echo"), "{}", m.stdout);
    assert!(m.peak_kb < PEAK_KB, "peak {} kB", m.peak_kb);
}

#[test]
fn a_flood_of_server_requests_is_capped_in_flight_and_its_notes_are_bounded() {
    // roots/list as fast as a pipe takes them for 8 s, the answers never read: requests beyond
    // 16 in flight are refused at once and counted, not queued (invariant 8).
    let m = attack(&["call", "echo", "--timeout", "60"], "request-flood");
    assert_eq!(
        m.code,
        0,
        "stderr: {}",
        &m.stderr[m.stderr.len().saturating_sub(2000)..]
    );
    assert!(m.stdout.contains("roots/list requests"), "{}", m.stdout);
    assert!(m.peak_kb < 100 * 1024, "peak {} kB", m.peak_kb);
    assert!(
        m.stderr
            .contains("16 roots/list requests of the server's are already waiting"),
        "{}",
        &m.stderr[..m.stderr.len().min(3000)]
    );
    let lines = m.stderr.lines().count();
    assert!(lines < 2_000, "{lines} lines on stderr");
}

#[test]
fn a_flood_of_warnings_is_counted_not_printed() {
    // 20,000 answers to requests nobody sent: each is a warning, 20 a second are printed.
    let m = attack(&["call", "echo"], "unknown-answers");
    assert_eq!(
        m.code,
        0,
        "{}",
        &m.stderr[m.stderr.len().saturating_sub(2000)..]
    );
    assert!(
        m.stdout.contains("answered after the ghosts"),
        "{}",
        m.stdout
    );
    assert!(
        m.stderr.contains("which nothing is waiting for"),
        "{}",
        m.stderr
    );
    assert!(m.stderr.contains("warnings not shown"), "{}", m.stderr);
    let lines = m.stderr.lines().count();
    assert!(lines < 500, "{lines} lines on stderr");
}

#[test]
fn server_requests_refused_over_http_are_answered_with_an_error() {
    // 1,000 roots/list requests on a call's stream (Streamable HTTP) or the event stream
    // (legacy SSE): those over the cap are refused, and the server hears each refusal (a POST
    // of a JSON-RPC error) rather than waiting for an answer that never comes.
    for (mode, path) in [("request-flood", "/mcp"), ("sse-request-flood", "/sse")] {
        let server = HttpAttacker::start(mode, "", path);
        let m = run_measured(BIN, &["call", "flood", "--url", &server.url], &[]);
        assert_eq!(m.code, 0, "{mode}: {}", m.stderr);
        let v: serde_json::Value = serde_json::from_str(&m.stdout).expect("json");
        let text = v["content"][0]["text"].as_str().unwrap_or_default();
        let answered: usize = text
            .rsplit(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_default();
        assert!(answered >= 100, "{mode}: {text}");
        assert!(
            m.stderr.contains("more are refused at once"),
            "{mode}: {}",
            m.stderr
        );
    }
}

/// 2020-12 makes `format` an annotation: a mismatch is a finding beside the verdict, and
/// `--strict` passes, unless `--assert-formats` asks for it to be a violation.
#[test]
fn format_mismatches_are_findings_unless_asserted() {
    let m = attack(&["call", "contact", "--strict"], "format");
    assert_eq!(m.code, 0, "{}", m.stderr);
    let v: serde_json::Value = serde_json::from_str(&m.stdout).expect("json");
    assert_eq!(v["verdict"]["status"], "conforms", "{}", m.stdout);
    assert_eq!(
        v["verdict"]["formatFindings"][0]["instancePath"], "/email",
        "{}",
        m.stdout
    );
    let asserted = attack(
        &["call", "contact", "--strict", "--assert-formats"],
        "format",
    );
    assert_eq!(asserted.code, 8, "{}", asserted.stdout);
    let v: serde_json::Value = serde_json::from_str(&asserted.stdout).expect("json");
    assert_eq!(v["verdict"]["status"], "violations");
    let message = v["verdict"]["violations"][0]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(message.ends_with(" is not a valid \"email\""), "{message}");
    let text = attack(&["call", "contact", "--format", "text"], "format");
    assert!(
        text.stdout.contains("format findings (an annotation"),
        "{}",
        text.stdout
    );
}

/// An authorization server that drips its metadata costs `--timeout`, not rmcp's 30 s a request.
#[test]
fn oauth_waits_on_a_dripping_authorization_server_end_at_the_timeout() {
    let server = HttpAttacker::start("drip-metadata", "", "/mcp");
    let state = std::env::temp_dir().join(format!("mcp-inspect-drip-{}", std::process::id()));
    let state_s = state.display().to_string();
    let started = std::time::Instant::now();
    let m = http_tools(
        &server.url,
        "http",
        &["--interactive-auth", "--no-browser"],
        &[("XDG_STATE_HOME", &state_s)],
    );
    let took = started.elapsed();
    let _ = std::fs::remove_dir_all(&state);
    assert_ne!(m.code, 0, "{}", m.stderr);
    assert!(
        took < Duration::from_secs(15),
        "took {took:?}: {}",
        m.stderr
    );
    assert!(m.stderr.contains("within 3 s (--timeout)"), "{}", m.stderr);
}

/// The handshake's result as sent: a capability with no name here, serverInfo's other
/// fields, `_meta` and the server's own keys are shown, not dropped (escaped).
#[test]
fn what_the_handshake_sent_beyond_the_known_fields_is_shown() {
    let m = attack(&["tools", "--format", "json"], "extras");
    assert_eq!(m.code, 0, "{}", m.stderr);
    let v: serde_json::Value = serde_json::from_str(&m.stdout).expect("json");
    let server = &v["server"];
    assert_eq!(server["capabilities"]["x-vendor"]["beta"], true, "{server}");
    assert_eq!(
        server["extras"]["serverInfo"]["build"], "abc\u{1b}[2J",
        "{server}"
    );
    assert_eq!(server["extras"]["_meta"]["region"], "eu", "{server}");
    assert_eq!(server["extras"]["vendorKey"], 7, "{server}");
    assert!(!m.stdout.contains('\u{1b}'), "escaped on the way out");
}

#[test]
fn a_batch_from_the_server_is_handled_message_by_message() {
    let m = attack(
        &["call", "echo", "--format", "text", "--timeout", "10"],
        "batch",
    );
    assert_eq!(m.code, 0, "{}", m.stderr);
    assert!(m.stdout.contains("batched answer"), "{}", m.stdout);
    assert!(
        m.stderr.contains("batched log"),
        "the batched notification: {}",
        m.stderr
    );
    assert!(
        m.stderr.contains("a JSON-RPC batch of 2 messages"),
        "{}",
        m.stderr
    );
}

#[test]
fn secrets_given_with_e_are_redacted_whoever_echoes_them() {
    let secret = "sk-live-0123456789abcdef";
    let pair = format!("ATTACKER_ECHO={secret}");
    for args in [
        vec!["tools", "-e", &pair],
        vec!["tools", "--format", "json", "-e", &pair],
        vec!["call", "leak", "-e", &pair],
        vec!["call", "leak", "--format", "text", "-e", &pair],
    ] {
        let m = attack(&args, "secrets");
        assert_no_secret(&m, secret);
        assert!(m.stdout.contains("[redacted]"), "{args:?}: {}", m.stdout);
    }
}

#[test]
fn secrets_in_headers_are_redacted_from_echoed_bodies_and_challenges() {
    let key = "key-abcdef-0123456789";
    let token = "tok-9876543210-zyx";
    let header = format!("X-Api-Key: {key}");
    for mode in ["echo-500", "drip-401"] {
        let server = HttpAttacker::start(mode, "", "/mcp");
        for transport in ["http", "sse"] {
            for format in ["text", "json"] {
                let m = http_tools(
                    &server.url,
                    transport,
                    &[
                        "--format",
                        format,
                        "--header",
                        &header,
                        "--bearer-env",
                        "ATTACK_TOKEN",
                    ],
                    &[("ATTACK_TOKEN", token)],
                );
                assert_eq!(m.code, 4, "{mode} {transport}: {}", m.stderr);
                assert_no_secret(&m, key);
                assert_no_secret(&m, token);
                assert!(
                    m.took < Duration::from_secs(5),
                    "{mode} {transport} took {:?}",
                    m.took
                );
            }
        }
    }
}

#[test]
fn malformed_flags_and_config_entries_never_echo_their_value() {
    let m = run_measured(
        BIN,
        &[
            "tools",
            "--url",
            "http://127.0.0.1:9/mcp",
            "--header",
            "Authorization Bearer tok-abcdef123456",
        ],
        &[],
    );
    assert_eq!(m.code, 1);
    assert_no_secret(&m, "tok-abcdef123456");
    let dir = std::env::temp_dir().join(format!("mcp-inspect-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("servers.json");
    std::fs::write(
        &file,
        r#"{"mcpServers": {"r": {"url": "http://127.0.0.1:9/mcp", "headers": "Bearer tok-abcdef123456"}}}"#,
    )
    .expect("write");
    let path = file.to_string_lossy().into_owned();
    let m = run_measured(BIN, &["tools", "--config", &path, "--server", "r"], &[]);
    assert_eq!(m.code, 1);
    assert_no_secret(&m, "tok-abcdef123456");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn endless_error_bodies_are_bounded_in_memory_and_time() {
    let server = HttpAttacker::start("endless-500", "", "/mcp");
    for transport in ["http", "sse"] {
        let m = http_tools(&server.url, transport, &[], &[]);
        assert_eq!(m.code, 4, "{transport}: {}", m.stderr);
        assert!(m.stderr.contains("HTTP 500"), "{transport}: {}", m.stderr);
        assert!(
            m.took < Duration::from_secs(5),
            "{transport} took {:?}",
            m.took
        );
        assert!(m.peak_kb < PEAK_KB, "{transport}: peak {} kB", m.peak_kb);
    }
}

#[test]
fn redirects_and_endpoints_to_another_origin_are_refused_with_both_urls() {
    let elsewhere = CountingListener::start();
    let target = format!("{}/steal", elsewhere.url);
    let redirect = HttpAttacker::start("redirect", &target, "/mcp");
    for transport in ["http", "sse"] {
        let m = http_tools(
            &redirect.url,
            transport,
            &["--header", "X-Api-Key: key-0123456789"],
            &[],
        );
        assert_eq!(m.code, 4, "{transport}: {}", m.stderr);
        assert!(
            m.stderr.contains(&redirect.url) && m.stderr.contains(&target),
            "{transport}: the error names both URLs: {}",
            m.stderr
        );
    }
    let endpoint = HttpAttacker::start("sse-foreign-endpoint", &target, "/sse");
    let m = run_measured(
        BIN,
        &["tools", "--timeout", "3", "--url", &endpoint.url],
        &[],
    );
    assert_eq!(m.code, 4, "{}", m.stderr);
    assert!(m.stderr.contains("another origin"), "{}", m.stderr);
    assert!(m.stderr.contains(&target), "{}", m.stderr);
    assert_eq!(
        elsewhere.connections(),
        0,
        "nothing may reach another origin"
    );
}

#[test]
fn sessions_opened_to_diagnose_a_failure_are_ended() {
    // Every answer is a JSON-RPC result that is neither a discover nor an initialize result:
    // the handshake fails, and mcp-inspect asks again to name the cause. The session its own
    // question opened must be ended (DELETE with its id) before the command exits.
    let server = HttpAttacker::start("sessions", "", "/mcp");
    let m = http_tools(&server.url, "http", &[], &[]);
    assert_ne!(m.code, 0, "{}", m.stderr);
    let printed = server.printed();
    let last = printed
        .iter()
        .filter_map(|l| l.strip_prefix("SESSION "))
        .next_back()
        .expect("a session was opened")
        .to_string();
    assert!(
        printed.contains(&format!("DELETE {last}")),
        "the diagnosis session {last} was not ended: {printed:?}"
    );
}

/// An endpoint that refuses every request with HTTP 400 and a JSON-RPC error whose id is null
/// (as SDK middleware does before reading the request): the error answers the request it came
/// back on, so the user reads the server's reason at once, not a timeout.
#[test]
fn an_error_with_a_null_id_answers_its_request_at_once() {
    let server = HttpAttacker::start("null-id-400", "", "/mcp");
    let m = run_measured(
        BIN,
        &[
            "tools",
            "--timeout",
            "20",
            "--protocol",
            "legacy",
            "--url",
            &server.url,
        ],
        &[],
    );
    assert_ne!(m.code, 0);
    assert!(
        m.stderr.contains("Bad Request: Server not initialized"),
        "{}",
        m.stderr
    );
    assert!(
        m.took < std::time::Duration::from_secs(10),
        "answered at once, not at the 20 s timeout: {:?}",
        m.took
    );
}

#[test]
fn numbers_are_shown_as_written_and_lossy_judgements_are_named() {
    let m = attack(&["call", "measure", "--format", "json"], "numbers");
    assert_eq!(m.code, 0, "{}", m.stderr);
    for written in ["18446744073709551617", "1e-400", "-0", "1e+400"] {
        assert!(
            m.stdout.contains(&format!(": {written}")),
            "{written} is printed as written: {}",
            m.stdout
        );
    }
    assert!(
        m.stdout
            .contains("18446744073709551617 at /big: an integer beyond 64 bits: rounded"),
        "the verdict names the rounded judgement: {}",
        m.stdout
    );
    assert!(
        m.stdout.contains("1e-400 at /tiny: too small for a double"),
        "{}",
        m.stdout
    );
    assert!(
        m.stderr
            .contains("`twice` twice at /result/structuredContent"),
        "the repeated key is a warning: {}",
        m.stderr
    );
}

#[test]
fn strict_calls_fail_when_the_declared_structured_content_is_left_out() {
    let lenient = attack(&["call", "report"], "no-structured");
    assert_eq!(lenient.code, 0, "{}", lenient.stderr);
    assert!(
        lenient.stdout.contains("missing_structured_content"),
        "{}",
        lenient.stdout
    );
    let strict = attack(&["call", "report", "--strict"], "no-structured");
    assert_eq!(strict.code, 8, "{}", strict.stderr);
}

#[test]
fn a_silent_server_costs_the_timeout_once() {
    let m = run_measured(
        BIN,
        &[
            "tools",
            "--timeout",
            "5",
            "--",
            "python3",
            "-c",
            "import time; time.sleep(60)",
        ],
        &[],
    );
    assert_eq!(m.code, 4, "{}", m.stderr);
    // Once, not twice (10 s) nor the server's minute.
    assert!(m.took < Duration::from_secs(9), "took {:?}", m.took);
}

#[test]
fn grandchildren_in_their_own_session_do_not_outlive_the_inspector() {
    let dir = std::env::temp_dir();
    let pid_file = dir.join(format!("mcp-inspect-setsid-{}", std::process::id()));
    let pid_path = pid_file.to_string_lossy().into_owned();
    let m = attack_env(&["tools"], "setsid", &[("ATTACKER_PID_FILE", &pid_path)]);
    assert_eq!(m.code, 0, "{}", m.stderr);
    let pids = read_pids(&pid_file);
    assert_gone(&pids, "after a normal exit");
    let _ = std::fs::remove_file(&pid_file);

    // The inspector killed outright (SIGKILL runs no cleanup of ours): the guard still ends all.
    let mut child = Command::new(BIN)
        .args(["call", "echo", "--", "python3", ATTACKER, "setsid-silent"])
        .env("ATTACKER_PID_FILE", &pid_path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run");
    let pids = read_pids(&pid_file);
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    assert_gone(&pids, "after SIGKILL of the inspector");
    let _ = std::fs::remove_file(&pid_file);
}

#[test]
fn a_server_that_exits_while_a_grandchild_holds_its_stdout_is_reported_as_gone() {
    let m = attack(&["call", "echo", "--timeout", "20"], "exit-with-grandchild");
    assert_eq!(m.code, 1, "{}", m.stderr);
    // Not the 20 s timeout: the exit was seen.
    assert!(m.took < Duration::from_secs(10), "took {:?}", m.took);
    assert!(!m.stderr.contains("no answer within"), "{}", m.stderr);
}

#[test]
fn one_invalid_utf8_byte_costs_one_character_not_the_page() {
    let m = attack(&["tools"], "bad-utf8");
    assert_eq!(m.code, 0, "{}", m.stderr);
    assert!(m.stdout.contains("bad\u{fffd}()"), "{}", m.stdout);
    assert!(m.stdout.contains("good()"), "{}", m.stdout);
}

/// A call's answer of 15 MB holding 5 million values is never parsed (it would cost gigabytes):
/// its result is the text it was sent as, said not checked, within ~10× its bytes.
#[test]
fn memory_follows_bytes_not_structure() {
    let m = attack(&["call", "echo"], "structure");
    assert_eq!(m.code, 0, "{}", m.stderr);
    assert!(
        m.stderr.contains("more than 1000000 JSON values")
            && m.stderr.contains("shown as the text it was sent as"),
        "{}",
        m.stderr
    );
    let v: serde_json::Value = serde_json::from_str(&m.stdout).expect("json");
    assert_eq!(v["verdict"]["status"], "not_checked");
    let text = v["content"][0]["text"].as_str().unwrap_or_default();
    assert!(
        text.starts_with(r#"{"jsonrpc":"2.0","id":"#) && text.len() > 15_000_000,
        "the answer as sent: {}",
        &text[..text.len().min(200)]
    );
    assert!(m.peak_kb < 150 * 1024, "peak {} kB", m.peak_kb);
}

/// A page whose `_meta` (and an unknown field) hold a million tiny values costs its structure,
/// not its bytes: it is dropped before parsing. Pages of values just few enough to parse are
/// charged as they cost kept, so the listing stops after a few, not after 1,000.
#[test]
fn pages_are_charged_what_their_structure_costs() {
    let m = attack(&["tools", "--timeout", "120"], "meta-pages");
    assert_eq!(m.code, 1, "{}", m.stderr);
    assert!(
        m.stderr.contains("over 10× its size + 16 MiB)"),
        "{}",
        m.stderr
    );
    assert!(m.peak_kb < 100 * 1024, "peak {} kB", m.peak_kb);
    let wide = attack(&["tools", "--timeout", "120"], "meta-pages-wide");
    assert!(
        wide.stderr
            .contains("MiB of tools (bytes and structure) in"),
        "{}",
        wide.stderr
    );
    assert!(wide.stdout.lines().count() < 20, "{}", wide.stdout);
    assert!(wide.peak_kb < PEAK_KB, "peak {} kB", wide.peak_kb);
}

/// Resources and prompts whose every string carries terminal escapes (a clipboard write, a
/// screen clear, a right-to-left override, a bell), and a blob that is not base64: every
/// command prints them escaped, never raw, and a bad blob is said, not a crash.
#[test]
fn resources_and_prompts_with_escapes_are_printed_escaped() {
    for args in [
        &["resources"][..],
        &["templates"],
        &["read", "evil://x"],
        &["prompts"],
        &["prompt", "x"],
        &["complete", "--prompt", "x", "arg", ""],
    ] {
        let r = attack(args, "library");
        let out = format!("{}{}", r.stdout, r.stderr);
        for raw in ['\u{1b}', '\u{7}', '\u{202e}'] {
            assert!(!out.contains(raw), "{args:?} printed {raw:?} raw:\n{out}");
        }
        assert!(r.code == 0 || r.code == 5, "{args:?}: {out}");
    }
    let read = attack(&["read", "evil://x"], "library");
    assert!(
        read.stdout.contains("the blob is not valid base64"),
        "{}",
        read.stdout
    );
}

/// A read whose answer holds a 100 MB blob: refused with its size, never held whole, and
/// nothing written to the `--out` file.
#[test]
fn a_hundred_megabyte_blob_is_refused_with_its_size() {
    let dir = std::env::temp_dir().join(format!("mcp-inspect-blob-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let out = dir.join("huge.bin");
    let path = out.to_str().expect("a UTF-8 path");
    let r = attack(&["read", "evil://huge", "--out", path], "library");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("104857718-byte message, over the 16 MiB limit"),
        "{}",
        r.stderr
    );
    assert!(r.peak_kb < PEAK_KB, "peak {} kB", r.peak_kb);
    assert!(!out.exists(), "nothing written");
    let _ = std::fs::remove_dir_all(&dir);
}
