//! The one generator of values from a schema, bounded by construction: `verify`'s inputs
//! (boundary values first: each property at its minimum, maximum, empty, longest, every enum
//! value, left out when optional; then random ones from a seed) and the editors' skeleton (the
//! typical value as placeholders, [`skeleton`]). `verify` holds each input against the schema
//! and sends only valid ones, so what this cannot honour exactly (a `pattern`, `not`, a merge
//! of `allOf`) costs a retry, never a wrong verdict. Pure.

pub mod pattern;
pub mod rng;

use crate::schema::refs::{Document, RefTarget};
use rng::Rng;
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering::Relaxed};

/// Nesting generated at most; deeper values are typical ones.
const MAX_DEPTH: usize = 8;
/// Nesting reached at all, typical values and `anyOf`/`allOf` branches included: past it a
/// schema recurses without end (`{"anyOf": [{"$ref": "#"}]}`), and the value is refused.
const MAX_NESTING: usize = 32;
/// What one generated value may cost at most, in values (a string counts one per 64 bytes):
/// a 150-byte schema asking for nested arrays of `minItems: 1000`, or 50 required properties
/// that are the schema again, runs out here instead of reaching gigabytes.
const VALUE_BUDGET: usize = 100_000;
/// The longest string or array generated (a larger `maxLength` is capped).
const MAX_LEN: u64 = 1_000;
/// Enum values tried at the boundary at most.
const MAX_ENUM: usize = 50;
/// Keys added to reach `minProperties` at most (the budget bounds them too).
const MAX_EXTRA_KEYS: usize = 1_000;
/// Characters random strings are made of: mostly plain, some punctuation, some beyond ASCII.
const PLAIN: &[char] = &[
    'a', 'b', 'c', 'x', 'y', 'z', 'A', 'Q', '0', '1', '7', '9', ' ', '-', '_',
];
const PUNCTUATION: &[char] = &[
    '~', '!', '@', '#', '$', '%', '^', '&', '*', '(', ')', '/', '\\', '"', '\'', '<', '>', '{',
    '}', '.', ',', ';', ':', '?', '|', '`', '=', '+', '\n', '\t',
];
const WIDE: &[char] = &['é', 'ß', 'Ж', '日', '本', '🙂', '\u{200b}', '\u{0301}'];

/// Why a value could not be generated: the schema asks for more than a value may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spent {
    /// It recurses past [`MAX_NESTING`] without reaching a value.
    TooDeep = 1,
    /// Its smallest value costs more than [`VALUE_BUDGET`].
    TooLarge = 2,
}

impl Spent {
    fn of(code: u8) -> Option<Spent> {
        match code {
            1 => Some(Spent::TooDeep),
            2 => Some(Spent::TooLarge),
            _ => None,
        }
    }

    /// The words a report uses.
    pub fn words(self) -> String {
        match self {
            Spent::TooDeep => format!(
                "the inputSchema recurses past {MAX_NESTING} levels without reaching a value (too deep to generate)"
            ),
            Spent::TooLarge => format!(
                "an input of the inputSchema costs more than {VALUE_BUDGET} values (too large to generate)"
            ),
        }
    }
}

/// Values a skeleton holds at most: past them the rest is left empty (a real form is far
/// smaller; K required properties that each `$ref` the root would otherwise make K^depth).
const SKELETON_VALUES: usize = 2_000;

/// A starting argument object for an editor, from an input schema: required properties first,
/// then optional ones with a default; const, default, the first enum value or example; null
/// for a value that may be null; empty strings and arrays to type over. The generator's
/// typical value as a placeholder, within [`SKELETON_VALUES`]: what does not fit is left empty,
/// never refused.
pub fn skeleton(schema: &Value) -> Value {
    let mut generator = Gen::new(schema);
    generator.placeholders = true;
    generator.left.store(SKELETON_VALUES, Relaxed);
    let value = generator.typical(generator.root(), 0);
    if value.is_object() { value } else { json!({}) }
}

