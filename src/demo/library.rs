//! The demo's resources, resource templates and prompts (with completions), written as the wire
//! shows them: text, JSON, a binary image, a template whose variable completes, a prompt
//! without arguments and one with a required and a completable argument.

use serde_json::{Value, json};

/// A 1×1 transparent PNG.
const PIXEL_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const README: &str = "# The mcp-inspect demo\n\nEvery tool, resource and prompt here shows \
something an inspector must handle.\nTry `6` in the TUI, or `mcp-inspect read demo://readme --demo`.\n";

pub fn resources() -> Vec<Value> {
    vec![
        json!({"uri": "demo://readme", "name": "readme", "title": "About the demo",
               "mimeType": "text/markdown", "size": README.len(),
               "annotations": {"audience": ["user"], "priority": 0.8}}),
        json!({"uri": "demo://config.json", "name": "config", "mimeType": "application/json",
               "description": "The demo's settings, as JSON"}),
        json!({"uri": "demo://pixel.png", "name": "pixel", "mimeType": "image/png",
               "description": "A 1×1 image (a blob)"}),
        json!({"uri": TICKER, "name": "ticker", "mimeType": "text/plain",
               "description": "Ticks every second while subscribed (s in its tab subscribes)"}),
    ]
}

/// The resource that changes, and says so to its subscribers.
pub const TICKER: &str = "demo://ticker";

/// The ticker's contents after `ticks` ticks.
pub fn ticker(ticks: u64) -> Value {
    json!({"contents": [{"uri": TICKER, "mimeType": "text/plain", "text": format!("tick {ticks}")}]})
}

pub fn templates() -> Vec<Value> {
    vec![json!({"uriTemplate": "demo://users/{id}", "name": "user",
                "description": "A user by id (ids complete: 1, 2, 42)", "mimeType": "application/json"})]
}

/// The contents of `uri`, or `None` when the demo has no such resource.
pub fn read(uri: &str) -> Option<Value> {
    let contents = match uri {
        "demo://readme" => json!({"uri": uri, "mimeType": "text/markdown", "text": README}),
        "demo://config.json" => {
            let config =
                json!({"theme": "dark", "pageSize": 50, "features": ["trees", "verdicts"]});
            json!({"uri": uri, "mimeType": "application/json", "text": config.to_string()})
        }
        "demo://pixel.png" => json!({"uri": uri, "mimeType": "image/png", "blob": PIXEL_PNG}),
        _ => {
            let id = uri.strip_prefix("demo://users/")?;
            let user = json!({"id": id, "name": format!("User {id}"), "admin": id == "42"});
            json!({"uri": uri, "mimeType": "application/json", "text": user.to_string()})
        }
    };
    Some(json!({"contents": [contents]}))
}

pub fn prompts() -> Vec<Value> {
    vec![
        json!({"name": "greeting", "title": "A greeting", "description": "No arguments"}),
        json!({"name": "review_code", "description": "Review a piece of code",
        "arguments": [
            {"name": "code", "description": "The code to review", "required": true},
            {"name": "language", "description": "Its language (completes)"}
        ]}),
    ]
}

/// The messages of prompt `name`, or `None` when there is no such prompt.
pub fn prompt(name: &str, args: &serde_json::Map<String, Value>) -> Option<Value> {
    let arg = |key: &str| args.get(key).and_then(Value::as_str).unwrap_or_default();
    match name {
        "greeting" => Some(json!({"description": "A greeting", "messages": [
            {"role": "user", "content": {"type": "text", "text": "Say hello to the person using mcp-inspect."}}
        ]})),
        "review_code" => Some(
            json!({"description": "Review a piece of code", "messages": [
                {"role": "user", "content": {"type": "text", "text":
                    format!("Review this {} code:\n{}", match arg("language") { "" => "unnamed", l => l }, arg("code"))}},
                {"role": "user", "content": {"type": "resource", "resource":
                    {"uri": "demo://readme", "mimeType": "text/markdown", "text": README}}},
                {"role": "assistant", "content": {"type": "image", "data": PIXEL_PNG, "mimeType": "image/png"}}
            ]}),
        ),
        _ => None,
    }
}

/// Completions for an argument of a prompt or a template variable.
pub fn complete(argument: &str, prefix: &str) -> Vec<String> {
    let choices: &[&str] = match argument {
        "language" => &["python", "rust", "typescript"],
        "id" => &["1", "2", "42"],
        _ => &[],
    };
    choices
        .iter()
        .filter(|c| c.starts_with(prefix))
        .map(|c| c.to_string())
        .collect()
}
