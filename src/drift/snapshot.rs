//! A server's surface as one deterministic document: server info, capabilities, era, every
//! tool as the server defined it, and the resources, templates and prompts it lists. Object
//! keys sorted at every depth and lists sorted by name, so the same server gives the same bytes
//! and a snapshot can be committed beside the server's code. Pure.

use serde_json::{Map, Value};

/// The format's version, in the document (`mcpInspectSnapshot`).
pub const VERSION: u64 = 1;

/// What a snapshot is made of (a live connection's listings).
pub struct Surface<'a> {
    pub server: Value,
    pub capabilities: Value,
    pub era: &'a str,
    pub tools: Vec<Value>,
    pub resources: Option<Vec<Value>>,
    pub templates: Option<Vec<Value>>,
    pub prompts: Option<Vec<Value>>,
}

/// The snapshot document.
pub fn build(surface: Surface<'_>) -> Value {
    // Built by moving each part in (`json!` would copy them: a tool may be megabytes).
    let mut doc = Map::new();
    doc.insert("mcpInspectSnapshot".into(), VERSION.into());
    doc.insert("server".into(), surface.server);
    doc.insert("capabilities".into(), surface.capabilities);
    doc.insert("era".into(), surface.era.into());
    let tools = sorted_by(surface.tools, "name");
    doc.insert("tools".into(), Value::Array(tools));
    for (key, list, by) in [
        ("resources", surface.resources, "uri"),
        ("resourceTemplates", surface.templates, "uriTemplate"),
        ("prompts", surface.prompts, "name"),
    ] {
        if let Some(list) = list {
            doc.insert(key.into(), Value::Array(sorted_by(list, by)));
        }
    }
    canonical(Value::Object(doc))
}

/// Reads a snapshot file's text; says what is wrong with one that is not a snapshot.
pub fn read(text: &str) -> Result<Value, String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    match doc.get("mcpInspectSnapshot").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(v) => {
            return Err(format!(
                "snapshot format {v}; this mcp-inspect reads {VERSION}"
            ));
        }
        None => return Err("not an mcp-inspect snapshot (no `mcpInspectSnapshot`)".into()),
    }
    if !doc.get("tools").is_some_and(Value::is_array) {
        return Err("the snapshot has no `tools` list".into());
    }
    Ok(doc)
}

fn sorted_by(mut items: Vec<Value>, key: &str) -> Vec<Value> {
    let name = |v: &Value| v.get(key).and_then(Value::as_str).map(str::to_string);
    items.sort_by_cached_key(name);
    items
}

/// `value` with every object's keys in sorted order (insertion order is kept otherwise).
pub fn canonical(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, canonical(v)))
                    .collect::<Map<_, _>>(),
            )
        }
        Value::Array(items) => Value::Array(items.into_iter().map(canonical).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_same_surface_gives_the_same_bytes_whatever_the_order() {
        let surface = |tools: Vec<Value>| Surface {
            server: json!({"version": "1", "name": "s"}),
            capabilities: json!({"tools": {}}),
            era: "legacy",
            tools,
            resources: None,
            templates: None,
            prompts: Some(vec![json!({"name": "b"}), json!({"name": "a"})]),
        };
        let a = json!({"name": "add", "inputSchema": {"type": "object", "properties": {"b": {}, "a": {}}}});
        let b = json!({"inputSchema": {"properties": {"a": {}, "b": {}}, "type": "object"}, "name": "add"});
        let zed = json!({"name": "zed", "inputSchema": {"type": "object"}});
        let one = build(surface(vec![zed.clone(), a]));
        let two = build(surface(vec![b, zed]));
        let text = serde_json::to_string_pretty(&one).expect("text");
        assert_eq!(text, serde_json::to_string_pretty(&two).expect("text"));
        assert!(text.find("\"add\"") < text.find("\"zed\""), "{text}");
        assert_eq!(one["prompts"][0]["name"], "a");
        assert_eq!(read(&text).expect("reads back"), one);
        assert!(read("{\"tools\": []}").is_err());
        assert!(
            read("{\"mcpInspectSnapshot\": 9, \"tools\": []}")
                .expect_err("newer")
                .contains('9')
        );
    }
}
