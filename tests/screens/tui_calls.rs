//! Calling tools from the TUI: the argument editor checked live, confirmations, progress,
//! cancellation, results with verdicts and marks, history, drafts kept across tools; with
//! snapshots of each screen at 80×24 and 120×40.

use crate::tui;

use mcp_inspect::testing::app::call::state::{CallState, Judged};
use mcp_inspect::testing::app::effect::Handed;
use mcp_inspect::testing::app::model::{Model, Pane};
use mcp_inspect::testing::app::update::{Effect, Listed, Msg, SessionRequest, update};
use mcp_inspect::testing::mcp::surface::result::CallResult;
use mcp_inspect::testing::mcp::surface::tool::decode_tool;
use mcp_inspect::testing::mcp::{RequestError, ServerEvent};
use mcp_inspect::testing::schema::Era;
use ratatui::style::Color;
use serde_json::{Value, json};
use std::time::Duration;
use tui::{demo_model, find, listing, press, render, text, type_text};

fn open_call(model: &mut Model, tool: &str) {
    press(model, &["/"]);
    type_text(model, tool);
    press(model, &["enter", "a"]);
    assert_eq!(model.view.focus, Pane::Call);
}

/// Types each value into the form's rows, from the one selected down.
fn fill(model: &mut Model, values: &[&str]) {
    for value in values {
        type_text(model, value);
        press(model, &["down"]);
    }
}

fn draft(model: &Model, tool: &str) -> Value {
    model
        .call(tool)
        .expect("call panel")
        .arguments()
        .expect("draft parses")
}

/// Sends (confirming if asked) and returns the call's id and arguments.
fn send(model: &mut Model) -> (u64, Value) {
    for _ in 0..3 {
        for effect in press(model, &["ctrl-s"]) {
            if let Effect::Session(SessionRequest::Call { id, arguments, .. }) = effect {
                return (id, arguments);
            }
        }
    }
    panic!("no call was sent: {:?}", model.view.status);
}

/// A raw result judged as the connection task judges it.
fn judged(model: &Model, tool: &str, raw: Value) -> Box<Judged> {
    let output = model.call(tool).and_then(|c| c.output().cloned());
    let era = model.session.server.as_ref().map_or(Era::Legacy, |s| s.era);
    Box::new(Judged::new(CallResult::decode(raw), output.as_deref(), era))
}

/// Finishes call `id` of `tool` with a raw result, with a fixed elapsed time for stable screens.
fn finish(model: &mut Model, tool: &str, id: u64, raw: Value) {
    let outcome = Ok(judged(model, tool, raw));
    update(
        model,
        Msg::CallFinished {
            tool: tool.into(),
            id,
            outcome,
        },
    );
    if let Some(r) = model.call_mut(tool).and_then(|c| c.history.last_mut()) {
        r.elapsed = Duration::from_millis(12);
    }
}

fn snapshot(name: &str, model: &mut Model) {
    for (w, h) in [(80, 24), (120, 40)] {
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), text(&render(model, w, h)));
    }
}

#[test]
fn the_arguments_start_as_a_form_and_are_checked_live() {
    let mut m = demo_model();
    open_call(&mut m, "search");
    assert_eq!(draft(&m, "search"), json!({"limit": 10, "mode": "fast"}));
    assert_eq!(
        m.call("search").expect("call panel").violations.len(),
        1,
        "query is required"
    );
    snapshot("editor_violations", &mut m);
    // The first required row is selected: typing fills it.
    type_text(&mut m, "mcp");
    assert_eq!(draft(&m, "search")["query"], "mcp");
    assert!(m.call("search").expect("call panel").violations.is_empty());
    // The same arguments as JSON; the cursor at the end of the row's line.
    press(&mut m, &["ctrl-f"]);
    assert!(
        m.call("search")
            .expect("call panel")
            .text()
            .contains("\"query\": \"mcp\"")
    );
    type_text(&mut m, "\"oops");
    assert!(
        m.call("search")
            .expect("call panel")
            .parse_error
            .as_deref()
            .is_some_and(|e| e.starts_with("not JSON"))
    );
    assert!(
        press(&mut m, &["ctrl-s"]).is_empty(),
        "not JSON is never sent"
    );
    assert!(
        m.view
            .status
            .as_deref()
            .is_some_and(|s| s.starts_with("not JSON"))
    );
    press(&mut m, &["ctrl-f"]);
    assert!(
        m.view
            .status
            .as_deref()
            .is_some_and(|s| s.contains("does not parse")),
        "{:?}",
        m.view.status
    );
    press(&mut m, &["ctrl-z", "ctrl-z", "ctrl-z", "ctrl-z", "ctrl-z"]);
    assert!(
        m.call("search").expect("call panel").parse_error.is_none(),
        "undo brings the JSON back"
    );
    press(&mut m, &["ctrl-f"]);
    assert!(m.call("search").expect("call panel").draft.in_form);
    assert_eq!(
        draft(&m, "search")["query"],
        "mcp",
        "back in the form, the value kept"
    );
}

#[test]
fn invalid_arguments_and_destructive_tools_ask_before_sending() {
    let mut m = demo_model();
    open_call(&mut m, "echo");
    assert!(press(&mut m, &["ctrl-s"]).is_empty());
    assert!(
        m.view
            .status
            .as_deref()
            .is_some_and(|s| s.contains("press send again to send them anyway"))
    );
    // Asked under the draft too, where the eyes are.
    let screen = text(&render(&mut m, 120, 40));
    let asked = "⚠ the arguments break the input schema in 1 place: press send again";
    let below_draft = screen
        .lines()
        .skip_while(|l| !l.contains("┌ arguments"))
        .take(8)
        .any(|l| l.contains(asked));
    assert!(below_draft, "{screen}");
    let (_, args) = send(&mut m);
    assert_eq!(args, json!({}), "sent on purpose after the confirmation");
    let mut m = demo_model();
    open_call(&mut m, "delete_everything");
    assert!(press(&mut m, &["ctrl-s"]).is_empty());
    assert!(
        m.view
            .status
            .as_deref()
            .is_some_and(|s| s.contains("destructive"))
    );
    let effects = press(&mut m, &["ctrl-s"]);
    assert!(matches!(
        effects.as_slice(),
        [Effect::Session(SessionRequest::Call { .. })]
    ));
}

