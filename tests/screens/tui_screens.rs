//! Rendered screens at 80×24 and 120×40 (`TestBackend` + insta snapshots), and cell styles for
//! what colour carries: focus, the selected row, required marks, problems, NO_COLOR.

use crate::tui;
use mcp_inspect::testing::mcp::session::requests::{Completion, CompletionRef, OpenRequest};

use mcp_inspect::testing::app::model::Model;
use mcp_inspect::testing::app::theme::Theme;
use mcp_inspect::testing::app::update::{Msg, update};
use mcp_inspect::testing::mcp::ServerEvent;
use mcp_inspect::testing::mcp::surface::picture::in_opened;
use ratatui::style::{Color, Modifier};
use serde_json::json;
use tui::{demo_model, find, form_value, library_model, press, render, text, type_text};

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

fn snapshot(name: &str, model: &mut Model) {
    for (w, h) in SIZES {
        let screen = text(&render(model, w, h));
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), screen);
    }
}

fn open_tool(model: &mut Model, name: &str) {
    press(model, &["/"]);
    type_text(model, name);
    press(model, &["enter", "enter"]);
}

#[test]
fn tools_screen() {
    let mut m = demo_model();
    update(
        &mut m,
        Msg::Server(ServerEvent::Stderr(
            "demo: mcp-inspect demo server ready on stdio".into(),
        )),
    );
    snapshot("tools", &mut m);
}

#[test]
fn tool_with_both_trees() {
    let mut m = demo_model();
    open_tool(&mut m, "build_tree");
    press(&mut m, &["e"]);
    snapshot("tool_trees", &mut m);
}

#[test]
fn boxed_and_problem_tools() {
    let mut m = demo_model();
    open_tool(&mut m, "add");
    snapshot("tool_boxed", &mut m);
    let mut m = demo_model();
    open_tool(&mut m, "dangling_ref");
    press(&mut m, &["G"]);
    snapshot("tool_problem", &mut m);
    // The tool pane says what `check` finds, in its words: infos too.
    let mut m = demo_model();
    open_tool(&mut m, "configure");
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("⚠ info /inputSchema/properties/point/items: boolean subschema `false`"),
        "{screen}"
    );
}

#[test]
fn filter_screen() {
    let mut m = demo_model();
    press(&mut m, &["/"]);
    type_text(&mut m, "box");
    snapshot("filter", &mut m);
}

#[test]
fn help_screen() {
    let mut m = demo_model();
    press(&mut m, &["?"]);
    snapshot("help", &mut m);
    // A description longer than the overlay wraps under itself; nothing is cut.
    let screen = text(&render(&mut m, 80, 24));
    assert!(
        screen.contains("pick another from your│\n│                    client configs"),
        "{screen}"
    );
}

/// Newcomer friction 1: help lists every key (over 200 lines) and `/` searches it: the keys
/// whose words or names hold the text stay, under their sections; enter keeps the search and
/// j/k scroll again; esc clears it, and esc again closes help.
#[test]
fn help_is_searched_with_slash() {
    let mut m = demo_model();
    press(&mut m, &["?", "/"]);
    type_text(&mut m, "violation");
    let screen = text(&render(&mut m, 100, 30));
    assert!(screen.contains("/ violation▏"), "{screen}");
    assert!(
        screen.contains("Next violation") && screen.contains("Previous violation"),
        "{screen}"
    );
    assert!(
        screen.contains("Call panel: results"),
        "the section is named: {screen}"
    );
    assert!(
        !screen.contains("Close help") && !screen.contains("Tools list"),
        "{screen}"
    );
    press(&mut m, &["enter"]);
    assert!(!m.view.help_searching, "kept, no longer typed");
    let screen = text(&render(&mut m, 100, 30));
    assert!(
        screen.contains("/ violation") && !screen.contains("▏"),
        "{screen}"
    );
    // A key's name finds it too; nothing found is said.
    press(&mut m, &["/"]);
    type_text(&mut m, "zzz");
    let screen = text(&render(&mut m, 100, 30));
    assert!(screen.contains("no key does that"), "{screen}");
    press(&mut m, &["esc"]);
    assert!(m.view.help_search.is_empty() && m.view.overlay.is_some());
    press(&mut m, &["/"]);
    type_text(&mut m, "ctrl-s");
    let screen = text(&render(&mut m, 100, 30));
    assert!(screen.contains("Send the call again"), "{screen}");
    press(&mut m, &["esc", "esc"]);
    assert_eq!(m.view.overlay, None, "the second esc closes help");
}

#[test]
fn copy_menu_screen() {
    let mut m = demo_model();
    press(&mut m, &["y"]);
    snapshot("copy_menu", &mut m);
    // Newcomer friction 2: at 80 columns a description wraps at a word, never cut, and what
    // needs a result says so before there is one.
    let screen = text(&render(&mut m, 80, 24));
    assert!(
        screen.contains("a value: in       │\n│                    structuredContent)"),
        "{screen}"
    );
    assert!(
        screen.contains("(of a result's value: in the call panel)"),
        "{screen}"
    );
}

#[test]
fn log_and_server_screens() {
    let mut m = demo_model();
    for i in 0..12 {
        update(
            &mut m,
            Msg::Server(ServerEvent::Stderr(format!("stderr line {i}"))),
        );
    }
    update(
        &mut m,
        Msg::Server(ServerEvent::Notice(
            "server wrote a non-JSON line to stdout".into(),
        )),
    );
    press(&mut m, &["4", "k", "k"]);
    snapshot("log", &mut m);
    press(&mut m, &["3"]);
    snapshot("server", &mut m);
    update(
        &mut m,
        Msg::Server(ServerEvent::Closed(
            "the server exited (exit status: 1)".into(),
        )),
    );
    snapshot("lost", &mut m);
}

