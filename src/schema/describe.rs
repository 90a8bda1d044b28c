//! What one subschema says, gathered across its `$ref` layers into display facts: types,
//! constraints, enum/const, default, examples, annotations and unknown keywords. Pure.

use serde_json::{Map, Value};

/// One object schema in a `$ref` chain, with where it lives and how it was reached.
#[derive(Debug, Clone)]
struct Layer<'a> {
    map: &'a Map<String, Value>,
    pointer: String,
    eval: String,
}

/// A subschema seen through its layers: the referring object first, then each ref target.
#[derive(Debug, Clone, Default)]
pub struct View<'a> {
    layers: Vec<Layer<'a>>,
    /// Set when the schema is the `anyOf [T, {type: null}]` shape, shown as a nullable `T`.
    pub nullable: bool,
}

/// Keywords that hold subschemas, in the order rows are shown.
const CHILD_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "dependentSchemas",
    "dependencies",
    "prefixItems",
    "items",
    "additionalItems",
    "unevaluatedItems",
    "contains",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
];

/// Keywords shown as facts or structure; anything else is listed as an extra keyword.
const KNOWN_KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "id",
    "$ref",
    "$defs",
    "definitions",
    "$anchor",
    "$dynamicAnchor",
    "$dynamicRef",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
    "type",
    "required",
    "enum",
    "const",
    "default",
    "examples",
    "title",
    "description",
    "deprecated",
    "readOnly",
    "writeOnly",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "minContains",
    "maxContains",
    "contentEncoding",
    "contentMediaType",
    "dependentRequired",
];

impl<'a> View<'a> {
    pub fn push(&mut self, map: &'a Map<String, Value>, pointer: String, eval: String) {
        self.layers.push(Layer { map, pointer, eval });
    }

    fn find(&self, key: &str) -> Option<(&'a Value, &Layer<'a>)> {
        self.layers
            .iter()
            .find_map(|l| l.map.get(key).map(|v| (v, l)))
    }

    /// A keyword's value from the nearest layer that has it.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.find(key).map(|(v, _)| v)
    }

    /// Every keyword that holds subschemas, with the pointer and evaluation path of its value.
    pub fn child_schemas(&self) -> Vec<(&'static str, &'a Value, String, String)> {
        CHILD_KEYWORDS
            .iter()
            .filter_map(|k| {
                self.find(k).map(|(v, l)| {
                    (
                        *k,
                        v,
                        format!("{}/{k}", l.pointer),
                        format!("{}/{k}", l.eval),
                    )
                })
            })
            .collect()
    }

    /// Property names required by any layer.
    pub fn required(&self) -> Vec<&'a str> {
        let mut names = Vec::new();
        for layer in &self.layers {
            if let Some(Value::Array(items)) = layer.map.get("required") {
                names.extend(items.iter().filter_map(Value::as_str));
            }
        }
        names
    }

    /// For `anyOf: [T, {"type": "null"}]` (either order): `T` with its pointer and evaluation path.
    pub fn nullable_branch(&self) -> Option<(&'a Value, String, String)> {
        let (value, layer) = self.find("anyOf")?;
        let branches = value.as_array()?;
        if branches.len() != 2 {
            return None;
        }
        let is_null = |v: &Value| {
            v.as_object()
                .is_some_and(|m| m.len() == 1 && m.get("type") == Some(&"null".into()))
        };
        let i = match (is_null(&branches[0]), is_null(&branches[1])) {
            (true, false) => 1,
            (false, true) => 0,
            _ => return None,
        };
        Some((
            &branches[i],
            format!("{}/anyOf/{i}", layer.pointer),
            format!("{}/anyOf/{i}", layer.eval),
        ))
    }

    fn keys(&self) -> Vec<(&'a str, &'a Value)> {
        let mut seen: Vec<(&'a str, &'a Value)> = Vec::new();
        for layer in &self.layers {
            for (k, v) in layer.map {
                if !seen.iter().any(|(s, _)| *s == k) {
                    seen.push((k.as_str(), v));
                }
            }
        }
        seen
    }
}

