//! Inputs for `verify` from a tool's input schema: boundary values first (each property at its
//! minimum, maximum, empty, longest, every enum value, left out when optional), then random ones
//! from a seed. The caller holds each against the schema and sends only valid ones, so what
//! this cannot honour exactly (a `pattern`, `not`, a merge of `allOf`) costs a retry, never a
//! wrong verdict. Pure.

use super::rng::Rng;
use crate::schema::refs::{Document, RefTarget};
use serde_json::{Map, Value, json};

/// Nesting generated at most; deeper values are typical ones.
const MAX_DEPTH: usize = 8;
/// The longest string or array generated (a larger `maxLength` is capped).
const MAX_LEN: u64 = 1_000;
/// Enum values tried at the boundary at most.
const MAX_ENUM: usize = 50;
/// Characters random strings are made of: mostly plain, some punctuation, some beyond ASCII.
const PLAIN: &[char] = &[
    'a', 'b', 'c', 'x', 'y', 'z', 'A', 'Q', '0', '1', '7', '9', ' ', '-', '_',
];
const PUNCTUATION: &[char] = &[
    '~', '!', '@', '#', '$', '%', '^', '&', '*', '(', ')', '/', '\\', '"', '\'', '<', '>', '{',
    '}', '.', ',', ';', ':', '?', '|', '`', '=', '+', '\n', '\t',
];
const WIDE: &[char] = &['é', 'ß', 'Ж', '日', '本', '🙂', '\u{200b}', '\u{0301}'];

/// Generates inputs for one input schema.
pub struct Gen<'a> {
    doc: Document<'a>,
}