#[test]
fn a_tool_the_era_excludes_is_called_only_when_asked_twice() {
    let mut m = demo_model();
    let bad = json!({"name": "bad_header", "inputSchema": {"type": "object",
        "properties": {"r": {"type": "object", "x-mcp-header": "R"}}}});
    let mut tools = tui::demo_tools();
    tools.tools.push(decode_tool(&bad).expect("tool"));
    update(&mut m, Msg::ToolsListed(tools));
    open_call(&mut m, "bad_header");
    assert!(press(&mut m, &["ctrl-s"]).is_empty(), "not sent at once");
    assert!(
        m.view
            .status
            .as_deref()
            .is_some_and(|s| s.contains("exclude this tool")),
        "{:?}",
        m.view.status
    );
    let effects = press(&mut m, &["ctrl-s"]);
    assert!(
        matches!(
            effects.as_slice(),
            [Effect::Session(SessionRequest::Call { .. })]
        ),
        "{effects:?} {:?}",
        m.view.status
    );
}

#[test]
fn a_call_in_flight_shows_progress_and_can_be_cancelled() {
    let mut m = demo_model();
    open_call(&mut m, "slow");
    let (id, _) = send(&mut m);
    update(
        &mut m,
        Msg::CallStarted {
            tool: "slow".into(),
            id,
            token: "7".into(),
            request: "8".into(),
        },
    );
    update(
        &mut m,
        Msg::Server(ServerEvent::Progress {
            token: "7".into(),
            progress: 5.0,
            total: Some(10.0),
            message: Some("step 5 of 10".into()),
        }),
    );
    update(
        &mut m,
        Msg::Server(ServerEvent::Progress {
            token: "other".into(),
            progress: 9.0,
            total: Some(10.0),
            message: None,
        }),
    );
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("[██████████░░░░░░░░░░] 50% step 5 of 10 · timeout in"),
        "{screen}"
    );
    for (w, h) in [(80, 24), (120, 40)] {
        insta::assert_snapshot!(
            format!("in_flight_{w}x{h}"),
            steady(&text(&render(&mut m, w, h)))
        );
    }
    assert!(m.busy());
    let effects = press(&mut m, &["ctrl-x"]);
    assert_eq!(effects, [Effect::Session(SessionRequest::Cancel { id })]);
    assert!(render_contains(&mut m, "cancelling…"));
    update(
        &mut m,
        Msg::CallFinished {
            tool: "slow".into(),
            id,
            outcome: Err(RequestError::Cancelled),
        },
    );
    assert!(!m.busy());
    m.call_mut("slow")
        .and_then(|c| c.history.last_mut())
        .expect("record")
        .elapsed = Duration::from_millis(12);
    snapshot("cancelled", &mut m);
    assert!(
        m.log
            .lines
            .iter()
            .any(|l| l.text.contains("cancelled (notifications/cancelled sent)"))
    );
    // The log names the request's own id, the one the protocol pane shows.
    assert!(
        m.log.lines.iter().any(|l| l
            .text
            .starts_with(&format!("call #{id} (request #8) slow: cancelled"))),
        "{:?}",
        m.log.lines
    );
    let outcome = Ok(judged(&m, "slow", json!({"content": []})));
    update(
        &mut m,
        Msg::CallFinished {
            tool: "slow".into(),
            id,
            outcome,
        },
    );
    assert!(
        m.log
            .lines
            .back()
            .is_some_and(|l| l.text.contains("an answer arrived after it ended; ignored")),
        "a late answer goes to the log"
    );
    assert_eq!(m.call("slow").expect("call panel").history.len(), 1);
}