#[test]
fn focus_selection_and_required_are_styled() {
    let mut m = demo_model();
    open_tool(&mut m, "search");
    let buffer = render(&mut m, 120, 40);
    let (x, y) = find(&buffer, "┌ search").expect("tool pane border");
    assert_eq!(
        buffer[(x, y)].fg,
        Color::Cyan,
        "the focused pane's border is cyan"
    );
    assert!(buffer[(x, y)].modifier.contains(Modifier::BOLD));
    let (tx, ty) = find(&buffer, "┌ Tools").expect("tools border");
    assert_eq!(
        buffer[(tx, ty)].fg,
        Color::DarkGray,
        "unfocused borders are dim"
    );
    let (qx, qy) = find(&buffer, "query*").expect("required row");
    assert_eq!(
        buffer[(qx + 5, qy)].fg,
        Color::Red,
        "the required mark is red"
    );
    let (rx, ry) = find(&buffer, "▾ (root)").expect("cursor row");
    assert!(
        buffer[(rx, ry)].modifier.contains(Modifier::REVERSED),
        "the cursor row is reversed"
    );
    let mut m = demo_model();
    open_tool(&mut m, "dangling_ref");
    press(&mut m, &["G"]);
    let buffer = render(&mut m, 120, 40);
    let (px, py) = find(&buffer, "⚠ dangling $ref").expect("problem");
    assert_eq!(buffer[(px, py)].fg, Color::Red);
}

#[test]
fn no_color_keeps_emphasis_only() {
    let mut m = demo_model();
    m.view.theme = Theme { color: false };
    open_tool(&mut m, "search");
    let buffer = render(&mut m, 120, 40);
    let coloured = buffer
        .content
        .iter()
        .filter(|c| c.fg != Color::Reset || c.bg != Color::Reset)
        .count();
    assert_eq!(coloured, 0, "NO_COLOR: no colours at all");
    let (rx, ry) = find(&buffer, "▾ (root)").expect("cursor row");
    assert!(
        buffer[(rx, ry)].modifier.contains(Modifier::REVERSED),
        "the cursor is still visible"
    );
}

#[test]
fn hostile_names_never_reach_the_screen_raw() {
    let mut m = demo_model();
    let mut list = tui::demo_tools();
    let evil = serde_json::json!({"name": "evil\u{1b}]52;c;cHduZWQ=\u{7}", "description": "\u{1b}[2J\u{202e}gnp.exe", "inputSchema": {"type": "object", "properties": {"x\u{1b}[31m": {"type": "string", "description": "\u{9b}6n"}}}});
    list.tools.insert(
        0,
        mcp_inspect::testing::mcp::surface::tool::decode_tool(&evil).expect("tool"),
    );
    update(&mut m, Msg::ToolsListed(list));
    press(&mut m, &["g", "enter"]);
    for (w, h) in SIZES {
        let buffer = render(&mut m, w, h);
        let screen = text(&buffer);
        assert!(
            !screen.chars().any(|c| c.is_control() && c != '\n'),
            "raw control character on screen:\n{screen}"
        );
        assert!(!screen.contains('\u{202e}'));
        assert!(screen.contains("evil\\e]52;c;cHduZWQ=\\x07"), "{screen}");
    }
}

