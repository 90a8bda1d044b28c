//! The built-in hostile server against the headless commands: nothing it sends reaches the
//! terminal raw, every fault ends promptly with a message naming it, nothing is fetched, and no
//! process outlives the inspector.

use crate::cli;
use crate::hostile;

use cli::{BIN, run};
use hostile::{CountingListener, assert_gone, assert_terminal_safe, read_pids};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn listings_results_and_errors_are_printed_escaped() {
    let runs = [
        vec!["tools", "--hostile"],
        vec!["tools", "--format", "json", "--hostile"],
        vec!["inspect", "escape_result", "--hostile"],
        vec!["check", "--hostile"],
        vec!["check", "--format", "json", "--hostile"],
        vec!["call", "escape_result", "--format", "text", "--hostile"],
        vec!["call", "escape_result", "--hostile"],
        vec!["call", "lying_output", "--format", "text", "--hostile"],
        vec!["call", "lying_output", "--hostile"],
        vec!["call", "crash_mid_call", "--format", "text", "--hostile"],
        vec!["call", "crash_mid_call", "--format", "json", "--hostile"],
        vec!["tools", "--hostile=flood,garbage"],
    ];
    let r = run(&["check", "--hostile"]);
    assert!(
        r.stdout.contains(
            "/name  name has characters outside A-Z a-z 0-9 _ - . (the spec's set): \\e]"
        ),
        "{}",
        r.stdout
    );
    for args in runs {
        let r = run(&args);
        assert_terminal_safe(&format!("{args:?} stdout"), &r.stdout);
        assert_terminal_safe(&format!("{args:?} stderr"), &r.stderr);
        let all = format!("{}{}", r.stdout, r.stderr);
        assert!(
            all.contains("\\e]0;pwned-title") || all.contains("\\u001b]0;pwned-title"),
            "{args:?}: the escapes should be visible:\n{all}"
        );
    }
}

#[test]
fn each_fault_ends_promptly_with_a_message_that_names_it() {
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["call", "crash_mid_call", "--hostile"],
            1,
            "the connection closed",
        ),
        (
            &["call", "crash_mid_call", "--format", "text", "--hostile"],
            1,
            "crashing mid-call on purpose",
        ),
        (
            &["call", "huge_result", "--hostile"],
            1,
            "104857673-byte message, over the 16 MiB limit",
        ),
        (
            &["call", "garbage_answer", "--hostile"],
            1,
            "the tools/call result is a string, not an object",
        ),
        (
            &["call", "never_answer", "--timeout", "1", "--hostile"],
            1,
            "no answer within 1s",
        ),
        // Progress 2,500 times a second restarts --timeout forever; --max-time still ends it
        // (past the timeout, which also bounds the listing before the call: loose enough for
        // a loaded machine).
        (
            &[
                "call",
                "flood_during_call",
                "--arg",
                "seconds=600",
                "--timeout",
                "5",
                "--max-time",
                "7",
                "--hostile",
            ],
            1,
            "still running after 7s in all, the call's time limit (raise it with --max-time)",
        ),
        (
            &["tools", "--hostile=too-deep"],
            1,
            "nested too deep to read",
        ),
        (
            &["tools", "--hostile=paginate-forever"],
            1,
            "more than 1000 pages of tools",
        ),
        (
            &["tools", "--timeout", "1", "--hostile=no-init"],
            4,
            "no answer to the handshake",
        ),
    ];
    for (args, code, message) in cases {
        let r = run(args);
        assert_eq!(r.code, *code, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains(message),
            "{args:?}: expected {message:?} in\n{}",
            r.stderr
        );
        assert!(
            r.took < Duration::from_secs(15),
            "{args:?} took {:?}",
            r.took
        );
    }
}

