//! Drives the TUI model the way the runtime does, without a terminal: messages in, frames out.
#![allow(dead_code)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use mcp_inspect::testing::app::keymap::Keymap;
use mcp_inspect::testing::app::model::Model;
use mcp_inspect::testing::app::theme::Theme;
use mcp_inspect::testing::app::update::{Effect, Msg, SessionRequest, update};
use mcp_inspect::testing::demo::catalog;
use mcp_inspect::testing::mcp::surface::tool::decode_tool;
use mcp_inspect::testing::mcp::{ServerSummary, ToolList};
use mcp_inspect::testing::schema::Era;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use serde_json::json;

pub fn server() -> ServerSummary {
    ServerSummary {
        name: "mcp-inspect-demo".into(),
        title: None,
        version: "0.1.0".into(),
        protocol_version: "2026-07-28".into(),
        era: Era::Modern,
        transport: "stdio",
        capabilities: json!({"tools": {"listChanged": true}}),
        instructions: Some("The built-in demo server of mcp-inspect.".into()),
        client_capabilities: json!({"roots": {"listChanged": true}, "sampling": {}, "elicitation": {"form": {}, "url": {}}}),
        roots: Some(Vec::new()),
        extras: serde_json::Value::Null,
    }
}

pub fn demo_tools() -> ToolList {
    listing(
        catalog::tools(true, false)
            .iter()
            .map(|t| decode_tool(t).expect("demo tool"))
            .collect(),
    )
}

/// A one-page listing of these tools.
pub fn listing(tools: Vec<mcp_inspect::testing::mcp::surface::tool::Tool>) -> ToolList {
    ToolList {
        tools,
        pages: 1,
        ..ToolList::default()
    }
}

/// A model connected to the demo catalog, colours on.
pub fn demo_model() -> Model {
    let mut model = Model::new(
        "mcp-inspect demo-server".into(),
        Keymap::default_map(),
        Theme { color: true },
    );
    let effects = update(&mut model, Msg::Connected(server()));
    assert_eq!(effects, [Effect::Session(SessionRequest::ListTools)]);
    update(&mut model, Msg::ToolsListed(demo_tools()));
    model
}

/// The demo model connected to a server that also declares resources (with subscriptions),
/// prompts and completions, as the demo server does: its library is asked for once its tools
/// are listed.
pub fn library_model() -> Model {
    let mut model = Model::new(
        "mcp-inspect demo-server".into(),
        Keymap::default_map(),
        Theme { color: true },
    );
    let mut summary = server();
    summary.capabilities = json!({"tools": {"listChanged": true},
        "resources": {"subscribe": true, "listChanged": true}, "prompts": {}, "completions": {}});
    update(&mut model, Msg::Connected(summary));
    let effects = update(&mut model, Msg::ToolsListed(demo_tools()));
    assert_eq!(effects, [Effect::Session(SessionRequest::ListLibrary)]);
    model
}

/// The terminal event for a key written as in the keymap (`j`, `enter`, `ctrl-c`).
pub fn key_event(written: &str) -> KeyEvent {
    let key = mcp_inspect::testing::app::keymap::Key::parse(written).expect("key");
    let mut modifiers = KeyModifiers::NONE;
    if key.ctrl {
        modifiers |= KeyModifiers::CONTROL;
    }
    if key.alt {
        modifiers |= KeyModifiers::ALT;
    }
    if let KeyCode::Char(c) = key.code
        && c.is_ascii_uppercase()
    {
        modifiers |= KeyModifiers::SHIFT;
    }
    KeyEvent::new(key.code, modifiers)
}

/// Presses keys written as in the keymap (`j`, `enter`, `ctrl-c`).
/// Filters the list down to `tool` and opens its pane.
pub fn open_tool(model: &mut Model, tool: &str) {
    press(model, &["/"]);
    type_text(model, tool);
    press(model, &["enter", "enter"]);
}

pub fn press(model: &mut Model, keys: &[&str]) -> Vec<Effect> {
    let mut effects = Vec::new();
    for k in keys {
        effects.extend(update(model, Msg::Key(key_event(k))));
    }
    effects
}

pub fn type_text(model: &mut Model, text: &str) {
    for c in text.chars() {
        update(
            model,
            Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
        );
    }
}

/// Draws the model at a size and returns the buffer.
pub fn render(model: &mut Model, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
    mcp_inspect::testing::runtime::frame(&mut terminal, model).expect("draw");
    terminal.backend().buffer().clone()
}

/// The buffer as text, one line per row, trailing spaces trimmed.
pub fn text(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        for x in 0..area.width {
            line.push_str(buffer[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Finds the first cell where `needle` starts; (x, y).
pub fn find(buffer: &Buffer, needle: &str) -> Option<(u16, u16)> {
    let area = buffer.area;
    for y in 0..area.height {
        let row: Vec<String> = (0..area.width)
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect();
        let line: String = row.concat();
        if let Some(byte) = line.find(needle) {
            let x = line[..byte].chars().count() as u16;
            return Some((x, y));
        }
    }
    None
}

/// What a form's row named `key` shows on `screen`: the text after its name (and `*`), up to
/// the first double space. A row that shows something is preferred: a dialog is drawn over
/// panes that may name the same key with nothing after it.
pub fn form_value(screen: &str, key: &str) -> Option<String> {
    let found: Vec<String> = screen
        .lines()
        .flat_map(|line| {
            let named = format!(" {key}");
            let mut values = Vec::new();
            for (at, _) in line.match_indices(&named) {
                let rest = line[at + named.len()..].trim_start_matches('*');
                if rest.starts_with(' ') {
                    let first = rest.trim_start().split("  ").next().unwrap_or("");
                    values.push(first.trim_end_matches('│').to_string());
                }
            }
            values
        })
        .collect();
    let shown = found.iter().find(|v| !v.is_empty());
    shown.or(found.first()).cloned()
}
