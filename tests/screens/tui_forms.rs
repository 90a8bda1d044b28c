//! Forms from schemas on screen: the server-everything elicitation (every field, titles,
//! descriptions, titled choices), a tool's arguments, a prompt's arguments and a template's
//! variables, at 80×24 and 140×45.

use crate::tui;

use mcp_inspect::testing::app::update::{Msg, update};
use mcp_inspect::testing::mcp::ServerEvent;
use serde_json::{Value, json};
use tui::{demo_model, form_value, press, render, text, type_text};

/// server-everything's `trigger-elicitation-request` (version 2026.8.31), as it asks.
fn everything_elicitation() -> Msg {
    let schema: Value =
        serde_json::from_str(include_str!("../fixtures/everything-elicitation.json"))
            .expect("fixture");
    Msg::Server(ServerEvent::Asked {
        id: 3,
        method: "elicitation/create".into(),
        params: json!({"message": "Please provide inputs for the following fields:", "requestedSchema": schema}),
    })
}

#[test]
fn the_everything_elicitation_is_a_form_of_every_field() {
    let mut m = demo_model();
    update(&mut m, everything_elicitation());
    for (w, h) in [(80, 24), (140, 45)] {
        insta::assert_snapshot!(
            format!("everything_elicitation_{w}x{h}"),
            text(&render(&mut m, w, h))
        );
    }
    let screen = text(&render(&mut m, 140, 45));
    for key in [
        "name*",
        "check",
        "email",
        "homepage",
        "birthdate",
        "legacyTitledEnum",
    ] {
        assert!(form_value(&screen, key).is_some(), "{key}: {screen}");
    }
    assert!(screen.contains("‹ Superman › hero-1"), "{screen}");
    assert!(
        screen.contains("Your full, legal name"),
        "the selected row's description: {screen}"
    );
    // Each row's words come with it; the email row's format is said.
    press(&mut m, &["down", "down", "down"]);
    let screen = text(&render(&mut m, 140, 45));
    assert!(
        screen.contains("String with email format · string · format: email"),
        "{screen}"
    );
    type_text(&mut m, "ada@example.com");
    press(&mut m, &["up", "up", "up"]);
    type_text(&mut m, "Ada");
    let effects = press(&mut m, &["ctrl-s"]);
    let content = match effects.as_slice() {
        [
            mcp_inspect::testing::app::effect::Effect::Session(
                mcp_inspect::testing::app::effect::SessionRequest::Answer { result: Ok(r), .. },
            ),
        ] => r["content"].clone(),
        other => panic!("{other:?} {:?}", m.view.status),
    };
    assert_eq!(content["name"], "Ada");
    assert_eq!(content["email"], "ada@example.com");
    assert_eq!(content["titledSingleSelectEnum"], "hero-1");
    assert_eq!(content["titledMultipleSelectEnum"], json!(["fish-1"]));
    assert!(
        content.get("check").is_none(),
        "a boolean not set is left out"
    );
}

#[test]
fn a_tool_form_with_nested_rows_and_its_json_draft() {
    let mut m = demo_model();
    press(&mut m, &["/"]);
    type_text(&mut m, "search");
    press(&mut m, &["enter", "a", "down", "down", "down", "enter"]);
    for (w, h) in [(80, 24), (140, 45)] {
        insta::assert_snapshot!(format!("tool_form_{w}x{h}"), text(&render(&mut m, w, h)));
    }
    press(&mut m, &["ctrl-f"]);
    for (w, h) in [(80, 24), (140, 45)] {
        insta::assert_snapshot!(format!("tool_json_{w}x{h}"), text(&render(&mut m, w, h)));
    }
}

/// Presses `t` until the tab named `tab` is the one shown.
fn to_tab(m: &mut mcp_inspect::testing::app::model::Model, tab: &str) {
    for _ in 0..4 {
        if text(&render(m, 140, 45)).contains(tab) {
            return;
        }
        press(m, &["t"]);
    }
    panic!("no tab {tab}");
}

/// The demo's prompt and template forms, and the save form, at both sizes: a prompt's
/// arguments and a template's variables as rows with their descriptions.
#[test]
fn prompt_template_and_save_forms_at_both_sizes() {
    use mcp_inspect::testing::app::library::state::{Item, Kind};
    use mcp_inspect::testing::demo::library as demo;
    let mut m = tui::library_model();
    let of = |kind, list: Vec<serde_json::Value>| {
        list.into_iter()
            .map(move |json| Item { kind, json })
            .collect::<Vec<_>>()
    };
    let mut items = of(Kind::Template, demo::templates());
    items.extend(of(Kind::Prompt, demo::prompts()));
    let problems = vec![];
    update(&mut m, Msg::LibraryListed { items, problems });
    press(&mut m, &["6"]);
    to_tab(&mut m, "[Templates 1]");
    press(&mut m, &["enter"]);
    assert!(!m.asked.is_empty(), "the template's form is open");
    for (w, h) in [(80, 24), (140, 45)] {
        insta::assert_snapshot!(
            format!("template_form_{w}x{h}"),
            text(&render(&mut m, w, h))
        );
    }
    press(&mut m, &["esc"]);
    assert!(m.asked.is_empty(), "esc drops the form");
    // To the Prompts tab, then its second prompt (code review).
    to_tab(&mut m, "[Prompts 2]");
    press(&mut m, &["j", "enter"]);
    for (w, h) in [(80, 24), (140, 45)] {
        insta::assert_snapshot!(format!("prompt_form_{w}x{h}"), text(&render(&mut m, w, h)));
    }
    let screen = text(&render(&mut m, 140, 45));
    assert!(form_value(&screen, "code*").is_some(), "{screen}");
    assert!(screen.contains("The code to review"), "{screen}");
}