/// The in-flight line with its clock-driven parts (spinner, seconds) made steady for a snapshot.
fn steady(screen: &str) -> String {
    screen
        .lines()
        .map(|l| {
            if !l.contains("timeout in") {
                return l.to_string();
            }
            l.chars()
                .map(|c| match c {
                    '⠋' | '⠙' | '⠹' | '⠸' | '⠼' | '⠴' | '⠦' | '⠧' | '⠇' | '⠏' => {
                        '*'
                    }
                    c if c.is_ascii_digit() => '#',
                    c => c,
                })
                .collect()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn render_contains(m: &mut Model, needle: &str) -> bool {
    text(&render(m, 120, 40)).contains(needle)
}

#[test]
fn results_with_each_verdict() {
    let cases = [
        (
            "lookup_user",
            "conforming",
            json!({"content": [{"type": "text", "text": "{}"}], "structuredContent": {"user": {"id": "00000000-0000-4000-8000-000000000000", "email": "a@b.c", "role": "admin", "manager": null}}}),
        ),
        (
            "bad_output",
            "violating",
            json!({"content": [{"type": "text", "text": "look closely"}], "structuredContent": {"count": -3, "status": "unknown", "items": ["a", 2]}}),
        ),
        (
            "fail",
            "tool_error",
            json!({"content": [{"type": "text", "text": "the operation failed: no"}], "isError": true}),
        ),
        (
            "add",
            "boxed",
            json!({"content": [{"type": "text", "text": "42"}], "structuredContent": {"result": 42}, "_meta": {"fastmcp": {"wrap_result": true}}}),
        ),
        (
            "falsy",
            "falsy",
            json!({"content": [{"type": "text", "text": "0"}], "structuredContent": 0}),
        ),
        (
            "echo",
            "content_only",
            json!({"content": [{"type": "text", "text": "hi"}, {"type": "image", "data": "aGVsbG8=", "mimeType": "image/png"}]}),
        ),
    ];
    for (tool, name, raw) in cases {
        let mut m = demo_model();
        open_call(&mut m, tool);
        let (id, _) = send(&mut m);
        finish(&mut m, tool, id, raw);
        snapshot(&format!("result_{name}"), &mut m);
    }
}

#[test]
fn violations_are_red_and_reachable_by_key() {
    let mut m = demo_model();
    open_call(&mut m, "bad_output");
    let (id, _) = send(&mut m);
    finish(
        &mut m,
        "bad_output",
        id,
        json!({"content": [], "structuredContent": {"count": -3, "status": "unknown", "items": ["a", 2]}}),
    );
    let buffer = render(&mut m, 120, 40);
    let (x, y) = find(&buffer, "\"count\": -3  ←").expect("marked row");
    assert_eq!(buffer[(x, y)].fg, Color::Red);
    assert!(text(&buffer).contains("\"count\": -3  ← -3 is less than the minimum of 0"));
    let cursor = |m: &Model| {
        let v = m
            .call("bad_output")
            .expect("call panel")
            .value
            .as_ref()
            .expect("value view");
        v.tree.rows[v.cursor].pointer.clone()
    };
    press(&mut m, &["n"]);
    assert_eq!(cursor(&m), "/count");
    press(&mut m, &["n", "n"]);
    assert_eq!(cursor(&m), "/items/1", "n walks the violations in order");
    press(&mut m, &["N"]);
    assert_eq!(cursor(&m), "/status");
    let jq = match press(&mut m, &["y", "j"]).as_slice() {
        [Effect::Copy(c)] => c.text.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(jq, ".structuredContent.status");
    press(&mut m, &["g", "j", "j", "j"]);
    assert_eq!(cursor(&m), "/items");
    press(&mut m, &["h"]);
    assert!(
        render_contains(&mut m, "▸ \"items\": [2 items]"),
        "collapsed"
    );
    let effects = press(&mut m, &["y", "s"]);
    let [Effect::Copy(sub)] = effects.as_slice() else {
        panic!("copy: {effects:?}")
    };
    assert_eq!(
        serde_json::from_str::<Value>(&sub.text).expect("json"),
        json!(["a", 2])
    );
}

#[test]
fn boxed_values_toggle_raw_and_history_keeps_every_result() {
    let mut m = demo_model();
    open_call(&mut m, "add");
    let (first, _) = send(&mut m);
    finish(
        &mut m,
        "add",
        first,
        json!({"content": [], "structuredContent": {"result": 1}, "_meta": {"fastmcp": {"wrap_result": true}}}),
    );
    press(&mut m, &["a"]);
    let (second, _) = send(&mut m);
    finish(
        &mut m,
        "add",
        second,
        json!({"content": [], "structuredContent": {"result": 2}, "_meta": {"fastmcp": {"wrap_result": true}}}),
    );
    assert!(render_contains(
        &mut m,
        "value (unboxed; w shows it as sent)"
    ));
    press(&mut m, &["w"]);
    assert!(render_contains(&mut m, "\"result\": 2"));
    press(&mut m, &["["]);
    assert!(render_contains(&mut m, "call #1 · result 1/2"));
    assert!(render_contains(&mut m, "\"result\": 1"));
    press(&mut m, &["]"]);
    assert!(render_contains(&mut m, "call #2 · result 2/2"));
}

#[test]
fn drafts_survive_switching_tools() {
    let mut m = demo_model();
    open_call(&mut m, "echo");
    type_text(&mut m, "kept");
    press(&mut m, &["esc", "esc", "esc", "esc"]);
    press(&mut m, &["/"]);
    type_text(&mut m, "add");
    press(&mut m, &["enter", "a", "esc", "esc", "esc", "esc", "/"]);
    type_text(&mut m, "echo");
    press(&mut m, &["enter", "a"]);
    assert_eq!(draft(&m, "echo"), json!({"message": "kept"}));
}

#[test]
fn results_and_calls_can_be_copied() {
    let mut m = demo_model();
    m.session.connection_args = vec!["--".into(), "my server".into(), "--flag".into()];
    open_call(&mut m, "add");
    fill(&mut m, &["0", "0"]);
    let (id, _) = send(&mut m);
    finish(
        &mut m,
        "add",
        id,
        json!({"content": [], "structuredContent": {"result": 0}, "_meta": {"fastmcp": {"wrap_result": true}}}),
    );
    let copied = |m: &mut Model, key: &str| match press(m, &["y", key]).as_slice() {
        [Effect::Copy(c)] => c.clone(),
        other => panic!("{key}: {other:?} {:?}", m.view.status),
    };
    let value = copied(&mut m, "v");
    assert_eq!(
        (value.label.as_str(), value.text.as_str()),
        ("unboxed value", "0")
    );
    let result = copied(&mut m, "r");
    assert_eq!(
        serde_json::from_str::<Value>(&result.text).expect("json")["structuredContent"],
        json!({"result": 0})
    );
    let request = copied(&mut m, "q");
    assert_eq!(
        serde_json::from_str::<Value>(&request.text).expect("json"),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 0, "b": 0}}})
    );
    let command = copied(&mut m, "c");
    assert_eq!(
        command.text,
        r#"mcp-inspect call add --args '{"a":0,"b":0}' -- 'my server' --flag"#
    );
}

#[test]
fn long_text_content_is_wrapped_not_cut() {
    let mut m = demo_model();
    open_call(&mut m, "echo");
    let (id, _) = send(&mut m);
    let long: String = (0..300)
        .map(|i| char::from(b'a' + (i % 26) as u8))
        .collect();
    finish(
        &mut m,
        "echo",
        id,
        json!({"content": [{"type": "text", "text": long}]}),
    );
    let lines: Vec<String> = text(&render(&mut m, 120, 60))
        .lines()
        .map(String::from)
        .collect();
    let wrapped: String = lines
        .iter()
        .filter(|l| l.contains("abcdefghij") || l.contains("klmnopqrst"))
        .map(|l| {
            l.trim_matches(|c: char| !c.is_ascii_lowercase())
                .to_string()
        })
        .collect();
    assert!(
        wrapped.len() >= 300,
        "all 300 characters are on screen across lines:\n{}",
        lines.join("\n")
    );
}

#[test]
fn a_result_keeps_the_arguments_that_were_sent() {
    let mut m = demo_model();
    open_call(&mut m, "add");
    let (id, sent) = send(&mut m);
    press(&mut m, &["a", "down", "end"]);
    type_text(&mut m, "9");
    finish(
        &mut m,
        "add",
        id,
        json!({"content": [], "structuredContent": {"result": 0}}),
    );
    assert_eq!(
        m.call("add").expect("call panel").history[0].arguments,
        sent,
        "edits made during the call are not the call"
    );
    // Beside the changed draft, the result says what produced it.
    let compact = serde_json::to_string(&sent).expect("json");
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains(&format!("sent (not the draft above): {compact}")),
        "{compact}: {screen}"
    );
}

