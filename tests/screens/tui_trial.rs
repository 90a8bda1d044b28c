//! `V` and `M` in the TUI: verify and load on the selected tool, asked first for a tool that is
//! not read-only, the findings listed and each one opened as a call, a run stopped by `x`, a
//! load drawn as it goes; with snapshots at 80×24 and 120×40. And the real connection task
//! verifying the demo's `bad_output` (its outputSchema broken in three places).

use crate::edge;
use crate::tui;

use edge::{keys, wait_for};
use mcp_inspect::testing::app::model::{Model, Pane};
use mcp_inspect::testing::app::trial::state::Sample;
use mcp_inspect::testing::app::trial::update::Update;
use mcp_inspect::testing::app::update::{Effect, Msg, SessionRequest, update};
use serde_json::json;
use std::time::Duration;
use tui::{demo_model, press, render, text, type_text};

fn select(model: &mut Model, tool: &str) {
    press(model, &["/"]);
    type_text(model, tool);
    press(model, &["enter", "1"]);
}

/// A report as the engine makes it, written as the JSON it serialises to.
fn typed<T: serde::de::DeserializeOwned>(json: serde_json::Value) -> T {
    serde_json::from_value(json).expect("a report")
}

fn snapshot(name: &str, model: &mut Model) {
    for (w, h) in [(80, 24), (120, 40)] {
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), text(&render(model, w, h)));
    }
}

/// A verify run of `add` as the connection task tells it: one failure, shrunk.
fn verified_add() -> Update {
    Update::Verified {
        run: 1,
        result: typed(json!({
            "tool": "add", "status": "failed", "calls": 100, "invalidCalls": 0,
            "toolErrors": 0, "notChecked": 0,
            "failures": [{
                "kind": "breaks_output_schema",
                "message": "the result breaks its outputSchema: at /result (maximum): 1001 is greater than the maximum of 1000",
                "input": {"a": 1001, "b": 0},
                "found": {"a": 73_310, "b": -4},
                "shrinkCalls": 41,
                "smallest": true
            }]
        })),
    }
}

#[test]
fn verify_asks_for_a_tool_that_writes_then_lists_findings_that_open_as_calls() {
    let mut model = demo_model();
    select(&mut model, "add");
    assert!(press(&mut model, &["V"]).is_empty(), "asked first");
    let asked = model.view.status.clone().unwrap_or_default();
    assert!(
        asked.contains("add may destroy (no destructiveHint)") && asked.contains("V again"),
        "{asked}"
    );
    let effects = press(&mut model, &["V"]);
    let Some(Effect::Session(SessionRequest::Verify {
        tool,
        settings,
        output,
        ..
    })) = effects.first()
    else {
        panic!("no verify asked for: {effects:?}");
    };
    assert_eq!((tool.0.tool.name.as_str(), settings.calls), ("add", 100));
    // No call panel was opened: the run compiles the judge itself, on the connection task.
    assert!(output.is_none());
    assert_eq!(model.view.focus, Pane::Trial);
    update(
        &mut model,
        Msg::Trial(Update::Verifying {
            run: 1,
            seed: 42,
            calls: 37,
            failures: vec![],
        }),
    );
    let screen = text(&render(&mut model, 120, 40));
    assert!(
        screen.contains("verify add · seed 42 · 37/100 calls") && screen.contains("x stops"),
        "{screen}"
    );
    update(&mut model, Msg::Trial(verified_add()));
    snapshot("trial_verify_findings", &mut model);
    assert!(
        model.log.lines.iter().any(|l| l
            .text
            .contains("verify add (seed 42): FAIL: 1 failure in 100 calls")),
        "the log says how it ended"
    );
    // Enter opens the finding as a call: its smallest input in the editor.
    press(&mut model, &["enter"]);
    assert_eq!(model.view.focus, Pane::Call);
    let draft = model.call("add").and_then(|c| c.arguments());
    assert_eq!(draft, Some(json!({"a": 1001, "b": 0})));
}

