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

/// The display rank of a keyword that holds subschemas (a `match`: this runs for every keyword
/// of every row of a 100,000-row tree).
fn child_rank(key: &str) -> Option<usize> {
    Some(match key {
        "properties" => 0,
        "patternProperties" => 1,
        "additionalProperties" => 2,
        "unevaluatedProperties" => 3,
        "propertyNames" => 4,
        "dependentSchemas" => 5,
        "dependencies" => 6,
        "prefixItems" => 7,
        "items" => 8,
        "additionalItems" => 9,
        "unevaluatedItems" => 10,
        "contains" => 11,
        "allOf" => 12,
        "anyOf" => 13,
        "oneOf" => 14,
        "not" => 15,
        "if" => 16,
        "then" => 17,
        "else" => 18,
        "contentSchema" => 19,
        _ => return None,
    })
}

/// Keywords shown as facts or structure; anything else is listed as an extra keyword.
fn is_known(key: &str) -> bool {
    matches!(
        key,
        "$schema"
            | "$id"
            | "id"
            | "$ref"
            | "$defs"
            | "definitions"
            | "$anchor"
            | "$dynamicAnchor"
            | "$dynamicRef"
            | "$recursiveRef"
            | "$recursiveAnchor"
            | "$vocabulary"
            | "type"
            | "required"
            | "enum"
            | "const"
            | "default"
            | "examples"
            | "title"
            | "description"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
            | "minLength"
            | "maxLength"
            | "pattern"
            | "format"
            | "minimum"
            | "maximum"
            | "exclusiveMinimum"
            | "exclusiveMaximum"
            | "multipleOf"
            | "minItems"
            | "maxItems"
            | "uniqueItems"
            | "minProperties"
            | "maxProperties"
            | "minContains"
            | "maxContains"
            | "contentEncoding"
            | "contentMediaType"
            | "dependentRequired"
    ) || child_rank(key).is_some()
}

impl<'a> View<'a> {
    pub fn push(&mut self, map: &'a Map<String, Value>, pointer: String, eval: String) {
        self.layers.push(Layer { map, pointer, eval });
    }

    fn find(&self, key: &str) -> Option<(&'a Value, &Layer<'a>)> {
        self.layers
            .iter()
            .find_map(|l| l.map.get(key).map(|v| (v, l)))
    }

    /// Every keyword that holds subschemas, with the pointer and evaluation path of its value,
    /// in the order rows are shown.
    pub fn child_schemas(&self) -> Vec<(&'static str, &'a Value, String, String)> {
        let mut found: Vec<(usize, &'a Value, &Layer<'a>)> = Vec::new();
        for layer in &self.layers {
            for (key, value) in layer.map {
                if let Some(i) = child_rank(key)
                    && !found.iter().any(|(j, _, _)| *j == i)
                {
                    found.push((i, value, layer));
                }
            }
        }
        found.sort_by_key(|(i, _, _)| *i);
        found
            .into_iter()
            .map(|(i, v, l)| {
                let k = CHILD_KEYWORDS[i];
                (
                    k,
                    v,
                    format!("{}/{k}", l.pointer),
                    format!("{}/{k}", l.eval),
                )
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

/// Gathers the facts of a subschema across its layers, in one pass over its keywords.
pub fn describe(view: &View<'_>) -> Facts {
    let mut facts = Facts {
        nullable: view.nullable,
        ..Facts::default()
    };
    let (mut objectish, mut arrayish) = (false, false);
    let mut declared: Option<&Map<String, Value>> = None;
    for (key, value) in view.keys() {
        note_keyword(&mut facts, key, value);
        match key {
            "properties" => {
                objectish = true;
                declared = value.as_object();
            }
            "additionalProperties" | "patternProperties" => objectish = true,
            "items" | "prefixItems" => arrayish = true,
            _ => {}
        }
        if let Some(words) = forbidden_by_false(key).filter(|_| value == &Value::Bool(false)) {
            facts.constraints.push(words.into());
        }
        if !is_known(key) {
            facts.extras.push((key.to_string(), value.clone()));
        }
    }
    if facts.types.iter().any(|t| t == "null") && facts.types.len() > 1 {
        facts.types.retain(|t| t != "null");
        facts.nullable = true;
    }
    if facts.types.is_empty() {
        if objectish {
            facts.types.push("object".into());
        } else if arrayish {
            facts.types.push("array".into());
        }
    }
    // Required names without properties here (`then: {required: [...]}`) are said, or the row
    // would read as an unconstrained `any`; with properties, those they do not declare.
    let undeclared: Vec<&str> = view
        .required()
        .into_iter()
        .filter(|r| declared.is_none_or(|d| !d.contains_key(*r)))
        .collect();
    if !undeclared.is_empty() {
        let which = if declared.is_some() {
            "requires undeclared"
        } else {
            "requires"
        };
        facts
            .constraints
            .push(format!("{which}: {}", undeclared.join(", ")));
    }
    facts
}

/// What one keyword says of the value: its types, values, words, flags and constraints.
fn note_keyword(facts: &mut Facts, key: &str, value: &Value) {
    match (key, value) {
        ("type", Value::String(t)) => facts.types.push(t.clone()),
        ("type", Value::Array(ts)) => facts
            .types
            .extend(ts.iter().filter_map(Value::as_str).map(String::from)),
        ("enum", Value::Array(values)) => facts.enum_values = Some(values.clone()),
        ("const", v) => facts.const_value = Some(v.clone()),
        ("default", v) => facts.default = Some(v.clone()),
        ("examples", Value::Array(items)) => facts.examples = items.clone(),
        ("examples", v) => facts.examples = vec![v.clone()],
        ("title", Value::String(t)) => facts.title = Some(t.clone()),
        ("description", Value::String(d)) => facts.description = Some(d.clone()),
        ("deprecated", Value::Bool(true)) => facts.flags.push("deprecated"),
        ("readOnly", Value::Bool(true)) => facts.flags.push("readOnly"),
        ("writeOnly", Value::Bool(true)) => facts.flags.push("writeOnly"),
        ("uniqueItems", Value::Bool(true)) => facts.constraints.push("uniqueItems".into()),
        (
            "minLength" | "maxLength" | "pattern" | "format" | "minimum" | "maximum"
            | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" | "minItems" | "maxItems"
            | "minContains" | "maxContains" | "minProperties" | "maxProperties" | "contentEncoding"
            | "contentMediaType",
            v,
        ) => facts.constraints.push(format!("{key}: {}", plain(v))),
        ("dependentRequired" | "dependencies", Value::Object(map)) => {
            for (name, needs) in map {
                if let Value::Array(needs) = needs {
                    let needs: Vec<String> = needs.iter().map(plain).collect();
                    facts
                        .constraints
                        .push(format!("if {name} present, requires: {}", needs.join(", ")));
                }
            }
        }
        _ => {}
    }
}

/// What `false` forbids under `key`, in words.
fn forbidden_by_false(key: &str) -> Option<&'static str> {
    Some(match key {
        "additionalProperties" => "no additional properties",
        "unevaluatedProperties" => "no unevaluated properties",
        "items" => "no items",
        "additionalItems" => "no additional items",
        "unevaluatedItems" => "no unevaluated items",
        _ => return None,
    })
}

/// A JSON value as a person reads it in a constraint: strings bare, everything else as JSON.
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