/// The live check of a draft is cut at its budget (`LIVE_CHECK_BUDGET`) and says so: a key
/// never waits for a whole validation. How long a key takes is measured by `cargo bench --bench
/// tui -- form`, not here (a wall-clock bound in a test measures the machine, not the code).
#[test]
fn a_slow_input_schema_is_checked_within_its_budget_and_says_so() {
    let choices: Vec<Value> = (0..50_000).map(|i| json!({"k": i})).collect();
    let tool = mcp_inspect::testing::mcp::surface::tool::decode_tool(
        &json!({"name": "slow", "inputSchema": {
            "type": "object",
            "properties": {"items": {"type": "array", "items": {"enum": choices}}}
        }}),
    )
    .expect("tool");
    let mut m = demo_model();
    update(&mut m, Msg::ToolsListed(tui::listing(vec![tool])));
    // A large tool: its panel is built off the UI thread, as the runtime does.
    for effect in press(&mut m, &["a"]) {
        if let Effect::BuildCall(Listed(entry)) = effect {
            let state = Handed::new(CallState::new(&entry.tool));
            update(&mut m, Msg::CallBuilt { entry, state });
        }
    }
    // A huge draft pasted as JSON (ctrl-f: the JSON draft); each item matches only the
    // enum's last entry: a billion comparisons to conform, far past the budget on any machine.
    press(&mut m, &["ctrl-f"]);
    let draft = json!({"items": vec![json!({"k": 49_999}); 20_000]}).to_string();
    m.call_mut("slow").expect("panel").set_text(&draft);
    let problem = m
        .call("slow")
        .expect("call panel")
        .parse_error
        .clone()
        .unwrap_or_default();
    assert!(
        problem.contains("arguments not checked: validation exceeded 0.10 s"),
        "{problem}"
    );
}

#[test]
fn time_in_flight_is_the_time_the_runtime_gives() {
    let mut m = demo_model();
    m.session.limits.timeout = std::time::Duration::from_secs(30);
    m.session.limits.max_time = std::time::Duration::from_secs(45);
    open_call(&mut m, "slow");
    let (id, _) = send(&mut m);
    m.now += std::time::Duration::from_millis(12_300);
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("running 12.3s"), "{screen}");
    assert!(screen.contains("timeout in 17s"), "{screen}");
    // Progress restarts the countdown at the time it arrives.
    update(
        &mut m,
        Msg::CallStarted {
            tool: "slow".into(),
            id,
            token: "7".into(),
            request: "8".into(),
        },
    );
    let progress = || {
        Msg::Server(ServerEvent::Progress {
            token: "7".into(),
            progress: 1.0,
            total: None,
            message: None,
        })
    };
    update(&mut m, progress());
    m.now += std::time::Duration::from_secs(10);
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("running 22.3s"), "{screen}");
    assert!(screen.contains("timeout in 20s"), "{screen}");
    // Progress never carries the countdown past the call's time limit (--max-time).
    m.now += std::time::Duration::from_secs(8);
    update(&mut m, progress());
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("running 30.3s"), "{screen}");
    assert!(screen.contains("timeout in 14s"), "{screen}");
}

/// While the server waits on the user (its request open in a panel), the session does not
/// time the calls in flight, and the panel says so; once answered, the wait starts again.
#[test]
fn a_call_is_not_timed_while_the_server_waits_on_the_user() {
    let mut m = demo_model();
    m.session.limits.timeout = std::time::Duration::from_secs(30);
    open_call(&mut m, "slow");
    send(&mut m);
    m.now += std::time::Duration::from_secs(25);
    update(
        &mut m,
        Msg::Server(ServerEvent::Asked {
            id: 3,
            method: "elicitation/create".into(),
            params: json!({"message": "Your name?", "requestedSchema": {"type": "object",
                "properties": {"name": {"type": "string", "default": "Ada"}}}}),
        }),
    );
    m.now += std::time::Duration::from_secs(60);
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("not timed while the server waits on you"),
        "{screen}"
    );
    assert!(!screen.contains("timeout in"), "{screen}");
    press(&mut m, &["ctrl-s"]);
    assert!(m.asked.is_empty(), "answered");
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("running 85.0s"), "{screen}");
    assert!(screen.contains("timeout in 30s"), "{screen}");
}

#[test]
fn quitting_while_a_call_runs_asks_first() {
    let mut m = demo_model();
    open_call(&mut m, "slow");
    send(&mut m);
    press(&mut m, &["esc", "q"]);
    assert!(!m.exit.quit, "the first press only asks");
    assert!(
        m.view
            .status
            .as_deref()
            .unwrap_or("")
            .contains("a call or run is going on"),
        "{:?}",
        m.view.status
    );
    press(&mut m, &["ctrl-c"]);
    assert!(m.exit.quit, "the second press quits");
    let mut m = demo_model();
    press(&mut m, &["q"]);
    assert!(m.exit.quit, "nothing running: one press quits");
}

#[test]
fn reconnecting_abandons_the_calls_of_the_old_session() {
    let mut m = demo_model();
    open_call(&mut m, "slow");
    send(&mut m);
    press(&mut m, &["esc", "r"]);
    let state = m.call("slow").expect("call panel");
    assert!(
        state.in_flight.is_none(),
        "no call waits on a session that is gone"
    );
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("abandoned: reconnecting"), "{screen}");
}

