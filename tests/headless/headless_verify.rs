//! `mcp-inspect verify` against a server with planted bugs (`tests/peers/planted_server.py`):
//! both found and shrunk to the exact threshold and the one character, the destructive tool
//! never called without its flag (a marker file proves it), and the same seed, the same report.

use crate::cli::run;
use std::path::Path;
use std::process::Command;

fn planted() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/peers/planted_server.py")
        .to_string_lossy()
        .into_owned()
}

/// Runs `verify` with the marker file's path in the server's environment.
fn verify(args: &[&str], marker: &Path) -> (i32, String, String) {
    let out = Command::new(crate::cli::BIN)
        .arg("verify")
        .args(args)
        .args(["--", "python3", &planted()])
        .env("PLANTED_MARKER", marker)
        .output()
        .expect("run");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn planted_bugs_are_found_shrunk_and_reported_the_same_for_a_seed() {
    let marker = std::env::temp_dir().join(format!("mcp-inspect-wiped-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let (code, text, _) = verify(&["--seed", "7"], &marker);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("skipped wipe: not read-only"), "{text}");
    assert!(text.contains("smallest input: {\"n\":501}"), "{text}");
    assert!(text.contains("at /grade (maximum)"), "{text}");
    // A second bug of the same tool, elsewhere in its schema: reported on its own, shrunk on
    // its own, each with the calls that hit it.
    assert!(text.contains("at /label (maxLength)"), "{text}");
    assert!(text.contains("input: {\"n\":0}"), "{text}");
    assert_eq!(text.matches("    hit by ").count(), 3, "{text}");
    assert!(text.contains("smallest input: {\"text\":\"~\"}"), "{text}");
    assert!(
        text.contains("the server answered error -32603 to a valid input"),
        "{text}"
    );
    assert!(text.contains("ok fine: 100 calls"), "{text}");
    assert!(
        text.contains(&format!(
            "reproduce: mcp-inspect call grade --args '{{\"n\":501}}' -- python3 {}",
            planted()
        )),
        "{text}"
    );
    assert!(!marker.exists(), "wipe was called");
    // The same seed, the same report; writes allowed, the destructive tool still needs its name.
    let (_, one, _) = verify(
        &["--seed", "11", "--format", "json", "--allow-writes"],
        &marker,
    );
    let (_, two, _) = verify(
        &["--seed", "11", "--format", "json", "--allow-writes"],
        &marker,
    );
    assert_eq!(one, two);
    let report: serde_json::Value = serde_json::from_str(&one).expect("json");
    assert_eq!(report["seed"], 11);
    assert!(
        report["skipped"][0]["why"]
            .as_str()
            .is_some_and(|w| w.contains("--allow-destructive wipe")),
        "{report}"
    );
    assert!(!marker.exists(), "wipe was called");
    let (code, text, _) = verify(
        &[
            "wipe",
            "--allow-writes",
            "--allow-destructive",
            "wipe",
            "--calls",
            "3",
        ],
        &marker,
    );
    assert_eq!(code, 0, "{text}");
    assert!(marker.exists(), "wipe, named, was called");
    let _ = std::fs::remove_file(&marker);
    let sarif = run(&[
        "verify",
        "grade",
        "--seed",
        "3",
        "--format",
        "sarif",
        "--",
        "python3",
        &planted(),
    ]);
    assert_eq!(sarif.code, 1);
    let sarif = sarif.json();
    assert_eq!(
        sarif["runs"][0]["results"].as_array().map(Vec::len),
        Some(2),
        "{sarif}"
    );
}

#[test]
fn an_unknown_tool_named_is_refused_before_any_call() {
    let r = run(&["verify", "nope", "--", "python3", &planted()]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("unknown tool `nope` (known: grade, shout, wipe, fine)"),
        "{}",
        r.stderr
    );
}

#[test]
fn load_counts_every_call_and_the_verdict_failures_under_load() {
    let r = run(&[
        "load",
        "add",
        "--allow-writes",
        "--allow-destructive",
        "add",
        "--arg",
        "a=1",
        "--arg",
        "b=2",
        "-n",
        "200",
        "-c",
        "8",
        "--format",
        "json",
        "--demo",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let s = r.json();
    assert_eq!(s["calls"], 200);
    assert_eq!(s["failed"], 0);
    let l = &s["latencyMs"];
    let ms = |k: &str| l[k].as_f64().expect("a number");
    assert!(
        ms("p50") <= ms("p90") && ms("p90") <= ms("p99") && ms("p99") <= ms("max"),
        "{l}"
    );
    let counted: u64 = s["histogram"]
        .as_array()
        .expect("histogram")
        .iter()
        .filter_map(|b| b["count"].as_u64())
        .sum();
    assert_eq!(counted, 200);
    // Every result breaks grade's outputSchema: each is a verdict failure, and the run fails.
    let r = run(&[
        "load",
        "grade",
        "--arg",
        "n=700",
        "-n",
        "40",
        "-c",
        "4",
        "--sessions",
        "--format",
        "json",
        "--",
        "python3",
        &planted(),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let s = r.json();
    assert_eq!(
        (s["verdictFailures"].as_u64(), s["sessions"].as_u64()),
        (Some(40), Some(4))
    );
    let r = run(&[
        "load",
        "fine",
        "--duration",
        "0.3",
        "-c",
        "2",
        "--format",
        "json",
        "--",
        "python3",
        &planted(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let s = r.json();
    assert!(s["seconds"].as_f64().is_some_and(|t| t >= 0.3), "{s}");
    assert!(s["calls"].as_u64().is_some_and(|n| n > 0), "{s}");
}

#[test]
fn load_over_streamable_http_prints_the_percentiles_and_the_rate() {
    let port = crate::cli::free_port();
    let mut demo = Command::new(crate::cli::BIN);
    demo.args(["demo-server", "--http", &port.to_string()]);
    let _server = crate::cli::start_listening(demo, port);
    let url = format!("http://127.0.0.1:{port}/mcp");
    for sessions in [false, true] {
        let mut args = vec![
            "load",
            "echo",
            "--arg",
            "message=hi",
            "-n",
            "100",
            "-c",
            "4",
            "--url",
            &url,
        ];
        if sessions {
            args.push("--sessions");
        }
        let r = run(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            r.stdout.contains("100 calls of echo by 4 callers"),
            "{}",
            r.stdout
        );
        assert!(
            r.stdout.contains("latency p50 ") && r.stdout.contains(" p99 "),
            "{}",
            r.stdout
        );
        assert!(r.stdout.contains("calls/s"), "{}", r.stdout);
    }
}

#[test]
fn invalid_inputs_must_be_refused_never_accepted_or_crash() {
    let r = run(&[
        "verify",
        "shout",
        "fine",
        "--invalid",
        "--seed",
        "3",
        "--",
        "python3",
        &planted(),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    // The planted server checks nothing: a missing text is a success, a number crashes it
    // (and it is started again for what remains).
    assert!(r.stdout.contains("a success to an input its inputSchema refuses (the inputSchema refuses it at / (required)"), "{}", r.stdout);
    assert!(
        r.stdout.contains("the server crashed") && r.stdout.contains("input: {\"text\":7}"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("FAIL fine: 100 calls and 1 with invalid inputs"),
        "{}",
        r.stdout
    );
}

/// Invariant 11: results that could not be judged (the demo's `dangling_ref` declares an
/// outputSchema whose `$ref` points nowhere) are counted as not checked, never as passes, and
/// the run exits 7 (unknown); so does a tool the time budget left uncalled.
#[test]
fn results_that_cannot_be_judged_are_unknown_never_a_pass() {
    let r = run(&[
        "verify",
        "dangling_ref",
        "--calls",
        "5",
        "--allow-writes",
        "--allow-destructive",
        "dangling_ref",
        "--demo",
    ]);
    assert_eq!(r.code, 7, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("NOT CHECKED dangling_ref: 5 calls")
            && r.stdout.contains("5 not checked")
            && r.stdout
                .contains("results not checked against the outputSchema:")
            && r.stdout.contains("0 tools failed, 0 passed, 1 not checked"),
        "{}",
        r.stdout
    );
    let r = run(&[
        "verify",
        "--time-budget",
        "0",
        "--format",
        "json",
        "--seed",
        "1",
        "--demo",
    ]);
    assert_eq!(r.code, 7, "{}{}", r.stdout, r.stderr);
    let report = r.json();
    let results = report["results"].as_array().expect("results");
    assert!(
        !results.is_empty()
            && results
                .iter()
                .all(|t| t["status"] == "not_checked" && t["calls"] == 0),
        "{report}"
    );
    let r = run(&[
        "load",
        "dangling_ref",
        "--allow-writes",
        "--allow-destructive",
        "dangling_ref",
        "-n",
        "30",
        "-c",
        "3",
        "--format",
        "json",
        "--demo",
    ]);
    assert_eq!(r.code, 7, "{}", r.stderr);
    let s = r.json();
    assert_eq!(
        (s["notChecked"].as_u64(), s["failed"].as_u64()),
        (Some(30), Some(0)),
        "{s}"
    );
}

/// Ctrl-C during `load` stops the run and still prints what was measured (calls, rate,
/// latency), then exits 130; once, the measurement was lost.
#[test]
fn an_interrupted_load_reports_what_it_measured() {
    let record =
        std::env::temp_dir().join(format!("mcp-inspect-load-int-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&record);
    let child = Command::new(crate::cli::BIN)
        .args([
            "load",
            "echo",
            "--arg",
            "message=hi",
            "--duration",
            "600",
            "--record",
        ])
        .arg(&record)
        .arg("--demo")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run");
    // Calls are flowing once the recording holds one.
    let waiting = std::time::Instant::now();
    while !std::fs::read_to_string(&record).is_ok_and(|t| t.contains("tools/call")) {
        assert!(
            waiting.elapsed() < std::time::Duration::from_secs(60),
            "no call"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .expect("kill");
    let out = child.wait_with_output().expect("wait");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(130), "{stdout}{stderr}");
    assert!(stdout.contains(" calls of echo by 4 callers"), "{stdout}");
    assert!(stdout.contains("latency p50"), "{stdout}");
    assert!(
        stderr.contains("interrupted by Ctrl-C: the report holds what was measured"),
        "{stderr}"
    );
    let _ = std::fs::remove_file(record);
}

/// Nothing checked is not a pass: a run that skips every tool exits 7 naming the flags, a
/// named tool the annotations keep back is an error, `--allow-all` calls every tool, and a
/// tool that takes no arguments is called a handful of times, not 100.
#[test]
fn a_run_that_checks_nothing_never_passes() {
    let dir = std::env::temp_dir().join(format!("mcp-inspect-skipall-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let marker = dir.join("wiped");
    // Every tool of the demo but four is unannotated: asked for those alone, nothing runs.
    let r = run(&["verify", "add", "--demo"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("add is not called: not read-only"),
        "{}",
        r.stderr
    );
    let (code, _, stderr) = verify(&["wipe", "--allow-writes"], &marker);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("--allow-destructive wipe"), "{stderr}");
    assert!(!marker.exists(), "the refused tool was not called");
    let (code, stdout, _) = verify(&["wipe", "--allow-all", "--calls", "50"], &marker);
    assert_eq!(code, 0, "{stdout}");
    assert!(marker.exists(), "--allow-all calls the destructive tool");
    assert!(stdout.contains("ok wipe: 5 calls"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `load` keeps verify's safety rules and the inputSchema: a tool that is not read-only is
/// refused without the flags that allow it, and arguments the schema refuses are not sent.
#[test]
fn load_follows_the_annotations_and_the_input_schema() {
    let refused = run(&["load", "add", "--arg", "a=1", "--arg", "b=2", "--demo"]);
    assert_eq!(refused.code, 1, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("add is not called: not read-only")
            && refused.stderr.contains("--allow-writes"),
        "{}",
        refused.stderr
    );
    let invalid = run(&["load", "echo", "--args", "{}", "-n", "3", "--demo"]);
    assert_eq!(invalid.code, 1, "{}", invalid.stderr);
    assert!(
        invalid
            .stderr
            .contains("the arguments break the inputSchema")
            && invalid.stderr.contains("--allow-invalid"),
        "{}",
        invalid.stderr
    );
    let sent = run(&[
        "load",
        "echo",
        "--args",
        "{}",
        "-n",
        "3",
        "--allow-invalid",
        "--demo",
    ]);
    assert!(
        sent.stdout.contains("3 calls of echo"),
        "{}{}",
        sent.stdout,
        sent.stderr
    );
}

/// server-everything's `trigger-url-elicitation` answers -32042 (2025-11-25: a URL elicitation
/// must be completed first) when asked to take its error path: a person's step, not the
/// server failing, so the tool is not checked, never failed (it was a false FAIL).
#[test]
fn a_call_that_needs_a_url_elicitation_is_not_checked_never_failed() {
    let Some(everything) = crate::peers::everything() else {
        return;
    };
    let r = run(&[
        "verify",
        "trigger-url-elicitation",
        "--allow-all",
        "--seed",
        "7",
        "--calls",
        "40",
        "--",
        "node",
        &everything,
    ]);
    assert_eq!(r.code, 7, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("NOT CHECKED trigger-url-elicitation")
            && r.stdout.contains("URL elicitation first (-32042)"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("FAIL"), "{}", r.stdout);
}

/// `load` judges the same answer the same way: not checked, neither a server error nor a
/// success.
#[test]
fn load_counts_a_url_elicitation_as_not_checked() {
    let Some(everything) = crate::peers::everything() else {
        return;
    };
    let r = run(&[
        "load",
        "trigger-url-elicitation",
        "--allow-writes",
        "--args",
        r#"{"errorPath": true, "url": "https://example.com/consent"}"#,
        "-n",
        "1",
        "-c",
        "1",
        "--format",
        "json",
        "--",
        "node",
        &everything,
    ]);
    assert_eq!(r.code, 7, "{}{}", r.stdout, r.stderr);
    let report: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    assert_eq!(report["notChecked"], 1, "{}", r.stdout);
    assert_eq!(report["errors"]["server"], 0, "{}", r.stdout);
    assert_eq!(report["succeeded"], 0, "{}", r.stdout);
}