impl<'a> Gen<'a> {
    pub fn new(schema: &'a Value) -> Gen<'a> {
        Gen {
            doc: Document::new(schema),
        }
    }

    /// The argument objects at the boundary: the typical one, then each property's every
    /// boundary value (the others typical), then each optional property left out.
    /// At most `limit` of them: a schema with 20,000 properties must not cost 80,000 argument
    /// objects when a hundred calls are made (memory follows what is used, not the structure).
    pub fn boundaries(&self, limit: usize) -> Vec<Value> {
        let root = self.doc.root();
        let base = self.typical(root, 0);
        let mut out = vec![base.clone()];
        let schema = self.resolved(root);
        let Some(Value::Object(properties)) = schema.get("properties") else {
            out.extend(self.edges(schema, 0));
            return out;
        };
        for (name, property) in properties {
            for edge in self.edges(property, 1) {
                if out.len() >= limit {
                    return out;
                }
                let mut args = base.clone();
                args[name.as_str()] = edge;
                out.push(args);
            }
        }
        out
    }

    /// Argument objects the schema must refuse, each one mistake away from the typical one: a
    /// required property left out, a property of the wrong type, a number past its bound, a
    /// string outside its enum, a property the schema does not allow. The caller keeps those
    /// the schema does refuse. At most `limit` of them.
    pub fn invalid(&self, limit: usize) -> Vec<Value> {
        let schema = self.resolved(self.doc.root());
        let base = self.typical(schema, 0);
        let mut out = Vec::new();
        let Some(map) = base.as_object() else {
            return vec![json!([]), json!("not an object")];
        };
        for name in required_names(schema) {
            let mut args = map.clone();
            args.shift_remove(name);
            out.push(Value::Object(args));
        }
        for (name, property) in properties(schema) {
            for wrong in self.wrongs(property) {
                if out.len() >= limit {
                    return out;
                }
                let mut args = map.clone();
                args.insert(name.clone(), wrong);
                out.push(Value::Object(args));
            }
        }
        let mut extra = map.clone();
        extra.insert("mcp_inspect_unexpected".into(), json!(true));
        out.push(Value::Object(extra));
        out
    }

    /// Values one property's schema refuses (most of them: the caller checks).
    fn wrongs(&self, schema: &Value) -> Vec<Value> {
        let schema = self.resolved(schema);
        let mut out = match kind(schema) {
            "integer" => vec![json!("7"), json!(1.5)],
            "number" => vec![json!("7")],
            "string" => vec![json!(7), json!(null)],
            "boolean" => vec![json!("true")],
            "array" => vec![json!({})],
            "object" => vec![json!([])],
            _ => vec![],
        };
        let (low, high) = int_bounds(schema);
        out.extend(low.map(|l| json!(l as i64 - 1)));
        out.extend(high.map(|h| json!(h as i64 + 1)));
        if schema.get("enum").is_some() {
            out.push(json!("mcp-inspect-not-a-choice"));
        }
        if let Some(n) = schema
            .get("maxLength")
            .and_then(Value::as_u64)
            .filter(|n| *n < MAX_LEN)
        {
            out.push(json!("a".repeat(n as usize + 1)));
        }
        out
    }

    /// A random argument object.
    pub fn random(&self, rng: &mut Rng) -> Value {
        self.any(self.doc.root(), rng, 0)
    }

    /// `schema` with `$ref`s followed (a chain of at most 16).
    fn resolved(&self, mut schema: &'a Value) -> &'a Value {
        for _ in 0..16 {
            match schema
                .get("$ref")
                .and_then(Value::as_str)
                .map(|r| self.doc.resolve(r))
            {
                Some(RefTarget::Found { schema: target, .. }) => schema = target,
                _ => break,
            }
        }
        schema
    }

    /// A typical value: the default, the first enum value, required properties only.
    fn typical(&self, schema: &Value, depth: usize) -> Value {
        let schema = self.resolved(schema);
        if let Some(v) = schema.get("const").or_else(|| schema.get("default")) {
            return v.clone();
        }
        if let Some(first) = schema
            .get("enum")
            .and_then(Value::as_array)
            .and_then(|e| e.first())
        {
            return first.clone();
        }
        if let Some(branch) = first_branch(schema) {
            return self.typical(branch, depth + 1);
        }
        match kind(schema) {
            "integer" => json!(clamp_int(0, schema)),
            "number" => json!(clamp_int(0, schema)),
            "boolean" => json!(false),
            "null" => Value::Null,
            "string" => json!("a".repeat(min_len(schema, "minLength") as usize)),
            "array" if depth < MAX_DEPTH => {
                let item = schema.get("items").unwrap_or(&Value::Null);
                let n = min_len(schema, "minItems");
                Value::Array((0..n).map(|_| self.typical(item, depth + 1)).collect())
            }
            "object" if depth < MAX_DEPTH => {
                let mut map = Map::new();
                for (name, property) in required_properties(schema) {
                    map.insert(name, self.typical(property, depth + 1));
                }
                Value::Object(map)
            }
            "array" => json!([]),
            "object" => json!({}),
            _ => json!("a"),
        }
    }

    /// The boundary values of one schema.
    fn edges(&self, schema: &Value, depth: usize) -> Vec<Value> {
        let schema = self.resolved(schema);
        if let Some(values) = schema.get("enum").and_then(Value::as_array) {
            return values.iter().take(MAX_ENUM).cloned().collect();
        }
        if let Some(c) = schema.get("const") {
            return vec![c.clone()];
        }
        let mut out = Vec::new();
        for key in ["anyOf", "oneOf"] {
            for branch in schema
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                out.push(self.typical(branch, depth + 1));
            }
        }
        match kind(schema) {
            "integer" => out.extend(int_edges(schema).into_iter().map(Value::from)),
            "number" => {
                out.extend(int_edges(schema).into_iter().map(Value::from));
                out.extend([json!(0.5), json!(-1.5)]);
            }
            "boolean" => out.extend([json!(true), json!(false)]),
            "string" => {
                let (low, high) = (min_len(schema, "minLength"), max_len(schema, "maxLength"));
                out.extend([
                    json!("a".repeat(low as usize)),
                    json!("a".repeat(high as usize)),
                ]);
                out.extend(format_examples(schema));
            }
            "array" => {
                let item = schema.get("items").unwrap_or(&Value::Null);
                let high = max_len(schema, "maxItems").min(100);
                let one = self.typical(item, depth + 1);
                out.extend([json!([]), Value::Array(vec![one.clone(); high as usize])]);
            }
            _ => {}
        }
        out
    }

    /// A random value of `schema`.
    fn any(&self, schema: &Value, rng: &mut Rng, depth: usize) -> Value {
        let schema = self.resolved(schema);
        if depth >= MAX_DEPTH {
            return self.typical(schema, depth);
        }
        if let Some(c) = schema.get("const") {
            return c.clone();
        }
        if let Some(values) = schema.get("enum").and_then(Value::as_array) {
            return rng.pick(values).cloned().unwrap_or(Value::Null);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(branches) = schema.get(key).and_then(Value::as_array)
                && let Some(branch) = rng.pick(branches)
            {
                return self.any(branch, rng, depth + 1);
            }
        }
        if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
            let mut merged = Map::new();
            for part in parts {
                if let Value::Object(o) = self.any(part, rng, depth + 1) {
                    merged.extend(o);
                }
            }
            return Value::Object(merged);
        }
        match kind(schema) {
            "integer" => json!(random_int(schema, rng)),
            "number" if rng.chance(50) => json!(random_int(schema, rng)),
            "number" => random_float(schema, rng),
            "boolean" => json!(rng.chance(50)),
            "null" => Value::Null,
            "string" => json!(random_string(schema, rng)),
            "array" => {
                let item = schema.get("items").unwrap_or(&Value::Null);
                let low = min_len(schema, "minItems");
                let high = max_len(schema, "maxItems").min(low + 5);
                let n = rng.between(low as i128, high as i128);
                Value::Array((0..n).map(|_| self.any(item, rng, depth + 1)).collect())
            }
            "object" => {
                let mut map = Map::new();
                let required = required_names(schema);
                for (name, property) in properties(schema) {
                    if required.contains(&name.as_str()) || rng.chance(50) {
                        map.insert(name.clone(), self.any(property, rng, depth + 1));
                    }
                }
                Value::Object(map)
            }
            _ => match rng.below(4) {
                0 => Value::Null,
                1 => json!(rng.chance(50)),
                2 => json!(rng.between(-100, 100) as i64),
                _ => json!(random_string(schema, rng)),
            },
        }
    }
}