#[test]
fn a_read_only_tool_is_verified_at_once_and_x_stops_the_run() {
    let mut model = demo_model();
    select(&mut model, "echo");
    let effects = press(&mut model, &["V"]);
    assert!(
        matches!(
            effects.first(),
            Some(Effect::Session(SessionRequest::Verify { .. }))
        ),
        "{effects:?}"
    );
    assert!(model.busy(), "a run going on keeps the clock ticking");
    let effects = press(&mut model, &["x"]);
    assert_eq!(effects, vec![Effect::Session(SessionRequest::StopTrial)]);
    assert!(!model.busy());
    // What the stopped run says later is not heard, but its end is.
    update(&mut model, Msg::Trial(verified_add()));
    update(
        &mut model,
        Msg::Trial(Update::Ended {
            run: 1,
            why: "stopped".into(),
        }),
    );
    assert!(
        model
            .log
            .lines
            .iter()
            .any(|l| l.text.ends_with("verify echo ended: stopped")),
        "{:?}",
        model.log.lines
    );
    // A run before the one shown is not heard at all.
    update(
        &mut model,
        Msg::Trial(Update::Ended {
            run: 0,
            why: "gone".into(),
        }),
    );
    assert!(!model.log.lines.iter().any(|l| l.text.contains("gone")));
    let screen = text(&render(&mut model, 120, 40));
    assert!(
        screen.contains("stopped: 0 failures found") && screen.contains("· stopped"),
        "{screen}"
    );
    // Not connected: nothing starts, and the status says why.
    model.session.connection =
        mcp_inspect::testing::app::server::state::Connection::Lost("gone".into());
    press(&mut model, &["1"]);
    assert!(press(&mut model, &["V"]).is_empty());
    assert_eq!(
        model.view.status.as_deref(),
        Some("not connected: r reconnects")
    );
}

#[test]
fn load_sends_the_panels_arguments_and_draws_rate_and_latency() {
    let mut model = demo_model();
    select(&mut model, "add");
    // The schema's skeleton does not fit (a and b are required): refused, said why.
    assert!(press(&mut model, &["M", "M"]).is_empty());
    assert!(
        model.view.status.as_deref().is_some_and(
            |s| s.contains("do not fit the inputSchema: fix them in the call panel (a) first")
        ),
        "{:?}",
        model.view.status
    );
    press(&mut model, &["a"]);
    type_text(&mut model, "2");
    press(&mut model, &["down"]);
    type_text(&mut model, "3");
    press(&mut model, &["esc", "1"]);
    assert_eq!(model.view.focus, Pane::Tools);
    press(&mut model, &["M"]);
    let effects = press(&mut model, &["M"]);
    let Some(Effect::Session(SessionRequest::Load {
        arguments,
        callers,
        output,
        ..
    })) = effects.first()
    else {
        panic!("no load asked for: {effects:?}");
    };
    assert_eq!((arguments, *callers), (&json!({"a": 2, "b": 3}), 4));
    // The call panel's judge goes with the run: the output schema is not compiled again.
    let panel = model
        .call("add")
        .and_then(|c| c.output())
        .expect("add's judge");
    assert!(
        output
            .as_ref()
            .is_some_and(|o| std::sync::Arc::ptr_eq(o, panel))
    );
    for i in 1..=12 {
        let at = f64::from(i) * 0.5;
        let sample = Sample {
            at,
            calls_per_second: 8_000.0 + 400.0 * (at * 3.0).sin(),
            p50_ms: 0.4 + 0.05 * at,
            p99_ms: 1.2 + 0.1 * at,
            failed: 0,
        };
        update(&mut model, Msg::Trial(Update::Sampled { run: 1, sample }));
    }
    snapshot("trial_load_running", &mut model);
    update(
        &mut model,
        Msg::Trial(Update::Loaded {
            run: 1,
            summary: Box::new(typed(json!({
                "tool": "add", "calls": 48_000, "callsPerSecond": 8000.0, "failed": 2,
                "notChecked": 0, "latencyMs": {"p50": 0.42, "p99": 1.18},
                "said": {"other": "malformed answer: \u{1b}]0;pwned\u{7}"}
            }))),
        }),
    );
    let screen = text(&render(&mut model, 120, 40));
    assert!(
        screen.contains("48000 calls, 8000.0 calls/s, p50 0.42 ms, p99 1.18 ms, 2 failed")
            && screen.contains("first other error: malformed answer: \\e]0;pwned\\x07"),
        "{screen}"
    );
}

/// The real connection task on the demo: `V` twice on `bad_output`, its finding listed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_connection_task_verifies_the_demo_and_lists_what_breaks() {
    let script = vec![
        wait_for("tools listed"),
        keys(&["/"]),
        edge::Step::Type("bad_output".into()),
        keys(&["enter", "1", "V", "V"]),
        wait_for("FAIL: 1 failure"),
        keys(&["enter"]),
        wait_for("call bad_output"),
        keys(&["q"]),
    ];
    edge::run_on_the_demo(script).await;
}

/// `x` during a verify run: the call in flight is cancelled (the demo's `slow` says so on
/// stderr), the run says it stopped, and the loop ends cleanly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn x_stops_a_verify_run_and_cancels_its_call() {
    let script = vec![
        wait_for("tools listed"),
        keys(&["/"]),
        edge::Step::Type("slow".into()),
        keys(&["enter", "1", "V"]),
        // The first input is the schema's defaults: five seconds of work, cancelled by `x`.
        wait_for("demo: call slow {}"),
        keys(&["x"]),
        wait_for("slow cancelled at step"),
        // The run's end, in its title (" · x stops" until then): a fact that stays on screen,
        // where the log's "ended: stopped" line can scroll past under the server's stderr.
        wait_for(" s · stopped"),
        keys(&["q"]),
    ];
    edge::run_on_the_demo(script).await;
}

