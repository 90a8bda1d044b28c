//! Resolution of `$ref` inside one schema document: JSON Pointers, `$defs`/`definitions`,
//! `$anchor`. Anything else is "not fetched" and never fetched. Pure.

use serde_json::{Map, Value};
use std::collections::HashMap;

/// What a `$ref` string points at.
#[derive(Debug, Clone, PartialEq)]
pub enum RefTarget<'a> {
    /// Found in this document, at `pointer`, shown with the badge `name`.
    Found {
        pointer: String,
        name: String,
        schema: &'a Value,
    },
    /// A same-document reference whose target does not exist.
    Dangling,
    /// A reference to another document (URL, file, relative path): never fetched.
    NotFetched,
}

/// One schema document, its anchors indexed when the first `#name` is resolved (most schemas
/// have none: a 30,000-property schema is not walked for them).
pub struct Document<'a> {
    root: &'a Value,
    anchors: std::sync::OnceLock<HashMap<String, String>>,
}

/// How many values a scan visits before it stops (bounds hostile documents).
const SCAN_LIMIT: usize = 200_000;

impl<'a> Document<'a> {
    pub fn new(root: &'a Value) -> Self {
        Document {
            root,
            anchors: std::sync::OnceLock::new(),
        }
    }

    pub fn root(&self) -> &'a Value {
        self.root
    }

    /// Resolves a `$ref` value against this document.
    pub fn resolve(&self, reference: &str) -> RefTarget<'a> {
        let Some(fragment) = reference.strip_prefix('#') else {
            return RefTarget::NotFetched;
        };
        let fragment = percent_decode(fragment);
        if fragment.is_empty() || fragment.starts_with('/') {
            return match self.root.pointer(&fragment) {
                Some(schema) => RefTarget::Found {
                    name: pointer_name(&fragment),
                    pointer: fragment,
                    schema,
                },
                None => RefTarget::Dangling,
            };
        }
        match self
            .anchors
            .get_or_init(|| scan_anchors(self.root))
            .get(&fragment)
        {
            Some(pointer) => match self.root.pointer(pointer) {
                Some(schema) => RefTarget::Found {
                    pointer: pointer.clone(),
                    name: fragment,
                    schema,
                },
                None => RefTarget::Dangling,
            },
            None => RefTarget::Dangling,
        }
    }
}

/// `sub` (a part of the schema `root`) with the definitions its `#/$defs/…` and
/// `#/definitions/…` refs reach, directly or through each other, copied into its own `$defs`
/// and `definitions`: refs resolve from the root, so a subtree copied alone would leave them
/// dangling. Other refs are left as they are.
pub fn bundled(root: &Value, sub: &Value) -> Value {
    let mut needed: Vec<(String, String)> = Vec::new();
    let mut queue = vec![sub];
    let mut visited = 0;
    while let Some(schema) = queue.pop() {
        visited += 1;
        if visited > SCAN_LIMIT {
            break;
        }
        match schema {
            Value::Object(map) => {
                if let Some(reference) = map.get("$ref").and_then(Value::as_str)
                    && let Some((kind, name)) = definition_ref(reference)
                    && !needed.iter().any(|(k, n)| *k == kind && *n == name)
                    && let Some(target) = root.get(&kind).and_then(|d| d.get(&name))
                {
                    needed.push((kind, name));
                    queue.push(target);
                }
                queue.extend(map.values());
            }
            Value::Array(items) => queue.extend(items),
            _ => {}
        }
    }
    let mut out = sub.clone();
    if needed.is_empty() || !out.is_object() {
        return out;
    }
    for (kind, name) in needed {
        let Some(target) = root.get(&kind).and_then(|d| d.get(&name)) else {
            continue;
        };
        let defs = out
            .as_object_mut()
            .map(|o| o.entry(kind).or_insert_with(|| Value::Object(Map::new())));
        if let Some(Value::Object(defs)) = defs {
            defs.entry(name).or_insert_with(|| target.clone());
        }
    }
    out
}