/// Everything a row shows about its subschema besides its children.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Facts {
    pub types: Vec<String>,
    pub nullable: bool,
    pub boolean_schema: Option<bool>,
    pub ref_name: Option<String>,
    pub back_link: Option<usize>,
    pub problem: Option<String>,
    /// `keyword: value` lines: lengths, bounds, pattern, format, counts, uniqueness, closed objects.
    pub constraints: Vec<String>,
    pub enum_values: Option<Vec<Value>>,
    pub const_value: Option<Value>,
    pub default: Option<Value>,
    pub examples: Vec<Value>,
    pub title: Option<String>,
    pub description: Option<String>,
    /// `deprecated`, `readOnly`, `writeOnly` when true.
    pub flags: Vec<&'static str>,
    /// Keywords no dialect defines (`x-…` and others), shown as written.
    pub extras: Vec<(String, Value)>,
}

/// Gathers the facts of a subschema across its layers.
pub fn describe(view: &View<'_>) -> Facts {
    let mut facts = Facts {
        nullable: view.nullable,
        ..Facts::default()
    };
    match view.get("type") {
        Some(Value::String(t)) => facts.types.push(t.clone()),
        Some(Value::Array(ts)) => facts
            .types
            .extend(ts.iter().filter_map(Value::as_str).map(String::from)),
        _ => {}
    }
    if facts.types.iter().any(|t| t == "null") && facts.types.len() > 1 {
        facts.types.retain(|t| t != "null");
        facts.nullable = true;
    }
    if facts.types.is_empty() {
        if view.get("properties").is_some() || view.get("additionalProperties").is_some() {
            facts.types.push("object".into());
        } else if view.get("items").is_some() || view.get("prefixItems").is_some() {
            facts.types.push("array".into());
        }
    }
    facts.constraints = constraints(view);
    facts.enum_values = view.get("enum").and_then(Value::as_array).cloned();
    facts.const_value = view.get("const").cloned();
    facts.default = view.get("default").cloned();
    facts.examples = match view.get("examples") {
        Some(Value::Array(items)) => items.clone(),
        Some(other) => vec![other.clone()],
        None => Vec::new(),
    };
    facts.title = view.get("title").and_then(Value::as_str).map(String::from);
    facts.description = view
        .get("description")
        .and_then(Value::as_str)
        .map(String::from);
    for flag in ["deprecated", "readOnly", "writeOnly"] {
        if view.get(flag) == Some(&Value::Bool(true)) {
            facts.flags.push(flag);
        }
    }
    facts.extras = view
        .keys()
        .into_iter()
        .filter(|(k, _)| !KNOWN_KEYWORDS.contains(k) && !CHILD_KEYWORDS.contains(k))
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    facts
}

fn constraints(view: &View<'_>) -> Vec<String> {
    let mut out = Vec::new();
    for key in [
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "minContains",
        "maxContains",
        "minProperties",
        "maxProperties",
        "contentEncoding",
        "contentMediaType",
    ] {
        if let Some(v) = view.get(key) {
            out.push(format!("{key}: {}", plain(v)));
        }
    }
    if view.get("uniqueItems") == Some(&Value::Bool(true)) {
        out.push("uniqueItems".into());
    }
    for (key, words) in [
        ("additionalProperties", "no additional properties"),
        ("unevaluatedProperties", "no unevaluated properties"),
        ("items", "no items"),
        ("additionalItems", "no additional items"),
        ("unevaluatedItems", "no unevaluated items"),
    ] {
        if view.get(key) == Some(&Value::Bool(false)) {
            out.push(words.into());
        }
    }
    for key in ["dependentRequired", "dependencies"] {
        if let Some(Value::Object(map)) = view.get(key) {
            for (name, needs) in map {
                if let Value::Array(needs) = needs {
                    let needs: Vec<String> = needs.iter().map(plain).collect();
                    out.push(format!("if {name} present, requires: {}", needs.join(", ")));
                }
            }
        }
    }
    let declared = view.get("properties").and_then(Value::as_object);
    let undeclared: Vec<&str> = view
        .required()
        .into_iter()
        .filter(|r| declared.is_none_or(|d| !d.contains_key(*r)))
        .collect();
    if !undeclared.is_empty() && declared.is_some() {
        out.push(format!("requires undeclared: {}", undeclared.join(", ")));
    }
    out
}

/// A JSON value as a person reads it in a constraint: strings bare, everything else as JSON.
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
