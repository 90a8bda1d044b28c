//! Parts of a schema nothing can be judged by: a `$ref` that resolves nowhere or outside the
//! document, a `$ref` cycle that comes back to itself without moving into the instance
//! (`{"$ref": "#"}`), a `pattern` that is not an ECMA-262 regular expression. Each is replaced
//! by the [`UNKNOWN`] keyword, and the schema is compiled twice: once where that keyword
//! passes, once where it fails. Only what both say stands, so an unknown part never decides a
//! verdict (a `not` around a dangling `$ref` is neither a pass nor a violation). Pure.

use super::budget::{DATA, SCHEMA_MAPS};
use super::refs::{Document, RefTarget, escape_segment};
use serde_json::Value;
use std::collections::HashMap;

/// The keyword that stands in for an unknown part in the compiled copy.
pub const UNKNOWN: &str = "x-mcp-inspect-unknown";

/// Schema objects looked at before the search stops (the validator refuses larger schemas).
const MAX_NODES: usize = 600_000;

/// Keywords that apply a subschema to the same instance location: a cycle through only these
/// and `$ref` never ends.
const IN_PLACE: &[&str] = &[
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
];

/// A schema's unknown parts.
#[derive(Debug, Default)]
pub struct Marked {
    /// Each part in one line: where, and why it cannot be checked.
    pub said: Vec<String>,
    /// The schema location of each (`/properties/x/$ref`; the object itself when all of it is).
    pub places: Vec<String>,
    /// The schema with each replaced by [`UNKNOWN`] (`None` when there are none).
    pub copy: Option<Value>,
}

/// The unknown parts of `schema`, and a copy with each replaced by [`UNKNOWN`].
pub fn marked(schema: &Value) -> Marked {
    let found = find(schema);
    if found.is_empty() {
        return Marked::default();
    }
    let mut copy = schema.clone();
    let mut said = Vec::new();
    let mut places = Vec::new();
    for part in found {
        places.push(match part.key {
            Some(key) => format!("{}/{}", part.at, escape_segment(key)),
            None => part.at.clone(),
        });
        if let Some(map) = copy.pointer_mut(&part.at).and_then(Value::as_object_mut) {
            match part.key {
                Some(key) => {
                    map.remove(key);
                }
                None => map.clear(),
            }
            map.insert(UNKNOWN.into(), Value::Bool(true));
        }
        let at = if part.at.is_empty() { "/" } else { &part.at };
        said.push(format!(
            "the schema at {} was not checked: {}",
            crate::untrusted::line(at, 200),
            part.why
        ));
    }
    Marked {
        said,
        places,
        copy: Some(copy),
    }
}

/// Whether a violation at `schema_path` may come from an unknown part at one of `places`: one
/// lies under the failing keyword (`not` around it), or beside it where the keyword reads its
/// siblings' outcome (`maxContains` counts `contains`' matches, `unevaluatedProperties` what
/// the others evaluated), or in the `if` that chose the failing `then`/`else`.
pub fn may_decide(schema_path: &str, places: &[String]) -> bool {
    let under = |prefix: &str| {
        places
            .iter()
            .any(|p| p == prefix || p.starts_with(&format!("{prefix}/")))
    };
    if under(schema_path) {
        return true;
    }
    let (parent, keyword) = schema_path.rsplit_once('/').unwrap_or(("", schema_path));
    const READS_SIBLINGS: &[&str] = &[
        "contains",
        "minContains",
        "maxContains",
        "unevaluatedProperties",
        "unevaluatedItems",
    ];
    if READS_SIBLINGS.contains(&keyword) && under(parent) {
        return true;
    }
    // Every `then`/`else` on the way: its `if` decided whether it applied.
    let mut at = schema_path;
    while let Some((above, segment)) = at.rsplit_once('/') {
        if matches!(segment, "then" | "else") && under(&format!("{above}/if")) {
            return true;
        }
        at = above;
    }
    false
}

/// One unknown part: the object holding it, the keyword replaced (`None`: the whole object).
struct Part {
    at: String,
    key: Option<&'static str>,
    why: String,
}

/// A schema object and the pointers it leads to.
#[derive(Default)]
struct Node {
    /// Subschemas applied to the same instance location, and `$ref` targets.
    in_place: Vec<usize>,
    /// The pointer of a resolved `$ref`'s target.
    target: Option<usize>,
}

fn find(schema: &Value) -> Vec<Part> {
    let doc = Document::new(schema);
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut id_of = |pointer: &str, nodes: &mut Vec<Node>| -> usize {
        *ids.entry(pointer.to_string()).or_insert_with(|| {
            nodes.push(Node::default());
            nodes.len() - 1
        })
    };
    let mut parts = Vec::new();
    let mut refs: Vec<(usize, String)> = Vec::new();
    let mut stack: Vec<(String, &Value)> = vec![(String::new(), schema)];
    while let Some((at, value)) = stack.pop() {
        let Value::Object(map) = value else { continue };
        if nodes.len() > MAX_NODES {
            break;
        }
        let me = id_of(&at, &mut nodes);
        if let Some(Value::String(reference)) = map.get("$ref") {
            match doc.resolve(reference) {
                RefTarget::Found { pointer, .. } => {
                    let target = id_of(&pointer, &mut nodes);
                    nodes[me].in_place.push(target);
                    nodes[me].target = Some(target);
                    refs.push((me, at.clone()));
                }
                RefTarget::Dangling => parts.push(Part {
                    at: at.clone(),
                    key: Some("$ref"),
                    why: format!("dangling $ref {}", crate::untrusted::line(reference, 200)),
                }),
                RefTarget::NotFetched => parts.push(Part {
                    at: at.clone(),
                    key: Some("$ref"),
                    why: format!(
                        "$ref {} points outside the schema (not fetched)",
                        crate::untrusted::line(reference, 200)
                    ),
                }),
            }
        }
        foreign_patterns(&at, map, &mut parts);
        for (key, child) in map {
            if DATA.contains(&key.as_str()) {
                continue;
            }
            let in_place = IN_PLACE.contains(&key.as_str());
            let children = subschemas(&at, key, child);
            for (pointer, v) in children {
                if in_place && v.is_object() {
                    let child_id = id_of(&pointer, &mut nodes);
                    nodes[me].in_place.push(child_id);
                }
                stack.push((pointer, v));
            }
        }
    }
    let component = components(&nodes);
    for (id, at) in refs {
        if let Some(target) = nodes[id].target
            && component[id] == component[target]
        {
            parts.push(Part {
                at,
                key: Some("$ref"),
                why: "its $ref comes back to itself without moving into the value (a cycle \
                      with no end)"
                    .into(),
            });
        }
    }
    parts.sort_by(|a, b| a.at.cmp(&b.at));
    parts
}