/// A click on a value row puts the value cursor there; on the row's mark it closes and opens
/// it; a click on a protocol line selects that message.
#[test]
fn clicks_in_the_value_tree_and_the_protocol_list() {
    use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let click = |(column, row): (u16, u16)| {
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    let mut m = demo_model();
    open_call(&mut m, "bad_output");
    let (id, _) = send(&mut m);
    finish(
        &mut m,
        "bad_output",
        id,
        json!({"content": [], "structuredContent": {"count": -3, "status": "unknown", "items": ["a", 2]}}),
    );
    let value = |m: &Model| {
        let v = m
            .call("bad_output")
            .expect("panel")
            .value
            .clone()
            .expect("value view");
        (v.tree.rows[v.cursor].pointer.clone(), v.open.len())
    };
    let buffer = render(&mut m, 120, 40);
    let spot = find(&buffer, "\"status\": ").expect("value row");
    update(&mut m, click(spot));
    assert_eq!(value(&m).0, "/status", "the clicked row has the cursor");
    let buffer = render(&mut m, 120, 40);
    let (x, y) = find(&buffer, "\"items\": [2 items]").expect("open row");
    let opened = value(&m).1;
    update(&mut m, click((x - 2, y)));
    assert_eq!(
        value(&m),
        ("/items".into(), opened - 1),
        "its mark closes it"
    );
    // The protocol pane: a click selects the line under it.
    let wire = |ms: u64| {
        let message = json!({"jsonrpc": "2.0", "method": format!("notifications/n{ms}")});
        let at = std::time::Instant::now() + Duration::from_millis(ms);
        mcp_inspect::testing::mcp::transport::wire::WireMessage::new(
            mcp_inspect::testing::mcp::transport::wire::Direction::In,
            &message,
            &message.to_string(),
            at,
        )
    };
    let batch = vec![wire(0), wire(1), wire(2)];
    update(&mut m, Msg::Wire { batch, dropped: 0 });
    press(&mut m, &["esc", "5"]);
    let buffer = render(&mut m, 120, 40);
    let spot = find(&buffer, "notifications/n1").expect("listed");
    update(&mut m, click(spot));
    assert_eq!(m.protocol.selected_index(), Some(1));
}

/// A tool whose `execution.taskSupport` is `required` is sent as a task; an `optional` one is
/// sent plainly unless `ctrl-t` chooses a task (said in the editor's title); a tool that
/// forbids tasks says so.
#[test]
fn tasks_are_chosen_per_call_where_the_tool_allows() {
    let tool = |name: &str, support: &str| {
        decode_tool(&json!({"name": name, "inputSchema": {"type": "object"},
            "execution": {"taskSupport": support}}))
        .expect("tool")
    };
    let mut m = demo_model();
    let tools = vec![
        tool("must", "required"),
        tool("may", "optional"),
        tool("never", "forbidden"),
    ];
    update(&mut m, Msg::ToolsListed(listing(tools)));
    let as_task = |m: &mut Model| {
        for effect in press(m, &["ctrl-s"]) {
            if let Effect::Session(SessionRequest::Call { as_task, .. }) = effect {
                return as_task;
            }
        }
        panic!("no call was sent: {:?}", m.view.status);
    };
    open_call(&mut m, "must");
    assert!(as_task(&mut m), "required");
    press(&mut m, &["esc", "esc", "esc"]);
    open_call(&mut m, "may");
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("sent as a plain call (may run as a task)"),
        "{screen}"
    );
    press(&mut m, &["ctrl-t"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("arguments · sent as a task"), "{screen}");
    assert!(as_task(&mut m), "chosen");
    press(&mut m, &["esc", "esc", "esc"]);
    open_call(&mut m, "never");
    press(&mut m, &["ctrl-t"]);
    assert_eq!(
        m.view.status.as_deref(),
        Some("this tool does not run as a task (execution.taskSupport)")
    );
    assert!(!as_task(&mut m));
}

/// A failed call is shown in full below its headline: every line of the server's message, its
/// `data`, and the stderr lines of a server that died (not squashed into one cut line).
#[test]
fn a_failed_call_shows_its_whole_error() {
    let mut m = demo_model();
    for (n, outcome) in [
        RequestError::Server {
            code: -32603,
            message: "boom\nsecond line of the reason \u{1b}[2J".into(),
            data: Some(json!({"trace": ["frame 1", "frame 2"]})),
        },
        RequestError::Closed(vec![
            "thread 'main' panicked at src/main.rs:7:5:".into(),
            "index out of bounds: the len is 0 but the index is 3".into(),
        ]),
    ]
    .into_iter()
    .enumerate()
    {
        open_call(&mut m, "echo");
        let (id, _) = send(&mut m);
        update(
            &mut m,
            Msg::CallFinished {
                tool: "echo".into(),
                id,
                outcome: Err(outcome),
            },
        );
        let screen = text(&render(&mut m, 120, 40));
        let expected: &[&str] = match n {
            0 => &["  second line of the reason", "\"trace\": [", "\"frame 2\""],
            _ => &[
                "  index out of bounds: the len is 0 but the index is 3",
                "panicked at src/main.rs:7:5:",
                "r reconnects (a new handshake); the draft stays",
            ],
        };
        for line in expected {
            assert!(screen.contains(line), "{line}:\n{screen}");
        }
        assert!(!screen.contains('\u{1b}'), "escaped");
        press(&mut m, &["esc", "esc", "esc"]);
    }
}

/// Saved calls: a finished call keeps its tool's panel (draft and results, as the file will
/// hold them); what an earlier session kept comes back once the tools are listed, its draft in
/// the editor and its results sent to be judged again, then shown as an earlier session's.
#[test]
fn calls_are_kept_and_come_back_in_the_next_session() {
    use mcp_inspect::testing::app::call::state::{Outcome, Record};
    use mcp_inspect::testing::app::saved::state::SavedTool;
    let mut m = demo_model();
    m.saved.saving = true;
    open_call(&mut m, "add");
    fill(&mut m, &["0", "0"]);
    let (id, arguments) = send(&mut m);
    let outcome = Ok(judged(
        &m,
        "add",
        json!({"content": [], "structuredContent": {"result": 5}}),
    ));
    let effects = update(
        &mut m,
        Msg::CallFinished {
            tool: "add".into(),
            id,
            outcome,
        },
    );
    let [Effect::SaveCalls(kept)] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert_eq!(kept.calls.len(), 1);
    assert_eq!(kept.calls[0].arguments, arguments);
    let file = kept.to_text();
    // The next session with the server: what was kept arrives before or after the tools.
    let mut next = demo_model();
    next.saved.saving = true;
    let mut kept = SavedTool::from_text(&file).expect("reads back");
    kept.draft = "{\n  \"a\": 40,\n  \"b\": 2\n}".into();
    let effects = update(&mut next, Msg::SavedLoaded(vec![kept]));
    let [
        Effect::Session(SessionRequest::Rejudge {
            tool,
            output,
            calls,
        }),
    ] = effects.as_slice()
    else {
        panic!("{effects:?}");
    };
    assert_eq!((tool.as_str(), calls.len()), ("add", 1));
    assert!(output.is_some(), "judged against the schema listed now");
    assert_eq!(draft(&next, "add"), json!({"a": 40, "b": 2}));
    let screen = text(&render(&mut next, 120, 40));
    assert!(
        screen.contains("1 draft and 1 result kept from earlier sessions with this server"),
        "{screen}"
    );
    let judged = judged(&next, "add", calls[0].result.clone());
    let Judged {
        result,
        verdict,
        text: shown,
    } = *judged;
    let record = Record {
        id: 0,
        arguments: calls[0].arguments.clone(),
        elapsed: Duration::from_millis(12),
        outcome: Outcome::Result {
            text: Box::new(shown),
            result: Box::new(result),
            verdict: Box::new(verdict),
        },
        made: mcp_inspect::testing::app::call::state::Made::Earlier,
    };
    update(
        &mut next,
        Msg::Restored {
            tool: "add".into(),
            records: vec![record],
        },
    );
    open_call(&mut next, "add");
    press(&mut next, &["esc"]);
    let screen = text(&render(&mut next, 120, 40));
    assert!(
        screen.contains("an earlier session's call · 12 ms · ✓ conforms (2020-12)")
            && screen.contains("sent (not the draft above): {\"a\":0,\"b\":0}"),
        "{screen}"
    );
    // `R` runs it again: its arguments become the draft, and go.
    let effects = press(&mut next, &["R"]);
    let [Effect::Session(SessionRequest::Call { arguments, .. })] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert_eq!(arguments, &json!({"a": 0, "b": 0}));
    assert_eq!(draft(&next, "add"), json!({"a": 0, "b": 0}));
}

/// In the form, `ctrl-n` on a choice row puts its next choice; in the JSON draft, on a line
/// whose value the schema names (an enum, a const, a boolean), the values are listed under the
/// draft and `ctrl-n` puts the next one in, key and comma kept.
#[test]
fn named_values_are_offered_and_put_in_with_ctrl_n() {
    let mut m = demo_model();
    open_call(&mut m, "search");
    // From the query's row to the mode's, two rows down.
    press(&mut m, &["down", "down"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains(" fast  thorough "),
        "the row's choices: {screen}"
    );
    press(&mut m, &["ctrl-n"]);
    assert_eq!(draft(&m, "search")["mode"], "thorough");
    press(&mut m, &["ctrl-n"]);
    assert_eq!(draft(&m, "search")["mode"], "fast", "round again");
    press(&mut m, &["up", "ctrl-n"]);
    assert!(
        m.view
            .status
            .as_deref()
            .is_some_and(|s| s.starts_with("this row names no values")),
        "{:?}",
        m.view.status
    );
    // The JSON draft: its cursor on the line of the row selected (limit), one down to mode.
    press(&mut m, &["ctrl-f"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        !screen.contains("puts the next"),
        "limit names no values: {screen}"
    );
    press(&mut m, &["down"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("/mode: \"fast\" · \"thorough\" · ctrl-n puts the next"),
        "{screen}"
    );
    press(&mut m, &["ctrl-n"]);
    assert_eq!(draft(&m, "search")["mode"], "thorough");
    press(&mut m, &["up", "ctrl-n"]);
    assert_eq!(
        m.view.status.as_deref(),
        Some("the schema names no values here (enum, const or boolean)")
    );
}

/// `alt-f` pretty-prints the draft (a one-line JSON pasted in reads as the skeleton does); a
/// draft that is not JSON is left as it is, with why.
#[test]
fn a_pasted_draft_is_formatted_with_alt_f() {
    let mut m = demo_model();
    open_call(&mut m, "add");
    if let Some(state) = m.call_mut("add") {
        state.set_text(r#"{"a":1,"b":{"c":[2,3]}}"#);
    }
    press(&mut m, &["alt-f"]);
    let text = m.call("add").expect("panel").text();
    assert_eq!(
        text,
        "{\n  \"a\": 1,\n  \"b\": {\n    \"c\": [\n      2,\n      3\n    ]\n  }\n}"
    );
    if let Some(state) = m.call_mut("add") {
        state.set_text("{\"a\": ");
    }
    press(&mut m, &["alt-f"]);
    assert!(
        m.view
            .status
            .as_deref()
            .is_some_and(|s| s.starts_with("not formatted: not JSON")),
        "{:?}",
        m.view.status
    );
    assert_eq!(m.call("add").expect("panel").text(), "{\"a\": ");
    // alt-c clears it to `{}`; ctrl-r brings back the defaults (the JSON draft stays shown).
    press(&mut m, &["alt-c"]);
    assert_eq!(m.call("add").expect("panel").text(), "{}");
    type_text(&mut m, "\"a\": 1");
    assert_eq!(
        draft(&m, "add"),
        json!({"a": 1}),
        "typed between the braces"
    );
    press(&mut m, &["alt-c"]);
    press(&mut m, &["ctrl-r"]);
    assert_eq!(
        draft(&m, "add"),
        json!({"a": 0, "b": 0}),
        "the skeleton's placeholders"
    );
    assert!(!m.call("add").expect("panel").draft.in_form);
}

/// A long string in a result's value is cut on its row; with the cursor on it, the panel
/// shows it whole, wrapped, under the tree.
#[test]
fn a_long_string_under_the_cursor_is_shown_whole() {
    let mut m = demo_model();
    open_call(&mut m, "echo");
    let (id, _) = send(&mut m);
    let long = format!("{} the end", "word ".repeat(60));
    finish(
        &mut m,
        "echo",
        id,
        json!({"content": [], "structuredContent": {"note": long, "n": 1}}),
    );
    let screen = text(&render(&mut m, 120, 40));
    assert!(!screen.contains("the string under the cursor"), "{screen}");
    press(&mut m, &["j"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("the string under the cursor, whole:"),
        "{screen}"
    );
    assert!(
        screen.contains("│    the end "),
        "the end is shown, words kept whole: {screen}"
    );
    press(&mut m, &["j"]);
    assert!(!text(&render(&mut m, 120, 40)).contains("the string under the cursor"));
}

/// An image in a result is drawn with half-blocks (two pixels a cell, scaled to the panel),
/// decoded where the result is judged; a broken one says why it is not drawn.
#[test]
fn an_image_in_a_result_is_drawn_with_half_blocks() {
    use base64::Engine;
    let mut picture = image::RgbImage::new(8, 4);
    for (x, _, pixel) in picture.enumerate_pixels_mut() {
        *pixel = if x < 4 {
            image::Rgb([255, 0, 0])
        } else {
            image::Rgb([0, 0, 255])
        };
    }
    let mut png = Vec::new();
    picture
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("encode");
    let data = base64::engine::general_purpose::STANDARD.encode(&png);
    let mut m = demo_model();
    open_call(&mut m, "echo");
    let (id, _) = send(&mut m);
    finish(
        &mut m,
        "echo",
        id,
        json!({"content": [{"type": "image", "data": data, "mimeType": "image/png"}, {"type": "image", "data": "AAAA", "mimeType": "image/png"}]}),
    );
    // The result zoomed, as a user reads a long one.
    press(&mut m, &["z"]);
    let screen = text(&render(&mut m, 120, 40));
    let drawn: Vec<&str> = screen.lines().filter(|l| l.contains("▀▀▀▀▀▀▀▀")).collect();
    assert_eq!(
        drawn.len(),
        2,
        "8×4 pixels: two lines of eight cells:\n{screen}"
    );
    assert!(
        screen.contains("image not drawn:"),
        "the broken one says why:\n{screen}"
    );
    let buffer = render(&mut m, 120, 40);
    let (x, y) = find(&buffer, "▀▀▀▀▀▀▀▀").expect("drawn");
    insta::assert_snapshot!("image_half_blocks_120x40", screen);
    assert_eq!(buffer[(x, y)].fg, Color::Rgb(255, 0, 0));
    assert_eq!(buffer[(x + 7, y)].bg, Color::Rgb(0, 0, 255));
}

/// `K` on a result keeps the call as a test: the first time it asks for the test file
/// (named after the server), then keeps the server's next calls there without asking; a kept
/// call's result says so.
#[test]
fn k_keeps_the_shown_call_as_a_test_asking_for_the_file_once() {
    use mcp_inspect::testing::app::saved::kept_tests::KeptTests;
    let mut m = demo_model();
    let nothing = {
        open_call(&mut m, "add");
        press(&mut m, &["esc"]);
        press(&mut m, &["K"])
    };
    assert!(nothing.is_empty());
    assert_eq!(
        m.view.status.as_deref(),
        Some("no result to keep as a test: send the call first")
    );
    press(&mut m, &["a"]);
    fill(&mut m, &["1", "2"]);
    let (id, arguments) = send(&mut m);
    finish(
        &mut m,
        "add",
        id,
        json!({"content": [{"type": "text", "text": "3"}], "structuredContent": {"result": 3}}),
    );
    assert!(press(&mut m, &["K"]).is_empty());
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("which test file keeps `add` and its result"),
        "{screen}"
    );
    for (w, h) in [(80, 24), (140, 45)] {
        insta::assert_snapshot!(
            format!("keep_test_form_{w}x{h}"),
            text(&render(&mut m, w, h))
        );
    }
    assert!(screen.contains("mcp-inspect-demo.tests.toml"), "{screen}");
    let effects = press(&mut m, &["ctrl-s"]);
    let [Effect::KeepTest(keep)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(
        keep.file,
        std::path::PathBuf::from("mcp-inspect-demo.tests.toml")
    );
    assert_eq!((keep.tool.as_str(), &keep.arguments), ("add", &arguments));
    assert_eq!(keep.got.verdict, Some("conforms"));
    assert_eq!(keep.got.value, Some(json!(3)));
    update(
        &mut m,
        Msg::TestKept {
            tool: "add".into(),
            arguments: arguments.clone(),
            outcome: Ok("kept `add` as a test in mcp-inspect-demo.tests.toml (1 case)".into()),
        },
    );
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("call #1 (kept as a test) · 12 ms · ✓ conforms"),
        "{screen}"
    );
    // The file is known now: the next one goes there without asking.
    let effects = press(&mut m, &["K"]);
    assert!(
        matches!(effects.as_slice(), [Effect::KeepTest(k)] if k.file == keep.file),
        "{effects:?}"
    );
    // One an earlier session chose stays unless one was chosen meanwhile.
    let earlier = KeptTests {
        file: "elsewhere.toml".into(),
        cases: Default::default(),
    };
    update(&mut m, Msg::TestsLoaded(Some(earlier)));
    assert_eq!(
        m.saved.tests.as_ref().map(|t| t.file.clone()),
        Some(keep.file.clone())
    );
}

/// `--watch --rerun`: after a restart each read-only tool's last call is made again (its draft
/// left as it was) and what changed in its result is said.
#[test]
fn a_restart_makes_the_last_calls_again_and_says_what_changed() {
    let mut m = demo_model();
    m.session.watch.on = true;
    m.session.watch.rerun = true;
    open_call(&mut m, "echo");
    fill(&mut m, &["hi"]);
    let (id, arguments) = send(&mut m);
    let three = json!({"content": [{"type": "text", "text": "3"}], "structuredContent": {"n": 3}});
    finish(&mut m, "echo", id, three);
    press(&mut m, &["a"]);
    type_text(&mut m, "9");
    let edited = draft(&m, "echo");
    assert_ne!(edited, arguments);
    update(&mut m, Msg::Watched("server.py".into()));
    update(&mut m, Msg::Connected(tui::server()));
    let effects = update(&mut m, Msg::ToolsListed(tui::demo_tools()));
    let again: Vec<(u64, &Value)> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Session(SessionRequest::Call { id, arguments, .. }) => Some((*id, arguments)),
            _ => None,
        })
        .collect();
    assert_eq!(again.len(), 1, "{effects:?}");
    assert_eq!(again[0].1, &arguments);
    let rerun = again[0].0;
    // A tool listed again (list_changed) does not make the calls again.
    let relisted = update(&mut m, Msg::ToolsListed(tui::demo_tools()));
    assert!(
        !relisted
            .iter()
            .any(|e| matches!(e, Effect::Session(SessionRequest::Call { .. })))
    );
    let four = json!({"content": [{"type": "text", "text": "4"}], "structuredContent": {"n": 4}});
    finish(&mut m, "echo", rerun, four);
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains(r#"made again: echo {"message":"hi"}: value at /n: expected 3, got 4"#),
        "{screen}"
    );
    assert_eq!(draft(&m, "echo"), edited, "the draft stays as it was left");
}

/// Invariant 12: a call the user confirmed to a destructive tool, or made to one that does
/// not say it is safe to repeat, is never made again by `--rerun`, even when the restarted
/// server drops or flips the hint; the log says so.
#[test]
fn a_restart_never_repeats_a_call_to_a_tool_that_is_was_or_may_be_destructive() {
    let mut m = demo_model();
    m.session.watch.on = true;
    m.session.watch.rerun = true;
    open_call(&mut m, "delete_everything");
    let (id, _) = send(&mut m);
    let done = json!({"content": [{"type": "text", "text": "deleted"}]});
    finish(&mut m, "delete_everything", id, done.clone());
    press(&mut m, &["esc", "esc", "1"]);
    open_call(&mut m, "add");
    fill(&mut m, &["1", "2"]);
    let (id, _) = send(&mut m);
    finish(&mut m, "add", id, done);
    // The restarted server says delete_everything is harmless now.
    let flipped: Vec<_> = mcp_inspect::testing::demo::catalog::tools(true, false)
        .into_iter()
        .map(|mut t| {
            if t["name"] == "delete_everything" {
                t["annotations"] = json!({"destructiveHint": false, "readOnlyHint": true});
            }
            decode_tool(&t).expect("tool")
        })
        .collect();
    update(&mut m, Msg::Watched("server.py".into()));
    update(&mut m, Msg::Connected(tui::server()));
    let effects = update(&mut m, Msg::ToolsListed(tui::listing(flipped)));
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Session(SessionRequest::Call { .. }))),
        "{effects:?}"
    );
    let screen = text(&render(&mut m, 160, 50));
    for tool in ["add", "delete_everything"] {
        assert!(
            screen.contains(&format!("not made again: `{tool}` is or was destructive")),
            "{screen}"
        );
    }
}