#[test]
fn a_server_that_floods_lies_and_lists_ten_thousand_tools_is_still_served() {
    let r = run(&["tools", "--hostile=flood,garbage,many-tools"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // 23 hostile tools, garbage's progress_liar and 10,000 more.
    assert_eq!(r.stdout.lines().count(), 23 + 1 + 10_000);
    let r = run(&[
        "call",
        "flood_during_call",
        "--arg",
        "seconds=2",
        "--format",
        "text",
        "--hostile=flood",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("survived the flood"), "{}", r.stdout);
    let r = run(&[
        "call",
        "stderr_flood",
        "--arg",
        "megabytes=50",
        "--format",
        "text",
        "--hostile",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("stderr written"));
    // Under the limit, a large result arrives whole.
    let r = run(&["call", "huge_result", "--arg", "megabytes=15", "--hostile"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = r.json()["content"][0]["text"].as_str().map(str::len);
    assert_eq!(text, Some(15 << 20));
}

#[test]
fn remote_refs_ids_and_links_are_never_fetched() {
    let listener = CountingListener::start();
    let url = listener.url.clone();
    let server = [BIN, "hostile-server", "--ref-url", &url];
    let runs: [&[&str]; 4] = [
        &["tools"],
        &["inspect", "remote_ref"],
        &["check"],
        &[
            "call",
            "remote_ref",
            "--args",
            r#"{"absolute": 1, "fragment": {"x": 2}, "relative": [], "dynamic": null}"#,
        ],
    ];
    for args in runs {
        let all: Vec<&str> = args.iter().copied().chain(["--"]).chain(server).collect();
        let r = run(&all);
        assert!(r.code == 0 || r.code == 1, "{args:?}: {}", r.stderr);
        assert!(
            r.stdout.contains(&url) || r.stderr.contains(&url),
            "{args:?} should name the URL"
        );
    }
    assert_eq!(listener.connections(), 0, "something fetched a remote ref");
}

/// Starts `call never_answer` against a stubborn server (ignores SIGTERM and stdin closing,
/// has a grandchild) and returns the inspector with the server's and grandchild's pids.
fn stubborn_call(dir: &std::path::Path, tool: &str) -> (std::process::Child, [i32; 2]) {
    let pid_file = dir.join(format!("{tool}.pids"));
    let recording = dir.join(format!("{tool}.jsonl"));
    let _ = std::fs::remove_file(&recording);
    let child = Command::new(BIN)
        .args(["call", tool, "--record"])
        .arg(&recording)
        .args([
            "--",
            BIN,
            "hostile-server",
            "--attack",
            "stubborn",
            "--pid-file",
        ])
        .arg(&pid_file)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    (child, read_pids(&pid_file))
}

#[test]
fn no_process_outlives_the_inspector() {
    let dir = std::env::temp_dir().join(format!("mcp-inspect-orphans-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    // Finished normally, and after the server crashed (its grandchild lives on in its group).
    for tool in ["escape_result", "crash_mid_call"] {
        let (mut child, pids) = stubborn_call(&dir, tool);
        child.wait().expect("wait");
        assert_gone(&pids, tool);
    }
    // Interrupted while waiting for an answer.
    for signal in ["INT", "TERM", "HUP"] {
        let (mut child, pids) = stubborn_call(&dir, "never_answer");
        // Signalled once the call is out (the session's recording has it), not before.
        let recording = dir.join("never_answer.jsonl");
        let deadline = Instant::now() + Duration::from_secs(20);
        while !std::fs::read_to_string(&recording).is_ok_and(|r| r.contains("\"tools/call\"")) {
            assert!(Instant::now() < deadline, "the call was never sent");
            std::thread::sleep(Duration::from_millis(20));
        }
        let sent = Instant::now();
        Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .expect("kill");
        let status = child.wait().expect("wait");
        // Exit 130 says the signal ended it (the call never answers); the bound only keeps
        // a hang from passing, far from any machine's speed.
        assert!(
            sent.elapsed() < Duration::from_secs(10),
            "SIG{signal}: {:?}",
            sent.elapsed()
        );
        assert_eq!(status.code(), Some(130), "SIG{signal}");
        assert_gone(&pids, &format!("SIG{signal}"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `verify` against faults of the built-in hostile server, each allowed by name; its report.
/// Runs apart, as one slow fault holds the server's single line for the tools after it.
fn verify_hostile(tools: &[&str], more: &[&str]) -> hostile::Measured {
    verify_hostile_exiting(tools, more, 1)
}

/// [`verify_hostile`], exiting with `code`.
fn verify_hostile_exiting(tools: &[&str], more: &[&str], code: i32) -> hostile::Measured {
    let mut args = vec!["verify", "--allow-writes", "--seed", "3"];
    for name in tools {
        args.extend(["--allow-destructive", name]);
    }
    args.extend(tools);
    args.extend(more);
    args.push("--hostile");
    let m = hostile::run_measured(BIN, &args, &[]);
    assert_terminal_safe("verify stdout", &m.stdout);
    assert_terminal_safe("verify stderr", &m.stderr);
    assert!(
        m.peak_kb < 300 * 1024,
        "{tools:?}: peaked at {} KB",
        m.peak_kb
    );
    assert_eq!(m.code, code, "{}{}", m.stdout, m.stderr);
    m
}

/// `verify` and `load` against every fault of the built-in hostile server: each fault is a
/// failure named in escaped words (a crash, a timeout, a message over the limit, a malformed
/// answer, a broken outputSchema), schemas that attack cost bounded memory and no hang, and a
/// tool no input can be made for reads "not checked", never "ok".
#[test]
fn verify_and_load_name_every_fault_in_bounded_memory() {
    let quick = [
        "escape_result",
        "crash_mid_call",
        "garbage_answer",
        "lying_output",
        "wide_schema",
        "ref_bomb",
        "regex_bomb",
    ];
    let m = verify_hostile(&quick, &["--calls", "4"]);
    let slow = verify_hostile(
        &[
            "never_answer",
            "flood_during_call",
            "answer_late",
            "progress_late",
        ],
        &["--call-timeout", "1", "--calls", "5"],
    );
    let huge = verify_hostile(&["huge_result"], &["--calls", "1"]);
    let spent = ["--call-timeout", "1", "--time-budget", "0.5"];
    // Nothing failed, nothing passed: exit 7.
    let spent = verify_hostile_exiting(&["never_answer"], &spent, 7);
    // A read-only slow tool whose calls outlast the hard maximum (2.5 s, its answers take 3):
    // made, not judged, never a pass.
    let cut = ["--call-timeout", "0.25", "--calls", "5"];
    let cut = verify_hostile_exiting(&["progress_late"], &cut, 7);
    // `--invalid` on it: its invalid inputs run together too, and it answers them.
    let invalid = ["--call-timeout", "1", "--calls", "3", "--invalid"];
    let invalid = verify_hostile(&["progress_late"], &invalid);
    assert!(
        invalid
            .stdout
            .contains("FAIL progress_late: 3 calls and 3 with invalid inputs")
            && invalid
                .stdout
                .contains("a success to an input its inputSchema refuses"),
        "{}",
        invalid.stdout
    );
    let all = format!("{}{}{}{}", m.stdout, slow.stdout, huge.stdout, spent.stdout);
    assert!(
        cut.stdout.contains("NOT CHECKED progress_late: 5 calls")
            && cut
                .stdout
                .contains("each waited for up to 2.5 s; 5 without a result by then, not judged"),
        "{}",
        cut.stdout
    );
    for said in [
        "ok escape_result",
        "FAIL crash_mid_call",
        "the server crashed",
        "FAIL garbage_answer",
        "malformed answer",
        "FAIL lying_output",
        "the result breaks its outputSchema",
        // Repeated against the built-in server as it was named, not its command line.
        "reproduce: mcp-inspect call lying_output --args '{}' --hostile\n",
        "ok wide_schema",
        "NOT CHECKED regex_bomb: ",
        // A silent call is sent again and waited for ten times as long: silent again, hung.
        "FAIL never_answer: 1 calls",
        "no result within 1 s, nor within 10 s when sent again (no progress either time): hung",
        // A timeout is repeated with the wait that found it hung.
        "reproduce: mcp-inspect call never_answer --args '{}' --timeout 10 --max-time 10 --hostile",
        // Alive the second time (an answer, or progress): slow, not hung. A tool that is not
        // read-only is left there, not a pass; a read-only one's calls then run together,
        // each waited for up to the hard maximum, and are judged.
        "NOT CHECKED answer_late: 1 calls",
        "1 of 5 calls: a call was silent for 1 s, then answered in 2",
        "its other calls are left (not read-only, so they are not run together",
        "ok progress_late: 5 calls",
        "5 of 5 calls: a call was silent for 1 s, then alive when sent again (progress after 2",
        "its calls then ran 16 at a time, each waited for up to 10 s\n",
        // With the time budget spent, a silent call is not sent again: neither hung nor ok.
        "NOT CHECKED never_answer: 1 calls",
        "a call was silent for 1 s, and the time budget was spent before it could be sent again",
        // Progress extends the wait (the short floods pass), up to ten times it; a call still
        // reporting progress there is cut, and the tool is not judged (the limit is ours).
        "NOT CHECKED flood_during_call: 3 calls",
        "3 of 5 calls: a call was still working after 10 s, reporting progress",
        "FAIL huge_result: 1 calls",
        "over the 16 MiB limit",
    ] {
        assert!(all.contains(said), "`{said}` not in:\n{all}");
    }
    // Answers to ids nothing awaits (the garbage attack sends one before every message):
    // counted, and a protocol error that fails the run.
    let stray = run(&[
        "load",
        "escape_result",
        "--allow-writes",
        "--allow-destructive",
        "escape_result",
        "-n",
        "4",
        "--format",
        "json",
        "--hostile=garbage",
    ]);
    assert_eq!(stray.code, 1, "{}{}", stray.stdout, stray.stderr);
    let summary: serde_json::Value = serde_json::from_str(&stray.stdout).expect("json");
    assert!(
        summary["strayAnswers"].as_u64() >= Some(4) && summary["failed"] == 0,
        "{summary:#}"
    );
    // Listed twice, read-only then destructive: neither verify nor load calls it unasked.
    for command in ["verify", "load"] {
        let refused = run(&[command, "escape_result", "--allow-writes", "--hostile"]);
        assert_eq!(refused.code, 1, "{}{}", refused.stdout, refused.stderr);
        assert!(
            refused
                .stderr
                .contains("escape_result is not called: listed twice"),
            "{}",
            refused.stderr
        );
    }
    for (tool, said) in [
        ("crash_mid_call", "first closed: the connection closed"),
        ("huge_result", "first other error: the server sent a"),
        ("garbage_answer", "first other error: malformed answer"),
        ("lying_output", "first verdict failure: 2 violations"),
        ("escape_result", "0 verdict failures"),
    ] {
        let args = [
            "load",
            tool,
            "--allow-writes",
            "--allow-destructive",
            tool,
            "-n",
            "6",
            "-c",
            "2",
            "--hostile",
        ];
        let m = hostile::run_measured(BIN, &args, &[]);
        assert_terminal_safe("load stdout", &m.stdout);
        assert!(
            m.stdout.contains(said) && m.peak_kb < 300 * 1024,
            "{tool}: `{said}` in {} KB:\n{}{}",
            m.peak_kb,
            m.stdout,
            m.stderr
        );
    }
}

/// Invariant 3 with a secret holding everything an encoder escapes (a quote, an apostrophe, a
/// backslash, a tab, `&<>`, a bidi override, a non-ASCII letter): the hostile server reflects
/// it in text, structuredContent (a value, a key, JSON text), a log and stderr, every character
/// `\u`-escaped on the wire; no command and no format lets it out, and no file written does.
#[test]
fn a_secret_with_quotes_and_markup_is_redacted_in_every_command_format_and_file() {
    let secret = "S3CR3T'q\"u\\ote\t&<>\u{202e}é";
    let pair = format!("HOSTILE_SECRET={secret}");
    let dir = std::env::temp_dir().join(format!("mcp-inspect-secret-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    std::fs::write(dir.join("t.toml"), "[[call]]\ntool = \"reflect_secrets\"\n").expect("write");
    let (tests, kept, record) = (path("t.toml"), path("kept.toml"), path("rec.jsonl"));
    let leaked = |text: &str| text.contains("S3CR3T");
    let runs: Vec<Vec<&str>> = vec![
        vec!["call", "reflect_secrets", "--format", "text"],
        vec!["call", "reflect_secrets", "--format", "json"],
        vec!["call", "reflect_secrets", "--record", &record],
        vec!["test", &tests],
        vec!["test", &tests, "--format", "json"],
        vec!["test", &tests, "--format", "junit"],
        vec!["test", &kept, "--update"],
        vec!["test", &kept],
    ];
    std::fs::write(
        dir.join("kept.toml"),
        "[[call]]\ntool = \"reflect_secrets\"\n",
    )
    .expect("write");
    for args in runs {
        let mut args = args.clone();
        args.extend(["-e", &pair, "--hostile"]);
        let r = run(&args);
        assert!(
            !leaked(&r.stdout) && !leaked(&r.stderr),
            "{args:?} printed the secret:\n{}\n{}",
            r.stdout,
            r.stderr
        );
        assert!(
            r.stdout.contains("[redacted]") || r.stderr.contains("[redacted]"),
            "{args:?} reflected nothing:\n{}\n{}",
            r.stdout,
            r.stderr
        );
    }
    for file in [&record, &kept] {
        let text = std::fs::read_to_string(file).expect("written");
        assert!(!leaked(&text), "{file}: {text}");
        assert!(text.contains("[redacted]"), "{file}: {text}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Invariants 5 and 11 on `verify`'s generator: schemas that recurse without end or ask for
/// exponentially many values are refused per value (never spun on, never gigabytes), and each
/// such tool is NOT CHECKED with the reason, exit 7.
#[test]
fn schemas_that_attack_the_generator_are_not_checked_with_their_reason() {
    let r = run(&[
        "verify",
        "self_any_of",
        "nested_thousands",
        "fifty_selves",
        "--calls",
        "5",
        "--format",
        "json",
        "--hostile",
    ]);
    assert_eq!(r.code, 7, "{}{}", r.stdout, r.stderr);
    let report: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    let results = report["results"].as_array().expect("results");
    assert_eq!(results.len(), 3, "{}", r.stdout);
    for (result, why) in results.iter().zip([
        "too deep to generate",
        "too large to generate",
        "too large to generate",
    ]) {
        assert_eq!(result["status"], "not_checked", "{result}");
        let note = result["note"].as_str().unwrap_or_default();
        assert!(
            note.starts_with("0 of 5 calls: ") && note.contains(why),
            "{result}"
        );
    }
}

/// An error whose code no 32-bit type holds (2^70) is reported at once, quoting the error as
/// sent, escaped; not dropped by the typed reader and waited out until the timeout.
#[test]
fn an_error_code_past_64_bits_is_reported_as_sent() {
    let r = run(&[
        "request",
        "hostile/huge_error_code",
        "--timeout",
        "60",
        "--hostile",
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "whose code is not a 32-bit integer, as sent: {\"code\":1180591620717411303424,"
        ),
        "{}",
        r.stderr
    );
    assert_terminal_safe("stderr", &r.stderr);
}
