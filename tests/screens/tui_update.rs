//! The TUI driven by key presses through the default keymap: navigation, filter, trees,
//! back-links, boxing, copy, help, live list changes and lost connections. Pure: no terminal.

use crate::tui;

use mcp_inspect::testing::app::model::{Model, Overlay, Pane};

use mcp_inspect::testing::app::server::state::Connection;

use mcp_inspect::testing::app::tools::state::Which;
use mcp_inspect::testing::app::tools::tree_view::visible_rows;
use mcp_inspect::testing::app::update::{Effect, Msg, SessionRequest, update};
use mcp_inspect::testing::mcp::ServerEvent;
use tui::{demo_model, press, type_text};

fn copied(effects: Vec<Effect>) -> mcp_inspect::testing::app::copy::Clipping {
    match effects.as_slice() {
        [Effect::Copy(c)] => c.clone(),
        other => panic!("expected one copy, got {other:?}"),
    }
}

/// The labels of a tool's visible output rows.
fn output_labels(m: &mcp_inspect::testing::app::model::Model, tool: &str) -> Vec<String> {
    let boxing = m.selected_entry().and_then(|e| e.boxing());
    let tree = m
        .detail(tool)
        .expect("trees")
        .output
        .as_ref()
        .expect("output tree");
    visible_rows(
        m.detail(tool).expect("trees"),
        m.tool_view(tool).expect("view"),
        boxing,
    )
    .iter()
    .filter(|r| r.which == Which::Output)
    .map(|r| tree.nodes[r.node].edge.label())
    .collect()
}

fn selected(model: &mcp_inspect::testing::app::model::Model) -> String {
    model
        .selected_entry()
        .map(|e| e.tool.name.clone())
        .unwrap_or_default()
}

fn cursor_label(model: &mcp_inspect::testing::app::model::Model) -> String {
    let name = selected(model);
    let (which, node) = model
        .tool_view(&name)
        .expect("view")
        .cursor
        .expect("cursor");
    model
        .detail(&name)
        .expect("trees")
        .tree(which)
        .expect("tree")
        .nodes[node]
        .edge
        .label()
}

#[test]
fn list_navigation_and_quit() {
    let mut m = demo_model();
    assert_eq!(selected(&m), "echo");
    press(&mut m, &["j", "down", "j"]);
    assert_eq!(selected(&m), "build_tree");
    press(&mut m, &["G"]);
    assert_eq!(selected(&m), "toggle_extra");
    press(&mut m, &["g", "k"]);
    assert_eq!(selected(&m), "echo");
    press(&mut m, &["q"]);
    assert!(m.exit.quit);
    let mut m = demo_model();
    press(&mut m, &["ctrl-c"]);
    assert!(m.exit.quit);
}

#[test]
fn filter_types_narrows_and_clears() {
    let mut m = demo_model();
    press(&mut m, &["/"]);
    type_text(&mut m, "box");
    assert!(m.tools.filter.editing);
    assert!(!m.exit.quit, "typing q-less text never quits");
    let shown: Vec<String> = m
        .tools
        .filter
        .visible
        .iter()
        .map(|v| m.tools.list[v.index].tool.name.clone())
        .collect();
    assert!(
        shown.contains(&"add".to_string()) && shown.contains(&"word_count".to_string()),
        "{shown:?}"
    );
    press(&mut m, &["enter"]);
    assert!(!m.tools.filter.editing);
    press(&mut m, &["/"]);
    type_text(&mut m, "q");
    assert!(!m.exit.quit, "q is text while filtering");
    press(&mut m, &["esc"]);
    assert_eq!(m.tools.filter.text, "");
    assert_eq!(m.tools.filter.visible.len(), 17);
    // Typing selects the best match; a cleared filter keeps the tool that was selected.
    press(&mut m, &["/"]);
    type_text(&mut m, "word");
    press(&mut m, &["enter", "/", "esc"]);
    let selected = m.selected_entry().map(|e| e.tool.name.clone());
    assert_eq!(selected.as_deref(), Some("word_count"));
    assert_eq!(m.tools.filter.visible.len(), 17);
    // Opened again on a filter kept, the first character replaces it; Backspace edits it.
    press(&mut m, &["/"]);
    type_text(&mut m, "box");
    press(&mut m, &["enter", "/"]);
    type_text(&mut m, "echo");
    assert_eq!(m.tools.filter.text, "echo");
    press(&mut m, &["enter", "/", "backspace"]);
    type_text(&mut m, "!");
    assert_eq!(m.tools.filter.text, "ech!");
}

#[test]
fn trees_expand_collapse_and_follow_back_links() {
    let mut m = demo_model();
    tui::open_tool(&mut m, "build_tree");
    assert_eq!(m.view.focus, Pane::Tool);
    assert_eq!(cursor_label(&m), "(root)");
    // input root, depth, output root, name, children
    press(&mut m, &["j", "j", "j", "j"]);
    assert_eq!(cursor_label(&m), "children");
    press(&mut m, &["l", "j"]);
    assert_eq!(cursor_label(&m), "[]");
    press(&mut m, &["l", "j", "j"]);
    assert_eq!(cursor_label(&m), "children", "inside Node");
    press(&mut m, &["l", "j"]);
    let name = selected(&m);
    let (which, node) = m.tool_view(&name).expect("view").cursor.expect("cursor");
    let tree = m.detail(&name).expect("trees").tree(which).expect("tree");
    let link = tree.nodes[node]
        .facts
        .back_link
        .expect("the recursive row is a back-link");
    press(&mut m, &["b"]);
    assert_eq!(
        m.tool_view(&name).expect("view").cursor,
        Some((Which::Output, link))
    );
    press(&mut m, &["c"]);
    let rows = visible_rows(
        m.detail(&name).expect("trees"),
        m.tool_view(&name).expect("view"),
        None,
    );
    assert_eq!(
        rows.iter().filter(|r| r.which == Which::Output).count(),
        3,
        "collapse-all leaves the root open, its children closed"
    );
    press(&mut m, &["e"]);
    let rows = visible_rows(
        m.detail(&name).expect("trees"),
        m.tool_view(&name).expect("view"),
        None,
    );
    assert!(rows.iter().filter(|r| r.which == Which::Output).count() >= 6);
    press(&mut m, &["h"]);
    press(&mut m, &["esc"]);
    assert_eq!(m.view.focus, Pane::Tools);
}