/// A tree scrolled far down draws the rows at the cursor, indented by their depth, with the
/// right open and closed marks: the widget is given only the window and its ancestors.
#[test]
fn a_large_tree_scrolled_to_its_end_draws_the_window_rows() {
    let mut props = serde_json::Map::new();
    for i in 0..300 {
        props.insert(
            format!("p{i}"),
            json!({"type": "object", "properties": {"inner": {"type": "object", "properties": {"leaf": {"type": "string"}}}}}),
        );
    }
    let tool = mcp_inspect::testing::mcp::surface::tool::decode_tool(
        &json!({"name": "wide", "inputSchema": {"type": "object", "properties": props}}),
    )
    .expect("tool");
    let mut m = demo_model();
    update(&mut m, Msg::ToolsListed(tui::listing(vec![tool])));
    press(&mut m, &["2", "e", "G"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("▾ p299: object"), "{screen}");
    assert!(screen.contains("    ▾ inner: object"), "{screen}");
    assert!(screen.contains("        leaf: string"), "{screen}");
    assert!(
        !screen.contains("(root)"),
        "the root is scrolled away:\n{screen}"
    );
    // Back to the top (drawn there), then close p0: its children go, the next property follows.
    press(&mut m, &["g"]);
    render(&mut m, 120, 40);
    press(&mut m, &["j", "h"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("▾ (root): object"), "{screen}");
    assert!(screen.contains("▸ p0: object"), "{screen}");
    let p0 = screen.find("▸ p0").expect("p0");
    let p1 = screen.find("▾ p1: object").expect("p1 open");
    assert_eq!(
        screen[p0..p1].lines().count(),
        2,
        "p1 right below p0:\n{screen}"
    );
}

/// The protocol pane: every message with its time, direction, id, latency and size; the
/// selected one below as a value tree; `y m` copies it as sent.
#[test]
fn protocol_pane() {
    use mcp_inspect::testing::mcp::transport::wire::{Direction, WireMessage};
    use std::time::{Duration, Instant};
    let mut m = demo_model();
    let t0 = Instant::now();
    let wire = |direction, message: serde_json::Value, ms: u64| {
        let at = t0 + Duration::from_millis(ms);
        WireMessage::new(direction, &message, &message.to_string(), at)
    };
    let batch = vec![
        wire(
            Direction::Out,
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 40}}}),
            0,
        ),
        wire(
            Direction::In,
            json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 1}}),
            4,
        ),
        wire(
            Direction::In,
            json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "42"}], "structuredContent": {"result": 42}}}),
            15,
        ),
        wire(
            Direction::In,
            json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "no \u{1b}[2J such method"}}),
            1_250,
        ),
    ];
    update(&mut m, Msg::Wire { batch, dropped: 0 });
    press(&mut m, &["5"]);
    snapshot("protocol", &mut m);
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("+0.015s ← #2 result of tools/call  15 ms"),
        "{screen}"
    );
    assert!(!screen.contains('\u{1b}'), "escaped");
    press(&mut m, &["k"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("\"structuredContent\": {1 key}"),
        "{screen}"
    );
    let effects = press(&mut m, &["y", "m"]);
    let [mcp_inspect::testing::app::update::Effect::Copy(copy)] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    let copied: serde_json::Value = serde_json::from_str(&copy.text).expect("json");
    assert_eq!(copied["result"]["structuredContent"]["result"], 42);
    // `/` filters by method or text, any case; esc shows every message again.
    press(&mut m, &["/", "P", "r", "o", "g", "enter"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("Protocol (1 of 4 messages) /Prog"),
        "{screen}"
    );
    assert!(
        screen.contains("← notifications/progress") && !screen.contains("→ tools/call #2"),
        "{screen}"
    );
    press(
        &mut m,
        &["/", "backspace", "backspace", "backspace", "backspace"],
    );
    press(&mut m, &["4", "2", "enter"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("Protocol (1 of 4 messages) /42"),
        "{screen}"
    );
    assert!(screen.contains("← #2 result"), "{screen}");
    press(&mut m, &["esc"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("Protocol (4 messages)"), "{screen}");
}

/// Over Streamable HTTP each posted message carries its exchange: the status and the headers
/// both ways (authorization and the user's secrets hidden); a failed POST is marked in the
/// list and its body shown.
#[test]
fn protocol_pane_shows_http_exchanges() {
    use mcp_inspect::testing::mcp::transport::wire::{Direction, HttpExchange, WireMessage};
    use reqwest::header::{HeaderMap, HeaderValue};
    use std::sync::Arc;
    use std::time::{Duration, Instant};
    mcp_inspect::testing::secrets::register("sk-live-0123456789");
    let mut m = demo_model();
    let t0 = Instant::now();
    let headers = |pairs: &[(&'static str, &str)]| {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_str(value).expect("a header value"));
        }
        HttpExchange::headers(&map)
    };
    let posted = |id: u64, ms: u64, exchange: HttpExchange| {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"});
        let mut wire = WireMessage::new(
            Direction::Out,
            &message,
            &message.to_string(),
            t0 + Duration::from_millis(ms),
        );
        wire.http = Some(Arc::new(exchange));
        wire
    };
    let sent = headers(&[
        ("authorization", "Bearer abcdefghijkl"),
        ("x-api-key", "sk-live-0123456789"),
        ("mcp-session-id", "s-1"),
    ]);
    let batch = vec![
        posted(
            1,
            0,
            HttpExchange {
                method: "POST",
                status: Some(200),
                sent: sent.clone(),
                received: headers(&[("content-type", "text/event-stream")]),
                ..HttpExchange::default()
            },
        ),
        posted(
            2,
            900,
            HttpExchange {
                method: "POST",
                status: Some(400),
                sent,
                received: headers(&[("content-type", "text/plain")]),
                body: Some("Bad Request: No valid session ID provided".into()),
                ..HttpExchange::default()
            },
        ),
    ];
    update(&mut m, Msg::Wire { batch, dropped: 0 });
    press(&mut m, &["5"]);
    snapshot("protocol_http", &mut m);
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("tools/list #2 HTTP 400"), "{screen}");
    assert!(screen.contains("POST → HTTP 400  text/plain"), "{screen}");
    assert!(
        screen.contains("body: Bad Request: No valid session ID provided"),
        "{screen}"
    );
    assert!(screen.contains("→ authorization: [redacted]"), "{screen}");
    assert!(screen.contains("→ x-api-key: [redacted]"), "{screen}");
    assert!(
        !screen.contains("abcdefghijkl") && !screen.contains("sk-live"),
        "{screen}"
    );
}

/// The library's tabs (`6`, `t`): listed once per connection, once its tools are; a template
/// asks for its variables in a form (checked live: a required one cannot stay empty), expands
/// them by RFC 6570 and reads; what was read is shown, then the result as sent. A server with
/// tools only has no tabs.
#[test]
fn library_pane() {
    use mcp_inspect::testing::app::effect::{Effect, SessionRequest};
    use mcp_inspect::testing::app::library::state::{Item, Kind, Open};
    let changed = || Msg::Server(ServerEvent::LibraryChanged);
    let mut m = demo_model();
    assert!(
        update(&mut m, changed()).is_empty(),
        "never listed: nothing to redo"
    );
    assert!(press(&mut m, &["6"]).is_empty() && press(&mut m, &["t"]).is_empty());
    assert_eq!(
        m.view.status.as_deref(),
        Some("the server declares no resources, prompts or skills: no tabs")
    );
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        !screen.contains("[Tools") && !screen.contains("t tab"),
        "{screen}"
    );
    let mut m = library_model();
    assert!(press(&mut m, &["6", "5", "6"]).is_empty(), "listed once");
    assert_eq!(
        update(&mut m, changed()),
        [Effect::Session(SessionRequest::ListLibrary)],
        "a list change lists again"
    );
    let item = |kind, json| Item { kind, json };
    let items = vec![
        item(
            Kind::Resource,
            json!({"uri": "demo://readme", "name": "readme", "mimeType": "text/markdown"}),
        ),
        item(
            Kind::Template,
            json!({"uriTemplate": "demo://users/{id}", "name": "user"}),
        ),
        item(
            Kind::Prompt,
            json!({"name": "greeting", "description": "No \u{1b}[2J arguments"}),
        ),
    ];
    update(
        &mut m,
        Msg::LibraryListed {
            items,
            problems: vec![],
        },
    );
    press(&mut m, &["t", "enter"]);
    let form = m.asked.front_mut().expect("a form for the variables");
    assert_eq!(
        form.problem.as_deref(),
        Some("/id: \"\" is shorter than 1 character")
    );
    // ctrl-n on a field's line asks the server for completions; the first goes in, the next
    // ctrl-n puts the next.
    let effects = press(&mut m, &["ctrl-n"]);
    assert_eq!(
        effects,
        [Effect::Session(SessionRequest::Complete(Completion {
            reference: CompletionRef::Template("demo://users/{id}".into()),
            argument: "id".into(),
            value: String::new(),
            context: serde_json::Map::new(),
        }))]
    );
    let given = json!({"completion": {"values": ["1", "2", "42"], "total": 3, "hasMore": false}});
    update(
        &mut m,
        Msg::Completed {
            argument: "id".into(),
            result: Ok(given),
        },
    );
    let screen = text(&render(&mut m, 120, 40));
    assert_eq!(form_value(&screen, "id*").as_deref(), Some("1"), "{screen}");
    assert!(screen.contains("id: 1 · 2 · 42 (3 of 3)"), "{screen}");
    assert!(
        screen.contains(" read demo://users/1 "),
        "the expanded URI, before reading: {screen}"
    );
    assert!(
        press(&mut m, &["ctrl-n"]).is_empty(),
        "the next, no new request"
    );
    let screen = text(&render(&mut m, 120, 40));
    assert_eq!(form_value(&screen, "id*").as_deref(), Some("2"), "{screen}");
    let form = m.asked.front_mut().expect("the form");
    form.draft.set_text(r#"{"id": "a b"}"#);
    form.check();
    let effects = press(&mut m, &["ctrl-s"]);
    let open = Open {
        request: OpenRequest::Read {
            uri: "demo://users/a%20b".into(),
        },
        title: "read demo://users/a%20b".into(),
    };
    assert_eq!(
        effects,
        [Effect::Session(SessionRequest::Open(open.clone()))]
    );
    let result = json!({"contents": [{"uri": "demo://users/a%20b", "mimeType": "application/json",
        "text": "{\"id\":\"a b\"}"}]});
    update(
        &mut m,
        Msg::Opened {
            open,
            pictures: in_opened(&result),
            result: Ok(result),
        },
    );
    snapshot("library", &mut m);
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains(" Tools 17  Resources 1 [Templates 1]"),
        "{screen}"
    );
    assert!(
        screen.contains("  ▾ {1 key}") && screen.contains("\"id\": \"a b\""),
        "a JSON content is a value tree: {screen}"
    );
    assert!(!screen.contains('\u{1b}'), "escaped");
    // `y r` copies what was read, as sent; the menu offers only what copies here.
    press(&mut m, &["y"]);
    let menu = text(&render(&mut m, 120, 40));
    assert!(
        menu.contains("The shown call result") && !menu.contains("Input schema"),
        "{menu}"
    );
    let effects = press(&mut m, &["r"]);
    let [Effect::Copy(copy)] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    let copied: serde_json::Value = serde_json::from_str(&copy.text).expect("json");
    assert_eq!(copied["contents"][0]["text"], "{\"id\":\"a b\"}");
    // The JSON content is a value tree: `tab` focuses it, the cursor moves to a row whose
    // value, JSON Pointer and jq path copy.
    press(&mut m, &["tab", "j"]);
    assert_eq!(m.view.focus, mcp_inspect::testing::app::model::Pane::Opened);
    let copied =
        |m: &mut mcp_inspect::testing::app::model::Model, key: &str| match press(m, &["y", key])
            .as_slice()
        {
            [Effect::Copy(copy)] => copy.text.clone(),
            other => panic!("{other:?}"),
        };
    assert_eq!(copied(&mut m, "p"), "/id");
    assert_eq!(copied(&mut m, "j"), "(.contents[0].text | fromjson).id");
    assert_eq!(copied(&mut m, "s"), "\"a b\"");
    press(&mut m, &["k", "enter"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(!screen.contains("\"id\": \"a b\""), "closed: {screen}");
}

/// Each library tab at both sizes, listing what the demo server lists: before anything is
/// opened, the pane beside the list says what the selected item is (every field, the whole
/// description, its arguments or variables, what Enter does); `tab` moves to that pane.
#[test]
fn each_library_tab_at_both_sizes() {
    use mcp_inspect::testing::app::library::state::{Item, Kind};
    use mcp_inspect::testing::demo::library as demo;
    let mut m = library_model();
    let of = |kind, list: Vec<serde_json::Value>| {
        list.into_iter()
            .map(move |json| Item { kind, json })
            .collect::<Vec<_>>()
    };
    let mut items = of(Kind::Resource, demo::resources());
    items.extend(of(Kind::Template, demo::templates()));
    items.extend(of(Kind::Prompt, demo::prompts()));
    let mut hostile = demo::prompts()[1].clone();
    hostile["name"] = json!("evil\u{1b}]0;pwned\u{7}");
    hostile["description"] = json!("line one\nline \u{202e}two");
    items.extend(of(Kind::Prompt, vec![hostile]));
    let problems = vec![];
    update(&mut m, Msg::LibraryListed { items, problems });
    press(&mut m, &["6"]);
    snapshot("tab_resources", &mut m);
    press(&mut m, &["t"]);
    snapshot("tab_templates", &mut m);
    press(&mut m, &["t", "j"]);
    snapshot("tab_prompts", &mut m);
    let screen = text(&render(&mut m, 120, 40));
    for said in [
        "code*  The code to review",
        "language  Its language (completes)",
        "enter asks for its arguments, then gets it",
    ] {
        assert!(screen.contains(said), "{said}: {screen}");
    }
    press(&mut m, &["j"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("line \\u{202e}two"), "{screen}");
    assert!(!screen.contains('\u{1b}') && !screen.contains('\u{202e}'));
    press(&mut m, &["tab"]);
    assert_eq!(m.view.focus, mcp_inspect::testing::app::model::Pane::Opened);
    press(&mut m, &["esc", "t"]);
    assert_eq!(
        m.view.focus,
        mcp_inspect::testing::app::model::Pane::Tools,
        "round to Tools"
    );
}

/// The Skills tab, on a server that declares the skills extension: each entry with its files,
/// nothing read; the pane says its frontmatter and each file's size and digest, or why an entry
/// must not be loaded; enter asks for the skill's verified load, and what it gave is shown
/// without an "as sent" (it is ours, made of verified reads).
#[test]
fn the_skills_tab_lists_entries_and_loads_one_verified() {
    use mcp_inspect::testing::app::effect::{Effect, SessionRequest};
    use mcp_inspect::testing::app::library::state::{Item, Kind, Open};
    use mcp_inspect::testing::mcp::session::requests::OpenRequest;
    let mut m = library_model();
    if let Some(server) = m.session.server.as_mut() {
        server.capabilities["extensions"] = json!({"io.modelcontextprotocol/skills": {}});
    }
    let entry = mcp_inspect::testing::demo::skills::entry();
    let outside = json!({"uri": "skill://x/evil/SKILL.md",
        "frontmatter": {"name": "evil", "description": "d\u{1b}]0;pwned\u{7}"},
        "resources": [{"uri": "skill://x/evil/../../etc/passwd", "size": 1,
            "digest": "sha256:0000000000000000000000000000000000000000000000000000000000000000"}]});
    let items = vec![
        Item {
            kind: Kind::Skill,
            json: entry.clone(),
        },
        Item {
            kind: Kind::Skill,
            json: outside,
        },
    ];
    let problems = vec![];
    update(&mut m, Msg::LibraryListed { items, problems });
    press(&mut m, &["6", "t", "t", "t"]);
    snapshot("tab_skills", &mut m);
    let screen = text(&render(&mut m, 120, 40));
    for said in [
        "[Skills 2]",
        "▶ inspect-a-server  2 files, 622 byt",
        "license: MIT",
        "references/KEYS.md  93 bytes",
        "    sha256:3bc1b857c7eaa592a508cfe99cd69ffd89803b4cf3e8a06529a1dd7c25d05b2d",
        "enter loads it: SKILL.md, verified against this entry first",
    ] {
        assert!(screen.contains(said), "{said}: {screen}");
    }
    press(&mut m, &["j"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("not loadable: the file"), "{screen}");
    assert!(!screen.contains('\u{1b}'), "escaped");
    let effects = press(&mut m, &["k", "enter"]);
    let open = Open {
        request: OpenRequest::LoadSkill { entry },
        title: "skill inspect-a-server".into(),
    };
    assert_eq!(
        effects,
        [Effect::Session(SessionRequest::Open(open.clone()))]
    );
    let result = json!({"description": "inspect-a-server (verified against its entry: size, SHA-256 and frontmatter)",
        "contents": [{"uri": "skill://inspect-a-server/SKILL.md", "mimeType": "text/markdown",
        "text": "---\nname: inspect-a-server\n---\n\n# Inspect a server\n"}]});
    update(
        &mut m,
        Msg::Opened {
            open,
            pictures: Vec::new(),
            result: Ok(result),
        },
    );
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("verified against its entry"), "{screen}");
    assert!(screen.contains("# Inspect a server"), "{screen}");
    assert!(!screen.contains("as sent:"), "{screen}");
}

/// `L` opens the picker of the eight levels on the one asked so far; enter asks the server for
/// the level under the cursor, and what it answered is said in the log, the status line and
/// the Server pane. `p` pings; the round trip is said the same way.
#[test]
fn the_log_level_picker_and_ping() {
    use mcp_inspect::testing::app::effect::{Effect, SessionRequest};
    use mcp_inspect::testing::mcp::RequestError;
    let mut m = demo_model();
    press(&mut m, &["L"]);
    snapshot("log_level_picker", &mut m);
    let effects = press(&mut m, &["j", "j", "enter"]);
    assert!(
        matches!(
            effects.as_slice(),
            [Effect::Session(SessionRequest::SetLogLevel("warning"))]
        ),
        "{effects:?}"
    );
    assert!(m.view.overlay.is_none(), "enter closes the picker");
    update(
        &mut m,
        Msg::LogLevelSet {
            level: "warning",
            outcome: Ok(()),
        },
    );
    let effects = press(&mut m, &["p"]);
    assert!(
        matches!(effects.as_slice(), [Effect::Session(SessionRequest::Ping)]),
        "{effects:?}"
    );
    update(
        &mut m,
        Msg::Pinged(Ok((std::time::Duration::from_micros(2_340), "ping"))),
    );
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("log level warning: sent in each request's _meta (2026 era"),
        "{screen}"
    );
    assert!(
        screen.contains("log level warning (L) · ping 2.3 ms"),
        "{screen}"
    );
    assert!(screen.contains("ping: 2.3 ms (ping)"), "{screen}");
    // Opened again, the picker starts on the level asked; esc leaves it unchanged.
    press(&mut m, &["L"]);
    assert!(text(&render(&mut m, 120, 40)).contains("▶ warning  (asked now)"));
    assert!(press(&mut m, &["esc"]).is_empty());
    update(
        &mut m,
        Msg::LogLevelSet {
            level: "debug",
            outcome: Err(RequestError::Server {
                code: -32601,
                message: "Method not found".into(),
                data: None,
            }),
        },
    );
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("log level debug refused: the server answered with error -32601"),
        "{screen}"
    );
    assert!(screen.contains("log level warning (L)"), "{screen}");
}

/// `s` on a resource subscribes (where the server declares `resources.subscribe`); the list
/// marks it, an update marks it `↻` (and says so once in the log) until it is read
/// again; `s` again unsubscribes. Templates and prompts cannot be subscribed to.
#[test]
fn a_subscribed_resource_is_marked_until_read_again() {
    use mcp_inspect::testing::app::effect::{Effect, SessionRequest};
    use mcp_inspect::testing::app::library::state::{Item, Kind, Open};
    let mut m = library_model();
    if let Some(server) = m.session.server.as_mut() {
        server.capabilities = json!({"resources": {}, "prompts": {}});
    }
    press(&mut m, &["6"]);
    let items = vec![
        Item {
            kind: Kind::Resource,
            json: json!({"uri": "demo://ticker", "name": "ticker"}),
        },
        Item {
            kind: Kind::Prompt,
            json: json!({"name": "greeting"}),
        },
    ];
    let problems = vec![];
    update(&mut m, Msg::LibraryListed { items, problems });
    assert!(press(&mut m, &["s"]).is_empty());
    assert_eq!(
        m.view.status.as_deref(),
        Some("the server does not declare resources.subscribe")
    );
    if let Some(server) = m.session.server.as_mut() {
        server.capabilities = json!({"resources": {"subscribe": true}, "prompts": {}});
    }
    let uri = "demo://ticker".to_string();
    assert_eq!(
        press(&mut m, &["s"]),
        [Effect::Session(SessionRequest::Subscribe {
            uri: uri.clone(),
            on: true
        })]
    );
    let outcome = Ok(());
    update(
        &mut m,
        Msg::Subscribed {
            uri: uri.clone(),
            on: true,
            outcome,
        },
    );
    for _ in 0..3 {
        update(
            &mut m,
            Msg::Server(ServerEvent::ResourceUpdated(uri.clone())),
        );
    }
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("▶ ◉ ↻ ticker"), "{screen}");
    assert_eq!(
        screen
            .matches("resource updated: demo://ticker (enter reads it again)")
            .count(),
        1,
        "{screen}"
    );
    let read = Open {
        request: OpenRequest::Read {
            uri: "demo://ticker".into(),
        },
        title: "read demo://ticker".into(),
    };
    let result = Ok(json!({"contents": [{"uri": "demo://ticker", "text": "tick 3"}]}));
    let pictures = vec![];
    update(
        &mut m,
        Msg::Opened {
            open: read,
            result,
            pictures,
        },
    );
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("▶ ◉ ticker"), "{screen}");
    assert_eq!(
        press(&mut m, &["s"]),
        [Effect::Session(SessionRequest::Subscribe {
            uri: uri.clone(),
            on: false
        })]
    );
    let outcome = Err("the server answered with error -32601: no".to_string());
    update(
        &mut m,
        Msg::Subscribed {
            uri,
            on: false,
            outcome,
        },
    );
    assert!(text(&render(&mut m, 120, 40)).contains("◉ ticker"));
    press(&mut m, &["t", "t"]);
    assert!(press(&mut m, &["s"]).is_empty());
    assert_eq!(
        m.view.status.as_deref(),
        Some("only a resource can be subscribed to")
    );
}