/// The schema's type: `type` (the first that is not `null` of a list), or what its keywords imply.
fn kind(schema: &Value) -> &str {
    match schema.get("type") {
        Some(Value::String(t)) => t,
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null"),
        _ if schema.get("properties").is_some() => "object",
        _ if schema.get("items").is_some() => "array",
        _ => "",
    }
}

fn first_branch(schema: &Value) -> Option<&Value> {
    ["anyOf", "oneOf", "allOf"].iter().find_map(|k| {
        schema
            .get(*k)
            .and_then(Value::as_array)
            .and_then(|b| b.first())
    })
}

fn properties(schema: &Value) -> impl Iterator<Item = (&String, &Value)> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
}

fn required_names(schema: &Value) -> Vec<&str> {
    let names = schema.get("required").and_then(Value::as_array);
    names
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

fn required_properties(schema: &Value) -> Vec<(String, &Value)> {
    let required = required_names(schema);
    properties(schema)
        .filter(|(name, _)| required.contains(&name.as_str()))
        .map(|(name, property)| (name.clone(), property))
        .collect()
}

fn min_len(schema: &Value, key: &str) -> u64 {
    schema
        .get(key)
        .and_then(Value::as_u64)
        .unwrap_or(0)
        .min(MAX_LEN)
}

fn max_len(schema: &Value, key: &str) -> u64 {
    let low = min_len(schema, key.replace("max", "min").as_str());
    schema
        .get(key)
        .and_then(Value::as_u64)
        .unwrap_or(low + 40)
        .clamp(low, MAX_LEN)
}

/// The inclusive integer bounds of a schema (exclusive ones moved in by one).
fn int_bounds(schema: &Value) -> (Option<i128>, Option<i128>) {
    let number = |key: &str| schema.get(key).and_then(Value::as_f64);
    let low = match (number("minimum"), number("exclusiveMinimum")) {
        (Some(m), Some(x)) => Some((m.ceil() as i128).max(x.floor() as i128 + 1)),
        (Some(m), None) => Some(m.ceil() as i128),
        (None, Some(x)) => Some(x.floor() as i128 + 1),
        (None, None) => None,
    };
    let high = match (number("maximum"), number("exclusiveMaximum")) {
        (Some(m), Some(x)) => Some((m.floor() as i128).min(x.ceil() as i128 - 1)),
        (Some(m), None) => Some(m.floor() as i128),
        (None, Some(x)) => Some(x.ceil() as i128 - 1),
        (None, None) => None,
    };
    (low, high)
}

fn clamp_int(n: i128, schema: &Value) -> i64 {
    let (low, high) = int_bounds(schema);
    let n = low.map_or(n, |l| n.max(l));
    let n = high.map_or(n, |h| n.min(h));
    n.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

/// An integer's boundary values: its bounds, zero, ±1, and 32-bit extremes where unbounded.
fn int_edges(schema: &Value) -> Vec<i64> {
    let (low, high) = int_bounds(schema);
    let mut out = vec![];
    out.extend(low.map(|l| clamp_int(l, schema)));
    out.extend(high.map(|h| clamp_int(h, schema)));
    for n in [0, 1, -1, i32::MAX as i128, i32::MIN as i128] {
        let inside = low.is_none_or(|l| n >= l) && high.is_none_or(|h| n <= h);
        if inside && !out.contains(&(n as i64)) {
            out.push(n as i64);
        }
    }
    out
}

fn random_int(schema: &Value, rng: &mut Rng) -> i64 {
    let (low, high) = int_bounds(schema);
    let n = match (low, high) {
        (Some(l), Some(h)) => rng.between(l, h),
        _ if rng.chance(70) => rng.between(-100, 100),
        _ => rng.between(i32::MIN as i128, i32::MAX as i128),
    };
    clamp_int(n, schema)
}

fn random_float(schema: &Value, rng: &mut Rng) -> Value {
    let n = random_int(schema, rng) as f64 + rng.below(1000) as f64 / 1000.0;
    let n = match schema.get("maximum").and_then(Value::as_f64) {
        Some(max) if n > max => max,
        _ => n,
    };
    serde_json::Number::from_f64(n).map_or(json!(0), Value::Number)
}

fn random_string(schema: &Value, rng: &mut Rng) -> String {
    if let Some(example) = rng.pick(&format_examples(schema)) {
        return example.as_str().unwrap_or_default().to_string();
    }
    let low = min_len(schema, "minLength");
    let high = max_len(schema, "maxLength").min(low + 24);
    let n = rng.between(low as i128, high as i128);
    (0..n)
        .map(|_| {
            let set = match rng.below(10) {
                0..7 => PLAIN,
                7..9 => PUNCTUATION,
                _ => WIDE,
            };
            rng.pick(set).copied().unwrap_or('a')
        })
        .collect()
}

/// Values of a string `format` (none for a format without examples here).
fn format_examples(schema: &Value) -> Vec<Value> {
    let examples: &[&str] = match schema.get("format").and_then(Value::as_str) {
        Some("date-time") => &["2024-02-29T23:59:59Z", "1970-01-01T00:00:00+00:00"],
        Some("date") => &["2024-02-29", "1970-01-01"],
        Some("time") => &["23:59:59Z", "00:00:00+01:00"],
        Some("email") => &["a@example.com", "first.last+tag@example.org"],
        Some("uri") | Some("url") => &["https://example.com/a?b=c#d", "urn:isbn:0451450523"],
        Some("uuid") => &[
            "00000000-0000-0000-0000-000000000000",
            "123e4567-e89b-12d3-a456-426614174000",
        ],
        Some("ipv4") => &["127.0.0.1", "255.255.255.255"],
        Some("ipv6") => &["::1", "2001:db8::8a2e:370:7334"],
        Some("hostname") => &["example.com", "a-b.c"],
        _ => &[],
    };
    examples.iter().map(|e| json!(e)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries_hold_each_bound_and_every_choice() {
        let schema = json!({
            "type": "object",
            "properties": {
                "n": {"type": "integer", "minimum": 1, "maximum": 10000},
                "mode": {"$ref": "#/$defs/mode"},
                "name": {"type": "string", "minLength": 2, "maxLength": 5}
            },
            "required": ["n"],
            "$defs": {"mode": {"enum": ["fast", "slow"]}}
        });
        let all = Gen::new(&schema).boundaries(usize::MAX);
        assert_eq!(all[0], json!({"n": 1}));
        for expected in [
            json!({"n": 10000}),
            json!({"n": 1, "mode": "slow"}),
            json!({"n": 1, "name": "aaaaa"}),
            json!({"n": 1, "name": "aa"}),
        ] {
            assert!(all.contains(&expected), "{expected} not in {all:?}");
        }
    }

    #[test]
    fn a_wide_schema_costs_the_inputs_used_not_one_per_property() {
        let properties: serde_json::Map<String, Value> = (0..20_000)
            .map(|i| {
                (
                    format!("p{i}"),
                    json!({"type": "integer", "minimum": 0, "maximum": 9}),
                )
            })
            .collect();
        let schema = json!({"type": "object", "properties": properties});
        let generator = Gen::new(&schema);
        assert_eq!(generator.boundaries(40).len(), 40);
        assert_eq!(generator.invalid(25).len(), 25);
    }

    #[test]
    fn invalid_inputs_are_one_mistake_away_and_refused() {
        let schema = json!({
            "type": "object",
            "properties": {
                "n": {"type": "integer", "minimum": 1, "maximum": 9},
                "mode": {"enum": ["a", "b"]},
                "name": {"type": "string", "maxLength": 3}
            },
            "required": ["n"],
            "additionalProperties": false
        });
        let all = Gen::new(&schema).invalid(usize::MAX);
        for expected in [
            json!({}),
            json!({"n": "7"}),
            json!({"n": 0}),
            json!({"n": 10}),
            json!({"n": 1, "mode": "mcp-inspect-not-a-choice"}),
            json!({"n": 1, "name": "aaaa"}),
            json!({"n": 1, "mcp_inspect_unexpected": true}),
        ] {
            assert!(all.contains(&expected), "{expected} not in {all:?}");
        }
        let compiled = crate::schema::Compiled::new(&schema);
        let refused = all
            .iter()
            .filter(|v| compiled.check(v).is_ok_and(|c| !c.violations.is_empty()))
            .count();
        assert!(refused >= 7, "{refused} of {}", all.len());
    }

    #[test]
    fn random_inputs_stay_in_bounds_and_repeat_with_the_seed() {
        let schema = json!({
            "type": "object",
            "properties": {
                "n": {"type": "integer", "exclusiveMinimum": 0, "maximum": 9},
                "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}, "maxItems": 2},
                "when": {"type": "string", "format": "date"}
            },
            "required": ["n", "tags"]
        });
        let generator = Gen::new(&schema);
        let mut rng = Rng::new(42);
        let values: Vec<Value> = (0..200).map(|_| generator.random(&mut rng)).collect();
        let again: Vec<Value> = {
            let mut rng = Rng::new(42);
            (0..200).map(|_| generator.random(&mut rng)).collect()
        };
        assert_eq!(values, again);
        let compiled = crate::schema::Compiled::new(&schema);
        for v in &values {
            let checked = compiled.check(v).expect("checkable");
            assert!(checked.violations.is_empty(), "{v}");
        }
        let some_punctuation = values
            .iter()
            .flat_map(|v| v["tags"].as_array().cloned().unwrap_or_default())
            .any(|t| {
                t.as_str()
                    .is_some_and(|s| s.chars().any(|c| PUNCTUATION.contains(&c)))
            });
        assert!(some_punctuation);
    }
}