/// A `pattern` or `patternProperties` key of `map` outside ECMA-262, as an unknown part.
fn foreign_patterns(at: &str, map: &serde_json::Map<String, Value>, parts: &mut Vec<Part>) {
    if let Some(Value::String(pattern)) = map.get("pattern")
        && !jsonschema_regex::is_valid_ecma_regex(pattern)
    {
        parts.push(Part {
            at: at.to_string(),
            key: Some("pattern"),
            why: not_ecma(pattern),
        });
    }
    if let Some(Value::Object(patterns)) = map.get("patternProperties")
        && let Some(bad) = patterns
            .keys()
            .find(|p| !jsonschema_regex::is_valid_ecma_regex(p))
    {
        parts.push(Part {
            at: at.to_string(),
            key: None,
            why: format!("in patternProperties, {}", not_ecma(bad)),
        });
    }
}

/// The subschemas under `key` of the object at `at`, with their pointers.
fn subschemas<'a>(at: &str, key: &str, child: &'a Value) -> Vec<(String, &'a Value)> {
    let base = format!("{at}/{}", escape_segment(key));
    match child {
        Value::Object(inner) if SCHEMA_MAPS.contains(&key) => inner
            .iter()
            .map(|(name, v)| (format!("{base}/{}", escape_segment(name)), v))
            .collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("{base}/{i}"), v))
            .collect(),
        Value::Object(_) => vec![(base, child)],
        _ => Vec::new(),
    }
}

fn not_ecma(pattern: &str) -> String {
    format!(
        "pattern {} is not an ECMA-262 regular expression (the `u`-flag dialect JSON Schema \
         names)",
        crate::untrusted::line(&serde_json::to_string(pattern).unwrap_or_default(), 200)
    )
}

/// The strongly connected component of each node over the in-place edges (Tarjan's, with its
/// own stack: a schema may be deep).
fn components(nodes: &[Node]) -> Vec<usize> {
    let n = nodes.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut component = vec![usize::MAX; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut found = 0;
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        let mut calls: Vec<(usize, usize)> = vec![(start, 0)];
        index[start] = next;
        low[start] = next;
        next += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut edge)) = calls.last_mut() {
            if let Some(&w) = nodes[v].in_place.get(*edge) {
                *edge += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = found;
                    if w == v {
                        break;
                    }
                }
                found += 1;
            }
        }
    }
    component
}

/// Options that compile [`UNKNOWN`] as always passing or always failing.
pub fn with_unknown(
    options: jsonschema::ValidationOptions,
    passes: bool,
) -> jsonschema::ValidationOptions {
    options.with_keyword(UNKNOWN, move |_, _, _| Ok(Box::new(Unknown { passes })))
}

#[derive(Debug)]
struct Unknown {
    passes: bool,
}

impl<'i> jsonschema::Keyword<'i> for Unknown {
    fn validate(&self, _: &'i Value) -> Result<(), jsonschema::ValidationError<'i>> {
        if self.passes {
            Ok(())
        } else {
            Err(jsonschema::ValidationError::custom(
                "a part that could not be checked (taken as failing)",
            ))
        }
    }

    fn is_valid(&self, _: &'i Value) -> bool {
        self.passes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parts(schema: Value) -> Vec<String> {
        marked(&schema).said
    }

    #[test]
    fn dangling_refs_cycles_without_progress_and_foreign_patterns_are_unknown() {
        assert!(parts(json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"type": "string"}}})).is_empty());
        // Recursion that moves into the value is fine.
        assert!(parts(json!({"type": "object", "properties": {"next": {"$ref": "#"}}})).is_empty());
        let said = parts(json!({"$ref": "#"}));
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].contains("comes back to itself"), "{said:?}");
        assert_eq!(
            parts(json!({"properties": {"x": {"$ref": "#/properties/x"}}})).len(),
            1
        );
        assert_eq!(
            parts(json!({"type": "object", "allOf": [{"$ref": "#"}]})).len(),
            1
        );
        let said = parts(json!({"not": {"$ref": "#/$defs/gone"}}));
        assert!(said[0].contains("dangling $ref #/$defs/gone"), "{said:?}");
        let said = parts(json!({"type": "string", "pattern": "\\Aabc\\z"}));
        assert!(said[0].contains("not an ECMA-262"), "{said:?}");
        assert!(parts(json!({"pattern": "^[a-z]+\\d{2}$"})).is_empty());
        let copy = marked(&json!({"type": "string", "pattern": "\\Aabc\\z", "maxLength": 3})).copy;
        assert_eq!(
            copy,
            Some(json!({"type": "string", "maxLength": 3, UNKNOWN: true}))
        );
    }
}