/// `w` after a read asks where to write its first content (a plain name from its URI
/// suggested); the answer becomes a write that never replaces a file unless the form says so.
#[test]
fn a_read_blob_is_saved_where_the_form_says() {
    use mcp_inspect::testing::app::effect::Effect;
    use mcp_inspect::testing::app::library::state::{Item, Kind, Open};
    use mcp_inspect::testing::app::library::update::file_name;
    let mut m = library_model();
    press(&mut m, &["6"]);
    let pixel = json!({"uri": "demo://pixel.png", "name": "pixel"});
    let items = vec![Item {
        kind: Kind::Resource,
        json: pixel,
    }];
    let problems = vec![];
    update(&mut m, Msg::LibraryListed { items, problems });
    assert!(press(&mut m, &["w"]).is_empty());
    assert_eq!(
        m.view.status.as_deref(),
        Some("nothing to save: read a resource first")
    );
    let read = Open {
        request: OpenRequest::Read {
            uri: "demo://pixel.png".into(),
        },
        title: "read demo://pixel.png".into(),
    };
    let blob = json!({"uri": "demo://pixel.png", "mimeType": "image/png", "blob": "AAEC/w=="});
    let long = "y".repeat(250);
    let value = json!({"contents": [blob, {"uri": "demo://second", "text": long}]});
    let pictures = in_opened(&value);
    update(
        &mut m,
        Msg::Opened {
            open: read,
            result: Ok(value),
            pictures,
        },
    );
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("blob: 4 bytes (read URI --out FILE"));
    // Four bytes that are not a PNG: said, not drawn.
    assert!(
        screen.contains("image contents[0] (image/png)") && screen.contains("not drawn:"),
        "{screen}"
    );
    let rows: Vec<&str> = screen.lines().collect();
    let at = rows
        .iter()
        .position(|r| r.contains("contents[1]: demo://second"))
        .expect("the second content");
    let wrapped: usize = rows[at + 1..at + 5]
        .iter()
        .map(|r| r.matches('y').count())
        .sum();
    assert_eq!(wrapped, 250, "a long text line wraps, not cut: {screen}");
    // Scrolled by rows, not lines: six rows down (in a pane too short for the page), the
    // window starts on the wrapped text's last row, under the line's indent (newcomer
    // friction 7).
    press(&mut m, &["tab", "j", "j", "j", "j", "j", "j"]);
    let screen = text(&render(&mut m, 120, 20));
    let top = screen.lines().nth(1).expect("a row");
    assert!(top.contains("│  yyyyyyyyyyyyyyyy "), "{screen}");
    press(&mut m, &["w"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("where to write 4 bytes (the first of 2 contents)"),
        "{screen}"
    );
    for (w, h) in [(80, 24), (140, 45)] {
        insta::assert_snapshot!(format!("save_form_{w}x{h}"), text(&render(&mut m, w, h)));
    }
    assert_eq!(
        form_value(&screen, "path*").as_deref(),
        Some("pixel.png"),
        "{screen}"
    );
    let effects = press(&mut m, &["ctrl-s"]);
    let [
        Effect::Save {
            path,
            bytes,
            overwrite,
        },
    ] = effects.as_slice()
    else {
        panic!("{effects:?}");
    };
    assert_eq!(path, &std::path::PathBuf::from("pixel.png"));
    assert_eq!(bytes.as_slice(), [0, 1, 2, 255]);
    assert!(!overwrite);
    update(
        &mut m,
        Msg::Saved(Err("pixel.png exists: not overwritten".into())),
    );
    assert_eq!(
        m.view.status.as_deref(),
        Some("pixel.png exists: not overwritten")
    );
    // Names from the server are suggested only when plain.
    assert_eq!(file_name("demo://x/report-1.pdf"), "report-1.pdf");
    assert_eq!(file_name("demo://x/.bashrc"), "resource.bin");
    assert_eq!(file_name("demo://x/a b\u{1b}"), "resource.bin");
    assert_eq!(file_name("file:///"), "resource.bin");
}

