//! `--baseline`: tools changed against a snapshot are marked in the list (`Δ breaking` when a
//! change breaks someone, `Δ` otherwise), the tool pane lists each change with its verdict,
//! and the log sums them up with the tools removed.

use crate::tui;

use mcp_inspect::testing::app::update::{Msg, update};
use serde_json::json;
use tui::{demo_tools, press, render, text, type_text};

#[test]
fn tools_changed_against_the_baseline_are_marked_and_explained() {
    // The baseline: the demo's tools as they "were": `add` took an optional `c`, `echo` said
    // something else, and a tool `retired` existed.
    let mut tools: Vec<serde_json::Value> =
        demo_tools().tools.iter().map(|t| t.definition()).collect();
    for t in &mut tools {
        match t["name"].as_str() {
            Some("add") => t["inputSchema"]["properties"]["c"] = json!({"type": "integer"}),
            Some("echo") => t["description"] = json!("An older description."),
            _ => {}
        }
    }
    tools.push(json!({"name": "retired", "inputSchema": {"type": "object"}}));
    let baseline = json!({"mcpInspectSnapshot": 1, "tools": tools});
    let mut m = mcp_inspect::testing::app::model::Model::new(
        "mcp-inspect demo-server".into(),
        mcp_inspect::testing::app::keymap::Keymap::default_map(),
        mcp_inspect::testing::app::theme::Theme { color: false },
    );
    m.tools.baseline = Some(std::sync::Arc::new(baseline));
    update(&mut m, Msg::Connected(tui::server()));
    update(&mut m, Msg::ToolsListed(demo_tools()));
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("add boxed Δ breaking"), "{screen}");
    assert!(
        screen
            .lines()
            .any(|l| l.contains("echo") && l.contains(" Δ") && !l.contains("breaking")),
        "a description change is marked, not as breaking: {screen}"
    );
    assert!(
        !screen.lines().any(|l| l.contains("pi ") && l.contains('Δ')),
        "{screen}"
    );
    assert!(
        screen.contains(
            "against the baseline: 2 breaking, 0 unknown, 0 compatible, 1 info; removed: retired; changed: add, echo"
        ),
        "{screen}"
    );
    press(&mut m, &["/"]);
    type_text(&mut m, "add");
    press(&mut m, &["enter", "enter"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("Δ breaking for callers /inputSchema/properties/c: property `c` removed"),
        "{screen}"
    );
    insta::assert_snapshot!("baseline_add_120x40", screen);
}

/// `--watch`: a change restarts the server; the tools it lists next are compared with the
/// last start's (a tool added, one changed), the library too, and a change that comes while
/// connecting restarts once the handshake is over.
#[test]
fn a_watched_change_restarts_and_says_what_changed_since_the_last_start() {
    use mcp_inspect::testing::app::effect::{Effect, SessionRequest};
    let mut m = mcp_inspect::testing::app::model::Model::new(
        "mcp-inspect demo-server".into(),
        mcp_inspect::testing::app::keymap::Keymap::default_map(),
        mcp_inspect::testing::app::theme::Theme { color: false },
    );
    m.session.watch.on = true;
    let mut first = demo_tools();
    first.tools.retain(|t| t.name != "pi");
    update(&mut m, Msg::Connected(tui::server()));
    update(&mut m, Msg::ToolsListed(first));
    let restart = update(&mut m, Msg::Watched("server.py".into()));
    assert!(
        matches!(
            restart.as_slice(),
            [Effect::Session(SessionRequest::Reconnect)]
        ),
        "{restart:?}"
    );
    // Another change while the handshake is under way: once over, restarted again.
    assert!(update(&mut m, Msg::Watched("server.py".into())).is_empty());
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("changed: server.py: restarting once connected"),
        "{screen}"
    );
    let again = update(&mut m, Msg::Connected(tui::server()));
    assert!(
        again
            .iter()
            .any(|e| matches!(e, Effect::Session(SessionRequest::Reconnect))),
        "{again:?}"
    );
    // A start that fails says the next change retries.
    update(
        &mut m,
        Msg::ConnectFailed("SyntaxError: invalid syntax".into()),
    );
    update(&mut m, Msg::Watched("server.py".into()));
    update(&mut m, Msg::Connected(tui::server()));
    update(&mut m, Msg::ToolsListed(demo_tools()));
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("the next change to the files starts the server again"),
        "{screen}"
    );
    assert!(
        screen.contains(
            "since the last start: 0 breaking, 0 unknown, 1 compatible, 0 info; added: pi"
        ),
        "compared with the last start that listed:\n{screen}"
    );
    assert!(
        screen.lines().any(|l| l.contains("pi ") && l.contains('Δ')),
        "{screen}"
    );
    // The next start with nothing changed clears the marks.
    update(&mut m, Msg::Watched("server.py".into()));
    update(&mut m, Msg::Connected(tui::server()));
    update(&mut m, Msg::ToolsListed(demo_tools()));
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        !screen.lines().any(|l| l.contains("pi ") && l.contains('Δ')),
        "{screen}"
    );
}