/// Newcomer bug 5: in a small terminal (a split pane, 50×14, 60×16) the call panel drew the
/// result's `verdict` over the form's last row and left the arguments box without its bottom
/// border; a form in a box with no room inside panicked on an overflow. At every size from
/// 40×8 up, in each state of the panel, nothing is drawn over: the arguments box is whole or
/// absent, and the verdict heading has its own line.
#[test]
fn the_call_panel_is_never_drawn_over_in_a_small_terminal() {
    let result = json!({"content": [{"type": "text", "text": "look closely"}], "structuredContent": {"count": -3, "status": "unknown", "items": ["a", 2]}});
    for tool in ["bad_output", "lookup_user", "configure", "search"] {
        let mut m = demo_model();
        open_call(&mut m, tool);
        let mut states = vec![("editing", whole_screens(&mut m))];
        let (id, _) = send(&mut m);
        finish(&mut m, tool, id, result.clone());
        states.push(("the result", whole_screens(&mut m)));
        press(&mut m, &["a"]);
        states.push(("editing after a result", whole_screens(&mut m)));
        for (state, screens) in states {
            for screen in screens {
                let lines: Vec<&str> = screen.lines().collect();
                let tops = lines.iter().filter(|l| l.contains("┌ arguments")).count();
                let bottoms = lines.iter().filter(|l| l.starts_with("│└")).count();
                assert_eq!(tops, bottoms, "{tool}, {state}: the box is cut\n{screen}");
                for line in lines.iter().filter(|l| l.contains("verdict")) {
                    assert_eq!(
                        line.trim_matches(|c: char| c == '│' || c == ' '),
                        "verdict",
                        "{tool}, {state}: drawn over\n{screen}"
                    );
                }
            }
        }
    }
}