/// `/` in the library pane filters its items by any part of their line (any case); the keys
/// move among those shown, Enter opens the one selected, esc clears.
#[test]
fn the_library_filters_like_the_tool_list() {
    use mcp_inspect::testing::app::effect::{Effect, SessionRequest};
    use mcp_inspect::testing::app::library::state::{Item, Kind};
    let mut m = library_model();
    press(&mut m, &["6"]);
    let resource = |uri: &str| Item {
        kind: Kind::Resource,
        json: json!({"uri": uri, "name": uri.rsplit('/').next()}),
    };
    let items = vec![
        resource("file:///src/main.rs"),
        resource("file:///README.md"),
        resource("file:///src/lib.rs"),
        Item {
            kind: Kind::Prompt,
            json: json!({"name": "review_src"}),
        },
    ];
    let problems = vec![];
    update(&mut m, Msg::LibraryListed { items, problems });
    press(&mut m, &["/"]);
    type_text(&mut m, "SRC");
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("Resources 3 · 2 shown /SRC▏"), "{screen}");
    assert!(!screen.contains("README.md"), "{screen}");
    press(&mut m, &["enter", "j"]);
    assert_eq!(m.library.selected, 2, "down skips what the filter hides");
    let effects = press(&mut m, &["enter"]);
    let [Effect::Session(SessionRequest::Open(open))] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert_eq!(
        open.request,
        OpenRequest::Read {
            uri: "file:///src/lib.rs".into()
        }
    );
    press(&mut m, &["g"]);
    assert_eq!(m.library.selected, 0);
    // The filter holds in each tab: two tabs on (past the empty Templates), the prompt.
    press(&mut m, &["t", "t"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(screen.contains("Prompts 1 · 1 shown /SRC"), "{screen}");
    assert_eq!(m.library.selected, 3);
    press(&mut m, &["T", "T"]);
    assert_eq!(m.library.selected, 0, "each tab keeps its selection");
    press(&mut m, &["esc"]);
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("README.md") && !screen.contains("shown /"),
        "{screen}"
    );
    // The mouse: a click selects the row under it, the wheel moves the selection.
    use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let mouse = |kind, (column, row): (u16, u16)| {
        let modifiers = KeyModifiers::NONE;
        Msg::Mouse(MouseEvent {
            kind,
            column,
            row,
            modifiers,
        })
    };
    let at = find(&render(&mut m, 120, 40), "file:///README.md").expect("listed");
    update(&mut m, mouse(MouseEventKind::Down(MouseButton::Left), at));
    assert_eq!(m.library.selected, 1);
    update(&mut m, mouse(MouseEventKind::ScrollDown, at));
    assert_eq!(m.library.selected, 2, "three rows on, at the last");
    // A click on a tab's name shows it.
    let at = find(&render(&mut m, 120, 40), "Prompts 1").expect("its tab");
    update(&mut m, mouse(MouseEventKind::Down(MouseButton::Left), at));
    assert_eq!(m.library.selected, 3);
    assert!(text(&render(&mut m, 120, 40)).contains("[Prompts 1]"));
}