/// A hostile form: a default of megabytes and a title with escapes. The row shows the end of
/// the text up to its cursor (the first key typed replaces it all), escaped, cut.
#[test]
fn a_row_of_megabytes_shows_where_its_cursor_is() {
    let mut m = demo_model();
    update(
        &mut m,
        Msg::Server(ServerEvent::Asked {
            id: 1,
            method: "elicitation/create".into(),
            params: json!({"message": "big", "requestedSchema": {"type": "object", "properties": {
                "t": {"type": "string", "title": "evil\u{1b}]0;pwned\u{7}", "default": format!("{}END", "x".repeat(4_000_000))}}}}),
        }),
    );
    let screen = text(&render(&mut m, 120, 40));
    assert!(
        screen.contains("…xxxx") && screen.contains("xxxxEND"),
        "{screen}"
    );
    assert!(screen.contains("evil\\e]0;pwned\\x07"), "escaped: {screen}");
    type_text(&mut m, "short");
    let screen = text(&render(&mut m, 120, 40));
    assert_eq!(
        form_value(&screen, "t").as_deref(),
        Some("short"),
        "{screen}"
    );
}

/// A click on a form's row selects it and gives the form the keys; the wheel moves a row.
#[test]
fn a_click_selects_a_form_row() {
    use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let mut m = demo_model();
    press(&mut m, &["/"]);
    type_text(&mut m, "search");
    press(&mut m, &["enter", "a", "esc"]);
    let buffer = render(&mut m, 120, 40);
    let (x, y) = tui::find(&buffer, "mode ").expect("the mode row");
    let click = |kind| {
        Msg::Mouse(MouseEvent {
            kind,
            column: x,
            row: y,
            modifiers: KeyModifiers::NONE,
        })
    };
    update(&mut m, click(MouseEventKind::Down(MouseButton::Left)));
    let state = m.call("search").expect("panel");
    assert!(state.editing, "the form has the keys");
    let form = state.draft.shown_form().expect("a form");
    assert_eq!(form.row().map(|r| r.key.as_str()), Some("mode"));
    press(&mut m, &["right"]);
    assert_eq!(
        m.call("search").and_then(|s| s.arguments()).expect("value")["mode"],
        "thorough"
    );
    update(&mut m, click(MouseEventKind::ScrollUp));
    let form = m
        .call("search")
        .and_then(|s| s.draft.shown_form())
        .expect("a form");
    assert_eq!(form.row().map(|r| r.key.as_str()), Some("limit"));
}

/// The two other forms, at both sizes: the reply to a server's sampling request (the messages
/// it sent above, the reply a draft to edit) and the roots form of the server pane.
#[test]
fn sampling_reply_and_roots_forms_at_both_sizes() {
    let mut m = demo_model();
    update(
        &mut m,
        Msg::Server(ServerEvent::Asked {
            id: 4,
            method: "sampling/createMessage".into(),
            params: json!({
                "messages": [{"role": "user", "content": {"type": "text",
                    "text": "Resource sampleLLM context: Please clarify what you're looking for, in a sentence or two, so that the answer can be short."}}],
                "systemPrompt": "You are a helpful test server.",
                "maxTokens": 100,
                "temperature": 0.7
            }),
        }),
    );
    for (w, h) in [(80, 24), (140, 45)] {
        insta::assert_snapshot!(
            format!("sampling_reply_{w}x{h}"),
            text(&render(&mut m, w, h))
        );
    }
    // What is typed first is the reply's text, not text before the draft's `{`.
    type_text(&mut m, "Hello");
    let screen = text(&render(&mut m, 140, 45));
    assert!(screen.contains(r#""text": "Hello""#), "{screen}");
    press(&mut m, &["esc"]);
    assert!(m.asked.is_empty(), "esc declines the request");
    press(&mut m, &["3", "R", "+"]);
    for (w, h) in [(80, 24), (140, 45)] {
        insta::assert_snapshot!(format!("roots_form_{w}x{h}"), text(&render(&mut m, w, h)));
    }
}

/// A URL elicitation: the panel says which keys open and copy the URL; only those keys do (never
/// on arrival), and a URL with control characters is neither copied nor opened.
#[test]
fn a_url_the_server_asks_to_visit_is_copied_or_opened_on_its_key_only() {
    use mcp_inspect::testing::app::effect::Effect;
    let url = "https://auth.example.com/connect?session=42";
    let asked = |id, url: &str| {
        Msg::Server(ServerEvent::Asked {
            id,
            method: "elicitation/create".into(),
            params: json!({"mode": "url", "message": "Connect your account", "url": url, "elicitationId": "e1"}),
        })
    };
    let mut m = demo_model();
    assert!(
        update(&mut m, asked(5, url)).is_empty(),
        "nothing opened on arrival"
    );
    let screen = text(&render(&mut m, 140, 45));
    assert!(
        screen.contains("nothing to fill: ctrl-o opens the URL, ctrl-l copies it"),
        "{screen}"
    );
    match press(&mut m, &["ctrl-l"]).as_slice() {
        [Effect::Copy(copy)] => assert_eq!(copy.text, url),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        press(&mut m, &["ctrl-o"]),
        [Effect::OpenInBrowser(url.into())]
    );
    press(&mut m, &["esc"]);
    update(
        &mut m,
        asked(6, "https://x.example/\u{1b}]52;c;cHduZWQ=\u{7}"),
    );
    assert!(press(&mut m, &["ctrl-o", "ctrl-l"]).is_empty());
    assert_eq!(
        m.view.status.as_deref(),
        Some("the URL holds control characters: not copied or opened")
    );
}