/// `#/$defs/Name` or `#/definitions/Name`: the keyword and the (decoded) name.
fn definition_ref(reference: &str) -> Option<(String, String)> {
    let fragment = percent_decode(reference.strip_prefix('#')?);
    let rest = fragment.strip_prefix('/')?;
    let (kind, name) = rest.split_once('/')?;
    if !matches!(kind, "$defs" | "definitions") || name.contains('/') {
        return None;
    }
    Some((kind.to_string(), name.replace("~1", "/").replace("~0", "~")))
}

/// The badge for a pointer target: its last segment (`#/$defs/Node` is `Node`), `root` for `#`.
fn pointer_name(pointer: &str) -> String {
    match pointer.rsplit('/').next() {
        Some("") | None => "root".to_string(),
        Some(last) => last.replace("~1", "/").replace("~0", "~"),
    }
}

/// Escapes one key as a JSON Pointer segment.
pub fn escape_segment(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Visits every object in a document with its JSON Pointer, depth first, at most `budget`
/// values. `const`, `enum`, `default` and `examples` hold data, not schemas, and are skipped.
fn for_each_object(root: &Value, mut visit: impl FnMut(&Map<String, Value>, &str)) {
    fn walk(
        value: &Value,
        at: &mut String,
        visit: &mut dyn FnMut(&Map<String, Value>, &str),
        budget: &mut usize,
    ) {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let children: Box<dyn Iterator<Item = (String, &Value)>> = match value {
            Value::Object(map) => {
                visit(map, at);
                Box::new(
                    map.iter()
                        .filter(|(k, _)| {
                            !matches!(k.as_str(), "const" | "enum" | "default" | "examples")
                        })
                        .map(|(k, v)| (escape_segment(k), v)),
                )
            }
            Value::Array(items) => {
                Box::new(items.iter().enumerate().map(|(i, v)| (i.to_string(), v)))
            }
            _ => return,
        };
        for (segment, child) in children {
            let len = at.len();
            at.push('/');
            at.push_str(&segment);
            walk(child, at, visit, budget);
            at.truncate(len);
        }
    }
    let mut budget = SCAN_LIMIT;
    walk(root, &mut String::new(), &mut visit, &mut budget);
}

fn scan_anchors(root: &Value) -> HashMap<String, String> {
    let mut anchors = HashMap::new();
    for_each_object(root, |map, at| {
        if let Some(Value::String(anchor)) = map.get("$anchor") {
            anchors
                .entry(anchor.clone())
                .or_insert_with(|| at.to_string());
        }
        // Draft-04..07 spell a plain-name anchor as an `$id` (or draft-04 `id`) of `#name`.
        for key in ["$id", "id"] {
            if let Some(Value::String(id)) = map.get(key)
                && let Some(name) = id.strip_prefix('#')
                && !name.is_empty()
            {
                anchors
                    .entry(name.to_string())
                    .or_insert_with(|| at.to_string());
            }
        }
    });
    anchors
}

/// Decodes `%XX` escapes in a URI fragment; malformed escapes are kept as written.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = text.get(i + 1..i + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Every `$ref` string in a document with the pointer of the object holding it (bounded scan).
pub fn all_refs(root: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for_each_object(root, |map, at| {
        if let Some(Value::String(r)) = map.get("$ref") {
            out.push((at.to_string(), r.clone()));
        }
    });
    out
}

/// Dangling references given a [`same_named_hint`] per schema (each hint scans the schema).
pub const MAX_HINTS: usize = 16;

/// For a `$ref` that resolves nowhere: where a definition of the same name does sit (under
/// some `$defs` or `definitions`), said as a hint, since refs resolve from the root. `None`
/// when there is none.
pub fn same_named_hint(root: &Value, reference: &str) -> Option<String> {
    let name = reference.rsplit('/').next().filter(|n| !n.is_empty())?;
    let name = name.replace("~1", "/").replace("~0", "~");
    let mut found = None;
    for_each_object(root, |map, at| {
        for holder in ["$defs", "definitions"] {
            if found.is_none()
                && map
                    .get(holder)
                    .and_then(Value::as_object)
                    .is_some_and(|defs| defs.contains_key(&name))
            {
                found = Some(format!("{at}/{holder}/{}", escape_segment(&name)));
            }
        }
    });
    let at = found?;
    Some(format!(
        "refs resolve from the root; a `{}` definition sits at {}",
        crate::untrusted::line(&name, 80),
        crate::untrusted::line(&at, 200)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copied_subtree_carries_the_definitions_it_reaches() {
        let root = json!({
            "$defs": {"Pet": {"oneOf": [{"$ref": "#/$defs/Cat"}]}, "Cat": {"type": "object"},
                      "Unused": {}},
            "properties": {"pet": {"$ref": "#/$defs/Pet"}, "plain": {"type": "string"}}
        });
        let sub = &root["properties"]["pet"];
        assert_eq!(
            bundled(&root, sub),
            json!({"$ref": "#/$defs/Pet", "$defs": {
                "Pet": {"oneOf": [{"$ref": "#/$defs/Cat"}]}, "Cat": {"type": "object"}}})
        );
        let plain = &root["properties"]["plain"];
        assert_eq!(
            bundled(&root, plain),
            *plain,
            "nothing reached, nothing added"
        );
        let cycle = json!({"$defs": {"A": {"$ref": "#/$defs/A"}}, "$ref": "#/$defs/A"});
        assert_eq!(
            bundled(&cycle, &cycle["$defs"]["A"])["$defs"]["A"]["$ref"],
            "#/$defs/A"
        );
    }
    use serde_json::json;

    #[test]
    fn a_dangling_ref_names_where_a_same_named_definition_sits() {
        let doc = json!({"properties": {"result": {"$ref": "#/$defs/Node",
            "$defs": {"Node": {"type": "object"}}}}});
        assert_eq!(
            same_named_hint(&doc, "#/$defs/Node").as_deref(),
            Some(
                "refs resolve from the root; a `Node` definition sits at /properties/result/$defs/Node"
            )
        );
        assert_eq!(same_named_hint(&doc, "#/$defs/Leaf"), None);
        assert_eq!(same_named_hint(&doc, "#/"), None);
    }

    fn found_pointer(t: RefTarget<'_>) -> (String, String) {
        match t {
            RefTarget::Found { pointer, name, .. } => (pointer, name),
            other => panic!("not found: {other:?}"),
        }
    }

    #[test]
    fn resolves_defs_definitions_and_root() {
        let doc = json!({"$defs": {"Node": {"type": "object"}}, "definitions": {"a/b": {"type": "string"}}});
        let d = Document::new(&doc);
        assert_eq!(
            found_pointer(d.resolve("#/$defs/Node")),
            ("/$defs/Node".into(), "Node".into())
        );
        assert_eq!(found_pointer(d.resolve("#/definitions/a~1b")).1, "a/b");
        assert_eq!(found_pointer(d.resolve("#")), ("".into(), "root".into()));
    }

    #[test]
    fn percent_encoded_pointers_resolve() {
        let doc = json!({"$defs": {"a b": {"type": "string"}}});
        assert_eq!(
            found_pointer(Document::new(&doc).resolve("#/$defs/a%20b")).1,
            "a b"
        );
    }

    #[test]
    fn anchors_resolve_in_both_spellings() {
        let doc = json!({"$defs": {"x": {"$anchor": "thing"}, "y": {"$id": "#old"}}});
        let d = Document::new(&doc);
        assert_eq!(
            found_pointer(d.resolve("#thing")),
            ("/$defs/x".into(), "thing".into())
        );
        assert_eq!(found_pointer(d.resolve("#old")).0, "/$defs/y");
    }

    #[test]
    fn dangling_and_foreign_refs_are_told_apart() {
        let doc = json!({});
        let d = Document::new(&doc);
        assert_eq!(d.resolve("#/$defs/Missing"), RefTarget::Dangling);
        assert_eq!(d.resolve("#nowhere"), RefTarget::Dangling);
        assert_eq!(
            d.resolve("https://example.com/s.json"),
            RefTarget::NotFetched
        );
        assert_eq!(d.resolve("other.json#/a"), RefTarget::NotFetched);
    }

    #[test]
    fn all_refs_skips_data_keywords() {
        let doc = json!({"properties": {"a": {"$ref": "#/x"}}, "const": {"$ref": "#/data"}});
        assert_eq!(
            all_refs(&doc),
            vec![("/properties/a".to_string(), "#/x".to_string())]
        );
    }
}