#[test]
fn boxed_output_is_shown_unwrapped_one_key_from_raw() {
    let mut m = demo_model();
    press(&mut m, &["/"]);
    type_text(&mut m, "add");
    press(&mut m, &["enter", "enter"]);
    assert_eq!(selected(&m), "add");
    let output = output_labels(&m, "add");
    assert_eq!(output, ["result"], "unwrapped: the boxed field is the root");
    press(&mut m, &["G", "o"]);
    let output = output_labels(&m, "add");
    assert_eq!(output, ["(root)", "result"], "raw: the wrapper object");
}

#[test]
fn copy_menu_resolves_each_target() {
    let mut m = demo_model();
    press(&mut m, &["/"]);
    type_text(&mut m, "search");
    press(&mut m, &["enter", "enter", "j"]);
    press(&mut m, &["y"]);
    assert_eq!(m.view.overlay, Some(Overlay::CopyMenu));
    let effects = press(&mut m, &["p"]);
    assert_eq!(m.view.overlay, None);
    let [Effect::Copy(c)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(c.text, "/inputSchema/properties/query");
    let sub = copied(press(&mut m, &["y", "s"]));
    let value: serde_json::Value = serde_json::from_str(&sub.text).expect("json");
    assert_eq!(value["minLength"], 1);
    let input = copied(press(&mut m, &["y", "i"]));
    let v: serde_json::Value = serde_json::from_str(&input.text).expect("json");
    assert_eq!(v["required"], serde_json::json!(["query"]));
    let tool = copied(press(&mut m, &["y", "t"]));
    assert!(tool.text.contains("\"name\": \"search\""));
    update(
        &mut m,
        Msg::Copied {
            label: "pointer".into(),
            outcome: Ok("29 bytes, via OSC 52".into()),
        },
    );
    assert_eq!(
        m.view.status.as_deref(),
        Some("copied pointer (29 bytes, via OSC 52)")
    );
    press(&mut m, &["y", "esc"]);
    assert_eq!(m.view.overlay, None);
}

#[test]
fn unboxed_output_schema_copy_keeps_defs() {
    let mut m = demo_model();
    press(&mut m, &["/"]);
    type_text(&mut m, "is_even");
    press(&mut m, &["enter"]);
    let c = copied(press(&mut m, &["y", "u"]));
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&c.text).expect("json"),
        serde_json::json!({"type": "boolean", "title": "Result"})
    );
    assert_eq!(c.label, "unboxed output schema");
}

#[test]
fn help_and_panes() {
    let mut m = demo_model();
    press(&mut m, &["?"]);
    assert_eq!(m.view.overlay, Some(Overlay::Help));
    press(&mut m, &["j", "j"]);
    assert_eq!(m.view.help_scroll, 2);
    press(&mut m, &["esc"]);
    assert_eq!(m.view.overlay, None);
    press(&mut m, &["tab"]);
    assert_eq!(m.view.focus, Pane::Tool);
    press(&mut m, &["tab", "tab"]);
    assert_eq!(m.view.focus, Pane::Log);
    press(&mut m, &["backtab"]);
    assert_eq!(m.view.focus, Pane::Server);
    press(&mut m, &["1"]);
    assert_eq!(m.view.focus, Pane::Tools);
}

#[test]
fn list_changes_reload_and_keep_the_selection() {
    let mut m = demo_model();
    press(&mut m, &["j", "j"]);
    assert_eq!(selected(&m), "configure");
    let effects = update(&mut m, Msg::Server(ServerEvent::ToolsChanged));
    assert_eq!(effects, [Effect::Session(SessionRequest::ListTools)]);
    let mut list = tui::demo_tools();
    list.tools.remove(0);
    update(&mut m, Msg::ToolsListed(list));
    assert_eq!(selected(&m), "configure", "selection kept by name");
    assert_eq!(m.tools.list.len(), 16);
}

#[test]
fn lost_connection_is_shown_and_reconnect_is_one_key() {
    let mut m = demo_model();
    update(
        &mut m,
        Msg::Server(ServerEvent::Closed(
            "the server exited (exit status: 1)".into(),
        )),
    );
    assert!(matches!(m.session.connection, Connection::Lost(_)));
    // A connection that never opened is not said to be lost.
    let mut never = tui::demo_model();
    let refused = "connection refused: nothing is listening at http://127.0.0.1:9/mcp";
    update(&mut never, Msg::ConnectFailed(refused.into()));
    let screen = tui::text(&tui::render(&mut never, 120, 40));
    assert!(
        screen.contains(&format!("could not connect: {refused} — r reconnects")),
        "{screen}"
    );
    assert!(!screen.contains("connection lost"), "{screen}");
    let effects = press(&mut m, &["r"]);
    assert_eq!(effects, [Effect::Session(SessionRequest::Reconnect)]);
    assert_eq!(m.session.connection, Connection::Connecting);
    assert!(press(&mut m, &["r"]).is_empty(), "already connecting");
    update(&mut m, Msg::Connected(tui::server()));
    assert_eq!(
        press(&mut m, &["r"]),
        [Effect::Session(SessionRequest::Reconnect)],
        "while connected, r makes a new handshake too (an HTTP session may be gone unseen)"
    );
}