/// The screen at each size from 40×8 to 80×24, in steps.
fn whole_screens(m: &mut Model) -> Vec<String> {
    let mut screens = Vec::new();
    for width in [40, 50, 60, 80] {
        for height in 8..=24 {
            screens.push(text(&render(m, width, height)));
        }
    }
    screens
}

/// Newcomer friction 3: after ctrl-s the result has the keys; the "change a value, send again"
/// loop then typed into nothing. Backspace or an unbound letter takes the user back to the
/// form, where the key is typed, and ctrl-s sends the changed arguments.
#[test]
fn an_edit_key_on_the_result_goes_back_to_the_form() {
    let mut m = demo_model();
    open_call(&mut m, "search");
    type_text(&mut m, "rust");
    let (id, arguments) = send(&mut m);
    assert_eq!(arguments["query"], "rust");
    finish(
        &mut m,
        "search",
        id,
        json!({"content": [{"type": "text", "text": "none"}], "structuredContent": {"results": []}}),
    );
    assert!(
        !m.call("search").expect("panel").editing,
        "the result has the keys"
    );
    press(&mut m, &["backspace"]);
    assert!(m.call("search").expect("panel").editing, "back in the form");
    assert_eq!(
        m.view.status.as_deref(),
        Some("back in the arguments (esc: the result)")
    );
    press(&mut m, &["esc"]);
    press(&mut m, &["c"]);
    let (_, arguments) = send(&mut m);
    assert_eq!(
        arguments["query"], "rusc",
        "both keys typed into the query row"
    );
}

/// Newcomer friction 12: at 80×24, editing a nested tool's arguments after a result gave the
/// form two rows while the old result filled the panel. The form being edited now takes all
/// but the status line and the result's first two lines.
#[test]
fn the_form_being_edited_has_the_room_at_80x24() {
    let mut m = demo_model();
    open_call(&mut m, "configure");
    let (id, _) = send(&mut m);
    finish(
        &mut m,
        "configure",
        id,
        json!({"content": [{"type": "text", "text": "ok"}]}),
    );
    press(&mut m, &["a"]);
    let screen = text(&render(&mut m, 80, 24));
    let top = screen
        .lines()
        .position(|l| l.contains("┌ arguments"))
        .expect("the box");
    let bottom = screen
        .lines()
        .position(|l| l.starts_with("│└"))
        .expect("its bottom");
    let inside = bottom - top - 1;
    assert!(inside >= 6, "{inside} rows inside:\n{screen}");
    for row in ["target*", "kind*", "path*", "retry"] {
        assert!(screen.contains(row), "every row shown: {screen}");
    }
    assert!(
        screen.contains("call #1"),
        "the result's line is still there: {screen}"
    );
}