/// Typing into a form's field asks for its completions once typing pauses (250 ms of the
/// runtime's time): shown under the form, not put in; an answer for a value since changed is
/// dropped; `ctrl-n` then puts the first in.
#[test]
fn completions_come_as_you_type() {
    use mcp_inspect::testing::app::effect::{Effect, SessionRequest};
    use mcp_inspect::testing::app::library::state::{Item, Kind};
    use std::time::Duration;
    let mut m = library_model();
    press(&mut m, &["T"]);
    let prompt = json!({"name": "review", "arguments": [{"name": "language"}]});
    let items = vec![Item {
        kind: Kind::Prompt,
        json: prompt,
    }];
    let problems = vec![];
    update(&mut m, Msg::LibraryListed { items, problems });
    // The cursor starts in the quotes of the form's one field: `"language": ""`.
    press(&mut m, &["enter"]);
    assert!(!m.busy(), "nothing typed, nothing due");
    type_text(&mut m, "r");
    assert!(m.busy(), "a question is due: the runtime ticks");
    m.now += Duration::from_millis(100);
    assert!(
        update(&mut m, Msg::Tick).is_empty(),
        "typing has not paused"
    );
    type_text(&mut m, "u");
    m.now += Duration::from_millis(260);
    let effects = update(&mut m, Msg::Tick);
    let [
        Effect::Session(SessionRequest::Complete(Completion {
            argument, value, ..
        })),
    ] = effects.as_slice()
    else {
        panic!("{effects:?}");
    };
    assert_eq!((argument.as_str(), value.as_str()), ("language", "ru"));
    assert!(!m.busy());
    let answer = |values: &[&str]| Msg::Completed {
        argument: "language".into(),
        result: Ok(json!({"completion": {"values": values}})),
    };
    update(&mut m, answer(&["rust", "ruby"]));
    let screen = text(&render(&mut m, 120, 40));
    // Newcomer friction 6: the values are said right under the form, not at the screen's foot.
    let row_of = |needle: &str| screen.lines().position(|l| l.contains(needle));
    let (field, said) = (row_of("›  language"), row_of("language: rust · ruby"));
    assert!(
        matches!((field, said), (Some(f), Some(s)) if s > f && s - f <= 4),
        "{field:?} {said:?}: {screen}"
    );
    assert_eq!(
        form_value(&screen, "language").as_deref(),
        Some("ru"),
        "not put in: {screen}"
    );
    assert!(
        screen.contains("language: rust · ruby · ctrl-n puts the first"),
        "{screen}"
    );
    // Typed on; the answer to the question before is stale.
    type_text(&mut m, "b");
    update(&mut m, answer(&["rust"]));
    assert!(text(&render(&mut m, 120, 40)).contains("language: rust · ruby"));
    assert!(
        press(&mut m, &["ctrl-n"]).is_empty(),
        "values at hand: no question"
    );
    let screen = text(&render(&mut m, 120, 40));
    assert_eq!(
        form_value(&screen, "language").as_deref(),
        Some("rust"),
        "{screen}"
    );
    assert!(!m.busy(), "ctrl-n took the place of the question due");
}