#[test]
fn stderr_and_hostile_text_land_in_the_log_escaped() {
    let mut m = demo_model();
    update(
        &mut m,
        Msg::Server(ServerEvent::Stderr("plain line".into())),
    );
    update(
        &mut m,
        Msg::Server(ServerEvent::Log {
            level: "warning".into(),
            logger: Some("db".into()),
            data: serde_json::json!("\u{1b}]0;pwned\u{7}"),
        }),
    );
    let last = m.log.lines.back().expect("log");
    assert_eq!(last.text, "[db] \\e]0;pwned\\x07");
}

#[test]
fn long_instructions_scroll_in_the_server_pane() {
    let mut model = demo_model();
    let mut server = tui::server();
    let lines: Vec<String> = (1..=60).map(|i| format!("instruction line {i}")).collect();
    server.instructions = Some(lines.join("\n"));
    update(&mut model, Msg::Connected(server));
    press(&mut model, &["3"]);
    assert_eq!(model.view.focus, Pane::Server);
    let screen = tui::text(&tui::render(&mut model, 120, 40));
    assert!(!screen.contains("instruction line 60"), "{screen}");
    press(&mut model, &["G"]);
    let screen = tui::text(&tui::render(&mut model, 120, 40));
    assert!(screen.contains("instruction line 60"), "{screen}");
    press(&mut model, &["k", "k", "g"]);
    assert_eq!(model.view.server_scroll, 0);
    press(&mut model, &["j"]);
    assert_eq!(model.view.server_scroll, 1);
    // j and k stay the server pane's: the tool list did not move.
    assert_eq!(model.tools.selected, 0);
}

#[test]
fn each_pane_pages_by_its_own_height() {
    let mut m = demo_model();
    tui::render(&mut m, 120, 30);
    let (list, tree) = (m.view.viewport.list_rows, m.view.viewport.tree_rows);
    assert!(
        list > 1 && list < m.tools.list.len(),
        "the list shows {list} rows"
    );
    assert_ne!(list, tree, "the two panes differ in height at 120x30");
    press(&mut m, &["pagedown"]);
    assert_eq!(
        m.tools.selected, list,
        "page-down in the list moves by the list's rows"
    );
    tui::render(&mut m, 120, 30);
    assert!(
        m.tools.scroll > 0 && m.tools.scroll <= m.tools.selected,
        "the frame scrolled the list to the cursor and the model kept it"
    );
}

#[test]
fn hints_show_only_keys_that_work_in_the_focused_pane() {
    let mut m = demo_model();
    let hints = |m: &mut mcp_inspect::testing::app::model::Model| {
        let screen = tui::text(&tui::render(m, 120, 30));
        screen.lines().last().unwrap_or_default().to_string()
    };
    assert!(hints(&mut m).contains("/ filter"), "the list filters");
    press(&mut m, &["2"]);
    let tool_pane = hints(&mut m);
    assert!(!tool_pane.contains("/ filter"), "{tool_pane}");
    assert!(tool_pane.contains("q quit"), "{tool_pane}");
}

#[test]
fn a_keymap_with_an_unknown_command_names_its_line() {
    let error = mcp_inspect::testing::app::keymap::Keymap::parse(
        "[[tools]]\non = [\"x\"]\nrun = \"expand-everything\"\n",
    )
    .err()
    .unwrap_or_default();
    assert!(
        error.starts_with("line 3: unknown command `expand-everything`"),
        "{error}"
    );
}

/// A tool whose input schema holds `n` object properties of two values each.
fn wide_tool(name: &str, n: usize) -> mcp_inspect::testing::mcp::surface::tool::Tool {
    let props: serde_json::Map<String, serde_json::Value> = (0..n)
        .map(|i| (format!("p{i}"), serde_json::json!({"type": "string"})))
        .collect();
    mcp_inspect::testing::mcp::surface::tool::decode_tool(
        &serde_json::json!({"name": name, "inputSchema": {"type": "object", "properties": props}}),
    )
    .expect("tool")
}

