//! The headless commands against real third-party servers from npm and PyPI, started the way a
//! user starts them: server-everything (stdio, Streamable HTTP, SSE), filesystem, memory,
//! mcp-server-time and a fastmcp server (both eras, stdio and HTTP).

use crate::cli;
use crate::peers;

use cli::{free_port, run, start_listening};
use serde_json::{Value, json};
use std::process::Command;

fn tool_names(j: &Value) -> Vec<String> {
    j["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str().map(String::from))
        .collect()
}

fn with(base: &[&str], conn: &[&str]) -> Vec<String> {
    base.iter().chain(conn).map(|s| s.to_string()).collect()
}

fn run_v(args: &[String]) -> cli::Run {
    run(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// `tools` and a conforming structured call against server-everything on one connection spec.
fn check_everything(conn: &[&str], transport: &str) {
    let tools = run_v(&with(&["tools", "--format", "json"], conn));
    assert_eq!(tools.code, 0, "{}", tools.stderr);
    let j = tools.json();
    assert_eq!(j["server"]["name"], "mcp-servers/everything");
    assert_eq!(
        j["server"]["protocolVersion"], "2025-11-25",
        "legacy only: auto fell back"
    );
    assert_eq!(j["server"]["transport"], transport);
    let names = tool_names(&j);
    for expected in [
        "echo",
        "get-sum",
        "get-structured-content",
        "trigger-long-running-operation",
    ] {
        assert!(
            names.contains(&expected.to_string()),
            "{expected} not in {names:?}"
        );
    }
    // Every field as the server wrote it, on every transport: `execution` (which rmcp's own
    // HTTP client used to drop) included.
    let research = j["tools"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "simulate-research-query"));
    assert_eq!(
        research.map(|t| t["execution"].clone()),
        Some(json!({"taskSupport": "required"})),
        "{transport}"
    );
    let call = run_v(&with(
        &[
            "call",
            "get-structured-content",
            "--arg",
            "location=Chicago",
        ],
        conn,
    ));
    assert_eq!(call.code, 0, "{}", call.stderr);
    let r = call.json();
    assert!(r["structuredContent"]["temperature"].is_number(), "{r}");
    assert_eq!(r["verdict"]["status"], "conforms");
    assert_eq!(r["verdict"]["dialect"], "draft-07");
    assert_eq!(r["verdict"]["textMirror"], "matches");
    let echo = run_v(&with(&["call", "echo", "--arg", "message=hi there"], conn)).json();
    assert_eq!(echo["content"][0]["text"], "Echo: hi there");
}

/// A session recorded with `--record` and served again by `mcp-inspect replay` gives the same
/// tool list and the same call result as the server did.
fn recorded_and_replayed(conn: &[&str], label: &str) {
    let dir = std::env::temp_dir();
    let file = |name: &str| {
        dir.join(format!(
            "mcp-inspect-{label}-{name}-{}.jsonl",
            std::process::id()
        ))
        .display()
        .to_string()
    };
    let (tools_file, call_file) = (file("tools"), file("call"));
    let live = run_v(&with(
        &["tools", "--format", "json", "--record", &tools_file],
        conn,
    ));
    assert_eq!(live.code, 0, "{}", live.stderr);
    let call = [
        "call",
        "get-structured-content",
        "--arg",
        "location=Chicago",
    ];
    let live_call = run_v(&with(
        &[&call[..], &["--record", &call_file]].concat(),
        conn,
    ));
    assert_eq!(live_call.code, 0, "{}", live_call.stderr);
    let replayed = run(&[
        "tools",
        "--format",
        "json",
        "--",
        cli::BIN,
        "replay",
        &tools_file,
    ]);
    assert_eq!(replayed.code, 0, "{}", replayed.stderr);
    let (live, replayed) = (live.json(), replayed.json());
    assert_eq!(live["tools"], replayed["tools"]);
    assert_eq!(live["server"]["name"], replayed["server"]["name"]);
    let replayed_call = run(&[&call[..], &["--", cli::BIN, "replay", &call_file]].concat());
    assert_eq!(replayed_call.code, 0, "{}", replayed_call.stderr);
    let (live_call, replayed_call) = (live_call.json(), replayed_call.json());
    for key in ["structuredContent", "content", "verdict"] {
        assert_eq!(live_call[key], replayed_call[key], "{key}");
    }
    let _ = std::fs::remove_file(&tools_file);
    let _ = std::fs::remove_file(&call_file);
}

#[test]
fn everything_over_stdio() {
    let Some(index) = peers::everything() else {
        return;
    };
    check_everything(&["--", "node", &index], "stdio");
    recorded_and_replayed(&["--", "node", &index], "stdio");
}

/// server-everything serving Streamable HTTP on `port` (ended when the guard drops).
fn everything_on(index: &str, port: u16) -> cli::Background {
    let mut cmd = Command::new("node");
    cmd.args([index, "streamableHttp"])
        .env("PORT", port.to_string());
    start_listening(cmd, port)
}

#[test]
fn everything_over_streamable_http() {
    let Some(index) = peers::everything() else {
        return;
    };
    let port = free_port();
    let _server = everything_on(&index, port);
    let url = format!("http://127.0.0.1:{port}/mcp");
    check_everything(&["--url", &url], "streamable-http");
    recorded_and_replayed(&["--url", &url], "http");
    resources_prompts_and_completions(&["--url", &url], "http");
}

#[test]
fn everything_over_legacy_sse() {
    let Some(index) = peers::everything() else {
        return;
    };
    let port = free_port();
    let mut cmd = Command::new("node");
    cmd.args([&index, "sse"]).env("PORT", port.to_string());
    let _server = start_listening(cmd, port);
    let url = format!("http://127.0.0.1:{port}/sse");
    check_everything(&["--url", &url], "sse");
    resources_prompts_and_completions(&["--url", &url], "sse");
}

/// A tool whose `execution.taskSupport` is `required` runs as a task: its status told as
/// progress while `tasks/get` is polled, the elicitation it needs answered through
/// `tasks/result`, and the tool's result printed at the end.
#[test]
fn a_task_tool_runs_as_a_task_with_its_input() {
    let Some(index) = peers::everything() else {
        return;
    };
    let out = run(&[
        "call",
        "simulate-research-query",
        "--arg",
        "topic=rust",
        "--arg",
        "ambiguous=true",
        "--on-elicitation",
        "defaults",
        "--",
        "node",
        &index,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for said in [
        "progress 1 task working: Gathering sources...",
        "task input_required: Found multiple interpretations",
        "the server asked elicitation/create",
        // Its one required field has no default: defaults cannot answer the form.
        "declined: required field has no default (`interpretation`)",
    ] {
        assert!(out.stderr.contains(said), "{said}:\n{}", out.stderr);
    }
    let text = out.json()["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        text.starts_with("# Research Report: rust (User declined - using default interpretation)"),
        "{text}"
    );
}

/// Under the tasks extension (SEP-2663, fastmcp-tasks): a tool that runs only as a task is
/// called (the call declares the extension; without it the server refuses with -32021), its
/// tool error comes back as the call's; a task that asks a question gets the answer through
/// `tasks/update` and ends with the tool's result.
#[test]
fn calls_go_through_the_tasks_extension() {
    let Some(python) = peers::path("venv-tasks/bin/python") else {
        return;
    };
    let script = peers::script("fastmcp_tasks_server.py");
    let failing = run(&["call", "failing_job", "--", &python, &script]);
    assert_eq!(failing.json()["isError"], true, "{}", failing.stdout);
    assert!(
        failing.stderr.contains("task completed"),
        "{}",
        failing.stderr
    );
    let asked = run(&[
        "call",
        "confirm_delete",
        "--arg",
        "filename=notes.txt",
        "--",
        &python,
        &script,
    ]);
    assert_eq!(asked.code, 0, "{}", asked.stderr);
    for said in [
        "for input in a task (round 1:",
        "answered with tasks/update",
        "Delete notes.txt?: declined",
        "task completed",
    ] {
        assert!(asked.stderr.contains(said), "{said}:\n{}", asked.stderr);
    }
    let text = asked.json()["content"][0]["text"].clone();
    assert_eq!(text, "notes.txt: decline None", "{}", asked.stdout);
}

/// The hostile server's tasks under the extension (`--hostile=tasks,modern`): a task whose
/// status never changes, with escape sequences in it, is given up at the timeout and shown
/// escaped; one that asks questions for ever is given up after ten rounds.
#[test]
fn a_hostile_task_under_the_extension_is_given_up_and_shown_escaped() {
    let out = run(&[
        "call",
        "task_liar",
        "--timeout",
        "2",
        "--hostile=tasks,modern",
    ]);
    assert_ne!(out.code, 0, "{}", out.stdout);
    assert!(out.stderr.contains("task working"), "{}", out.stderr);
    assert!(out.stderr.contains("no answer within 2"), "{}", out.stderr);
    for stream in [&out.stdout, &out.stderr] {
        assert!(!stream.contains('\u{1b}'), "{stream}");
    }
    // A task that asks a new question (escape sequences in it) at every poll: answered ten
    // rounds, then given up.
    let asker = run(&["call", "task_asker", "--hostile=tasks,modern"]);
    assert_ne!(asker.code, 0, "{}", asker.stdout);
    assert!(
        asker
            .stderr
            .contains("still asked for input after 10 rounds: stopped"),
        "{}",
        asker.stderr
    );
    assert_eq!(
        asker.stderr.matches("answered with tasks/update").count(),
        10
    );
    for stream in [&asker.stdout, &asker.stderr] {
        assert!(!stream.contains('\u{1b}'), "{stream}");
    }
}

#[test]
fn everything_sees_a_client_with_roots_sampling_and_elicitation() {
    let Some(index) = peers::everything() else {
        return;
    };
    let server = ["--", "node", index.as_str()];
    fn with<'a>(args: &[&'a str], server: &[&'a str]) -> Vec<&'a str> {
        [args, server].concat()
    }
    let names = tool_names(&run(&with(&["tools", "--format", "json"], &server)).json());
    for needs in [
        "get-roots-list",
        "trigger-elicitation-request",
        "trigger-sampling-request",
    ] {
        assert!(
            names.contains(&needs.to_string()),
            "{needs} listed: {names:?}"
        );
    }
    let minimal = run(&with(
        &[
            "tools",
            "--format",
            "json",
            "--no-roots",
            "--no-sampling",
            "--no-elicitation",
        ],
        &server,
    ))
    .json();
    let minimal = tool_names(&minimal);
    assert!(
        !minimal.contains(&"get-roots-list".to_string()),
        "{minimal:?}"
    );
    assert_eq!(minimal.len() + 4, names.len(), "{minimal:?} vs {names:?}");

    let dir = std::env::temp_dir();
    let roots = run(&with(
        &[
            "call",
            "get-roots-list",
            "--roots",
            dir.to_str().unwrap_or("/tmp"),
        ],
        &server,
    ));
    let uri = format!("file://{}", dir.display());
    assert!(roots.stdout.contains(&uri), "{}", roots.stdout);
    assert!(
        roots
            .stderr
            .contains(&format!("roots/list: answered {uri}")),
        "the request is told: {}",
        roots.stderr
    );

    // Without --roots the server is granted no directory (invariant 9): the capability is
    // declared, the list is empty, and the working directory is not handed over.
    let unasked = run(&with(&["call", "get-roots-list"], &server));
    let cwd = std::env::current_dir().expect("cwd");
    assert!(
        !unasked
            .stdout
            .contains(&format!("file://{}", cwd.display())),
        "{}",
        unasked.stdout
    );
    assert!(
        unasked.stderr.contains("roots/list: answered no roots"),
        "{}",
        unasked.stderr
    );
    let declared = run(&with(&["tools", "--format", "json"], &server)).json();
    assert_eq!(declared["server"]["roots"], json!([]), "{declared}");

    let elicited = run(&with(
        &[
            "call",
            "trigger-elicitation-request",
            "--on-elicitation",
            "defaults",
        ],
        &server,
    ));
    // Its form requires `name`, which has no default: defaults cannot answer it.
    assert!(
        elicited
            .stderr
            .contains("declined: required field has no default (`name`)"),
        "{}",
        elicited.stderr
    );
    assert!(
        elicited.stdout.contains("User declined"),
        "{}",
        elicited.stdout
    );
    let form = std::env::temp_dir().join(format!("mcp-inspect-form-{}.json", std::process::id()));
    std::fs::write(&form, r#"{"action": "accept", "content": {"name": "Ada"}}"#).expect("write");
    let filled = run(&with(
        &[
            "call",
            "trigger-elicitation-request",
            "--on-elicitation",
            form.to_str().unwrap_or_default(),
        ],
        &server,
    ));
    let _ = std::fs::remove_file(&form);
    assert!(
        filled
            .stdout
            .contains("User provided the requested information"),
        "{}",
        filled.stdout
    );

    let declined = run(&with(&["call", "trigger-elicitation-request"], &server));
    assert!(
        declined.stderr.contains(": declined"),
        "{}",
        declined.stderr
    );

    let answer =
        std::env::temp_dir().join(format!("mcp-inspect-sample-{}.json", std::process::id()));
    std::fs::write(
        &answer,
        r#"{"role": "assistant", "content": {"type": "text", "text": "forty-two"}, "model": "by-hand"}"#,
    )
    .expect("write");
    let sampled = run(&with(
        &[
            "call",
            "trigger-sampling-request",
            "--arg",
            "prompt=the answer?",
            "--on-sampling",
            answer.to_str().unwrap_or_default(),
        ],
        &server,
    ));
    assert!(sampled.stdout.contains("forty-two"), "{}", sampled.stdout);
    let rejected = run(&with(
        &["call", "trigger-sampling-request", "--arg", "prompt=x"],
        &server,
    ));
    assert!(
        rejected
            .stderr
            .contains("sampling/createMessage (1 message): rejected"),
        "{}",
        rejected.stderr
    );
    let _ = std::fs::remove_file(answer);
}

#[test]
fn filesystem_tools_have_output_schemas_that_conform() {
    let Some(index) = peers::filesystem() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("mcp-inspect-fs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("a.txt"), "hello").expect("file");
    let root = dir.to_string_lossy().into_owned();
    // A client that declares roots hands the server its directories: ours is the one it serves.
    let tools = run(&[
        "tools", "--format", "json", "--roots", &root, "--", "node", &index, &root,
    ])
    .json();
    let list = tools["tools"].as_array().expect("tools");
    assert!(list.len() >= 10);
    assert!(
        list.iter().all(|t| t["outputSchema"].is_object()),
        "every filesystem tool declares an outputSchema"
    );
    let call = run(&[
        "call",
        "read_text_file",
        "--arg",
        &format!("path={root}/a.txt"),
        "--roots",
        &root,
        "--",
        "node",
        &index,
        &root,
    ])
    .json();
    assert_eq!(call["structuredContent"], json!({"content": "hello"}));
    assert_eq!(call["verdict"]["status"], "conforms");
    let outside = run(&[
        "call",
        "read_text_file",
        "--arg",
        "path=/etc/hostname",
        "--",
        "node",
        &index,
        &root,
    ]);
    assert_eq!(outside.code, 5, "access outside the root is a tool error");
    assert_eq!(outside.json()["verdict"]["status"], "tool_error");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn memory_server_round_trip() {
    let Some(index) = peers::memory() else { return };
    let file = std::env::temp_dir().join(format!("mcp-inspect-memory-{}.json", std::process::id()));
    let env = format!("MEMORY_FILE_PATH={}", file.display());
    let created = run(&[
        "call",
        "create_entities",
        "--args",
        r#"{"entities": [{"name": "Ada", "entityType": "person", "observations": ["wrote notes"]}]}"#,
        "-e",
        &env,
        "--",
        "node",
        &index,
    ]);
    assert_eq!(created.code, 0, "{}", created.stderr);
    assert_eq!(created.json()["verdict"]["status"], "conforms");
    let graph = run(&["call", "read_graph", "-e", &env, "--", "node", &index]).json();
    assert_eq!(graph["structuredContent"]["entities"][0]["name"], "Ada");
    assert_eq!(graph["verdict"]["status"], "conforms");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn time_server_in_both_eras() {
    let Some(bin) = peers::time() else { return };
    for (protocol, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let tools = run(&[
            "tools",
            "--format",
            "json",
            "--protocol",
            protocol,
            "--",
            &bin,
            "--local-timezone",
            "UTC",
        ])
        .json();
        assert_eq!(tools["server"]["protocolVersion"], version);
        assert_eq!(tool_names(&tools), ["get_current_time", "convert_time"]);
        let call = run(&[
            "call",
            "get_current_time",
            "--arg",
            "timezone=Europe/Paris",
            "--protocol",
            protocol,
            "--",
            &bin,
            "--local-timezone",
            "UTC",
        ])
        .json();
        assert_eq!(call["structuredContent"]["timezone"], "Europe/Paris");
        assert_eq!(call["verdict"]["status"], "conforms", "{protocol}");
    }
}

fn check_fastmcp(conn: &[&str]) {
    for (protocol, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let tools = run_v(&with(
            &["tools", "--format", "json", "--protocol", protocol],
            conn,
        ));
        assert_eq!(tools.code, 0, "{}", tools.stderr);
        let j = tools.json();
        assert_eq!(j["server"]["protocolVersion"], version);
        // A tool with an invalid `x-mcp-header` is one 2026 clients must exclude: listed apart
        // with the reason there, and not called without --force.
        let modern = version == "2026-07-28";
        let mut expected = vec![
            "add",
            "greet",
            "get_point",
            "maybe_number",
            "fail",
            "regional",
        ];
        if !modern {
            expected.push("bad_header");
        }
        assert_eq!(tool_names(&j), expected);
        let rejected = j["rejected"].as_array().expect("rejected");
        assert_eq!(rejected.len(), usize::from(modern), "{rejected:?}");
        let call_bad = |more: &[&str]| {
            let mut args = vec![
                "call",
                "bad_header",
                "--arg",
                "region=eu",
                "--protocol",
                protocol,
            ];
            args.extend(more);
            run_v(&with(&args, conn))
        };
        if modern {
            assert_eq!(rejected[0]["name"], "bad_header");
            assert!(
                rejected[0]["reason"]
                    .as_str()
                    .is_some_and(|r| r.contains("clients of the 2026-07-28 era exclude it")),
                "{rejected:?}"
            );
            let refused = call_bad(&[]);
            assert_eq!(refused.code, 1, "{}", refused.stderr);
            assert!(
                refused.stderr.contains("--force calls it anyway"),
                "{}",
                refused.stderr
            );
            let forced = call_bad(&["--force"]);
            assert!(
                forced.stderr.contains("called with --force although"),
                "{}",
                forced.stderr
            );
        } else {
            assert_eq!(call_bad(&[]).code, 0);
        }
        let add = run_v(&with(
            &[
                "call",
                "add",
                "--arg",
                "a=40",
                "--arg",
                "b=2",
                "--protocol",
                protocol,
            ],
            conn,
        ))
        .json();
        assert_eq!(add["verdict"]["status"], "conforms");
        assert_eq!(
            add["verdict"]["boxing"],
            json!({"boxer": "fastmcp", "field": "result", "certain": true})
        );
        assert_eq!(add["verdict"]["value"], 42);
        let none = run_v(&with(
            &[
                "call",
                "maybe_number",
                "--arg",
                "give=false",
                "--protocol",
                protocol,
            ],
            conn,
        ))
        .json();
        assert_eq!(
            (
                none["verdict"]["status"].clone(),
                none["verdict"]["value"].clone()
            ),
            (json!("conforms"), Value::Null)
        );
        let point = run_v(&with(
            &[
                "call",
                "get_point",
                "--arg",
                "x=1",
                "--arg",
                "y=2",
                "--protocol",
                protocol,
            ],
            conn,
        ))
        .json();
        assert_eq!(point["verdict"]["boxing"], Value::Null);
        assert_eq!(
            point["structuredContent"],
            json!({"x": 1.0, "y": 2.0, "label": "origin"})
        );
        let fail = run_v(&with(&["call", "fail", "--protocol", protocol], conn));
        assert_eq!(fail.code, 5);
        assert_eq!(fail.json()["verdict"]["status"], "tool_error");
        // In the 2026 era over HTTP the argument also travels as `Mcp-Param-Region`, which
        // the server checks against the body.
        let regional = run_v(&with(
            &[
                "call",
                "regional",
                "--arg",
                "region=eu-west",
                "--protocol",
                protocol,
            ],
            conn,
        ));
        assert_eq!(regional.code, 0, "{}", regional.stderr);
        assert_eq!(regional.json()["verdict"]["value"], "eu-west");
        // A tool rmcp's HTTP client would drop without a word is listed (above) and `check`
        // says what is wrong with it: an error where 2026 clients drop it.
        let check = run_v(&with(&["check", "--protocol", protocol], conn));
        let severity = if version == "2026-07-28" {
            "error  "
        } else {
            "warning"
        };
        assert!(
            check.stdout.contains(&format!(
                "{severity} bad_header  /inputSchema/properties/region/x-mcp-header  \
                 x-mcp-header `Has Space` is not an HTTP header name"
            )),
            "{}",
            check.stdout
        );
        check_fastmcp_library(conn, protocol);
    }
}

/// fastmcp's resources, template and prompt through the headless commands: listed, read (a
/// text, a blob described and written byte for byte, a template expanded by the server),
/// and a prompt got with its arguments.
fn check_fastmcp_library(conn: &[&str], protocol: &str) {
    let go = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--format", "text", "--protocol", protocol]);
        let r = run_v(&with(&all, conn));
        assert_eq!(r.code, 0, "{args:?} {protocol}: {}", r.stderr);
        assert!(
            !r.stderr.contains("warning"),
            "{args:?} {protocol}: {}",
            r.stderr
        );
        r.stdout
    };
    assert_eq!(
        go(&["resources"]),
        "config://app  app_config  application/json  The app's settings.\n\
         data://dot.gif  dot  image/gif  A 1x1 GIF (a blob).\n"
    );
    assert!(go(&["templates"]).starts_with("users://{user_id}/profile  profile"));
    assert_eq!(
        go(&["read", "config://app"]),
        "contents[0]: config://app  application/json\n  {\"theme\": \"dark\", \"retries\": 3}\n"
    );
    assert!(go(&["read", "data://dot.gif"]).contains("blob: 43 bytes, GIF 1×1"));
    let transport = if conn[0] == "--url" { "http" } else { "stdio" };
    let file = std::env::temp_dir().join(format!(
        "mcp-inspect-dot-{}-{protocol}-{transport}.gif",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&file);
    go(&[
        "read",
        "data://dot.gif",
        "--out",
        &file.display().to_string(),
    ]);
    let written = std::fs::read(&file).expect("written");
    let _ = std::fs::remove_file(&file);
    assert_eq!(written.len(), 43);
    assert!(written.starts_with(b"GIF89a") && written.ends_with(b";"));
    assert!(go(&["read", "users://7/profile"]).contains(r#"{"id": "7", "name": "User 7"}"#));
    assert_eq!(
        go(&["prompts"]),
        "summarize(text*, style?)  Summarize a text.\n"
    );
    assert_eq!(
        go(&[
            "prompt",
            "summarize",
            "--arg",
            "text=hi",
            "--arg",
            "style=long"
        ]),
        "Summarize a text.\nuser: Summarize in a long style: hi\n"
    );
}

#[test]
fn fastmcp_over_stdio_in_both_eras() {
    let Some(python) = peers::python() else {
        return;
    };
    check_fastmcp(&["--", &python, &peers::fastmcp_script()]);
}

#[test]
fn fastmcp_over_http_in_both_eras() {
    let Some(python) = peers::python() else {
        return;
    };
    let port = free_port();
    let mut cmd = Command::new(&python);
    cmd.args([peers::fastmcp_script(), "http".into(), port.to_string()]);
    let _server = start_listening(cmd, port);
    let url = format!("http://127.0.0.1:{port}/mcp");
    check_fastmcp(&["--url", &url]);
    // What `tools --format json` prints is the listing as the server wrote it: equal to the
    // recorded wire message (every tool, every key, in order), in the legacy era where no tool
    // is set apart.
    let file =
        std::env::temp_dir().join(format!("mcp-inspect-fastmcp-{}.jsonl", std::process::id()));
    let path = file.display().to_string();
    let tools = run(&[
        "tools",
        "--format",
        "json",
        "--protocol",
        "legacy",
        "--record",
        &path,
        "--url",
        &url,
    ]);
    assert_eq!(tools.code, 0, "{}", tools.stderr);
    let recorded = std::fs::read_to_string(&file).expect("recorded");
    let _ = std::fs::remove_file(&file);
    let listing = recorded
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|l| l["dir"] == "in" && l["message"]["result"]["tools"].is_array())
        .expect("a tools/list answer recorded");
    assert_eq!(tools.json()["tools"], listing["message"]["result"]["tools"]);
    assert!(
        !recorded.contains("\"as\""),
        "recorded as sent, not as parsed"
    );
}

/// Resources, templates, reads, prompts, completions and ping against server-everything on
/// one connection spec, as a user types them.
fn resources_prompts_and_completions(conn: &[&str], label: &str) {
    let go = |args: &[&str]| run(&[args, conn].concat());
    let resources = go(&["resources", "--format", "json"]);
    assert_eq!(resources.code, 0, "{}", resources.stderr);
    let listed = resources.json()["resources"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        listed
            .iter()
            .any(|r| r["uri"] == "demo://resource/static/document/features.md"),
        "{listed:?}"
    );
    let templates = go(&["templates"]);
    assert!(
        templates
            .stdout
            .contains("demo://resource/dynamic/text/{resourceId}  Dynamic Text Resource"),
        "{}",
        templates.stdout
    );
    let text = go(&["read", "demo://resource/dynamic/text/7"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout
            .contains("  Resource 7: This is a plaintext resource"),
        "{}",
        text.stdout
    );
    let out = std::env::temp_dir().join(format!("mcp-inspect-blob-{label}-{}", std::process::id()));
    let _ = std::fs::remove_file(&out);
    let path = out.display().to_string();
    let blob = go(&["read", "demo://resource/dynamic/blob/7", "--out", &path]);
    assert_eq!(blob.code, 0, "{}", blob.stderr);
    let bytes = std::fs::read(&out).expect("written");
    assert!(
        String::from_utf8_lossy(&bytes).starts_with("Resource 7"),
        "decoded: {bytes:?}"
    );
    let again = go(&["read", "demo://resource/dynamic/blob/7", "--out", &path]);
    assert_eq!(again.code, 1, "never over an existing file");
    let _ = std::fs::remove_file(&out);
    let missing = go(&["read", "demo://nothing/here"]);
    assert_eq!(missing.code, 5, "{}", missing.stderr);
    let prompts = go(&["prompts"]);
    assert!(
        prompts.stdout.contains("args-prompt(city*, state?)"),
        "{}",
        prompts.stdout
    );
    let prompt = go(&["prompt", "args-prompt", "--arg", "city=Paris"]);
    assert_eq!(
        prompt.stdout.trim(),
        "user: What's weather in Paris?",
        "{}",
        prompt.stderr
    );
    let complete = go(&[
        "complete",
        "--prompt",
        "completable-prompt",
        "name",
        "",
        "--context",
        "department=Engineering",
    ]);
    assert_eq!(
        complete.stdout.lines().collect::<Vec<_>>(),
        ["Alice", "Bob", "Charlie"]
    );
    let ping = go(&["ping", "--format", "json"]);
    assert!(ping.json()["ms"].is_number(), "{}", ping.stdout);
}

#[test]
fn everything_resources_prompts_and_completions_over_stdio() {
    let Some(index) = peers::everything() else {
        return;
    };
    resources_prompts_and_completions(&["--", "node", &index], "stdio");
}

/// server-everything restarted during a session forgets its HTTP session and answers the next
/// POST with 400 "No valid session ID provided": the call still succeeds, on a new session made
/// by a new handshake, and the connection says so.
#[tokio::test]
async fn a_restarted_http_server_gets_a_new_session_and_the_call_goes_through() {
    use mcp_inspect::testing::config::target::HttpTransport;
    use mcp_inspect::testing::mcp::{ConnectOptions, EventSink, ProtocolChoice, ServerEvent};
    let Some(index) = peers::everything() else {
        return;
    };
    let port = free_port();
    let start = || everything_on(&index, port);
    let server = start();
    let wire = mcp_inspect::testing::mcp::transport::wire::WireLog::default();
    let target = mcp_inspect::testing::config::target::Target::Http {
        url: format!("http://127.0.0.1:{port}/mcp"),
        transport: HttpTransport::Streamable,
        headers: vec![],
    };
    let options = ConnectOptions {
        wire: Some(wire.clone()),
        ..cli::options(target, ProtocolChoice::Auto)
    };
    let (sink, mut events) = EventSink::new();
    let session = mcp_inspect::testing::mcp::connect(&options, &sink)
        .await
        .expect("connect");
    let sum = |a: i64, b: i64| json!({"a": a, "b": b});
    let first = session.call_tool("get-sum", sum(1, 2), false).await;
    assert!(first.expect("first call").texts()[0].contains('3'));
    drop(server);
    let _restarted = start();
    let again = session.call_tool("get-sum", sum(20, 22), false).await;
    let again = match again {
        Ok(a) => a,
        Err(e) => {
            while let Some(event) = events.try_recv() {
                eprintln!("{event:?}");
            }
            for m in wire.take().0 {
                eprintln!("{:?} {:?} {:?}", m.direction, m.message, m.http);
            }
            panic!("the call after the restart: {e:?}");
        }
    };
    assert!(again.texts()[0].contains("42"), "{:?}", again.texts());
    let mut said = false;
    while let Some(event) = events.try_recv() {
        if let ServerEvent::Notice(text) = event {
            said |= text.contains("no longer knows this HTTP session (HTTP 400");
        }
    }
    assert!(said, "the new session is announced");
    session.shutdown().await;
}

/// server-everything's subscriptions, over stdio and Streamable HTTP: subscribed with
/// `resources/subscribe`, its simulated updates (started by its `toggle-subscriber-updates`
/// tool) arrive as events naming the resource.
#[tokio::test]
async fn everything_tells_a_subscribed_resource_changed() {
    use mcp_inspect::testing::config::target::HttpTransport;
    use mcp_inspect::testing::config::target::Target;
    use mcp_inspect::testing::mcp::{EventSink, ProtocolChoice, ServerEvent};
    let Some(index) = peers::everything() else {
        return;
    };
    let port = free_port();
    let _server = everything_on(&index, port);
    let targets = [
        Target::Stdio {
            command: "node".into(),
            args: vec![index.clone()],
            env: vec![],
            cwd: None,
        },
        Target::Http {
            url: format!("http://127.0.0.1:{port}/mcp"),
            transport: HttpTransport::Streamable,
            headers: vec![],
        },
    ];
    const URI: &str = "demo://resource/static/document/features.md";
    for target in targets {
        let options = cli::options(target, ProtocolChoice::Auto);
        let (sink, mut events) = EventSink::new();
        let session = mcp_inspect::testing::mcp::connect(&options, &sink)
            .await
            .expect("connect");
        session.subscribe(URI, true).await.expect("subscribe");
        let toggled = session
            .call_tool("toggle-subscriber-updates", json!({}), false)
            .await
            .expect("toggle");
        assert!(!toggled.texts().is_empty());
        let updated = tokio::time::timeout(std::time::Duration::from_secs(15), async {
            loop {
                match events.recv().await {
                    Some(ServerEvent::ResourceUpdated(uri)) => return uri,
                    Some(_) => {}
                    None => panic!("events ended"),
                }
            }
        })
        .await
        .expect("an update within 15 s");
        assert_eq!(updated, URI);
        session.subscribe(URI, false).await.expect("unsubscribe");
        session.shutdown().await;
    }
}

/// Roots edited during a session (the TUI's `R`): server-everything is told
/// (`notifications/roots/list_changed`), asks again, and its `get-roots-list` tool lists the new
/// root; a directory that does not exist is refused by name.
#[tokio::test]
async fn everything_hears_of_roots_changed_during_the_session() {
    use mcp_inspect::testing::config::target::Target;
    use mcp_inspect::testing::mcp::session::client_side::{file_uri, root_uris};
    use mcp_inspect::testing::mcp::{EventSink, ProtocolChoice, ServerEvent};
    let Some(index) = peers::everything() else {
        return;
    };
    let target = Target::Stdio {
        command: "node".into(),
        args: vec![index],
        env: vec![],
        cwd: None,
    };
    let options = cli::options(target, ProtocolChoice::Auto);
    let (sink, mut events) = EventSink::new();
    let session = mcp_inspect::testing::mcp::connect(&options, &sink)
        .await
        .expect("connect");
    let before = session
        .call_tool("get-roots-list", json!({}), false)
        .await
        .expect("roots before");
    assert!(!before.texts().join(" ").contains("file://"), "{before:?}");
    let dir = std::env::temp_dir().join(format!("mcp-inspect-roots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let uris = root_uris(&[dir.to_string_lossy().into_owned()]).expect("a directory");
    assert_eq!(uris, vec![file_uri(&dir)]);
    let how = session.set_roots(uris.clone()).await.expect("told");
    assert!(how.contains("notifications/roots/list_changed"), "{how}");
    tokio::time::timeout(std::time::Duration::from_secs(15), async {
        loop {
            match events.recv().await {
                Some(ServerEvent::Log { data, .. })
                    if data.to_string().contains("Roots updated: 1 root(s)") =>
                {
                    return;
                }
                Some(_) => {}
                None => panic!("events ended"),
            }
        }
    })
    .await
    .expect("server-everything never asked for the new roots");
    let after = session
        .call_tool("get-roots-list", json!({}), false)
        .await
        .expect("roots after");
    assert!(after.texts().join(" ").contains(&uris[0]), "{after:?}");
    session.shutdown().await;
    let missing = root_uris(&["/no/such/dir-mcp-inspect".into()]);
    assert!(
        missing.is_err_and(|e| e.starts_with("/no/such/dir-mcp-inspect: ")),
        "a missing directory is refused by name"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A fresh fastmcp server declares no annotations: `verify` skips every tool and says so with
/// exit 7 (never a pass), and `--allow-all` verifies every one with no false positive.
#[test]
fn verify_on_an_unannotated_fastmcp_server_is_never_a_silent_pass() {
    let Some(python) = peers::python() else {
        return;
    };
    let script = peers::fastmcp_script();
    let skipped = run(&["verify", "--", &python, &script]);
    assert_eq!(skipped.code, 7, "{}", skipped.stderr);
    assert!(
        skipped
            .stderr
            .contains("nothing verified: all 7 tools were skipped")
            && skipped.stderr.contains("--allow-all"),
        "{}",
        skipped.stderr
    );
    let all = run(&[
        "verify",
        "--allow-all",
        "--calls",
        "20",
        "--seed",
        "3",
        "--",
        &python,
        &script,
    ]);
    assert_eq!(all.code, 0, "{}{}", all.stdout, all.stderr);
    assert!(
        all.stdout
            .contains("0 tools failed, 7 passed, 0 not checked, 0 skipped"),
        "{}",
        all.stdout
    );
}