/// Generates inputs for one input schema, each value within [`VALUE_BUDGET`] and
/// [`MAX_NESTING`] by construction: what runs out is refused (and remembered, see
/// [`Gen::spent`]), never finished. Inputs come one at a time, as they are used: a schema
/// with 30,000 properties costs one input at a time, not one per property and call.
pub struct Gen<'a> {
    doc: Document<'a>,
    /// What the value being generated may still cost.
    left: AtomicUsize,
    /// Why the value being generated is refused, once it is ([`Spent::code`]; 0: not).
    cut: AtomicU8,
    /// Why the first refused value was (the same code).
    spent: AtomicU8,
    /// Whether the smallest value fits the budget (when it does not, no value does).
    fits: OnceLock<bool>,
    /// Set once a random value ran out: the next ones are made small (fewest items, few
    /// optional properties), so a schema whose random values outgrow the budget costs one
    /// refusal, not one per try.
    small: AtomicBool,
    /// The root with its `allOf` folded in (see [`Gen::folded`]), when it has one.
    folded_root: Option<Value>,
    /// Typical values as an editor's skeleton wants them (see [`skeleton`]).
    placeholders: bool,
}

impl<'a> Gen<'a> {
    pub fn new(schema: &'a Value) -> Gen<'a> {
        let mut made = Gen {
            doc: Document::new(schema),
            left: AtomicUsize::new(0),
            cut: AtomicU8::new(0),
            spent: AtomicU8::new(0),
            fits: OnceLock::new(),
            small: AtomicBool::new(false),
            folded_root: None,
            placeholders: false,
        };
        made.folded_root = made.folded(made.resolved(schema), 0);
        made
    }

    /// The root schema as generation reads it: `$ref`s followed, `allOf` folded in.
    fn root(&self) -> &Value {
        self.folded_root
            .as_ref()
            .unwrap_or_else(|| self.resolved(self.doc.root()))
    }

    /// `schema` with its `allOf` parts folded into one schema (properties joined, a property
    /// in two parts held to both, `required` the union, other keywords the first said), so an
    /// input is made for all of them at once (`allOf: [{required: [...]}]` is how many
    /// generators write "these are required"). `None` when there is no `allOf`, or the parts
    /// nest or refer back deeper than [`MAX_NESTING`] (then generation meets the cycle itself
    /// and refuses it as too deep).
    fn folded(&self, schema: &Value, depth: usize) -> Option<Value> {
        let parts = schema.get("allOf")?.as_array()?;
        if depth > MAX_NESTING {
            return None;
        }
        let mut out = schema.as_object()?.clone();
        out.remove("allOf");
        for part in parts {
            let part = self.resolved(part);
            let part = match self.folded(part, depth + 1) {
                Some(folded) => folded,
                None if part.get("allOf").is_some() => return None,
                None => part.clone(),
            };
            let Value::Object(part) = part else {
                continue;
            };
            for (key, value) in part {
                match (key.as_str(), out.get_mut(&key)) {
                    ("$ref" | "$defs" | "definitions", _) => {}
                    ("properties", Some(Value::Object(mine))) => {
                        for (name, property) in value.as_object().into_iter().flatten() {
                            let joined = match mine.remove(name) {
                                Some(before) => json!({"allOf": [before, property]}),
                                None => property.clone(),
                            };
                            mine.insert(name.clone(), joined);
                        }
                    }
                    ("required", Some(Value::Array(mine))) => {
                        for name in value.as_array().into_iter().flatten() {
                            if !mine.contains(name) {
                                mine.push(name.clone());
                            }
                        }
                    }
                    (_, Some(_)) => {}
                    (_, None) => {
                        out.insert(key, value);
                    }
                }
            }
        }
        Some(Value::Object(out))
    }

    /// `branch` of `schema`'s `key` (`anyOf`/`oneOf`) made together with the keywords beside
    /// it: an instance must hold both, and a branch is often a constraint alone
    /// (`anyOf: [{required: ["phone"]}, {required: ["email"]}]` beside the properties). `None`
    /// when only annotations are beside it (the branch is the whole schema).
    fn with_siblings(
        &self,
        schema: &Value,
        key: &str,
        branch: &Value,
        depth: usize,
    ) -> Option<Value> {
        const ANNOTATIONS: &[&str] = &["title", "description", "$comment", "examples", "$schema"];
        let beside: Map<String, Value> = (schema.as_object()?.iter())
            .filter(|(k, _)| *k != key && !ANNOTATIONS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if beside.keys().all(|k| k.starts_with('$')) {
            return None;
        }
        self.folded(&json!({"allOf": [beside, branch]}), depth)
    }

    /// Why a value this generator was asked for could not be made, if one could not.
    pub fn spent(&self) -> Option<Spent> {
        Spent::of(self.spent.load(Relaxed))
    }

    /// Whether the value being generated was refused.
    fn is_cut(&self) -> bool {
        self.cut.load(Relaxed) != 0
    }

    fn cut_for(&self, why: Spent) {
        self.cut.store(why as u8, Relaxed);
    }

    /// One value made by `make` within a fresh budget; `None` when it ran out.
    fn fresh<T>(&self, make: impl FnOnce(&Self) -> T) -> Option<T> {
        self.left.store(VALUE_BUDGET, Relaxed);
        self.cut.store(0, Relaxed);
        let value = make(self);
        match self.cut.load(Relaxed) {
            0 => Some(value),
            why => {
                let _ = self.spent.compare_exchange(0, why, Relaxed, Relaxed);
                None
            }
        }
    }

    /// Takes `cost` from the budget; false (the value refused) when it is not there or
    /// `depth` is past [`MAX_NESTING`].
    fn afford(&self, cost: usize, depth: usize) -> bool {
        if self.is_cut() {
            return false;
        }
        if depth > MAX_NESTING {
            self.cut_for(Spent::TooDeep);
            return false;
        }
        match self.left.load(Relaxed).checked_sub(cost) {
            Some(left) => {
                self.left.store(left, Relaxed);
                true
            }
            None => {
                self.cut_for(Spent::TooLarge);
                false
            }
        }
    }

    /// The argument objects at the boundary, made as they are taken: the typical one, then
    /// each property's every boundary value (the others typical).
    pub fn boundaries(&self) -> impl Iterator<Item = Value> + '_ {
        let root = self.root();
        let base = self.fresh(|g| g.typical(root, 0)).map(Arc::new);
        let top = base.as_deref().cloned();
        let root_edges = match root.get("properties") {
            Some(Value::Object(_)) => Vec::new(),
            _ => self.fresh(|g| g.edges(root, 0)).unwrap_or_default(),
        };
        let per_property = base.into_iter().flat_map(move |base| {
            properties(root).flat_map(move |(name, property)| {
                let base = Arc::clone(&base);
                let edges = self.fresh(|g| g.edges(property, 1)).unwrap_or_default();
                edges.into_iter().filter_map(move |edge| {
                    let mut args = (*base).clone();
                    args.as_object_mut()?.insert(name.clone(), edge);
                    Some(args)
                })
            })
        });
        top.into_iter().chain(root_edges).chain(per_property)
    }

    /// Argument objects the schema must refuse, each one mistake away from the typical one: a
    /// required property left out, a property of the wrong type, a number past its bound, a
    /// string outside its enum, a property the schema does not allow. The caller keeps those
    /// the schema does refuse. Made as they are taken.
    pub fn invalid(&self) -> Box<dyn Iterator<Item = Value> + Send + '_> {
        let schema = self.root();
        let Some(base) = self.fresh(|g| g.typical(schema, 0)) else {
            return Box::new(std::iter::empty());
        };
        let Value::Object(map) = base else {
            return Box::new([json!([]), json!("not an object")].into_iter());
        };
        let map = Arc::new(map);
        let missing = {
            let map = Arc::clone(&map);
            required_names(schema).into_iter().map(move |name| {
                let mut args = (*map).clone();
                args.shift_remove(name);
                Value::Object(args)
            })
        };
        let wrong = {
            let map = Arc::clone(&map);
            properties(schema).flat_map(move |(name, property)| {
                let map = Arc::clone(&map);
                self.wrongs(property).into_iter().map(move |wrong| {
                    let mut args = (*map).clone();
                    args.insert(name.clone(), wrong);
                    Value::Object(args)
                })
            })
        };
        let extra = std::iter::once_with(move || {
            let mut extra = (*map).clone();
            extra.insert("mcp_inspect_unexpected".into(), json!(true));
            Value::Object(extra)
        });
        Box::new(missing.chain(wrong).chain(extra))
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

    /// A random argument object; `None` when it ran out of budget (see [`Gen::spent`]).
    pub fn random(&self, rng: &mut Rng) -> Option<Value> {
        let fits = self.fits.get_or_init(|| {
            let root = self.root();
            self.fresh(|g| g.typical(root, 0)).is_some()
        });
        if !fits {
            return None;
        }
        let made = self.fresh(|g| g.any(g.root(), rng, 0));
        if made.is_none() {
            self.small.store(true, Relaxed);
        }
        made
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
        if !self.afford(1, depth) {
            return Value::Null;
        }
        if let Some(folded) = self.folded(schema, depth) {
            return self.typical(&folded, depth + 1);
        }
        if let Some(part) = first_part(schema) {
            // Parts that refer back to themselves: followed until they are too deep.
            return self.typical(part, depth + 1);
        }
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
        if self.placeholders
            && let Some(placeholder) = placeholder(schema)
        {
            return placeholder;
        }
        if let Some((key, branch)) = first_branch(schema) {
            return match self.with_siblings(schema, key, branch, depth) {
                Some(joined) => self.typical(&joined, depth + 1),
                None => self.typical(branch, depth + 1),
            };
        }
        match kind(schema) {
            "integer" => json!(clamp_int(0, schema)),
            "number" => json!(clamp_int(0, schema)),
            "boolean" => json!(false),
            "null" => Value::Null,
            "string" if self.placeholders => json!(""),
            "string" => self.string(typical_string(schema)),
            "array" if self.placeholders => json!([]),
            "array" if depth < MAX_DEPTH => {
                let n = min_len(schema, "minItems");
                self.repeated(n, |g, i| g.typical(item_schema(schema, i), depth + 1))
            }
            "object" if depth < MAX_DEPTH => {
                let mut map = Map::new();
                for (name, property) in required_properties(schema) {
                    if self.is_cut() {
                        break;
                    }
                    map.insert(name, self.typical(property, depth + 1));
                }
                self.completed(schema, &mut map, &mut Rng::new(0), |g, s| {
                    g.typical(s, depth + 1)
                });
                if self.placeholders {
                    // Optional properties that carry a default: what the server would assume.
                    for (name, property) in properties(schema) {
                        if let Some(d) = property.get("default")
                            && !map.contains_key(name)
                        {
                            map.insert(name.clone(), d.clone());
                        }
                    }
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
        if !self.afford(1, depth) {
            return Vec::new();
        }
        if let Some(folded) = self.folded(schema, depth) {
            return self.edges(&folded, depth + 1);
        }
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
                out.push(match self.with_siblings(schema, key, branch, depth) {
                    Some(joined) => self.typical(&joined, depth + 1),
                    None => self.typical(branch, depth + 1),
                });
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
                match schema.get("pattern").and_then(Value::as_str) {
                    // Samples of the pattern (lengths of a's would not match it).
                    Some(pattern) => {
                        let mut rng = Rng::new(low ^ high);
                        let made = (0..3).filter_map(|_| pattern::sample(pattern, &mut rng));
                        out.extend(made.map(|s| self.string(s)));
                    }
                    None => out.extend([
                        self.string("a".repeat(low as usize)),
                        self.string("a".repeat(high as usize)),
                    ]),
                }
                out.extend(format_examples(schema));
            }
            "array" => {
                let item = schema.get("items").unwrap_or(&Value::Null);
                let high = max_len(schema, "maxItems").min(100);
                let before = self.left.load(Relaxed);
                let one = self.typical(item, depth + 1);
                // Each copy costs what the first did.
                let each = before.saturating_sub(self.left.load(Relaxed)).max(1);
                if self.afford(each.saturating_mul(high as usize), depth) {
                    out.extend([json!([]), Value::Array(vec![one; high as usize])]);
                }
            }
            _ => {}
        }
        out
    }

    /// A random value of `schema`.
    fn any(&self, schema: &Value, rng: &mut Rng, depth: usize) -> Value {
        let schema = self.resolved(schema);
        if !self.afford(1, depth) {
            return Value::Null;
        }
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
                return match self.with_siblings(schema, key, branch, depth) {
                    Some(joined) => self.any(&joined, rng, depth + 1),
                    None => self.any(branch, rng, depth + 1),
                };
            }
        }
        if let Some(folded) = self.folded(schema, depth) {
            return self.any(&folded, rng, depth + 1);
        }
        if let Some(part) = first_part(schema) {
            return self.any(part, rng, depth + 1);
        }
        match kind(schema) {
            "integer" => json!(random_int(schema, rng)),
            "number" if rng.chance(50) => json!(random_int(schema, rng)),
            "number" => random_float(schema, rng),
            "boolean" => json!(rng.chance(50)),
            "null" => Value::Null,
            "string" => self.string(random_string(schema, rng)),
            "array" => {
                let low = min_len(schema, "minItems");
                let high = match self.small.load(Relaxed) {
                    true => low,
                    false => max_len(schema, "maxItems").min(low + 5),
                };
                let n = rng.between(low as i128, high as i128);
                let mut own = Rng::new(rng.next_u64());
                self.repeated(n as u64, |g, i| {
                    g.any(item_schema(schema, i), &mut own, depth + 1)
                })
            }
            "object" => {
                let mut map = Map::new();
                let required = required_names(schema);
                for (name, property) in properties(schema) {
                    if self.is_cut() {
                        break;
                    }
                    let chance = if self.small.load(Relaxed) { 10 } else { 50 };
                    if required.contains(&name.as_str()) || rng.chance(chance) {
                        map.insert(name.clone(), self.any(property, rng, depth + 1));
                    }
                }
                let mut own = Rng::new(rng.next_u64());
                self.completed(schema, &mut map, rng, |g, s| g.any(s, &mut own, depth + 1));
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

impl Gen<'_> {
    /// A string value, its bytes taken from the budget.
    fn string(&self, text: String) -> Value {
        match self.afford(text.len() / 64, 0) {
            true => Value::String(text),
            false => Value::Null,
        }
    }

    /// An array of `n` values made by `make` (given each one's index), stopped once the budget
    /// is gone.
    fn repeated(&self, n: u64, mut make: impl FnMut(&Self, u64) -> Value) -> Value {
        let mut items = Vec::new();
        for i in 0..n {
            if self.is_cut() {
                break;
            }
            items.push(make(self, i));
        }
        Value::Array(items)
    }

    /// `map` given what its schema asks beyond `required`: each property a present one names in
    /// `dependentRequired`, then keys until `minProperties` (optional properties first, then
    /// names `propertyNames` allows with `additionalProperties`' values), each value by `make`.
    fn completed(
        &self,
        schema: &Value,
        map: &mut Map<String, Value>,
        rng: &mut Rng,
        mut make: impl FnMut(&Self, &Value) -> Value,
    ) {
        let any = Value::Bool(true);
        let property = |name: &str| {
            properties(schema)
                .find(|(n, _)| *n == name)
                .map_or(&any, |(_, s)| s)
        };
        if let Some(Value::Object(dependents)) = schema.get("dependentRequired") {
            for (key, names) in dependents {
                if !map.contains_key(key) {
                    continue;
                }
                for name in names
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    if !map.contains_key(name) && !self.is_cut() {
                        let value = make(self, property(name));
                        map.insert(name.to_string(), value);
                    }
                }
            }
        }
        let least = (min_len(schema, "minProperties") as usize).min(MAX_EXTRA_KEYS);
        let optional: Vec<(&String, &Value)> = properties(schema)
            .filter(|(n, _)| !map.contains_key(*n))
            .collect();
        for (name, property) in optional {
            if map.len() >= least || self.is_cut() {
                return;
            }
            let value = make(self, property);
            map.insert(name.clone(), value);
        }
        let extra = match schema.get("additionalProperties") {
            Some(Value::Bool(false)) => return,
            Some(s) => s,
            None => &any,
        };
        let names = schema.get("propertyNames");
        let mut tries = 0;
        while map.len() < least && !self.is_cut() && tries < least * 4 + 8 {
            tries += 1;
            let name = names
                .and_then(|n| n.get("pattern"))
                .and_then(Value::as_str)
                .and_then(|p| pattern::sample(p, rng))
                .unwrap_or_else(|| format!("key{}", map.len() + tries));
            if !map.contains_key(&name) && self.afford(1, 0) {
                let value = make(self, extra);
                map.insert(name, value);
            }
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

/// The schema of an array's `i`th item: its `prefixItems` entry, else `items`.
fn item_schema(schema: &Value, i: u64) -> &Value {
    let prefix = schema.get("prefixItems").and_then(Value::as_array);
    usize::try_from(i)
        .ok()
        .and_then(|i| prefix.and_then(|p| p.get(i)))
        .or_else(|| schema.get("items"))
        .unwrap_or(&Value::Null)
}

/// What an editor's skeleton shows for `schema` before its type: the first example, or null
/// for a value that may be null (`anyOf` with a null branch, a `type` list naming null).
fn placeholder(schema: &Value) -> Option<Value> {
    if let Some(first) = schema
        .get("examples")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return Some(first.clone());
    }
    let null = Value::from("null");
    let nullable = ["anyOf", "oneOf"].iter().any(|k| {
        (schema.get(*k).and_then(Value::as_array))
            .is_some_and(|b| b.iter().any(|b| b.get("type") == Some(&null)))
    }) || (schema.get("type").and_then(Value::as_array))
        .is_some_and(|t| t.contains(&null));
    nullable.then_some(Value::Null)
}

/// The first `allOf` part of a schema whose parts could not be folded.
fn first_part(schema: &Value) -> Option<&Value> {
    schema.get("allOf")?.as_array()?.first()
}

/// The first `anyOf` or `oneOf` branch, with the keyword it is under.
fn first_branch(schema: &Value) -> Option<(&'static str, &Value)> {
    ["anyOf", "oneOf"].into_iter().find_map(|k| {
        schema
            .get(k)
            .and_then(Value::as_array)
            .and_then(|b| b.first())
            .map(|b| (k, b))
    })
}

fn properties(schema: &Value) -> impl Iterator<Item = (&String, &Value)> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
}

/// A set: a server's schema may list 100,000 required names (a list made this quadratic).
fn required_names(schema: &Value) -> std::collections::HashSet<&str> {
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

/// The first string a schema would take: a format's example, a string its pattern matches, or
/// `minLength` a's.
fn typical_string(schema: &Value) -> String {
    if let Some(Value::String(example)) = format_examples(schema).first() {
        return example.clone();
    }
    schema
        .get("pattern")
        .and_then(Value::as_str)
        .and_then(|p| pattern::sample(p, &mut Rng::new(0)))
        .unwrap_or_else(|| "a".repeat(min_len(schema, "minLength") as usize))
}

fn random_string(schema: &Value, rng: &mut Rng) -> String {
    if let Some(example) = rng.pick(&format_examples(schema)) {
        return example.as_str().unwrap_or_default().to_string();
    }
    if let Some(made) = schema
        .get("pattern")
        .and_then(Value::as_str)
        .and_then(|p| pattern::sample(p, rng))
    {
        return made;
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
        Some("idn-hostname") => &["例え.jp", "bücher.example"],
        Some("idn-email") => &["用户@例子.广告", "a@bücher.example"],
        Some("iri") => &["https://例え.jp/パス?q=1", "urn:isbn:0451450523"],
        Some("iri-reference") => &["/パス/a?b", "#frag"],
        Some("uri-reference") => &["/a/b?c=d", "#frag"],
        Some("uri-template") => &["https://example.com/{id}", "/users/{user}/items{?page}"],
        Some("duration") => &["P3DT4H5M", "PT0S"],
        Some("json-pointer") => &["/a/0", ""],
        Some("relative-json-pointer") => &["0", "1/a"],
        Some("regex") => &["^[a-z]+$", "a|b"],
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
        let all: Vec<Value> = Gen::new(&schema).boundaries().collect();
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
        // Taken one at a time: forty of them cost forty, not one per property.
        assert_eq!(generator.boundaries().take(40).count(), 40);
        assert_eq!(generator.invalid().take(25).count(), 25);
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
        let all: Vec<Value> = Gen::new(&schema).invalid().collect();
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
        let values: Vec<Value> = (0..200)
            .filter_map(|_| generator.random(&mut rng))
            .collect();
        let again: Vec<Value> = {
            let mut rng = Rng::new(42);
            (0..200)
                .filter_map(|_| generator.random(&mut rng))
                .collect()
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

    /// The keywords real schemas use get valid inputs for at least 90 of 100 planned calls, as
    /// `verify` draws them (boundaries first, then up to 30 random tries per call).
    #[test]
    fn real_schema_keywords_get_their_planned_calls() {
        let object = |properties: Value, required: Value| json!({"type": "object", "properties": properties, "required": required});
        let cases = [
            object(
                json!({"code": {"type": "string", "pattern": "^[A-Z]{3}-\\d{4}$"}}),
                json!(["code"]),
            ),
            object(
                json!({"s": {"type": "string", "pattern": "abc"}}),
                json!(["s"]),
            ),
            object(
                json!({"point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "string", "enum": ["x", "y"]}], "minItems": 2, "items": false}}),
                json!(["point"]),
            ),
            object(
                json!({"at": {"type": "string", "format": "json-pointer"}, "took": {"type": "string", "format": "duration"}, "home": {"type": "string", "format": "iri"}}),
                json!(["at", "took", "home"]),
            ),
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "allOf": [{"properties": {"n": {"minimum": 10, "maximum": 20}}}]}),
            object(
                json!({"labels": {"type": "object", "minProperties": 2, "additionalProperties": {"type": "string"}, "propertyNames": {"pattern": "^[a-z]+$"}}}),
                json!(["labels"]),
            ),
            json!({"type": "object", "properties": {"card": {"type": "string"}, "billing": {"type": "string"}}, "dependentRequired": {"card": ["billing"]}}),
            json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "allOf": [{"required": ["a", "b"]}]}),
        ];
        for schema in cases {
            let made = valid_inputs_of_100(&schema);
            assert!(made >= 90, "{made} of 100 for {schema}");
        }
    }

    /// Of 100 planned calls, how many get a valid input, drawn as `run.rs` draws them
    /// (boundary values first, then up to 30 random tries each).
    fn valid_inputs_of_100(schema: &Value) -> usize {
        let compiled = crate::schema::Compiled::new(schema);
        let valid = |v: &Value| compiled.check(v).is_ok_and(|c| c.violations.is_empty());
        let generator = Gen::new(schema);
        let mut boundary = generator.boundaries();
        let mut rng = Rng::new(11);
        (0..100)
            .filter(|_| {
                boundary.by_ref().any(|v| valid(&v))
                    || (0..30).any(|_| generator.random(&mut rng).is_some_and(|v| valid(&v)))
            })
            .count()
    }

    /// Every tool of every real server captured in `tests/captures` (server-everything in
    /// three transports, fastmcp, the TypeScript SDK, filesystem, memory, time, both eras)
    /// and the conformance suite's JSON Schema 2020-12 tool (`$anchor`, `allOf`/`anyOf`,
    /// `if`/`then`/`else`, `additionalProperties: false`) gets at least 90 of 100 planned calls.
    #[test]
    fn every_captured_real_tool_and_the_conformance_schema_get_their_planned_calls() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
        let mut schemas = vec![(
            "conformance json_schema_2020_12_tool".to_string(),
            read_json(&root.join("fixtures/conformance-json-schema-2020-12-tool.json")),
        )];
        let mut servers: Vec<_> = std::fs::read_dir(root.join("captures"))
            .expect("tests/captures")
            .flatten()
            .map(|e| e.path())
            .collect();
        servers.sort();
        for server in servers {
            let listing = read_json(&server.join("tools_list.json"));
            for tool in listing["result"]["tools"].as_array().expect("tools") {
                let name = format!("{} {}", server.display(), tool["name"]);
                schemas.push((name, tool["inputSchema"].clone()));
            }
        }
        assert!(schemas.len() > 200, "{} schemas", schemas.len());
        let short: Vec<String> = schemas
            .iter()
            .map(|(name, schema)| (name, valid_inputs_of_100(schema)))
            .filter(|(_, made)| *made < 90)
            .map(|(name, made)| format!("{name}: {made} of 100"))
            .collect();
        assert!(short.is_empty(), "{short:#?}");
    }

    fn read_json(path: &std::path::Path) -> Value {
        let text = std::fs::read_to_string(path).expect("a fixture");
        serde_json::from_str(&text).expect("JSON")
    }

    /// `allOf` parts are generated for at once (required names in one part, properties in
    /// another), and no shape of schema makes the generator panic.
    #[test]
    fn all_of_parts_are_folded_and_odd_schemas_never_panic() {
        let schema = json!({"type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "integer", "minimum": 3}},
            "allOf": [{"required": ["a", "b"]}, {"properties": {"b": {"maximum": 5}}}]});
        let generator = Gen::new(&schema);
        let compiled = crate::schema::Compiled::new(&schema);
        let made: Vec<Value> = generator.boundaries().take(20).collect();
        assert!(!made.is_empty());
        let valid = made
            .iter()
            .filter(|v| compiled.check(v).is_ok_and(|c| c.violations.is_empty()))
            .count();
        assert!(valid * 2 >= made.len(), "{made:?}");
        assert!(
            made.iter()
                .all(|v| v.get("a").is_some() && v.get("b").is_some()),
            "{made:?}"
        );
        for odd in [
            json!({"allOf": [{"required": ["a"]}]}),
            json!({"if": {"required": ["a"]}, "then": {"required": ["b"]}}),
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "if": {"required": ["a"]}, "then": {"required": ["a"]}}),
            json!({"type": "object", "properties": {"a": {"type": "string", "minLength": 5, "maxLength": 2}}}),
            json!({"type": "object", "properties": {"a": {"type": "array", "minItems": 5, "maxItems": 2}}}),
            json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": 5, "maximum": 2}}}),
            json!({"allOf": [true, false, 3, {"type": "object"}]}),
            json!("a string"),
        ] {
            let g = Gen::new(&odd);
            let mut rng = Rng::new(1);
            let _: Vec<Value> = g.boundaries().take(50).collect();
            let _: Vec<Value> = g.invalid().take(50).collect();
            for _ in 0..20 {
                let _ = g.random(&mut rng);
            }
        }
    }

    /// Schemas a server controls cannot make generation spin or take gigabytes: each value is
    /// refused once it recurses too deep or costs too much, and the generator says which.
    #[test]
    fn self_referencing_and_exponential_schemas_are_refused_with_a_reason() {
        let cases = [
            (json!({"anyOf": [{"$ref": "#"}]}), Spent::TooDeep),
            (
                json!({"allOf": [{"$ref": "#"}], "type": "object"}),
                Spent::TooDeep,
            ),
            (
                json!({"type": "array", "items": {"$ref": "#"}, "minItems": 1000}),
                Spent::TooLarge,
            ),
            (
                {
                    let names: Vec<String> = (0..50).map(|i| format!("p{i}")).collect();
                    let props: Map<String, Value> = names
                        .iter()
                        .map(|n| (n.clone(), json!({"$ref": "#"})))
                        .collect();
                    json!({"type": "object", "properties": props, "required": names})
                },
                Spent::TooLarge,
            ),
        ];
        for (schema, why) in cases {
            let generator = Gen::new(&schema);
            let mut rng = Rng::new(7);
            let made: Vec<Value> = generator.boundaries().take(100).collect();
            let random = (0..3).filter_map(|_| generator.random(&mut rng)).count();
            assert!(made.is_empty() && random == 0, "{schema}: {made:?}");
            assert_eq!(generator.spent(), Some(why), "{schema}");
        }
    }
}

#[cfg(test)]
mod skeleton_tests {
    use serde_json::{Map, Value, json};

    #[test]
    fn required_first_with_defaults_enums_and_consts() {
        let schema = json!({"type": "object", "properties": {
            "limit": {"type": "integer", "default": 10},
            "mode": {"enum": ["fast", "slow"]},
            "query": {"type": "string"},
            "kind": {"const": "search"},
            "verbose": {"type": "boolean"}
        }, "required": ["query", "mode", "kind"]});
        let s = super::skeleton(&schema);
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
            super::skeleton(&schema),
            json!({"at": {"x": 0}, "note": null, "tags": null})
        );
    }

    #[test]
    fn recursive_refs_terminate() {
        let schema =
            json!({"type": "object", "properties": {"node": {"$ref": "#"}}, "required": ["node"]});
        let s = super::skeleton(&schema);
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
        let s = super::skeleton(&schema);
        assert!(serde_json::to_string(&s).map_or(0, |t| t.len()) < 100_000);
    }

    #[test]
    fn non_object_or_boolean_schema_gives_empty_object() {
        assert_eq!(super::skeleton(&json!(true)), json!({}));
        assert_eq!(super::skeleton(&json!({"type": "string"})), json!({}));
    }
}
