//! What changed between two versions of one schema, keyword by keyword, and whether each change
//! lets fewer instances through (narrows), more (widens), some of each, or cannot be told.
//! Refs are followed on both sides before comparing, so a definition moved into `$defs` is no
//! change; a ref cycle is compared once. Pure.

use crate::schema::refs::{Document, RefTarget};
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashSet};

/// What a change does to the set of instances the schema accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Fewer instances pass (a bound tightened, an enum value removed, a property now required).
    Narrows,
    /// More instances pass (the reverse).
    Widens,
    /// Some that passed no longer do and some new ones do (a type changed).
    Changes,
    /// A property the other side relied on is gone.
    Removed,
    /// A new optional property.
    AddedOptional,
    /// A new required property.
    AddedRequired,
    /// Cannot be decided (two different patterns): said, never guessed.
    Unknown,
    /// Words only (title, description, examples, default).
    Info,
}

/// One change, at a JSON Pointer into the new schema (the old one where the part is gone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaChange {
    pub pointer: String,
    pub effect: Effect,
    pub what: String,
}

/// Nodes compared at most (bounds hostile or huge schemas); the rest is one `Unknown`.
const MAX_NODES: usize = 20_000;
/// Nesting compared at most, through subschemas and refs (the schema tree shows as many).
const MAX_DEPTH: usize = crate::schema::tree::MAX_DEPTH;
/// Pairs of values two `enum`s (or branch lists) may be matched by before they are only said
/// to differ: a server's two lists of 100,000 values would otherwise cost 10^10 comparisons.
const MAX_PAIRS: usize = 1_000_000;

/// Every change from `old` to `new` (two whole schemas: their refs resolve inside each).
pub fn diff(old: &Value, new: &Value) -> Vec<SchemaChange> {
    let mut walk = Walk {
        old: Document::new(old),
        new: Document::new(new),
        seen: HashSet::new(),
        out: Vec::new(),
        nodes: 0,
        depth: 0,
        same_definitions: ["$defs", "definitions"]
            .iter()
            .all(|k| old.get(k) == new.get(k)),
    };
    walk.node(old, new, String::new());
    walk.out
}

struct Walk<'a> {
    old: Document<'a>,
    new: Document<'a>,
    /// Pairs of (old, new) nodes already compared, by address: a ref cycle ends here.
    seen: HashSet<(usize, usize)>,
    out: Vec<SchemaChange>,
    nodes: usize,
    /// How deep the walk is (through subschemas and refs): a server's `$ref` chain is not
    /// allowed to take the stack.
    depth: usize,
    /// Whether both documents define the same `$defs`/`definitions`: only then do two equal
    /// parts mean the same (their refs may lead to definitions that differ).
    same_definitions: bool,
}