#[test]
fn large_trees_are_built_off_the_ui_thread_for_the_entry_listed() {
    use mcp_inspect::testing::app::call::state::{CallState, NOT_CHECKED_YET};
    use mcp_inspect::testing::app::effect::Handed;
    use mcp_inspect::testing::app::tools::state::ToolDetail;
    use mcp_inspect::testing::app::update::Listed;
    let mut m = demo_model();
    let list = |tool| tui::listing(vec![tool]);
    let effects = update(&mut m, Msg::ToolsListed(list(wide_tool("wide", 15_000))));
    let [Effect::BuildDetail(Listed(entry))] = effects.as_slice() else {
        panic!("a large tool's trees are asked for, not built: {effects:?}");
    };
    let entry = entry.clone();
    assert!(m.detail("wide").is_none(), "nothing built on the UI thread");
    let screen = tui::text(&tui::render(&mut m, 120, 30));
    assert!(screen.contains("building the schema trees"), "{screen}");
    assert!(
        update(&mut m, Msg::Key(tui::key_event("j"))).is_empty(),
        "asked once while building"
    );
    // Built for a listing that has since changed: dropped.
    update(&mut m, Msg::ToolsListed(list(wide_tool("wide", 15_001))));
    let stale = Box::new(ToolDetail::build(&entry));
    update(
        &mut m,
        Msg::DetailBuilt {
            entry,
            detail: stale,
        },
    );
    assert!(m.detail("wide").is_none(), "a stale tree is not shown");
    let current = m.selected_entry().cloned().expect("selected");
    let detail = Box::new(ToolDetail::build(&current));
    update(
        &mut m,
        Msg::DetailBuilt {
            entry: current,
            detail,
        },
    );
    let screen = tui::text(&tui::render(&mut m, 120, 30));
    assert!(
        screen.contains("Input schema"),
        "the built tree is shown:\n{screen}"
    );
    // Its call panel (a form of 15,001 rows and its validators) is built off the UI thread too.
    let effects = press(&mut m, &["a"]);
    let [Effect::BuildCall(Listed(entry))] = effects.as_slice() else {
        panic!("a large tool's call panel is asked for: {effects:?}");
    };
    let entry = entry.clone();
    assert!(m.call("wide").is_none(), "nothing built on the UI thread");
    let screen = tui::text(&tui::render(&mut m, 120, 30));
    assert!(
        screen.contains("building the form (a large schema)"),
        "{screen}"
    );
    assert!(
        press(&mut m, &["x"]).is_empty(),
        "asked once while building"
    );
    // As the runtime builds it: the panel first, its arguments' validator after.
    let state = Handed::new(CallState::drafted(&entry.tool));
    update(
        &mut m,
        Msg::CallBuilt {
            entry: entry.clone(),
            state,
        },
    );
    type_text(&mut m, "7");
    let draft = m.call("wide").expect("built").arguments().expect("a value");
    assert_eq!(draft["p0"], "7", "typing goes into the built form");
    let waiting = m.call("wide").and_then(|c| c.parse_error.clone());
    assert_eq!(
        waiting.as_deref(),
        Some(NOT_CHECKED_YET),
        "said, not taken for valid"
    );
    let input = Handed::new(mcp_inspect::testing::schema::Compiled::new(
        &entry.tool.input_schema,
    ));
    update(&mut m, Msg::InputCompiled { entry, input });
    let checked = m.call("wide").expect("built");
    assert_ne!(checked.parse_error.as_deref(), Some(NOT_CHECKED_YET));
    assert!(checked.is_valid() || !checked.violations.is_empty());
}

/// A list change that alters an open panel's inputSchema: the validator is compiled again off
/// the UI thread (asked for as an effect), and until it comes the draft says it is unchecked.
#[test]
fn a_changed_input_schema_is_compiled_again_off_the_ui_thread() {
    use mcp_inspect::testing::app::call::state::NOT_CHECKED_YET;
    use mcp_inspect::testing::app::effect::Handed;
    use mcp_inspect::testing::app::update::Listed;
    let mut m = demo_model();
    let list = |tool| tui::listing(vec![tool]);
    update(&mut m, Msg::ToolsListed(list(wide_tool("narrow", 3))));
    press(&mut m, &["a"]);
    type_text(&mut m, "7");
    assert!(m.call("narrow").is_some(), "a small panel is built at once");
    let effects = update(&mut m, Msg::ToolsListed(list(wide_tool("narrow", 4))));
    let Some(Effect::CompileInput(Listed(entry))) = effects
        .iter()
        .find(|e| matches!(e, Effect::CompileInput(_)))
    else {
        panic!("the new validator is asked for, not compiled here: {effects:?}");
    };
    let entry = entry.clone();
    let waiting = m.call("narrow").and_then(|c| c.parse_error.clone());
    assert_eq!(
        waiting.as_deref(),
        Some(NOT_CHECKED_YET),
        "unchecked meanwhile"
    );
    let input = Handed::new(mcp_inspect::testing::schema::Compiled::new(
        &entry.tool.input_schema,
    ));
    update(&mut m, Msg::InputCompiled { entry, input });
    let checked = m.call("narrow").expect("panel");
    assert_ne!(checked.parse_error.as_deref(), Some(NOT_CHECKED_YET));
    // The same list again changes nothing: nothing to compile.
    let effects = update(&mut m, Msg::ToolsListed(list(wide_tool("narrow", 4))));
    assert!(
        !effects.iter().any(|e| matches!(e, Effect::CompileInput(_))),
        "{effects:?}"
    );
}

#[test]
fn a_long_description_gives_way_to_the_signature_and_d_shows_it_whole() {
    let mut m = demo_model();
    let description: Vec<String> = (1..=12)
        .map(|i| format!("Line {i} of a description long enough to wrap in the tool pane at this width, as real servers write them."))
        .collect();
    let tool = mcp_inspect::testing::mcp::surface::tool::decode_tool(&serde_json::json!({
        "name": "wordy", "description": description.join("\n"),
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        "annotations": {"readOnlyHint": true}
    }))
    .expect("tool");
    update(&mut m, Msg::ToolsListed(tui::listing(vec![tool])));
    for (w, h) in [(80, 24), (120, 30)] {
        let screen = tui::text(&tui::render(&mut m, w, h));
        assert!(
            screen.contains("wordy(path: string)"),
            "signature at {w}x{h}:\n{screen}"
        );
        assert!(
            screen.contains("hints: read-only"),
            "hints at {w}x{h}:\n{screen}"
        );
        assert!(screen.contains("… d shows all"), "{screen}");
    }
    press(&mut m, &["2", "d"]);
    let screen = tui::text(&tui::render(&mut m, 120, 40));
    assert!(screen.contains("Line 12 of a description"), "{screen}");
    press(&mut m, &["d"]);
    let screen = tui::text(&tui::render(&mut m, 120, 40));
    assert!(
        screen.contains("Input schema"),
        "the trees are back:\n{screen}"
    );
}

