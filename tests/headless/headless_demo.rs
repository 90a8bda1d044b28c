//! The headless commands against the built-in demo server, started the way a user starts it:
//! every demo tool produces the verdict it was built to produce.

use crate::cli;

use cli::{BIN, run};
use serde_json::{Value, json};

fn call(tool: &str, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["call", tool];
    all.extend_from_slice(args);
    all.push("--demo");
    let r = run(&all);
    (r.code, r.json())
}

#[test]
fn tools_lists_every_demo_tool_one_line_each() {
    let r = run(&["tools", "--demo"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 17, "{}", r.stdout);
    assert!(lines.contains(&"add(a: integer, b: integer) -> integer  Adds two integers. Boxed the fastmcp way (x-fastmcp-wrap-result)."));
    assert!(lines.iter().any(|l| l.starts_with(
        "delete_everything(confirm: true)  [writes, destructive, not idempotent, open-world]"
    )));
    assert!(lines.iter().any(|l| l.starts_with(
        "configure(target: File | Url, mode: \"copy\" | \"move\", retry?: Retry & object"
    )));
}

#[test]
fn tools_json_names_the_server_and_era() {
    let modern = run(&["tools", "--format", "json", "--demo"]).json();
    assert_eq!(modern["server"]["name"], "mcp-inspect-demo");
    assert_eq!(modern["server"]["protocolVersion"], "2026-07-28");
    assert_eq!(modern["server"]["era"], "modern");
    assert_eq!(modern["tools"].as_array().map(Vec::len), Some(17));
    let primes = modern["tools"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "primes"))
        .expect("primes");
    assert_eq!(
        primes["outputSchema"],
        json!({"type": "array", "items": {"type": "integer"}})
    );
    let legacy = run(&[
        "tools",
        "--format",
        "json",
        "--protocol",
        "legacy",
        "--demo",
    ])
    .json();
    assert_eq!(legacy["server"]["protocolVersion"], "2025-11-25");
    let primes = legacy["tools"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "primes"))
        .expect("primes");
    assert_eq!(
        primes["outputSchema"]["required"],
        json!(["result"]),
        "boxed for legacy clients"
    );
}

#[test]
fn inspect_shows_schemas_signature_and_missing_output() {
    let r = run(&["inspect", "lookup_user", "--demo"]);
    let j = r.json();
    assert_eq!(
        j["outputSchema"]["$schema"],
        "http://json-schema.org/draft-07/schema#"
    );
    assert_eq!(j["signature"], "lookup_user(id: string) -> object");
    assert_eq!(j["annotations"], json!({"readOnlyHint": true}));
    let slow = run(&["inspect", "slow", "--demo"]).json();
    assert_eq!(slow["outputSchema"], Value::Null);
    assert_eq!(
        slow["note"],
        "the server defines no outputSchema for this tool"
    );
    let missing = run(&["inspect", "nope", "--demo"]);
    assert_eq!(missing.code, 5);
}

