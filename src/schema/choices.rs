//! The values a schema allows at one place of an instance, when it names them: an `enum`, a
//! `const`, `oneOf`/`anyOf` of consts, or a boolean. For the argument editor's pick list.
//! Local `$ref`s are followed (a bounded number of hops). Pure.

use super::refs::{Document, RefTarget};
use serde_json::Value;

/// `$ref` hops followed at most, for each step down the path.
const MAX_HOPS: usize = 32;
/// Values offered at most.
const MAX_CHOICES: usize = 200;

/// The values the schema `root` names for the instance at JSON Pointer `path` (`/mode`,
/// `/items/0/kind`), if it names them.
pub fn at(root: &Value, path: &str) -> Option<Vec<Value>> {
    let document = Document::new(root);
    let mut schema = follow(&document, root)?;
    for segment in path.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        schema = follow(&document, child(&document, schema, &segment)?)?;
    }
    named(&document, schema)
}

/// `schema` with its `$ref` followed (to the end of a chain, within [`MAX_HOPS`]).
fn follow<'a>(document: &Document<'a>, mut schema: &'a Value) -> Option<&'a Value> {
    for _ in 0..MAX_HOPS {
        let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
            return Some(schema);
        };
        match document.resolve(reference) {
            RefTarget::Found { schema: target, .. } => schema = target,
            _ => return None,
        }
    }
    None
}

/// The subschema for one step down: a property (also inside `allOf`/`anyOf`/`oneOf`
/// branches), or an array item.
fn child<'a>(document: &Document<'a>, schema: &'a Value, segment: &str) -> Option<&'a Value> {
    if let Some(found) = schema.get("properties").and_then(|p| p.get(segment)) {
        return Some(found);
    }
    if let Ok(index) = segment.parse::<usize>() {
        let prefix = schema.get("prefixItems").and_then(|p| p.get(index));
        if let Some(found) = prefix.or_else(|| schema.get("items").filter(|i| i.is_object())) {
            return Some(found);
        }
    }
    ["allOf", "anyOf", "oneOf"]
        .iter()
        .filter_map(|k| schema.get(*k).and_then(Value::as_array))
        .flatten()
        .filter_map(|branch| follow(document, branch))
        .find_map(|branch| child(document, branch, segment))
}

fn named(document: &Document<'_>, schema: &Value) -> Option<Vec<Value>> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return Some(values.iter().take(MAX_CHOICES).cloned().collect());
    }
    if let Some(value) = schema.get("const") {
        return Some(vec![value.clone()]);
    }
    for key in ["oneOf", "anyOf"] {
        let Some(branches) = schema.get(key).and_then(Value::as_array) else {
            continue;
        };
        let consts: Option<Vec<Value>> = branches
            .iter()
            .take(MAX_CHOICES)
            .map(|b| follow(document, b).and_then(|b| b.get("const")).cloned())
            .collect();
        if let Some(consts) = consts.filter(|c| !c.is_empty()) {
            return Some(consts);
        }
    }
    (schema.get("type").and_then(Value::as_str) == Some("boolean"))
        .then(|| vec![Value::Bool(true), Value::Bool(false)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn enums_consts_one_of_consts_and_booleans_are_named_through_refs() {
        let schema = json!({
            "type": "object",
            "$defs": {"Mode": {"enum": ["fast", "slow"]}},
            "properties": {
                "mode": {"$ref": "#/$defs/Mode"},
                "level": {"oneOf": [{"const": 1, "title": "low"}, {"const": 2}]},
                "dry": {"type": "boolean"},
                "tags": {"type": "array", "items": {"enum": ["a", "b"]}},
                "query": {"type": "string"}
            },
            "allOf": [{"properties": {"kind": {"const": "x"}}}]
        });
        assert_eq!(
            at(&schema, "/mode"),
            Some(vec![json!("fast"), json!("slow")])
        );
        assert_eq!(at(&schema, "/level"), Some(vec![json!(1), json!(2)]));
        assert_eq!(at(&schema, "/dry"), Some(vec![json!(true), json!(false)]));
        assert_eq!(at(&schema, "/tags/3"), Some(vec![json!("a"), json!("b")]));
        assert_eq!(at(&schema, "/kind"), Some(vec![json!("x")]));
        assert_eq!(at(&schema, "/query"), None);
        assert_eq!(at(&schema, "/nowhere"), None);
        let cycle = json!({"$ref": "#"});
        assert_eq!(at(&cycle, "/a"), None, "a $ref cycle ends");
    }
}