#[test]
fn a_request_from_the_server_is_put_to_the_user_in_a_panel() {
    let mut m = demo_model();
    let ask = |id: u64| {
        Msg::Server(ServerEvent::Asked {
            id,
            method: "elicitation/create".into(),
            params: serde_json::json!({"message": "Your \u{1b}[31mname\u{202e}?", "requestedSchema": {"type": "object",
                "properties": {"name": {"type": "string", "default": "Ada", "minLength": 1}}, "required": ["name"]}}),
        })
    };
    update(&mut m, ask(1));
    update(&mut m, ask(2));
    let screen = tui::text(&tui::render(&mut m, 120, 40));
    assert!(
        screen.contains("the server asks: elicitation/create (1 of 2)"),
        "{screen}"
    );
    assert_eq!(
        tui::form_value(&screen, "name*").as_deref(),
        Some("Ada"),
        "the form starts from its defaults:\n{screen}"
    );
    assert!(
        screen.contains("Your \\e[31mname\\u{202e}?"),
        "escaped:\n{screen}"
    );
    assert!(screen.contains("ctrl-s accept"), "{screen}");
    // Keys type into the answer; a broken form is not sent.
    let mut m2 = demo_model();
    update(&mut m2, ask(5));
    // The form's first row is selected, its cursor after the default.
    press(&mut m2, &["backspace", "backspace", "backspace"]);
    let draft = m2.asked[0].draft.text();
    assert!(draft.contains("\"name\": \"\""), "{draft}");
    assert!(
        press(&mut m2, &["ctrl-s"]).is_empty(),
        "an empty name breaks minLength"
    );
    assert!(
        m2.view
            .status
            .as_deref()
            .unwrap_or("")
            .starts_with("not sent: /name"),
        "{:?}",
        m2.view.status
    );
    let effects = press(&mut m2, &["ctrl-d"]);
    assert_eq!(
        effects,
        [Effect::Session(SessionRequest::Answer {
            id: 5,
            result: Ok(serde_json::json!({"action": "decline"}))
        })]
    );
    assert!(m2.asked.is_empty(), "answered: the panel closes");
    // The first panel of the first model: accepted with its defaults, then the second opens.
    let mut m = demo_model();
    update(&mut m, ask(1));
    update(&mut m, ask(2));
    let effects = press(&mut m, &["ctrl-s"]);
    assert_eq!(
        effects,
        [Effect::Session(SessionRequest::Answer {
            id: 1,
            result: Ok(serde_json::json!({"action": "accept", "content": {"name": "Ada"}}))
        })]
    );
    assert_eq!(m.asked.len(), 1);
    assert_eq!(
        press(&mut m, &["esc"]),
        [Effect::Session(SessionRequest::Answer {
            id: 2,
            result: Ok(serde_json::json!({"action": "cancel"}))
        })]
    );
}

#[test]
fn a_server_flooding_requests_gets_the_extra_ones_declined_at_once() {
    let mut m = demo_model();
    let mut refused = Vec::new();
    for id in 1..=20 {
        refused.extend(update(
            &mut m,
            Msg::Server(ServerEvent::Asked {
                id,
                method: "sampling/createMessage".into(),
                params: serde_json::json!({"messages": []}),
            }),
        ));
    }
    assert_eq!(
        m.asked.len(),
        mcp_inspect::testing::app::asked::state::MAX_WAITING
    );
    assert_eq!(
        refused.len(),
        20 - mcp_inspect::testing::app::asked::state::MAX_WAITING
    );
}

/// A re-listing that changes a tool's schema resets its pane (the old cursor pointed into the
/// old tree); an unchanged tool keeps its rows open and its cursor where they were.
#[test]
fn a_changed_tool_starts_afresh_and_an_unchanged_one_keeps_its_place() {
    let tool = |name: &str, props: usize| {
        let properties: serde_json::Map<String, serde_json::Value> = (0..props)
            .map(|i| (format!("p{i}"), serde_json::json!({"type": "string"})))
            .collect();
        mcp_inspect::testing::mcp::surface::tool::decode_tool(&serde_json::json!({
            "name": name, "inputSchema": {"type": "object", "properties": properties}
        }))
        .expect("tool")
    };
    let mut m = demo_model();
    let listing = |a, b| Msg::ToolsListed(tui::listing(vec![tool("a", a), tool("b", b)]));
    update(&mut m, listing(30, 3));
    press(&mut m, &["2", "G"]);
    assert_eq!(cursor_label(&m), "p29");
    update(&mut m, listing(2, 3));
    let pointer = copied(press(&mut m, &["y", "p"]));
    assert_eq!(
        pointer.text, "/inputSchema",
        "a changed tool's cursor is back on its root"
    );
    press(&mut m, &["1", "j", "2", "G"]);
    assert_eq!(cursor_label(&m), "p2");
    update(&mut m, listing(1, 3));
    assert_eq!(selected(&m), "b");
    assert_eq!(cursor_label(&m), "p2", "an unchanged tool keeps its cursor");
}