/// Keywords that carry words only.
const WORDS: [&str; 7] = [
    "title",
    "description",
    "examples",
    "default",
    "$comment",
    "deprecated",
    "markdownDescription",
];
/// Keywords that are structure, not constraints, or handled elsewhere.
const IGNORED: [&str; 8] = [
    "$schema",
    "$id",
    "$defs",
    "definitions",
    "$anchor",
    "$ref",
    "$dynamicAnchor",
    "$vocabulary",
];
/// Keywords that hold one schema (beside `items` and `additionalProperties`, judged apart).
const SUBSCHEMA: [&str; 10] = [
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "additionalItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];
/// Keywords that hold a map of schemas.
const SUBSCHEMA_MAPS: [&str; 3] = ["patternProperties", "dependentSchemas", "dependencies"];
/// Keywords that hold a list of schemas (`items` too, as a draft-07 tuple).
const SUBSCHEMA_LISTS: [&str; 2] = ["prefixItems", "items"];
/// Lower bounds: raising one narrows.
const LOWER: [&str; 5] = [
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
];
/// Upper bounds: lowering one narrows.
const UPPER: [&str; 5] = [
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
];

impl<'a> Walk<'a> {
    fn say(&mut self, pointer: &str, effect: Effect, what: String) {
        self.out.push(SchemaChange {
            pointer: if pointer.is_empty() {
                "/".into()
            } else {
                pointer.into()
            },
            effect,
            what,
        });
    }

    /// Follows `$ref`s (a chain of them, as long as the walk's depth) to the schema they name;
    /// the reason when a ref cannot be followed or the chain is longer.
    fn deref(doc: &Document<'a>, mut node: &'a Value) -> Result<&'a Value, String> {
        for _ in 0..MAX_DEPTH {
            let Some(reference) = node.get("$ref").and_then(Value::as_str) else {
                return Ok(node);
            };
            match doc.resolve(reference) {
                RefTarget::Found { schema, .. } => node = schema,
                _ => {
                    let shown = crate::untrusted::line(reference, 80);
                    return Err(format!("`$ref` {shown} cannot be followed"));
                }
            }
        }
        match node.get("$ref") {
            Some(_) => Err(format!("a `$ref` chain longer than {MAX_DEPTH} links")),
            None => Ok(node),
        }
    }

    fn node(&mut self, old: &'a Value, new: &'a Value, at: String) {
        if self.same_definitions && old == new {
            return;
        }
        let (old, new) = match (Self::deref(&self.old, old), Self::deref(&self.new, new)) {
            (Ok(a), Ok(b)) => (a, b),
            // The same unfollowable ref on both sides of equal documents: nothing to compare.
            (Err(a), Err(b)) if a == b && old == new && self.same_definitions => return,
            (Err(why), _) | (_, Err(why)) => {
                self.say(&at, Effect::Unknown, format!("{why}: not compared"));
                return;
            }
        };
        if !self
            .seen
            .insert((old as *const Value as usize, new as *const Value as usize))
        {
            return;
        }
        self.nodes += 1;
        if self.nodes == MAX_NODES {
            self.say(
                &at,
                Effect::Unknown,
                format!("more than {MAX_NODES} schema nodes: the rest was not compared"),
            );
        }
        if self.nodes >= MAX_NODES || (self.same_definitions && old == new) {
            return;
        }
        if self.depth >= MAX_DEPTH {
            let what = format!("nested deeper than {MAX_DEPTH} levels: not compared");
            self.say(&at, Effect::Unknown, what);
            return;
        }
        self.depth += 1;
        self.compare(old, new, &at);
        self.depth -= 1;
    }

    fn compare(&mut self, old: &'a Value, new: &'a Value, at: &str) {
        match (old, new) {
            (Value::Bool(a), Value::Bool(b)) => {
                let effect = if *b { Effect::Widens } else { Effect::Narrows };
                self.say(at, effect, format!("schema `{a}` became `{b}`"));
            }
            (Value::Bool(true), Value::Object(_)) => self.say(
                at,
                Effect::Narrows,
                "constraints added where anything passed".into(),
            ),
            (Value::Object(_), Value::Bool(true)) => self.say(
                at,
                Effect::Widens,
                "constraints removed: anything passes".into(),
            ),
            (Value::Bool(false), Value::Object(_)) => {
                self.say(at, Effect::Widens, "allowed where nothing passed".into())
            }
            (Value::Object(_), Value::Bool(false)) => {
                self.say(at, Effect::Narrows, "nothing passes any more".into())
            }
            (Value::Object(a), Value::Object(b)) => self.object(a, b, at),
            _ => self.say(at, Effect::Unknown, "not a schema".into()),
        }
    }

    fn object(&mut self, old: &'a Map<String, Value>, new: &'a Map<String, Value>, at: &str) {
        self.types(old, new, at);
        self.values(old, new, at);
        self.properties(old, new, at);
        self.additional(old, new, at);
        for key in LOWER {
            self.bound(old, new, at, key, true);
        }
        for key in UPPER {
            self.bound(old, new, at, key, false);
        }
        match (old.get("items"), new.get("items")) {
            // Draft-07 tuples: `items` as a list of schemas, compared like `prefixItems`.
            (Some(Value::Array(_)), Some(Value::Array(_))) => {}
            (Some(a), Some(b)) => self.node(a, b, format!("{at}/items")),
            (None, Some(_)) => self.say(at, Effect::Narrows, "`items` constrained".into()),
            (Some(_), None) => self.say(at, Effect::Widens, "`items` no longer constrained".into()),
            (None, None) => {}
        }
        self.branches(old, new, at);
        self.subschemas(old, new, at);
        let handled = [
            "type",
            "enum",
            "const",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "anyOf",
            "oneOf",
            "allOf",
            "pattern",
            "format",
            "uniqueItems",
        ];
        self.pattern_and_format(old, new, at);
        self.other_keywords(old, new, at, &handled);
        self.unique_items(old, new, at);
    }

    /// Keywords no rule above judges: words (`description`, `title`…) as information, the
    /// rest as changes whose effect is not judged; `x-` extensions and equal values left out.
    fn other_keywords(
        &mut self,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        at: &str,
        handled: &[&str],
    ) {
        let keys: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
        for key in keys {
            let k = key.as_str();
            if handled.contains(&k)
                || SUBSCHEMA.contains(&k)
                || SUBSCHEMA_MAPS.contains(&k)
                || SUBSCHEMA_LISTS.contains(&k)
                || IGNORED.contains(&k)
                || LOWER.contains(&k)
                || UPPER.contains(&k)
                || k.starts_with("x-")
                || old.get(k) == new.get(k)
            {
                continue;
            }
            let (effect, verb) = if WORDS.contains(&k) {
                (Effect::Info, "changed")
            } else {
                (Effect::Unknown, "changed (its effect is not judged)")
            };
            let what = match (old.get(k), new.get(k)) {
                (None, Some(_)) => format!("`{k}` added"),
                (Some(_), None) => format!("`{k}` removed"),
                _ => format!("`{k}` {verb}"),
            };
            self.say(at, effect, what);
        }
    }

    fn unique_items(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str) {
        if old.get("uniqueItems") != new.get("uniqueItems") {
            let now = new.get("uniqueItems") == Some(&Value::Bool(true));
            let effect = if now { Effect::Narrows } else { Effect::Widens };
            self.say(
                at,
                effect,
                format!(
                    "`uniqueItems` {}",
                    if now {
                        "required"
                    } else {
                        "no longer required"
                    }
                ),
            );
        }
    }

    fn types(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str) {
        let (a, b) = (types_of(old.get("type")), types_of(new.get("type")));
        if a == b {
            return;
        }
        let shown = |t: &Option<BTreeSet<String>>| match t {
            None => "any type".to_string(),
            Some(set) => set.iter().cloned().collect::<Vec<_>>().join("|"),
        };
        let effect = match (&a, &b) {
            (None, Some(_)) => Effect::Narrows,
            (Some(_), None) => Effect::Widens,
            (Some(a), Some(b)) if covers(a, b) => Effect::Narrows,
            (Some(a), Some(b)) if covers(b, a) => Effect::Widens,
            _ => Effect::Changes,
        };
        let verb = match effect {
            Effect::Narrows => "narrowed",
            Effect::Widens => "widened",
            _ => "changed",
        };
        self.say(
            at,
            effect,
            format!("type {verb}: {} → {}", shown(&a), shown(&b)),
        );
    }

    /// `enum` and `const`.
    fn values(&mut self, old: &'a Map<String, Value>, new: &'a Map<String, Value>, at: &str) {
        let set = |m: &'a Map<String, Value>| -> Option<Vec<&'a Value>> {
            match (m.get("const"), m.get("enum")) {
                (Some(c), _) => Some(vec![c]),
                (None, Some(Value::Array(values))) => Some(values.iter().collect()),
                _ => None,
            }
        };
        let (a, b) = (set(old), set(new));
        match (a, b) {
            (None, None) => {}
            (None, Some(_)) => self.say(at, Effect::Narrows, "values limited to a list".into()),
            (Some(_), None) => self.say(
                at,
                Effect::Widens,
                "values no longer limited to a list".into(),
            ),
            (Some(a), Some(b)) if a == b => {}
            (Some(a), Some(b)) if a.len().saturating_mul(b.len()) > MAX_PAIRS => self.say(
                at,
                Effect::Unknown,
                format!(
                    "values changed ({} and {} values: not matched one by one)",
                    a.len(),
                    b.len()
                ),
            ),
            (Some(a), Some(b)) => {
                let removed: Vec<&Value> = a.iter().copied().filter(|v| !b.contains(v)).collect();
                let added: Vec<&Value> = b.iter().copied().filter(|v| !a.contains(v)).collect();
                let list = |vs: &[&Value]| {
                    vs.iter()
                        .map(|v| crate::untrusted::json(v, false))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                match (removed.is_empty(), added.is_empty()) {
                    (true, true) => {}
                    (false, true) => self.say(
                        at,
                        Effect::Narrows,
                        format!("value removed: {}", list(&removed)),
                    ),
                    (true, false) => {
                        self.say(at, Effect::Widens, format!("value added: {}", list(&added)))
                    }
                    (false, false) => self.say(
                        at,
                        Effect::Changes,
                        format!(
                            "values changed: removed {}; added {}",
                            list(&removed),
                            list(&added)
                        ),
                    ),
                }
            }
        }
    }

    fn properties(&mut self, old: &'a Map<String, Value>, new: &'a Map<String, Value>, at: &str) {
        static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);
        let props = |m: &'a Map<String, Value>| match m.get("properties") {
            Some(Value::Object(p)) => p,
            _ => &*EMPTY,
        };
        let required = |m: &Map<String, Value>| -> BTreeSet<String> {
            m.get("required")
                .and_then(Value::as_array)
                .map(|r| {
                    r.iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        };
        let (pa, pb) = (props(old), props(new));
        let (ra, rb) = (required(old), required(new));
        let names: BTreeSet<&String> = pa
            .keys()
            .chain(pb.keys())
            .chain(ra.iter())
            .chain(rb.iter())
            .collect();
        for name in names {
            let here = format!(
                "{at}/properties/{}",
                crate::schema::refs::escape_segment(name)
            );
            let shown = crate::untrusted::line(name, 80);
            match (pa.get(name.as_str()), pb.get(name.as_str())) {
                (Some(_), None) => {
                    self.say(
                        &here,
                        Effect::Removed,
                        format!("property `{shown}` removed"),
                    );
                    continue;
                }
                (None, Some(_)) => {
                    let (effect, how) = if rb.contains(name) {
                        (Effect::AddedRequired, "required")
                    } else {
                        (Effect::AddedOptional, "optional")
                    };
                    self.say(&here, effect, format!("property `{shown}` added ({how})"));
                    continue;
                }
                (Some(a), Some(b)) => self.node(a, b, here.clone()),
                (None, None) => {}
            }
            match (ra.contains(name), rb.contains(name)) {
                (false, true) => {
                    self.say(&here, Effect::Narrows, format!("`{shown}` became required"))
                }
                (true, false) => self.say(
                    &here,
                    Effect::Widens,
                    format!("`{shown}` no longer required"),
                ),
                _ => {}
            }
        }
    }

    fn additional(&mut self, old: &'a Map<String, Value>, new: &'a Map<String, Value>, at: &str) {
        let closed = |v: Option<&Value>| v == Some(&Value::Bool(false));
        let (a, b) = (
            old.get("additionalProperties"),
            new.get("additionalProperties"),
        );
        match (a, b) {
            (Some(x), Some(y)) if x.is_object() && y.is_object() => {
                self.node(x, y, format!("{at}/additionalProperties"));
            }
            _ if closed(a) == closed(b) => {
                if a != b {
                    let effect = match (a, b) {
                        (None | Some(Value::Bool(true)), Some(Value::Object(_))) => Effect::Narrows,
                        (Some(Value::Object(_)), None | Some(Value::Bool(true))) => Effect::Widens,
                        _ => Effect::Unknown,
                    };
                    self.say(at, effect, "`additionalProperties` changed".into());
                }
            }
            _ if closed(b) => self.say(
                at,
                Effect::Narrows,
                "closed to other properties (`additionalProperties: false`)".into(),
            ),
            _ => self.say(at, Effect::Widens, "opened to other properties".into()),
        }
    }

    fn bound(
        &mut self,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        at: &str,
        key: &str,
        lower: bool,
    ) {
        let number = |m: &Map<String, Value>| m.get(key).and_then(Value::as_f64);
        let (a, b) = (number(old), number(new));
        let effect = match (a, b) {
            (None, None) => return,
            (Some(x), Some(y)) if x == y => return,
            (None, Some(_)) => Effect::Narrows,
            (Some(_), None) => Effect::Widens,
            (Some(x), Some(y)) if (y > x) == lower => Effect::Narrows,
            _ => Effect::Widens,
        };
        let shown = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_else(|| "none".into());
        let verb = if effect == Effect::Narrows {
            "tightened"
        } else {
            "loosened"
        };
        self.say(
            at,
            effect,
            format!("`{key}` {verb}: {} → {}", shown(a), shown(b)),
        );
    }

    fn pattern_and_format(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str) {
        for key in ["pattern", "format"] {
            let (a, b) = (old.get(key), new.get(key));
            let effect = match (a, b) {
                (x, y) if x == y => continue,
                (None, Some(_)) => Effect::Narrows,
                (Some(_), None) => Effect::Widens,
                _ => Effect::Unknown,
            };
            let shown = |v: Option<&Value>| {
                v.map(|v| crate::untrusted::json(v, false))
                    .unwrap_or_else(|| "none".into())
            };
            self.say(at, effect, format!("`{key}` {} → {}", shown(a), shown(b)));
        }
    }

    /// Every other keyword that holds schemas, walked like `properties` (refs followed inside
    /// them too): one schema, a map of them, a list of them. A change under `not` turns round
    /// (narrowing what `not` excludes widens); one under `if` cannot be judged.
    fn subschemas(&mut self, old: &'a Map<String, Value>, new: &'a Map<String, Value>, at: &str) {
        for key in SUBSCHEMA {
            match (old.get(key), new.get(key)) {
                (Some(a), Some(b)) => {
                    let from = self.out.len();
                    self.node(a, b, format!("{at}/{key}"));
                    for change in &mut self.out[from..] {
                        change.effect = match (key, change.effect) {
                            (_, Effect::Info) => Effect::Info,
                            ("not", Effect::Narrows) => Effect::Widens,
                            ("not", Effect::Widens) => Effect::Narrows,
                            ("not" | "if", _) => Effect::Unknown,
                            (_, effect) => effect,
                        };
                    }
                }
                (None, None) => {}
                (a, _) => self.appeared_or_went(at, key, a.is_none()),
            }
        }
        for key in SUBSCHEMA_MAPS {
            let map = |m: &'a Map<String, Value>| m.get(key).and_then(Value::as_object);
            match (map(old), map(new)) {
                (Some(a), Some(b)) => {
                    let names: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
                    for name in names {
                        let here =
                            format!("{at}/{key}/{}", crate::schema::refs::escape_segment(name));
                        match (a.get(name.as_str()), b.get(name.as_str())) {
                            (Some(x), Some(y)) => self.node(x, y, here),
                            (x, _) => {
                                let what = if x.is_none() { "added" } else { "removed" };
                                let shown = crate::untrusted::line(name, 80);
                                self.say(
                                    &here,
                                    Effect::Unknown,
                                    format!("`{key}` entry `{shown}` {what}"),
                                );
                            }
                        }
                    }
                }
                (None, None) => {}
                (a, _) => self.appeared_or_went(at, key, a.is_none()),
            }
        }
        for key in SUBSCHEMA_LISTS {
            let list = |m: &'a Map<String, Value>| m.get(key).and_then(Value::as_array);
            match (list(old), list(new)) {
                (Some(a), Some(b)) => {
                    for (i, (x, y)) in a.iter().zip(b).enumerate() {
                        self.node(x, y, format!("{at}/{key}/{i}"));
                    }
                    if a.len() != b.len() {
                        let what = format!("`{key}`: {} → {} schemas", a.len(), b.len());
                        self.say(at, Effect::Unknown, what);
                    }
                }
                (None, None) => {}
                // `items` added or removed is judged with `items` above.
                _ if key == "items" => {}
                (a, _) => self.appeared_or_went(at, key, a.is_none()),
            }
        }
    }

    /// A keyword holding schemas added (`added`) or removed: its effect is not judged.
    fn appeared_or_went(&mut self, at: &str, key: &str, added: bool) {
        let what = if added { "added" } else { "removed" };
        self.say(at, Effect::Unknown, format!("`{key}` {what}"));
    }

    /// `anyOf`/`oneOf` (a branch added widens, removed narrows) and `allOf` (the reverse);
    /// branches are matched by their whole text, so a branch edited shows as one of each.
    fn branches(&mut self, old: &'a Map<String, Value>, new: &'a Map<String, Value>, at: &str) {
        for key in ["anyOf", "oneOf", "allOf"] {
            let list = |m: &'a Map<String, Value>| m.get(key).and_then(Value::as_array);
            let (a, b) = (list(old), list(new));
            // Equal text is the same only where both documents define the same `$defs`: a
            // branch `{"$ref": "#/$defs/Filter"}` (Pydantic's `Optional[Model]`) may lead to a
            // definition that changed.
            if a == b && self.same_definitions {
                continue;
            }
            let (a, b) = (
                a.map(Vec::as_slice).unwrap_or(&[]),
                b.map(Vec::as_slice).unwrap_or(&[]),
            );
            // The same number of branches: compared in order (an edit inside one branch).
            if a.len() == b.len() {
                for (i, (x, y)) in a.iter().zip(b).enumerate() {
                    self.node(x, y, format!("{at}/{key}/{i}"));
                }
                continue;
            }
            if a.len().saturating_mul(b.len()) > MAX_PAIRS {
                let what = format!("`{key}` changed ({} and {} branches)", a.len(), b.len());
                self.say(at, Effect::Unknown, what);
                continue;
            }
            let removed = a.iter().filter(|x| !b.contains(x)).count();
            let added = b.iter().filter(|y| !a.contains(y)).count();
            // A branch kept word for word may still lead (by a ref) to a changed definition.
            if !self.same_definitions {
                for x in a {
                    if let Some(j) = b.iter().position(|y| y == x) {
                        self.node(x, &b[j], format!("{at}/{key}/{j}"));
                    }
                }
            }
            let (more, fewer) = if key == "allOf" {
                (Effect::Narrows, Effect::Widens)
            } else {
                (Effect::Widens, Effect::Narrows)
            };
            let effect = match (removed, added) {
                (0, 0) => continue,
                (0, _) => more,
                (_, 0) => fewer,
                _ => Effect::Changes,
            };
            self.say(
                at,
                effect,
                format!("`{key}`: {removed} branch(es) removed, {added} added"),
            );
        }
    }
}

/// The types a `type` keyword allows (`None`: any).
fn types_of(value: Option<&Value>) -> Option<BTreeSet<String>> {
    match value? {
        Value::String(t) => Some(BTreeSet::from([t.clone()])),
        Value::Array(ts) => Some(
            ts.iter()
                .filter_map(|t| t.as_str().map(String::from))
                .collect(),
        ),
        _ => None,
    }
}

/// Whether every type in `inner` is allowed by `outer` (`integer` is a `number`).
fn covers(outer: &BTreeSet<String>, inner: &BTreeSet<String>) -> bool {
    inner
        .iter()
        .all(|t| outer.contains(t) || (t == "integer" && outer.contains("number")))
}