/// `z` gives the focused pane the whole screen (at 80×24 the tool pane shows its full
/// description and both trees); again, the panes come back.
#[test]
fn zoom_gives_the_focused_pane_the_screen() {
    let mut m = demo_model();
    open_tool(&mut m, "lookup_user");
    press(&mut m, &["z"]);
    assert!(m.view.zoomed);
    snapshot("zoomed_tool", &mut m);
    let screen = text(&render(&mut m, 80, 24));
    assert!(
        !screen.contains("┌ Tools (") && !screen.contains("Log ("),
        "{screen}"
    );
    assert!(screen.contains("z unzoom"), "{screen}");
    // Zoom stays on as the focus moves: now the log alone.
    press(&mut m, &["4"]);
    let screen = text(&render(&mut m, 80, 24));
    assert!(screen.starts_with("┌ Log (2)"), "{screen}");
    press(&mut m, &["z"]);
    let screen = text(&render(&mut m, 80, 24));
    assert!(
        screen.contains("┌ Tools (1/17)") && screen.contains("Log ("),
        "{screen}"
    );
}

/// What the handshake sent beyond the fields read (serverInfo's others, `_meta`, unknown keys)
/// is a line of the Server pane, escaped.
#[test]
fn the_server_pane_shows_what_the_handshake_also_sent() {
    let mut m = Model::new(
        "mcp-inspect demo-server".into(),
        mcp_inspect::testing::app::keymap::Keymap::default_map(),
        Theme { color: true },
    );
    let mut server = tui::server();
    server.extras = json!({"serverInfo": {"build": "abc\u{1b}[2J"}, "_meta": {"region": "eu"}});
    update(&mut m, Msg::Connected(server));
    press(&mut m, &["3"]);
    let screen = text(&render(&mut m, 80, 24));
    assert!(
        screen.contains(
            r#"also sent {"serverInfo":{"build":"abc\u001b[2J"},"_meta":{"region":"eu"}}"#
        ),
        "{screen}"
    );
}