#[test]
fn boxed_tools_are_unboxed_with_the_boxer_named() {
    let (code, add) = call("add", &["--arg", "a=2", "--arg", "b=40"]);
    assert_eq!(code, 0);
    assert_eq!(add["verdict"]["status"], "conforms");
    assert_eq!(
        add["verdict"]["boxing"],
        json!({"boxer": "fastmcp", "field": "result", "certain": true})
    );
    assert_eq!(add["verdict"]["value"], 42);
    let (_, words) = call("word_count", &["--args", r#"{"text": "one two three"}"#]);
    assert_eq!(
        words["verdict"]["boxing"],
        json!({"boxer": "dedalus", "field": "count", "certain": true})
    );
    assert_eq!(words["verdict"]["value"], 3);
    let (_, even) = call("is_even", &["--arg", "n=4"]);
    assert_eq!(
        even["verdict"]["boxing"],
        json!({"boxer": "python-sdk", "field": "result", "certain": false})
    );
    assert_eq!(even["verdict"]["value"], true);
}

#[test]
fn non_object_outputs_in_both_eras() {
    let (_, primes) = call("primes", &["--arg", "count=4"]);
    assert_eq!(primes["structuredContent"], json!([2, 3, 5, 7]));
    assert_eq!(primes["verdict"]["status"], "conforms");
    assert_eq!(primes["verdict"]["boxing"], Value::Null);
    let (_, pi) = call("pi", &[]);
    assert_eq!(pi["structuredContent"], json!(std::f64::consts::PI));
    let r = run(&["call", "primes", "--protocol", "legacy", "--demo"]);
    let legacy = r.json();
    assert_eq!(
        legacy["structuredContent"],
        json!({"result": [2, 3, 5, 7, 11]})
    );
    assert_eq!(
        legacy["verdict"]["boxing"],
        json!({"boxer": "unmarked", "field": "result", "certain": false})
    );
    assert_eq!(legacy["verdict"]["value"], json!([2, 3, 5, 7, 11]));
}

#[test]
fn falsy_structured_content_is_kept_and_judged() {
    for (kind, value) in [
        ("zero", json!(0)),
        ("false", json!(false)),
        ("empty", json!("")),
        ("null", Value::Null),
    ] {
        let (code, r) = call("falsy", &["--arg", &format!("kind={kind}")]);
        assert_eq!(code, 0);
        assert_eq!(r["structuredContent"], value, "{kind}");
        assert!(
            r.as_object()
                .is_some_and(|o| o.contains_key("structuredContent")),
            "{kind}: kept even when null"
        );
        assert_eq!(r["verdict"]["status"], "conforms", "{kind}");
        assert_eq!(r["verdict"]["value"], value, "{kind}");
    }
}

#[test]
fn violations_are_listed_with_paths_and_strict_fails() {
    let (code, bad) = call("bad_output", &[]);
    assert_eq!(code, 0, "violations alone do not fail without --strict");
    assert_eq!(bad["verdict"]["status"], "violations");
    let mut paths: Vec<(String, String)> = bad["verdict"]["violations"]
        .as_array()
        .expect("violations")
        .iter()
        .map(|v| {
            (
                v["instancePath"].as_str().unwrap_or_default().into(),
                v["keyword"].as_str().unwrap_or_default().into(),
            )
        })
        .collect();
    paths.sort();
    assert_eq!(
        paths,
        [
            ("/count".into(), "minimum".into()),
            ("/items/1".into(), "type".into()),
            ("/status".into(), "enum".into())
        ]
    );
    assert_eq!(
        bad["structuredContent"]["count"], -3,
        "the result is shown, never hidden"
    );
    let strict = run(&["call", "bad_output", "--strict", "--demo"]);
    assert_eq!(strict.code, 8, "a violation is not 3 (authorization)");
    let text = run(&["call", "bad_output", "--format", "text", "--demo"]);
    assert!(
        text.stdout.contains("verdict: 3 violations (2020-12)"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains(
        "at /items/1 (type, schema /properties/items/items/type): 2 is not of type \"string\""
    ));
}

#[test]
fn unusable_schemas_errors_and_content_only_results() {
    let (_, dangling) = call("dangling_ref", &[]);
    assert_eq!(dangling["verdict"]["status"], "not_checked");
    assert_eq!(
        dangling["verdict"]["reason"],
        "no violation where it could check, but the schema at /properties/value was not \
         checked: dangling $ref #/$defs/Missing"
    );
    let (code, fail) = call("fail", &[]);
    assert_eq!(code, 5);
    assert_eq!(fail["isError"], true);
    assert_eq!(fail["verdict"]["status"], "tool_error");
    let (_, echo) = call("echo", &["--arg", "message=hi"]);
    assert_eq!(echo["content"], json!([{"type": "text", "text": "hi"}]));
    assert_eq!(echo["verdict"]["status"], "not_checked");
    for (tool, args) in [
        ("search", r#"{"query": "schema"}"#),
        (
            "configure",
            r#"{"target": {"kind": "file", "path": "/x"}, "mode": "copy"}"#,
        ),
        ("build_tree", "{}"),
        (
            "lookup_user",
            r#"{"id": "00000000-0000-4000-8000-000000000000"}"#,
        ),
    ] {
        let (code, r) = call(tool, &["--args", args]);
        assert_eq!(
            (code, r["verdict"]["status"].clone()),
            (0, json!("conforms")),
            "{tool}: {r}"
        );
    }
    let (_, user) = call(
        "lookup_user",
        &[
            "--args",
            r#"{"id": "00000000-0000-4000-8000-000000000000"}"#,
        ],
    );
    assert_eq!(user["verdict"]["dialect"], "draft-07");
}

#[test]
fn slow_tool_finishes_with_progress_and_unknown_tools_exit_5() {
    let (code, slow) = call("slow", &["--args", r#"{"seconds": 0.3, "steps": 3}"#]);
    assert_eq!(code, 0);
    assert_eq!(slow["content"][0]["text"], "finished 3 steps in 0.3s");
    let unknown = run(&["call", "nope", "--demo"]);
    assert_eq!(unknown.code, 5);
    assert!(
        unknown.error_json()["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("unknown tool `nope` (known: echo, search"))
    );
}

#[test]
fn check_lints_the_demo() {
    let r = run(&["check", "--format", "json", "--demo"]);
    assert_eq!(r.code, 1, "the demo's dangling ref is an error");
    let j = r.json();
    assert_eq!(j["tools"], 17);
    let findings = j["findings"].as_array().expect("findings");
    assert!(findings.iter().any(|f| f["tool"] == "dangling_ref"
        && f["severity"] == "error"
        && f["pointer"] == "/outputSchema/properties/value/$ref"));
    let text = run(&["check", "--demo"]);
    assert!(
        text.stdout
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("17 tools: 1 error, 0 warnings")),
        "{}",
        text.stdout
    );
}

#[test]
fn list_changes_are_real() {
    // Each call starts a fresh demo process, so toggling shows in that process's own list.
    let (_, toggled) = call("toggle_extra", &[]);
    assert_eq!(toggled["content"][0]["text"], "extra added");
    let _ = BIN;
}

#[test]
fn arguments_are_checked_against_the_input_schema_but_still_sent() {
    let r = run(&["call", "add", "--arg", "a=x", "--format", "text", "--demo"]);
    // Sent anyway, and the demo (which validates its inputs, as servers must) refuses them
    // with a tool error.
    assert_eq!(r.code, 5, "{}", r.stdout);
    assert!(r.stdout.contains("invalid arguments: at /"), "{}", r.stdout);
    assert!(
        r.stderr.contains(
            "warning: arguments: at /a (type): \"x\" is not of type \"integer\" (sent anyway)"
        ),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("\"b\" is a required property"));
    assert!(
        r.stdout
            .contains("note: the arguments sent break the inputSchema in 2 places")
    );
}

#[test]
fn progress_during_a_call_is_told_on_stderr_a_bounded_number_a_second() {
    let r = run(&[
        "call",
        "slow",
        "--arg",
        "seconds=0.5",
        "--arg",
        "steps=100",
        "--format",
        "text",
        "--demo",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("note: progress 1/100 step 1 of 100"),
        "{}",
        r.stderr
    );
    // 100 progress notifications and 100 logs: about 20 lines said in the half second.
    let told = r.stderr.matches("note: progress").count() + r.stderr.matches("note: log").count();
    assert!(
        (20..200).contains(&told),
        "{told} progress and log lines: {}",
        r.stderr
    );
    assert!(
        r.stderr.contains("progress or log lines not shown"),
        "{}",
        r.stderr
    );
    let json = run(&[
        "call",
        "slow",
        "--arg",
        "seconds=0",
        "--arg",
        "steps=2",
        "--demo",
    ]);
    assert!(
        json.stderr
            .contains(r#"{"note":"progress 1/2 step 1 of 2"}"#),
        "{}",
        json.stderr
    );
}

/// `--log-level` asks the server for that level and above: by `logging/setLevel` in the legacy
/// era, in each request's `_meta` in the 2026 era. The demo's `slow` logs each step at a level
/// rising from debug.
#[test]
fn the_log_level_reaches_the_server_in_both_eras() {
    for era in ["legacy", "modern"] {
        let args = [
            "call",
            "slow",
            "--arg",
            "seconds=0",
            "--arg",
            "steps=8",
            "--format",
            "text",
            "--protocol",
            era,
            "--demo",
        ];
        let all = run(&args);
        assert_eq!(all.code, 0, "{}", all.stderr);
        assert!(
            all.stderr.contains("note: log debug slow: step 1 of 8"),
            "{era}: {}",
            all.stderr
        );
        let mut quiet = args.to_vec();
        quiet.extend(["--log-level", "error"]);
        let r = run(&quiet);
        assert_eq!(r.code, 0, "{}", r.stderr);
        // Which lines, not their order: rmcp hands notifications to the handler each in a task
        // of its own, so two sent back to back may be told in either order (seen in CI).
        let mut logged: Vec<&str> = r
            .stderr
            .lines()
            .filter(|l| l.starts_with("note: log "))
            .collect();
        logged.sort_by_key(|l| l.rsplit("step ").next().unwrap_or_default().to_string());
        assert_eq!(
            logged,
            [
                "note: log error slow: step 5 of 8",
                "note: log critical slow: step 6 of 8",
                "note: log alert slow: step 7 of 8",
                "note: log emergency slow: step 8 of 8",
            ],
            "{era}: {}",
            r.stderr
        );
    }
    let r = run(&["tools", "--log-level", "loud", "--demo"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("one of debug, info, notice, warning"),
        "{}",
        r.stderr
    );
}

/// `--record` writes every message both ways; `replay` serves the recording: the same tools
/// and results in both eras, progress under the new request's token, secrets never written,
/// and a request that was never recorded answered with an error that says so.
#[test]
fn a_recorded_session_replays_with_its_progress_and_without_secrets() {
    let dir = std::env::temp_dir();
    for era in ["legacy", "modern"] {
        let file = dir
            .join(format!(
                "mcp-inspect-demo-{era}-{}.jsonl",
                std::process::id()
            ))
            .display()
            .to_string();
        let slow = ["call", "slow", "--arg", "seconds=0", "--arg", "steps=3"];
        let tail = ["--protocol", era, "--format", "text"];
        let live = run(&[&slow[..], &tail, &["--record", &file, "--demo"]].concat());
        assert_eq!(live.code, 0, "{}", live.stderr);
        let recorded = std::fs::read_to_string(&file).expect("recording");
        let lines: Vec<Value> = recorded
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        assert!(
            lines
                .iter()
                .any(|l| l["dir"] == "out" && l["message"]["method"] == "tools/call")
        );
        assert!(
            lines
                .iter()
                .any(|l| l["dir"] == "in" && l["message"]["method"] == "notifications/progress")
        );
        let replayed = run(&[&slow[..], &tail, &["--", BIN, "replay", &file]].concat());
        assert_eq!(replayed.code, 0, "{}", replayed.stderr);
        assert_eq!(live.stdout, replayed.stdout, "{era}");
        assert!(
            replayed.stderr.contains("note: progress 3/3"),
            "progress replayed under the new token ({era}): {}",
            replayed.stderr
        );
        let other = run(&[
            "call",
            "echo",
            "--arg",
            "message=hi",
            "--",
            BIN,
            "replay",
            &file,
        ]);
        assert_ne!(other.code, 0);
        assert!(
            other.stderr.contains("not in the recording: tools/call"),
            "{}",
            other.stderr
        );
        let _ = std::fs::remove_file(&file);
    }
    let file = dir
        .join(format!(
            "mcp-inspect-demo-secret-{}.jsonl",
            std::process::id()
        ))
        .display()
        .to_string();
    let secret = "s3cret-value-in-an-argument";
    let echoed = run(&[
        "call",
        "echo",
        "--arg",
        &format!("message={secret}"),
        "-e",
        &format!("TOKEN={secret}"),
        "--record",
        &file,
        "--demo",
    ]);
    assert_eq!(echoed.code, 0, "{}", echoed.stderr);
    let recorded = std::fs::read_to_string(&file).expect("recording");
    assert!(
        recorded.contains("tools/call") && !recorded.contains(secret),
        "{recorded}"
    );
    let _ = std::fs::remove_file(&file);
}

/// A server that does not declare resources or prompts is not asked for them.
#[test]
fn capabilities_the_server_lacks_are_named_not_asked() {
    for (command, capability) in [("resources", "resources"), ("prompts", "prompts")] {
        let r = run(&[command, "--hostile"]);
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert!(
            r.stderr
                .contains(&format!("does not declare the `{capability}` capability")),
            "{}",
            r.stderr
        );
    }
    let ping = run(&["ping", "--demo", "--protocol", "legacy"]);
    assert_eq!(ping.code, 0, "{}", ping.stderr);
    assert!(ping.stdout.starts_with("pong in "), "{}", ping.stdout);
    let modern = run(&["ping", "--demo", "--protocol", "modern"]);
    assert_eq!(modern.code, 0, "{}", modern.stderr);
    assert!(
        modern
            .stdout
            .contains("(server/discover: the 2026-07-28 protocol has no ping)"),
        "{}",
        modern.stdout
    );
}

/// `request METHOD`: any request, its result as sent, in both eras; params checked first; a
/// server's error and a hostile server's escapes handled as for every command.
#[test]
fn request_sends_any_method_and_prints_its_result_as_sent() {
    for era in ["legacy", "modern"] {
        let listed = run(&["request", "tools/list", "--demo", "--protocol", era]);
        assert_eq!(listed.code, 0, "{}", listed.stderr);
        assert_eq!(listed.json()["tools"].as_array().map(Vec::len), Some(17));
    }
    let called = run(&[
        "request",
        "tools/call",
        "--params",
        r#"{"name": "add", "arguments": {"a": 20, "b": 22}}"#,
        "--format",
        "json",
        "--demo",
    ]);
    assert_eq!(called.code, 0, "{}", called.stderr);
    assert_eq!(
        called.stdout.lines().count(),
        1,
        "one line: {}",
        called.stdout
    );
    assert_eq!(
        called.json()["structuredContent"],
        serde_json::json!({"result": 42})
    );
    let unknown = run(&["request", "no/such", "--demo"]);
    assert_eq!(unknown.code, 5, "{}", unknown.stderr);
    assert!(unknown.stderr.contains("-32601"), "{}", unknown.stderr);
    // A method the 2026 era removed: its "not found" is explained, and the older era has it.
    let ping = run(&["request", "ping", "--demo"]);
    assert_eq!(ping.code, 5, "{}", ping.stderr);
    assert!(
        ping.stderr
            .contains("note: ping does not exist in the 2026-07-28 era"),
        "{}",
        ping.stderr
    );
    let ping = run(&["request", "ping", "--demo", "--protocol", "legacy"]);
    assert_eq!(
        (ping.code, ping.stdout.trim()),
        (0, "{}"),
        "{}",
        ping.stderr
    );
    let bad = run(&["request", "ping", "--params", "[1]", "--demo"]);
    assert_eq!(bad.code, 1);
    assert!(
        bad.stderr
            .contains("--params must be a JSON object, not an array"),
        "{}",
        bad.stderr
    );
    let note = run(&["request", "notifications/initialized", "--demo"]);
    assert_eq!(note.code, 1);
    assert!(note.stderr.contains("is a notification"), "{}", note.stderr);
    let hostile = run(&["request", "tools/list", "--hostile"]);
    assert!(
        !hostile.stdout.contains('\u{1b}'),
        "escaped: {}",
        hostile.stdout
    );
}

/// The demo's resources, template, prompts and completions, in both eras: text, JSON and a
/// blob read; a prompt's messages of every kind; completions for a prompt argument and a
/// template variable; an unknown resource is exit 5.
#[test]
fn resources_and_prompts_in_both_eras() {
    for protocol in ["legacy", "modern"] {
        let go = |args: &[&str]| run(&[args, &["--demo", "--protocol", protocol]].concat());
        let listed = go(&["resources"]);
        assert!(
            listed.stdout.starts_with(
                "demo://readme  readme (About the demo)  text/markdown  167 bytes  [for user, priority 0.8]"
            ),
            "{protocol}: {}",
            listed.stdout
        );
        let user = go(&["read", "demo://users/42"]);
        assert!(
            user.stdout
                .contains("{\"id\":\"42\",\"name\":\"User 42\",\"admin\":true}"),
            "{protocol}: {}",
            user.stdout
        );
        let pixel = go(&["read", "demo://pixel.png"]);
        assert!(
            pixel.stdout.contains("blob: 70 bytes, PNG 1×1"),
            "{}",
            pixel.stdout
        );
        let prompt = go(&[
            "prompt",
            "review_code",
            "--arg",
            "code=x = 1",
            "--arg",
            "language=rust",
        ]);
        assert_eq!(
            prompt.stdout,
            "Review a piece of code\nuser: Review this rust code:\nx = 1\n\
             user: resource demo://readme (text, 167 chars)\n\
             assistant: image (image/png, 70 bytes, PNG 1×1)\n",
            "{protocol}: {}",
            prompt.stderr
        );
        let language = go(&["complete", "--prompt", "review_code", "language", "ru"]);
        assert_eq!(language.stdout, "rust\n", "{}", language.stderr);
        let id = go(&["complete", "--template", "demo://users/{id}", "id", "4"]);
        assert_eq!(id.stdout, "42\n", "{}", id.stderr);
        assert_eq!(go(&["read", "demo://nothing"]).code, 5);
    }
}

/// `--record` with a server started by a command, through a whole `verify` run: one recording
/// that `replay` serves. The options were built twice (once more for the reproduce lines), and
/// the second build truncated the file under its first writer: NUL bytes where the handshake
/// had been, and a replay that failed at `initialize`.
#[test]
fn verify_records_one_whole_run_that_replay_serves() {
    let file = std::env::temp_dir()
        .join(format!(
            "mcp-inspect-verify-record-{}.jsonl",
            std::process::id()
        ))
        .display()
        .to_string();
    let verified = run(&[
        "verify",
        "echo",
        "--calls",
        "3",
        "--record",
        &file,
        "--",
        BIN,
        "demo-server",
    ]);
    assert_eq!(verified.code, 0, "{}", verified.stderr);
    let recorded = std::fs::read_to_string(&file).expect("recording");
    assert!(!recorded.contains('\0'), "NUL bytes in the recording");
    let first: Value = serde_json::from_str(recorded.lines().next().unwrap_or("")).expect("JSON");
    assert_eq!(first["dir"], "out", "{first}");
    let replayed = run(&["tools", "--", BIN, "replay", &file]);
    assert_eq!(replayed.code, 0, "{}", replayed.stderr);
    assert!(replayed.stdout.contains("echo("), "{}", replayed.stdout);
    let _ = std::fs::remove_file(&file);
}
