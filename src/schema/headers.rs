//! `x-mcp-header` (2026, standard HTTP headers): a tool may ask that an argument also travel
//! as an `Mcp-Param-*` header. Clients must drop a tool whose annotations break the rules (rmcp
//! does so silently); we keep it and say why. Pure.

use super::refs::escape_segment;
use serde_json::Value;
use std::collections::HashSet;

/// Keywords whose value is instance data or names, never a subschema.
const NOT_SCHEMAS: &[&str] = &["default", "const", "enum", "examples", "dependentRequired"];

/// Every broken `x-mcp-header` rule in an input schema, each with the pointer of the keyword
/// (into the schema) and the reason. The rules: on a property reached from the root through
/// `properties` alone; a non-empty RFC 9110 token; unique without regard to case; on a
/// `string`, `integer` or `boolean` property.
pub fn header_problems(input: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    walk(input, &mut String::new(), Place::Root, &mut seen, &mut out);
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Place {
    Root,
    /// A property reached through `properties` alone.
    Property,
    Elsewhere,
}

fn walk(
    schema: &Value,
    at: &mut String,
    place: Place,
    seen: &mut HashSet<String>,
    out: &mut Vec<(String, String)>,
) {
    let Some(object) = schema.as_object() else {
        return;
    };
    if let Some(header) = object.get("x-mcp-header") {
        let pointer = format!("{at}/x-mcp-header");
        if let Some(reason) = problem(header, schema, place, seen) {
            out.push((pointer, reason));
        }
    }
    for (key, value) in object {
        if key == "x-mcp-header" || NOT_SCHEMAS.contains(&key.as_str()) {
            continue;
        }
        let len = at.len();
        at.push('/');
        at.push_str(&escape_segment(key));
        let is_map = matches!(
            key.as_str(),
            "properties"
                | "$defs"
                | "definitions"
                | "patternProperties"
                | "dependentSchemas"
                | "dependencies"
        );
        match value {
            Value::Object(map) if is_map => {
                let next = match (key.as_str(), place) {
                    ("properties", Place::Root | Place::Property) => Place::Property,
                    _ => Place::Elsewhere,
                };
                for (name, sub) in map {
                    let len = at.len();
                    at.push('/');
                    at.push_str(&escape_segment(name));
                    walk(sub, at, next, seen, out);
                    at.truncate(len);
                }
            }
            Value::Object(_) => walk(value, at, Place::Elsewhere, seen, out),
            Value::Array(items) => {
                for (i, sub) in items.iter().enumerate() {
                    let len = at.len();
                    at.push_str(&format!("/{i}"));
                    walk(sub, at, Place::Elsewhere, seen, out);
                    at.truncate(len);
                }
            }
            _ => {}
        }
        at.truncate(len);
    }
}

fn problem(
    header: &Value,
    schema: &Value,
    place: Place,
    seen: &mut HashSet<String>,
) -> Option<String> {
    match place {
        Place::Root => return Some("x-mcp-header must annotate a property, not the root".into()),
        Place::Elsewhere => {
            return Some(
                "x-mcp-header must sit on a property reached through `properties` alone".into(),
            );
        }
        Place::Property => {}
    }
    let Value::String(name) = header else {
        return Some("x-mcp-header must be a string".into());
    };
    if name.is_empty() {
        return Some("x-mcp-header is empty".into());
    }
    if !name.chars().all(is_token_char) {
        return Some(format!(
            "x-mcp-header `{}` is not an HTTP header name (RFC 9110 token)",
            crate::untrusted::line(name, 60)
        ));
    }
    if !seen.insert(name.to_ascii_lowercase()) {
        return Some(format!(
            "x-mcp-header `{}` is used twice (names ignore case)",
            crate::untrusted::line(name, 60)
        ));
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("string" | "integer" | "boolean") => None,
        other => Some(format!(
            "x-mcp-header is on a property of type {}; only string, integer and boolean may be",
            other.unwrap_or("(none)")
        )),
    }
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reasons(schema: Value) -> Vec<String> {
        header_problems(&schema)
            .into_iter()
            .map(|(at, why)| format!("{at}: {why}"))
            .collect()
    }

    #[test]
    fn well_formed_annotations_pass() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "nested": {"type": "object", "properties": {
                "tenant": {"type": "integer", "x-mcp-header": "Tenant-Id"}}},
            "note": {"type": "string", "default": {"x-mcp-header": ""}}
        }});
        assert_eq!(reasons(schema), Vec::<String>::new());
    }

    #[test]
    fn every_broken_rule_is_named_with_its_place() {
        let schema = json!({"type": "object", "x-mcp-header": "Root", "properties": {
            "empty": {"type": "string", "x-mcp-header": ""},
            "spaced": {"type": "string", "x-mcp-header": "Has Space"},
            "number": {"type": "string", "x-mcp-header": 7},
            "a": {"type": "string", "x-mcp-header": "Same"},
            "b": {"type": "string", "x-mcp-header": "same"},
            "list": {"type": "array", "x-mcp-header": "List",
                     "items": {"type": "string", "x-mcp-header": "Item"}}
        }, "$defs": {"d": {"type": "string", "x-mcp-header": "Def"}}});
        let found = reasons(schema);
        let expect = [
            "/x-mcp-header: x-mcp-header must annotate a property",
            "/properties/empty/x-mcp-header: x-mcp-header is empty",
            "/properties/spaced/x-mcp-header: x-mcp-header `Has Space` is not an HTTP header",
            "/properties/number/x-mcp-header: x-mcp-header must be a string",
            "/properties/b/x-mcp-header: x-mcp-header `same` is used twice",
            "/properties/list/x-mcp-header: x-mcp-header is on a property of type array",
            "/properties/list/items/x-mcp-header: x-mcp-header must sit on a property reached",
            "/$defs/d/x-mcp-header: x-mcp-header must sit on a property reached",
        ];
        for e in expect {
            assert!(found.iter().any(|f| f.starts_with(e)), "{e}: {found:#?}");
        }
        assert_eq!(found.len(), expect.len(), "{found:#?}");
    }
}