/// `x` during a load run: the calls in flight are cancelled (the demo's `slow` says so on
/// stderr), the run says it stopped, and the loop ends cleanly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn x_stops_a_load_run_and_cancels_its_calls() {
    edge::run_on_the_demo(vec![
        wait_for("tools listed"),
        keys(&["/"]),
        edge::Step::Type("slow".into()),
        keys(&["enter", "1", "M"]),
        // Four callers, each on five seconds of work (the form's defaults), cancelled by `x`.
        wait_for("demo: call slow {"),
        keys(&["x"]),
        wait_for("slow cancelled at step"),
        // As for verify: the title says the run ended, stopped.
        wait_for("of 10 s · stopped"),
        keys(&["q"]),
    ])
    .await;
}

/// `e` in the trial pane: the shown run's settings as a form (at both sizes); ctrl-s keeps them
/// and runs again with them, and the next run of that kind starts with them too.
#[test]
fn a_run_is_set_up_by_a_form_and_kept_for_the_next() {
    let mut model = demo_model();
    select(&mut model, "echo");
    assert!(
        !press(&mut model, &["V"]).is_empty(),
        "echo is read-only: no asking"
    );
    let ended = json!({"tool": "echo", "status": "ok", "calls": 100, "failures": []});
    update(
        &mut model,
        Msg::Trial(Update::Verified {
            run: 1,
            result: typed(ended),
        }),
    );
    press(&mut model, &["e"]);
    for (w, h) in [(80, 24), (140, 45)] {
        insta::assert_snapshot!(
            format!("trial_settings_form_{w}x{h}"),
            text(&render(&mut model, w, h))
        );
    }
    let screen = text(&render(&mut model, 140, 45));
    assert!(screen.contains("ctrl-s run it"), "{screen}");
    type_text(&mut model, "7");
    press(&mut model, &["down", "space", "down"]);
    type_text(&mut model, "30");
    let effects = press(&mut model, &["ctrl-s"]);
    let Some(Effect::Session(SessionRequest::Verify { settings, .. })) = effects.first() else {
        panic!("no verify asked for: {effects:?}");
    };
    let limit = Duration::from_secs(30);
    assert_eq!(
        (settings.calls, settings.invalid, settings.call_limit),
        (7, true, limit)
    );
    let screen = text(&render(&mut model, 120, 40));
    assert!(screen.contains("0/7 calls"), "{screen}");
    // A load run's form has its own fields; its answer starts a load with them.
    // Set while it runs: kept for the next run, this one left alone.
    press(&mut model, &["e", "ctrl-s"]);
    let said = model.view.status.clone().unwrap_or_default();
    assert_eq!(said, "kept: the next verify run goes so (x stops this one)");
    let ended = json!({"tool": "echo", "status": "ok", "calls": 7, "failures": []});
    update(
        &mut model,
        Msg::Trial(Update::Verified {
            run: 2,
            result: typed(ended),
        }),
    );
    // (echo's load would need a message in its call panel: pi needs none, and is asked for.)
    press(&mut model, &["esc", "1", "esc"]);
    select(&mut model, "pi");
    press(&mut model, &["M", "M"]);
    assert_eq!(
        model.trial.run.as_ref().map(|r| r.id),
        Some(3),
        "{:?}",
        model.view.status
    );
    let ended = json!({"calls": 10});
    update(
        &mut model,
        Msg::Trial(Update::Loaded {
            run: 3,
            summary: Box::new(typed(ended)),
        }),
    );
    press(&mut model, &["e"]);
    let screen = text(&render(&mut model, 140, 45));
    assert!(
        screen.contains("Seconds") && screen.contains("Callers"),
        "{screen}"
    );
    assert!(
        screen.contains("seconds 10 ") && !screen.contains("10.0"),
        "whole seconds: {screen}"
    );
    assert!(
        screen.contains("pi may destroy (no destructiveHint):")
            && screen.contains("ctrl-s runs it all the same"),
        "the form is the one question: {screen}"
    );
    type_text(&mut model, "2");
    press(&mut model, &["down"]);
    type_text(&mut model, "9");
    let effects = press(&mut model, &["ctrl-s"]);
    let Some(Effect::Session(SessionRequest::Load {
        callers, duration, ..
    })) = effects.first()
    else {
        panic!("no load asked for: {effects:?}");
    };
    assert_eq!((*callers, duration.as_secs()), (9, 2));
    assert_eq!(
        model.trial.settings.verify_calls, 7,
        "kept for the next verify run"
    );
}
