//! A starting argument object from an input schema: required fields first, defaults, the first
//! enum value, const, nested objects, nullable as null. Bounded by depth and by size: K required
//! properties that each `$ref` the root would otherwise make K^depth values. Pure.

use super::refs::{Document, RefTarget};
use serde_json::{Map, Value, json};

/// Nesting depth filled in before deeper values are left empty.
const MAX_SKELETON_DEPTH: usize = 12;
/// Schema nodes visited in all; past it, values are left empty. A real form is far smaller.
const MAX_SKELETON_NODES: usize = 2_000;

/// The skeleton arguments for an input schema.
pub fn skeleton(schema: &Value) -> Value {
    let doc = Document::new(schema);
    let mut budget = MAX_SKELETON_NODES;
    let value = value_for(&doc, schema, 0, &mut budget);
    if value.is_object() { value } else { json!({}) }
}

fn value_for(doc: &Document<'_>, schema: &Value, depth: usize, budget: &mut usize) -> Value {
    let Some(map) = schema.as_object() else {
        return Value::Null;
    };
    if *budget == 0 {
        return Value::Null;
    }
    *budget -= 1;
    if let Some(Value::String(r)) = map.get("$ref")
        && let RefTarget::Found { schema: target, .. } = doc.resolve(r)
        && depth < MAX_SKELETON_DEPTH
    {
        return value_for(doc, target, depth + 1, budget);
    }
    if let Some(c) = map.get("const") {
        return c.clone();
    }
    if let Some(d) = map.get("default") {
        return d.clone();
    }
    if let Some(Value::Array(values)) = map.get("enum")
        && let Some(first) = values.first()
    {
        return first.clone();
    }
    if let Some(Value::Array(examples)) = map.get("examples")
        && let Some(first) = examples.first()
    {
        return first.clone();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.get(key) {
            if branches
                .iter()
                .any(|b| b.get("type") == Some(&Value::from("null")))
            {
                return Value::Null;
            }
            if let Some(first) = branches.first() {
                return value_for(doc, first, depth + 1, budget);
            }
        }
    }
    if let Some(Value::Array(parts)) = map.get("allOf") {
        let mut merged = Map::new();
        for part in parts {
            if let Value::Object(o) = value_for(doc, part, depth + 1, budget) {
                merged.extend(o);
            }
        }
        return Value::Object(merged);
    }
    let ty = match map.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) if ts.iter().any(|t| t == "null") => return Value::Null,
        Some(Value::Array(ts)) => ts.first().and_then(Value::as_str).unwrap_or(""),
        _ if map.contains_key("properties") => "object",
        _ => "",
    };
    match ty {
        "object" => object_for(doc, map, depth, budget),
        "array" => json!([]),
        "string" => json!(""),
        "integer" => map
            .get("minimum")
            .filter(|m| m.is_i64() || m.is_u64())
            .cloned()
            .unwrap_or(json!(0)),
        "number" => map.get("minimum").cloned().unwrap_or(json!(0)),
        "boolean" => json!(false),
        _ => Value::Null,
    }
}

/// Required properties in schema order, then optional ones that carry a default.
fn object_for(
    doc: &Document<'_>,
    map: &Map<String, Value>,
    depth: usize,
    budget: &mut usize,
) -> Value {
    let mut out = Map::new();
    if depth >= MAX_SKELETON_DEPTH {
        return Value::Object(out);
    }
    let Some(Value::Object(props)) = map.get("properties") else {
        return Value::Object(out);
    };
    // A set: a server's form may list 100,000 required names (a list made this quadratic).
    let required: std::collections::HashSet<&str> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for (name, prop) in props.iter().filter(|(n, _)| required.contains(n.as_str())) {
        // Past the budget no more fields are added: the skeleton stays as small as it.
        if *budget == 0 {
            break;
        }
        out.insert(name.clone(), value_for(doc, prop, depth + 1, budget));
    }
    for (name, prop) in props.iter().filter(|(n, _)| !required.contains(n.as_str())) {
        if let Some(d) = prop.get("default") {
            out.insert(name.clone(), d.clone());
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_first_with_defaults_enums_and_consts() {
        let schema = json!({"type": "object", "properties": {
            "limit": {"type": "integer", "default": 10},
            "mode": {"enum": ["fast", "slow"]},
            "query": {"type": "string"},
            "kind": {"const": "search"},
            "verbose": {"type": "boolean"}
        }, "required": ["query", "mode", "kind"]});
        let s = skeleton(&schema);
        assert_eq!(
            s,
            json!({"mode": "fast", "query": "", "kind": "search", "limit": 10})
        );
        let keys: Vec<&String> = s.as_object().expect("object").keys().collect();
        assert_eq!(keys, ["mode", "query", "kind", "limit"]);
    }

    #[test]
    fn nested_objects_refs_and_nullables() {
        let schema = json!({"type": "object", "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}},
            "properties": {"at": {"$ref": "#/$defs/Point"}, "note": {"anyOf": [{"type": "string"}, {"type": "null"}]}, "tags": {"type": ["array", "null"]}},
            "required": ["at", "note", "tags"]});
        assert_eq!(
            skeleton(&schema),
            json!({"at": {"x": 0}, "note": null, "tags": null})
        );
    }

    #[test]
    fn recursive_refs_terminate() {
        let schema =
            json!({"type": "object", "properties": {"node": {"$ref": "#"}}, "required": ["node"]});
        let s = skeleton(&schema);
        assert!(s.is_object());
    }

    #[test]
    fn a_self_referencing_fan_is_bounded_in_size() {
        let names: Vec<String> = (0..10).map(|i| format!("p{i}")).collect();
        let props: Map<String, Value> = names
            .iter()
            .map(|n| (n.clone(), json!({"$ref": "#"})))
            .collect();
        let schema = json!({"type": "object", "properties": props, "required": names});
        let s = skeleton(&schema);
        assert!(serde_json::to_string(&s).map_or(0, |t| t.len()) < 100_000);
    }

    #[test]
    fn non_object_or_boolean_schema_gives_empty_object() {
        assert_eq!(skeleton(&json!(true)), json!({}));
        assert_eq!(skeleton(&json!({"type": "string"})), json!({}));
    }
}
