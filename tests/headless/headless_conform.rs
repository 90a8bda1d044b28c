//! `conform` against real servers: the demo conforms in both eras; the hostile server breaks
//! the checks it is built to break, each finding with its rule, what came back and a command
//! that reproduces it; server-everything is judged as a user would run it.

use crate::cli::run;
use crate::peers;
use serde_json::Value;

fn checks(stdout: &str) -> Vec<Value> {
    let report: Value = serde_json::from_str(stdout).expect("one JSON object");
    report["checks"].as_array().cloned().unwrap_or_default()
}

fn status_of<'a>(checks: &'a [Value], id: &str) -> &'a str {
    checks
        .iter()
        .find(|c| c["id"] == id)
        .and_then(|c| c["status"].as_str())
        .unwrap_or("missing")
}

#[test]
fn the_demo_conforms_in_both_eras() {
    for era in ["modern", "legacy"] {
        let r = run(&["conform", "--demo", "--protocol", era, "--format", "json"]);
        assert_eq!(r.code, 0, "{era}: {}{}", r.stdout, r.stderr);
        let checks = checks(&r.stdout);
        assert!(checks.len() >= 11, "{}", r.stdout);
        assert!(
            checks.iter().all(|c| c["status"] != "fail"),
            "{era}: {}",
            r.stdout
        );
        // Its `slow` reports progress and stops when cancelled.
        for id in ["progress-notifications", "cancellation-respected"] {
            assert_eq!(status_of(&checks, id), "pass", "{era} {id}: {}", r.stdout);
        }
        // The 2026 request rules, checked on a copy spoken to line by line.
        let modern = if era == "modern" {
            "pass"
        } else {
            "not_applicable"
        };
        for id in ["meta-required", "unsupported-version-refused"] {
            assert_eq!(status_of(&checks, id), modern, "{era} {id}: {}", r.stdout);
        }
        let ping = status_of(&checks, "ping");
        assert_eq!(
            ping,
            if era == "legacy" {
                "pass"
            } else {
                "not_applicable"
            }
        );
    }
}

#[test]
fn the_hostile_server_fails_what_it_breaks_with_a_reproduce_line() {
    let r = run(&["conform", "--hostile"]);
    // logging is declared and logging/setLevel is "not found": a MUST.
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    for failed in [
        "FAIL MUST   logging-set-level",
        "FAIL SHOULD unknown-tool",
        "FAIL SHOULD invalid-cursor",
        // A tools/call without a name is served.
        "FAIL SHOULD invalid-params",
        "reproduce: mcp-inspect request logging/setLevel --params '{\"level\":\"warning\"}' --hostile",
        // It passes over a line that is not JSON: said with the raw lines that show it.
        "FAIL SHOULD parse-error",
        "reproduce: printf '%s\\n' '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"",
    ] {
        assert!(r.stdout.contains(failed), "{failed}:\n{}", r.stdout);
    }
    crate::hostile::assert_terminal_safe("conform's report", &r.stdout);
    // Its one read-only tool that reports progress (`progress_late`) names the token, and
    // answers a call that was cancelled, and one with arguments its schema refuses.
    for line in [
        "pass MUST   progress-notifications",
        "FAIL SHOULD cancellation-respected",
        "got: the cancelled call was answered after the cancel was read",
        // It serves a label its schema refuses.
        "FAIL MUST   invalid-arguments",
        // resources and prompts are not declared, and their lists are "not found".
        "pass SHOULD undeclared-capability",
    ] {
        assert!(r.stdout.contains(line), "{line}: {}", r.stdout);
    }
    let garbage = run(&["conform", "--hostile=garbage", "--format", "json"]);
    assert_eq!(garbage.code, 1, "{}", garbage.stderr);
    let checks = checks(&garbage.stdout);
    assert_eq!(
        status_of(&checks, "unknown-method"),
        "fail",
        "{}",
        garbage.stdout
    );
    assert_eq!(
        status_of(&checks, "stdout-only-json-rpc"),
        "fail",
        "{}",
        garbage.stdout
    );
    // Garbage answers a notification, echoes a version from the future, reads ids as
    // doubles, serves a batch and lists what it never declared.
    for id in [
        "undeclared-capability",
        "version-negotiation",
        "notification-unanswered",
        "large-id-echoed",
        "batch-refused",
    ] {
        assert_eq!(status_of(&checks, id), "fail", "{id}: {}", garbage.stdout);
    }
    assert_eq!(status_of(&checks, "string-id-echoed"), "pass");
    // Its progress_liar goes on after a cancel, and garbage sends progress with no token.
    for id in ["progress-notifications", "cancellation-respected"] {
        assert_eq!(status_of(&checks, id), "fail", "{id}: {}", garbage.stdout);
    }
    let stdout = checks.iter().find(|c| c["id"] == "stdout-only-json-rpc");
    assert!(
        stdout.is_some_and(|c| c["said"].as_str().unwrap_or("").contains("not JSON-RPC")),
        "{}",
        garbage.stdout
    );
}

