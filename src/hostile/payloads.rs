//! The hostile strings and schemas: terminal escape sequences of every family, and schemas built
//! to blow up naive tree builders, validators and renderers.

use serde_json::{Map, Value, json};

/// OSC 0: sets the terminal window title.
pub const TITLE_CHANGE: &str = "\x1b]0;pwned-title\x07";
/// CSI: clears the screen and homes the cursor.
pub const CLEAR_SCREEN: &str = "\x1b[2J\x1b[H";

/// One of everything: title, clipboard, hyperlink, colours, C1 CSI, device status and title
/// reports (the terminal would type the answer as input), leaving the alternate screen, hiding
/// the cursor, a full reset, right-to-left override, backspaces, carriage return, bell and NUL.
pub const ESCAPES: &str = concat!(
    "\x1b]0;pwned-title\x07",
    "\x1b]52;c;cHduZWQ=\x07",
    "\x1b]8;;http://127.0.0.1:9/phish\x1b\\click\x1b]8;;\x1b\\",
    "\x1b[31;5mred\x1b[0m",
    "\u{9b}32mc1-green",
    "\x1b[6n\x1b[21t",
    "\x1b[?1049l\x1b[?25l",
    "\x1bP+q544e\x1b\\",
    "\u{202e}desrever\u{202c}",
    "ab\x08\x08XY\rCR",
    "\x07\x00",
    "\x1bc",
);

/// A schema whose `$ref`s fan out in two at each of 40 levels: 2^40 paths when expanded.
pub fn ref_bomb() -> Value {
    let mut defs = Map::new();
    for level in 0..40 {
        let next = json!({"$ref": format!("#/$defs/d{}", level + 1)});
        defs.insert(
            format!("d{level}"),
            json!({"type": "object", "properties": {"left": next, "right": next}}),
        );
    }
    defs.insert("d40".into(), json!({"type": "string"}));
    json!({
        "type": "object",
        "properties": {"bomb": {"$ref": "#/$defs/d0"}},
        "$defs": defs,
    })
}

/// Refs that only ever point at each other, and one that points at the root.
pub fn ref_cycle() -> Value {
    json!({
        "type": "object",
        "properties": {
            "ping": {"$ref": "#/$defs/ping"},
            "again": {"$ref": "#"},
            "loop": {"$ref": "#/$defs/loop"},
        },
        "$defs": {
            "ping": {"type": "object", "properties": {"pong": {"$ref": "#/$defs/pong"}}},
            "pong": {"type": "object", "properties": {"ping": {"$ref": "#/$defs/ping"}}},
            "loop": {"$ref": "#/$defs/loop"},
        },
    })
}

/// An object schema nested `levels` deep (two JSON levels each).
pub fn nested(levels: usize) -> Value {
    let mut schema = json!({"type": "string"});
    for _ in 0..levels {
        schema = json!({"type": "object", "properties": {"n": schema}});
    }
    schema
}

/// An object with `count` properties.
pub fn wide(count: usize) -> Value {
    let properties: Map<String, Value> = (0..count)
        .map(|i| {
            (
                format!("p{i}"),
                json!({"type": "integer", "description": format!("property {i}")}),
            )
        })
        .collect();
    json!({"type": "object", "properties": properties})
}

/// A string property with a `count`-value enum.
pub fn huge_enum(count: usize) -> Value {
    let values: Vec<Value> = (0..count).map(|i| json!(format!("value-{i}"))).collect();
    json!({"type": "object", "properties": {"choice": {"type": "string", "enum": values}}})
}

/// A pattern a backtracking engine takes exponential time on, with a default that triggers it.
pub fn regex_bomb() -> Value {
    json!({
        "type": "object",
        "properties": {
            "text": {
                "type": "string",
                "pattern": "^(?=(a+)+b)",
                "default": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!",
            },
        },
        "required": ["text"],
    })
}

/// Refs, ids, meta-schemas and links pointing at `url`, none of which may ever be fetched.
pub fn remote_refs(url: &str) -> Value {
    json!({
        "$schema": format!("{url}/meta-schema"),
        "$id": format!("{url}/root.json"),
        "type": "object",
        "description": format!("See {url}/docs and ![img]({url}/pixel.png)"),
        "properties": {
            "absolute": {"$ref": format!("{url}/absolute.json")},
            "fragment": {"$ref": format!("{url}/other.json#/$defs/x")},
            "relative": {"$ref": "relative.json"},
            "dynamic": {"$dynamicRef": format!("{url}/dynamic.json#meta")},
        },
    })
}

/// `value` as JSON text with every character inside its strings written `\uXXXX`: the same
/// value to any parser, and no substring of the text is any of those strings.
pub fn every_char_escaped(value: &Value) -> String {
    match value {
        Value::String(text) => {
            let mut out = String::from("\"");
            for unit in text.encode_utf16() {
                out.push_str(&format!("\\u{unit:04x}"));
            }
            out.push('"');
            out
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(every_char_escaped).collect();
            format!("[{}]", items.join(","))
        }
        Value::Object(map) => {
            let members: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    let key = every_char_escaped(&Value::String(k.clone()));
                    format!("{key}:{}", every_char_escaped(v))
                })
                .collect();
            format!("{{{}}}", members.join(","))
        }
        scalar => scalar.to_string(),
    }
}