/// The real connection task reads the demo's `pixel.png`: its image is decoded off the UI
/// thread and drawn after the read's lines, under its caption.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_image_resource_is_drawn_in_the_library() {
    use crate::edge::{Step, keys, run_on_the_demo, wait_for};
    run_on_the_demo(vec![
        wait_for("tools listed"),
        keys(&["t"]),
        wait_for("demo://pixel.png"),
        keys(&["/"]),
        Step::Type("pixel".into()),
        wait_for("1 shown /pixel"),
        keys(&["enter"]),
        wait_for("enter reads it"),
        keys(&["enter"]),
        wait_for("image contents[0] (image/png)"),
        wait_for("▀"),
        keys(&["q"]),
    ])
    .await;
}

/// A `resource_link` in a result (the demo's `search` links its readme) is read only on `o`:
/// the Resources tab, the linked resource selected, and what it holds beside it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resource_link_in_a_result_is_read_on_its_key() {
    use crate::edge::{Step, keys, run_on_the_demo, wait_for};
    run_on_the_demo(vec![
        wait_for("tools listed"),
        keys(&["/"]),
        Step::Type("search".into()),
        keys(&["enter", "a"]),
        wait_for("call search"),
        Step::Type("json".into()),
        keys(&["ctrl-s"]),
        wait_for("resource link demo://readme"),
        wait_for("conforms"),
        keys(&["o"]),
        wait_for("read demo://readme"),
        wait_for("Try `6` in the TUI"),
        wait_for("[Resources"),
        keys(&["q"]),
    ])
    .await;
}

/// `C` asks for the conduct checks with what the session saw on stdout (a line that was not
/// JSON-RPC counted), focuses the Server pane, and lists what came back: failures first, each
/// with what came back, where the rule is written and its reproduce line; then passes; then
/// what does not apply, with why.
#[test]
fn the_conduct_checks_in_the_server_pane() {
    use mcp_inspect::testing::app::effect::{Effect, SessionRequest};
    use mcp_inspect::testing::app::model::Pane;
    use mcp_inspect::testing::conform::{Finding, Level, Seen, Status};
    let mut m = demo_model();
    update(
        &mut m,
        Msg::Server(ServerEvent::Notice(
            "the server wrote a non-JSON line to stdout (expected value): Server started".into(),
        )),
    );
    let effects = press(&mut m, &["C"]);
    let asked = Seen {
        non_json_lines: 1,
        first_non_json: Some(
            "the server wrote a non-JSON line to stdout (expected value): Server started".into(),
        ),
        stdio: true,
    };
    assert_eq!(
        effects,
        [Effect::Session(SessionRequest::Conform(asked))],
        "{effects:?}"
    );
    assert_eq!(m.view.focus, Pane::Server);
    assert!(press(&mut m, &["C"]).is_empty(), "not twice at once");
    let finding = |id: &'static str, level, status, said: &str| Finding {
        id,
        rule: "a rule",
        level,
        spec: "basic/somewhere",
        status,
        said: said.into(),
        sent: None,
        wrote: Vec::new(),
        http: Vec::new(),
        reproduce: (status == Status::Fail).then(|| format!("mcp-inspect request {id} --demo")),
    };
    update(
        &mut m,
        Msg::Conformed(Ok(vec![
            finding(
                "ping",
                Level::Must,
                Status::NotApplicable,
                "the 2026-07-28 era has no ping",
            ),
            finding("unknown-method", Level::Must, Status::Pass, "error -32601"),
            finding(
                "stdout-only-json-rpc",
                Level::Must,
                Status::Fail,
                "1 line not JSON-RPC, the first: Server started",
            ),
        ])),
    );
    press(&mut m, &["z"]);
    let screen = text(&render(&mut m, 120, 40));
    let at = |needle: &str| {
        screen
            .find(needle)
            .unwrap_or_else(|| panic!("no {needle:?}:\n{screen}"))
    };
    assert!(
        at("conduct: 1 passed, 1 failed (1 of a MUST), 1 not applicable")
            < at("✗ MUST   stdout-only-json-rpc")
    );
    assert!(at("✗ MUST   stdout-only-json-rpc") < at("✓ MUST   unknown-method"));
    assert!(at("✓ MUST   unknown-method") < at("– MUST   ping: the 2026-07-28 era has no ping"));
    at("got: 1 line not JSON-RPC, the first: Server started");
    at("reproduce: mcp-inspect request stdout-only-json-rpc --demo");
    snapshot("conduct", &mut m);
    // `y f` copies the failures, each a comment and its reproduce line, ready for a shell.
    press(&mut m, &["z"]);
    let effects = press(&mut m, &["y", "f"]);
    let [Effect::Copy(clipping)] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert_eq!(clipping.label, "1 conduct failure");
    assert_eq!(
        clipping.text,
        "# stdout-only-json-rpc (MUST): a rule\n# got: 1 line not JSON-RPC, the first: Server started\nmcp-inspect request stdout-only-json-rpc --demo\n"
    );
}