/// The mouse: a click selects the row under it (on its mark, also opens or closes it), in the
/// tools list and the schema trees, and the wheel moves through the pane under it.
#[test]
fn clicks_select_rows_and_toggle_marks_and_the_wheel_moves() {
    use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let at = |kind, (column, row): (u16, u16)| {
        Msg::Mouse(MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    let click = |spot| at(MouseEventKind::Down(MouseButton::Left), spot);
    let mut m = demo_model();
    let screen = tui::render(&mut m, 120, 40);
    let spot = tui::find(&screen, "lookup_user").expect("listed");
    update(&mut m, click(spot));
    assert_eq!(selected(&m), "lookup_user");
    let screen = tui::render(&mut m, 120, 40);
    let (x, y) = tui::find(&screen, "user*: User").expect("output row");
    update(&mut m, click((x + 4, y)));
    assert_eq!(m.view.focus, Pane::Tool);
    assert_eq!(
        cursor_label(&m),
        "user",
        "a click on the label selects the row"
    );
    assert_eq!(
        output_labels(&m, "lookup_user"),
        ["(root)", "user"],
        "and leaves it closed"
    );
    update(&mut m, click((x - 2, y)));
    assert_eq!(
        output_labels(&m, "lookup_user").len(),
        6,
        "its mark opens it"
    );
    update(&mut m, click((x - 1, y)));
    assert_eq!(output_labels(&m, "lookup_user").len(), 2, "and closes it");
    let screen = tui::render(&mut m, 120, 40);
    let spot = tui::find(&screen, "echo ro").expect("listed");
    update(&mut m, at(MouseEventKind::ScrollDown, spot));
    assert_eq!(
        m.tools.selected, 7,
        "the wheel over the list moves its selection three rows"
    );
    assert_eq!(selected(&m), "is_even");
}

#[test]
fn the_tool_pane_judges_schemas_in_the_era_of_the_connection_as_check_does() {
    use mcp_inspect::testing::schema::Era;
    use mcp_inspect::testing::schema::lint::{ToolSchemas, lint};
    // The demo's `pi` declares a number as its output schema: fine from 2026-07-28 on, a
    // problem for a legacy client. The pane used to judge every tool as legacy (and warned
    // where `check` said nothing).
    for era in [Era::Modern, Era::Legacy] {
        let mut m = mcp_inspect::testing::app::model::Model::new(
            "demo".into(),
            mcp_inspect::testing::app::keymap::Keymap::default_map(),
            mcp_inspect::testing::app::theme::Theme { color: false },
        );
        let mut server = tui::server();
        server.era = era;
        update(&mut m, Msg::Connected(server));
        update(&mut m, Msg::ToolsListed(tui::demo_tools()));
        tui::open_tool(&mut m, "pi");
        assert_eq!(selected(&m), "pi");
        let entry = m.selected_entry().expect("pi").clone();
        let tool = &entry.tool;
        let checked = lint(
            &[ToolSchemas {
                name: &tool.name,
                description: tool.description.as_deref(),
                input: &tool.input_schema,
                output: tool.output_schema.as_deref(),
            }],
            era,
        );
        let shown = &m.detail("pi").expect("trees").findings;
        let said = |f: &Vec<_>| {
            f.iter()
                .map(|x: &mcp_inspect::testing::schema::lint::Finding| x.message.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(said(shown), said(&checked), "{era:?}");
        assert_eq!(
            shown.is_empty(),
            era == Era::Modern,
            "{era:?}: {:?}",
            said(shown)
        );
    }
}

#[test]
fn at_80x24_a_tool_with_long_facts_still_shows_its_tree_rows() {
    // `configure`'s signature and finding take five rows of a pane eleven high: the header took
    // all but one row (a heading, no tree); the description now gives way, down to its mark.
    let mut m = demo_model();
    tui::open_tool(&mut m, "configure");
    let screen = tui::text(&tui::render(&mut m, 80, 24));
    for shown in [
        "… d shows all",
        "-> object",
        "Input schema",
        "(root): object",
    ] {
        assert!(screen.contains(shown), "{shown}:\n{screen}");
    }
}

#[test]
fn a_titled_variant_is_read_by_its_title() {
    let mut m = demo_model();
    let tool = mcp_inspect::testing::mcp::surface::tool::decode_tool(&serde_json::json!({
        "name": "hero", "inputSchema": {"type": "object", "properties": {"hero": {"oneOf": [
            {"const": "hero-1", "title": "Superman"},
            {"const": "hero-2", "title": "Green Lantern \u{1b}[31m"},
            {"const": "hero-3"}
        ]}}}
    }))
    .expect("tool");
    update(&mut m, Msg::ToolsListed(tui::listing(vec![tool])));
    press(&mut m, &["enter", "j", "l"]);
    let screen = tui::text(&tui::render(&mut m, 120, 40));
    for row in [
        "oneOf[0] (Superman): \"hero-1\"",
        "oneOf[1] (Green Lantern \\e[31m): \"hero-2\"",
        "oneOf[2]: \"hero-3\"",
    ] {
        assert!(screen.contains(row), "{row}:\n{screen}");
    }
}

/// The border between the left and right panes moves: `>`/`<` by key, and dragged with the
/// mouse; the share stays within its bounds.
#[test]
fn the_left_pane_is_resized_by_key_and_by_dragging_its_border() {
    use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let mut m = demo_model();
    // Where the first line's left pane ends (its top-right corner).
    let left_width = |m: &mut Model| {
        let screen = tui::text(&tui::render(m, 120, 40));
        let first = screen.lines().next().unwrap_or("").to_string();
        first.chars().position(|c| c == '┐').expect("a corner") + 1
    };
    let start = left_width(&mut m);
    press(&mut m, &[">", ">"]);
    let wider = left_width(&mut m);
    assert!(wider >= start + 8, "{start} -> {wider}");
    for _ in 0..30 {
        press(&mut m, &["<"]);
    }
    assert_eq!(
        left_width(&mut m),
        18,
        "15% at least: the list stays readable"
    );
    let mouse = |kind, column| {
        Msg::Mouse(MouseEvent {
            kind,
            column,
            row: 5,
            modifiers: KeyModifiers::NONE,
        })
    };
    update(&mut m, mouse(MouseEventKind::Down(MouseButton::Left), 18));
    update(&mut m, mouse(MouseEventKind::Drag(MouseButton::Left), 59));
    update(&mut m, mouse(MouseEventKind::Up(MouseButton::Left), 59));
    assert_eq!(left_width(&mut m), 60, "the border follows the mouse");
    // A drag that did not start on the border moves nothing.
    update(&mut m, mouse(MouseEventKind::Drag(MouseButton::Left), 30));
    assert_eq!(left_width(&mut m), 60);
}

/// A request's long message wraps in its panel: its last words are on screen.
#[test]
fn a_long_message_in_a_request_panel_wraps() {
    let mut m = demo_model();
    let message = format!(
        "{} Please clarify what you're looking for.",
        "This is a long question from the server. ".repeat(6)
    );
    update(
        &mut m,
        Msg::Server(ServerEvent::Asked {
            id: 1,
            method: "elicitation/create".into(),
            params: serde_json::json!({"message": message, "requestedSchema": {"type": "object", "properties": {"q": {"type": "string", "description": "The question again, in other words, long enough to wrap at eighty columns for sure"}}}}),
        }),
    );
    for (w, h) in [(80, 24), (140, 45)] {
        let screen = tui::text(&tui::render(&mut m, w, h));
        assert!(screen.contains("looking for."), "{w}x{h}:\n{screen}");
        assert!(
            screen.contains("for sure"),
            "the field's description wraps too:\n{screen}"
        );
    }
}

/// `n` in the protocol pane composes a request of any method: sent as typed (params a JSON
/// object, or none), and what came back said in the status line and the log.
#[test]
fn a_request_of_any_method_is_composed_in_the_protocol_pane() {
    let mut m = demo_model();
    press(&mut m, &["5", "n"]);
    let screen = tui::text(&tui::render(&mut m, 120, 40));
    assert!(screen.contains("before it is sent: request"), "{screen}");
    for (w, h) in [(80, 24), (140, 45)] {
        let screen = tui::text(&tui::render(&mut m, w, h));
        insta::assert_snapshot!(format!("request_form_{w}x{h}"), screen);
    }
    type_text(&mut m, "tools/list");
    press(&mut m, &["down"]);
    type_text(&mut m, r#"{"cursor": "abc"}"#);
    let effects = press(&mut m, &["ctrl-s"]);
    assert_eq!(
        effects,
        [Effect::Session(SessionRequest::Any {
            method: "tools/list".into(),
            params: Some(serde_json::json!({"cursor": "abc"})),
        })]
    );
    update(
        &mut m,
        Msg::Answered {
            method: "tools/list".into(),
            result: Ok(serde_json::json!({"tools": []})),
        },
    );
    assert_eq!(
        m.view.status.as_deref(),
        Some("tools/list: answered (the protocol pane shows it)")
    );
    // Params that are not an object are not sent.
    press(&mut m, &["n"]);
    type_text(&mut m, "ping");
    press(&mut m, &["down"]);
    type_text(&mut m, "[1]");
    assert!(press(&mut m, &["ctrl-s"]).is_empty());
    assert_eq!(
        m.view.status.as_deref(),
        Some("not sent: params must be a JSON object")
    );
}

/// The roots form's checks carried out as the runtime carries them (off the UI thread there):
/// each `CheckRoots` answered with what `root_uris` finds. The other effects are returned.
fn carry_root_checks(m: &mut Model, effects: Vec<Effect>) -> Vec<Effect> {
    use mcp_inspect::testing::mcp::session::client_side::root_uris;
    let mut rest = Vec::new();
    for effect in effects {
        match effect {
            Effect::CheckRoots(entries) => {
                let problem = root_uris(&entries).err();
                let more = update(m, Msg::RootsChecked { entries, problem });
                rest.extend(carry_root_checks(m, more));
            }
            other => rest.push(other),
        }
    }
    rest
}

/// `R` in the server pane: a form of the roots (none to begin with). Each entry is checked as
/// it is typed: a path that is not a directory is named before anything is sent, and ctrl-s
/// sends nothing then. Once handed over the pane lists them; a refusal opens the form again
/// with every entry sent; `--no-roots` has nothing to edit.
#[test]
fn roots_are_edited_from_the_server_pane() {
    let mut m = demo_model();
    let effects = press(&mut m, &["3", "R"]);
    assert!(carry_root_checks(&mut m, effects).is_empty());
    assert_eq!(m.asked.len(), 1, "the roots form is open");
    let screen = tui::text(&tui::render(&mut m, 120, 40));
    assert!(
        screen.contains("the roots handed to the server when it asks")
            && screen.contains("✓ ready to send"),
        "{screen}"
    );
    // `+` on the list adds a row, which takes the directory as typed.
    let dir = std::env::temp_dir().to_string_lossy().into_owned();
    let typed = |m: &mut Model, keys: &[&str], text: &str| {
        let mut effects = press(m, keys);
        for c in text.chars() {
            effects.extend(press(m, &[&c.to_string()]));
        }
        carry_root_checks(m, effects)
    };
    assert!(typed(&mut m, &["+"], &dir).is_empty());
    let screen = tui::text(&tui::render(&mut m, 120, 40));
    assert!(screen.contains("✓ ready to send"), "{screen}");
    assert!(typed(&mut m, &["up", "+"], "/definitely/not/here").is_empty());
    let screen = tui::text(&tui::render(&mut m, 120, 40));
    assert!(
        screen.contains("✗ /definitely/not/here: No such file or directory")
            && !screen.contains("ready to send"),
        "said live, before sending: {screen}"
    );
    let effects = press(&mut m, &["ctrl-s"]);
    assert!(effects.is_empty(), "{effects:?}");
    assert!(
        m.view
            .status
            .as_deref()
            .is_some_and(|s| s.contains("not sent: /definitely/not/here")),
        "{:?}",
        m.view.status
    );
    assert_eq!(m.asked.len(), 1, "the roots form stays open");
    let screen = tui::text(&tui::render(&mut m, 120, 40));
    assert!(
        screen.contains(&dir) && screen.contains("/definitely/not/here"),
        "{screen}"
    );
    // The missing entry removed: ready again, and the rest is sent.
    let effects = press(&mut m, &["down", "down", "ctrl-k"]);
    assert!(carry_root_checks(&mut m, effects).is_empty());
    let screen = tui::text(&tui::render(&mut m, 120, 40));
    assert!(screen.contains("✓ ready to send"), "{screen}");
    let effects = press(&mut m, &["ctrl-s"]);
    let screen = tui::text(&tui::render(&mut m, 120, 40));
    assert_eq!(
        effects,
        vec![Effect::Session(SessionRequest::SetRoots(vec![dir.clone()]))],
        "{screen}"
    );
    let how = "the server asks for them within its next request";
    let entries = vec![dir.clone()];
    let outcome = Ok((vec!["file:///srv/data".into()], how));
    assert!(update(&mut m, Msg::RootsSet { entries, outcome }).is_empty());
    let screen = tui::text(&tui::render(&mut m, 120, 40));
    assert!(screen.contains("(file:///srv/data)"), "{screen}");
    assert!(
        m.log.lines.iter().any(|l| l
            .text
            .contains("roots now file:///srv/data; the server asks")),
        "{:?}",
        m.log.lines
    );
    // A directory gone between the check and the send: said, and the form comes back with
    // every entry the user sent, checked again.
    let entries = vec![dir.clone(), "/gone".to_string()];
    let outcome = Err("/gone: No such file".into());
    let effects = update(&mut m, Msg::RootsSet { entries, outcome });
    assert_eq!(
        effects,
        vec![Effect::CheckRoots(vec![dir.clone(), "/gone".into()])]
    );
    assert_eq!(
        m.view.status.as_deref(),
        Some(
            "roots not changed: /gone: No such file (nothing handed; the form keeps what you typed)"
        )
    );
    assert!(carry_root_checks(&mut m, effects).is_empty());
    let screen = tui::text(&tui::render(&mut m, 120, 40));
    assert!(
        screen.contains(&dir) && screen.contains("✗ /gone: No such file or directory"),
        "{screen}"
    );
    press(&mut m, &["esc"]);
    assert!(m.asked.is_empty());
    if let Some(server) = m.session.server.as_mut() {
        server.roots = None;
    }
    press(&mut m, &["R"]);
    assert_eq!(
        m.view.status.as_deref(),
        Some("roots are not declared (--no-roots): nothing to edit")
    );
}

/// Newcomer friction 15: typing in a pane with no filter of its own ran single-key commands
/// (`q` quit at once). `/` there opens the list's filter: what follows is typed into it.
#[test]
fn slash_in_any_pane_opens_the_list_filter() {
    for pane in ["3", "4", "2"] {
        let mut m = demo_model();
        press(&mut m, &[pane, "/"]);
        assert_eq!(m.view.focus, Pane::Tools, "from pane {pane}");
        type_text(&mut m, "quiet");
        assert!(!m.exit.quit, "q was typed, not run");
        assert_eq!(m.tools.filter.text, "quiet");
    }
}

/// Newcomer friction 16: `S` ended the session on one key, into a picker that could be empty.
/// Now the first press asks and any other key stays; with nothing to pick it says so and stays.
#[test]
fn switching_server_asks_first_and_never_leads_to_an_empty_picker() {
    let mut m = demo_model();
    press(&mut m, &["S"]);
    assert!(!m.exit.quit, "nothing to pick: stays");
    assert!(
        m.view
            .status
            .as_deref()
            .is_some_and(|s| s.starts_with("no other server to pick")),
        "{:?}",
        m.view.status
    );
    m.session.servers_to_pick = 2;
    press(&mut m, &["S"]);
    assert!(!m.exit.quit, "the first press asks");
    press(&mut m, &["j", "S"]);
    assert!(!m.exit.quit, "another key in between: asked again");
    press(&mut m, &["S"]);
    assert!(m.exit.quit && m.exit.switch_server);
}