/// server-everything over stdio, started as a user starts it: every check answered within a
/// few seconds, none "missing".
/// A server of the 2026 era that never looks at a request's `_meta` serves what it must
/// refuse.
#[test]
fn the_hostile_server_in_the_2026_era_serves_requests_it_must_refuse() {
    let r = run(&["conform", "--hostile=modern", "--format", "json"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let checks = checks(&r.stdout);
    assert_eq!(
        status_of(&checks, "server-discover"),
        "pass",
        "{}",
        r.stdout
    );
    for id in ["meta-required", "unsupported-version-refused"] {
        assert_eq!(status_of(&checks, id), "fail", "{id}: {}", r.stdout);
    }
    crate::hostile::assert_terminal_safe("conform's report", &r.stdout);
}

#[test]
fn server_everything_is_judged_by_every_check() {
    let Some(everything) = peers::everything() else {
        return;
    };
    let r = run(&["conform", "--format", "json", "--", "node", &everything]);
    assert!(r.code == 0 || r.code == 1, "{}{}", r.stdout, r.stderr);
    let checks = checks(&r.stdout);
    for id in [
        "unknown-method",
        "tools-list",
        "unknown-tool",
        "invalid-arguments",
        "stdout-only-json-rpc",
        "cancellation-respected",
    ] {
        assert_ne!(status_of(&checks, id), "missing", "{id}: {}", r.stdout);
    }
    // Its long-running operation reports progress as the spec says (it goes on after a
    // cancel, found when its next step comes in time).
    assert_eq!(
        status_of(&checks, "progress-notifications"),
        "pass",
        "{}",
        r.stdout
    );
    assert_eq!(status_of(&checks, "unknown-method"), "pass", "{}", r.stdout);
    // A tools/call without a name is answered -32603 with the validator's text.
    assert_eq!(status_of(&checks, "invalid-params"), "fail", "{}", r.stdout);
    assert_eq!(
        status_of(&checks, "stdout-only-json-rpc"),
        "pass",
        "{}",
        r.stdout
    );
}

/// A server that ignores its stdin closing fails the check that closes it.
#[test]
fn a_server_that_outlives_its_stdin_is_said_to() {
    let r = run(&["conform", "--hostile=stubborn", "--format", "json"]);
    let checks = checks(&r.stdout);
    assert_eq!(
        status_of(&checks, "exits-on-stdin-close"),
        "fail",
        "{}",
        r.stdout
    );
    assert_eq!(status_of(&checks, "notification-unanswered"), "pass");
}

/// `--only` and `--skip` choose the checks by id (an unknown id is refused with the list), and
/// `--format sarif` gives a result per failure: an error for a MUST, a warning for a SHOULD.
#[test]
fn checks_are_chosen_by_id_and_failures_are_sarif_results() {
    let r = run(&[
        "conform",
        "--only",
        "ping,unknown-method",
        "--format",
        "json",
        "--demo",
        "--protocol",
        "legacy",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let ids: Vec<String> = checks(&r.stdout)
        .iter()
        .filter_map(|c| c["id"].as_str().map(String::from))
        .collect();
    assert_eq!(ids, ["unknown-method", "ping"]);
    let r = run(&[
        "conform",
        "--skip",
        "logging-set-level",
        "--skip",
        "parse-error",
        "--skip",
        "invalid-arguments",
        "--format",
        "json",
        "--hostile",
    ]);
    let checks = checks(&r.stdout);
    assert_eq!(status_of(&checks, "logging-set-level"), "missing");
    assert_eq!(status_of(&checks, "parse-error"), "missing");
    assert_eq!(status_of(&checks, "unknown-tool"), "fail");
    assert_eq!(
        r.code, 0,
        "no MUST failed among the checks run: {}",
        r.stdout
    );
    let r = run(&["conform", "--only", "nope", "--demo"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("no check is called `nope`; the checks: unknown-method"),
        "{}",
        r.stderr
    );
    let r = run(&["conform", "--format", "sarif", "--hostile"]);
    assert_eq!(r.code, 1);
    let log: Value = serde_json::from_str(&r.stdout).expect("sarif");
    let results = log["runs"][0]["results"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let level_of = |rule: &str| {
        results
            .iter()
            .find(|x| x["ruleId"] == rule)
            .and_then(|x| x["level"].as_str().map(String::from))
    };
    assert_eq!(
        level_of("conform/logging-set-level").as_deref(),
        Some("error")
    );
    assert_eq!(level_of("conform/parse-error").as_deref(), Some("warning"));
    assert!(results.iter().all(|x| {
        x["message"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("got "))
    }));
}

/// The checks of raw lines that also apply over Streamable HTTP (a POST body for a line).
const LINE_CHECKS: [&str; 6] = [
    "version-negotiation",
    "notification-unanswered",
    "string-id-echoed",
    "large-id-echoed",
    "batch-refused",
    "parse-error",
];

/// The raw HTTP checks on real servers over Streamable HTTP: the demo passes each;
/// server-everything (as `npx … streamableHttp` starts it) fails the six it breaks, and the
/// reproduce line of one, pasted into bash, shows the same break.
#[test]
fn the_http_checks_find_what_server_everything_breaks() {
    let port = crate::cli::free_port();
    let mut demo = std::process::Command::new(crate::cli::BIN);
    demo.args(["demo-server", "--http", &port.to_string()]);
    let _demo = crate::cli::start_listening(demo, port);
    let url = format!("http://127.0.0.1:{port}/mcp");
    let r = run(&["conform", "--format", "json", "--url", &url]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let demo_checks = checks(&r.stdout);
    let http: Vec<&Value> = demo_checks
        .iter()
        .filter(|c| c["id"].as_str().is_some_and(|id| id.starts_with("http-")))
        .collect();
    assert_eq!(http.len(), 13, "{}", r.stdout);
    // Every one passes but the Mcp-Param check (no demo tool asks for such a header) and
    // resumption (rmcp ends a resumed stream without replaying: it MAY).
    let not_here = ["http-param-header-checked", "http-resumption"];
    assert!(
        (http.iter())
            .filter(|c| !not_here.iter().any(|id| c["id"] == *id))
            .all(|c| c["status"] == "pass"),
        "{}",
        r.stdout
    );
    for id in not_here {
        assert_eq!(status_of(&demo_checks, id), "not_applicable", "{id}");
    }
    // The raw-line checks, made over HTTP with bodies for lines; calls in flight watched on
    // their event streams.
    for id in LINE_CHECKS
        .iter()
        .chain(&["progress-notifications", "cancellation-respected"])
    {
        assert_eq!(status_of(&demo_checks, id), "pass", "{id}: {}", r.stdout);
    }
    assert_eq!(
        status_of(&demo_checks, "exits-on-stdin-close"),
        "not_applicable"
    );

    let Some(index) = peers::everything() else {
        return;
    };
    let port = crate::cli::free_port();
    let mut everything = std::process::Command::new("node");
    everything
        .args([&index, "streamableHttp"])
        .env("PORT", port.to_string());
    let _everything = crate::cli::start_listening(everything, port);
    let url = format!("http://localhost:{port}/mcp");
    let r = run(&["conform", "--format", "json", "--url", &url]);
    assert_eq!(r.code, 1, "four MUSTs fail: {}{}", r.stdout, r.stderr);
    let checks = checks(&r.stdout);
    for (id, status) in [
        ("http-foreign-host-refused", "fail"),
        ("http-foreign-origin-refused", "fail"),
        ("http-terminated-session-404", "fail"),
        ("http-unknown-session-404", "fail"),
        ("http-notification-accepted", "pass"),
        ("http-protocol-version-checked", "pass"),
        ("http-session-required", "pass"),
        ("http-get-stream-or-405", "pass"),
        // An id past 2^53 is refused: HTTP 400 with -32700 "Invalid JSON-RPC message".
        ("large-id-echoed", "fail"),
        ("string-id-echoed", "pass"),
        ("version-negotiation", "pass"),
        ("notification-unanswered", "pass"),
        ("parse-error", "pass"),
        // Two pings in one POST body are answered, in a version without batches.
        ("batch-refused", "fail"),
        ("progress-notifications", "pass"),
        // Its event store replays a cut stream's answer on a GET with Last-Event-ID.
        ("http-resumption", "pass"),
    ] {
        assert_eq!(status_of(&checks, id), status, "{id}: {}", r.stdout);
    }
    let terminated = checks
        .iter()
        .find(|c| c["id"] == "http-terminated-session-404")
        .expect("the check");
    let line = terminated["reproduce"].as_str().expect("a reproduce line");
    assert!(line.starts_with("s=$(curl "), "{line}");
    let has_curl = std::process::Command::new("curl")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if has_curl {
        let out = std::process::Command::new("bash")
            .args(["-c", line])
            .output()
            .expect("bash");
        let said = String::from_utf8_lossy(&out.stdout);
        let statuses: Vec<&str> = said.lines().filter(|l| l.starts_with("HTTP/")).collect();
        // initialized, DELETE, then the request with the ended session: not 404.
        assert_eq!(statuses.len(), 3, "{said}");
        assert!(statuses[1].contains(" 200"), "{said}");
        assert!(statuses[2].contains(" 400"), "{said}");
    }
}

/// The hostile server over HTTP breaks every rule of the transport once: each HTTP check and
/// each raw-line check it breaks fails on it, end to end, with a reproduce line (the 2026
/// header checks stay not applicable: it speaks the 2025 eras).
#[test]
fn the_hostile_http_server_fails_every_http_check() {
    let port = crate::cli::free_port();
    let mut hostile = std::process::Command::new(crate::cli::BIN);
    hostile.args(["hostile-server", "--http", &port.to_string()]);
    let _hostile = crate::cli::start_listening(hostile, port);
    let url = format!("http://localhost:{port}/mcp");
    let r = run(&["conform", "--format", "json", "--url", &url]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let checks = checks(&r.stdout);
    for id in [
        "http-foreign-host-refused",
        "http-foreign-origin-refused",
        "http-notification-accepted",
        "http-protocol-version-checked",
        "http-session-required",
        "http-unknown-session-404",
        "http-get-stream-or-405",
        "http-terminated-session-404",
        "http-session-id-visible",
        "http-resumption",
        "version-negotiation",
        "notification-unanswered",
        "large-id-echoed",
        "batch-refused",
        "parse-error",
    ] {
        assert_eq!(status_of(&checks, id), "fail", "{id}: {}", r.stdout);
        let finding = checks.iter().find(|c| c["id"] == id).expect("the check");
        let line = finding["reproduce"].as_str().unwrap_or_default();
        assert!(line.contains("curl "), "{id}: {line}");
    }
    crate::hostile::assert_terminal_safe("conform's JSON", &r.stdout);
}

/// Only read-only tools are called unless allowed, as in `verify`: a fastmcp server says
/// nothing of its tools (so each is "maybe destructive"), and its calls are made only with
/// `--allow-all` (or `--allow-writes` with `--allow-destructive` naming the tool).
#[test]
fn tools_that_are_not_read_only_are_called_only_when_allowed() {
    let Some(fastmcp) = peers::path("venv/bin/fastmcp") else {
        return;
    };
    let script = peers::fastmcp_script();
    let conform = |allow: &[&str]| {
        let mut args = vec!["conform", "--format", "json", "--only", "invalid-arguments"];
        args.extend(allow);
        args.extend(["--", &fastmcp, "run", &script]);
        let r = run(&args);
        let checks = checks(&r.stdout);
        let said = checks[0]["said"].as_str().unwrap_or_default().to_string();
        (status_of(&checks, "invalid-arguments").to_string(), said)
    };
    let (status, said) = conform(&[]);
    assert_eq!(status, "not_applicable", "{said}");
    assert!(said.contains("--allow-writes"), "the flags named: {said}");
    assert_eq!(conform(&["--allow-all"]).0, "pass");
    // Writes allowed, but a tool that may destroy only when named.
    assert_eq!(conform(&["--allow-writes"]).0, "not_applicable");
    let (status, said) = conform(&["--allow-writes", "--allow-destructive", "add"]);
    assert_eq!(status, "pass", "{said}");
}

/// Tasks (2025-11-25) where declared: server-everything keeps the lifecycle (its
/// `simulate-research-query` is not read-only, so `--allow-writes` lets the checks call it)
/// and refuses unknown task ids, but answers a call of its task-requiring tool made without a
/// task with an `isError` result, not -32601; `--hostile=tasks` breaks all three.
#[test]
fn tasks_are_checked_where_declared() {
    let only = "tasks-unknown-id,tasks-lifecycle,tasks-required-refused";
    let r = run(&[
        "conform",
        "--hostile=tasks",
        "--format",
        "json",
        "--only",
        only,
    ]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let found = checks(&r.stdout);
    for id in only.split(',') {
        assert_eq!(status_of(&found, id), "fail", "{id}: {}", r.stdout);
    }
    // Its statuses carry escape sequences: shown escaped.
    crate::hostile::assert_terminal_safe("conform's tasks checks", &r.stdout);
    let Some(everything) = peers::everything() else {
        return;
    };
    let conform = |allow: &[&str]| {
        let mut args = vec!["conform", "--format", "json", "--only", only];
        args.extend(allow);
        args.extend(["--", "node", &everything]);
        let r = run(&args);
        (checks(&r.stdout), r.stdout)
    };
    let (found, said) = conform(&["--allow-writes"]);
    for (id, status) in [
        ("tasks-unknown-id", "pass"),
        ("tasks-lifecycle", "pass"),
        ("tasks-required-refused", "fail"),
    ] {
        assert_eq!(status_of(&found, id), status, "{id}: {said}");
    }
    // Without --allow-writes its one task tool is not called.
    let (found, said) = conform(&[]);
    assert_eq!(
        status_of(&found, "tasks-lifecycle"),
        "not_applicable",
        "{said}"
    );
}

/// Every check can fail: each is failed by one of the built-in hostile servers (over stdio,
/// with each attack that breaks a rule, and over HTTP), run side by side.
#[test]
fn every_check_fails_on_some_hostile_server() {
    let stdio = [
        "--hostile",
        "--hostile=garbage",
        "--hostile=stubborn",
        "--hostile=modern",
        "--hostile=skills",
        "--hostile=tasks",
        "--hostile=hollow",
        "--hostile=misconduct",
        "--hostile=modern,misconduct",
        "--hostile=tasks,modern",
    ];
    let servers: Vec<(crate::cli::Background, String)> =
        [&[][..], &["--attack", "modern,misconduct"]]
            .iter()
            .map(|attacks| {
                let port = crate::cli::free_port();
                let mut hostile = std::process::Command::new(crate::cli::BIN);
                hostile
                    .args(["hostile-server", "--http", &port.to_string()])
                    .args(*attacks);
                let server = crate::cli::start_listening(hostile, port);
                (server, format!("--url=http://127.0.0.1:{port}/mcp"))
            })
            .collect();
    let connections: Vec<&str> = (stdio.iter().copied())
        .chain(servers.iter().map(|(_, url)| url.as_str()))
        .collect();
    // Two at a time (the machine runs other tests beside).
    let reports: Vec<Vec<Value>> = (connections.chunks(2))
        .flat_map(|pair| {
            std::thread::scope(|scope| {
                let runs: Vec<_> = (pair.iter())
                    .map(|c| scope.spawn(move || run(&["conform", "--format", "json", c])))
                    .collect();
                let done = runs.into_iter().map(|r| r.join().expect("a run"));
                done.map(|r| checks(&r.stdout)).collect::<Vec<_>>()
            })
        })
        .collect();
    let every: Vec<&str> = (reports[0].iter())
        .filter_map(|c| c["id"].as_str())
        .collect();
    assert_eq!(every.len(), 52, "every check is in each report: {every:?}");
    // The calls in flight are judged on timing a crowded machine can stretch into "not
    // checked": their failures are asserted on one run alone, in
    // `the_hostile_server_fails_what_it_breaks_with_a_reproduce_line`.
    let timed = ["progress-notifications", "cancellation-respected"];
    let never_failed: Vec<&&str> = (every.iter())
        .filter(|id| !timed.contains(id))
        .filter(|id| !(reports.iter().flatten()).any(|c| c["id"] == **id && c["status"] == "fail"))
        .collect();
    assert!(
        never_failed.is_empty(),
        "no hostile server fails {never_failed:?}"
    );
}

/// The tasks extension (SEP-2663) checked over stdio, where the suite cannot go: on
/// fastmcp-tasks every `tasks-extension-*` check passes, and the course of the task followed is
/// told (`working → completed`, or just `completed` on a slow day); with the tool that asks a
/// question listed first, its question is answered through `tasks/update` and it still passes.
#[test]
fn the_tasks_extension_is_checked_over_stdio() {
    let Some(python) = peers::path("venv-tasks/bin/python") else {
        return;
    };
    let script = peers::script("fastmcp_tasks_server.py");
    let only = "tasks-extension-declared,tasks-extension-gated,tasks-extension-methods,tasks-extension-lifecycle,tasks-extension-cancel,tasks-extension-sync-without";
    let out = run(&[
        "conform", "--format", "json", "--only", only, "--", &python, &script,
    ]);
    let found = checks(&out.stdout);
    assert_eq!(found.len(), 6, "{}", out.stdout);
    assert!(
        found.iter().all(|c| c["status"] == "pass"),
        "{}",
        out.stdout
    );
    let lifecycle = &found[3]["said"];
    // The first tool made a task asks a question: answered (declined) with tasks/update.
    let asking = run(&[
        "conform",
        "--format",
        "json",
        "--only",
        only,
        "--",
        &python,
        &script,
        "--asking-first",
    ]);
    let asked = checks(&asking.stdout);
    assert!(
        asked.iter().all(|c| c["status"] == "pass"),
        "{}",
        asking.stdout
    );
    let said = asked[3]["said"].as_str().unwrap_or_default();
    assert!(
        said.starts_with("confirm_delete's task")
            && said.contains("input_required")
            && said.ends_with("(its questions answered with tasks/update: 1 round)"),
        "{said}"
    );
    assert!(
        lifecycle
            .as_str()
            .is_some_and(|s| s.starts_with("slow_compute's task") && s.ends_with("completed")),
        "{lifecycle}"
    );
}
