//! A form's rows from a JSON Schema: one per property, in the order the server wrote them, with
//! nested objects, arrays and object variants as rows holding rows; each with its label, its
//! words (type, constraints, default) and its starting input. Refs are followed, depth and
//! count bounded (a hostile schema may be wide, deep or recursive). Pure.

use crate::schema::describe::{View, describe};
use crate::schema::refs::{Document, RefTarget, escape_segment};
use serde_json::{Map, Value};
use std::collections::HashSet;
use std::sync::Arc;

/// Rows nested deeper than this are one JSON row (a recursive schema stops here).
pub const MAX_DEPTH: usize = 8;
/// Rows in a form at most; a larger schema is edited as JSON (the form says why).
pub const MAX_FIELDS: usize = 20_000;
/// `$ref` hops followed for one subschema.
const MAX_HOPS: usize = 16;
/// Choices listed for one row (an enum of 100,000 values is cut to these).
const MAX_CHOICES: usize = 1_000;

/// One value a choice row can take, with what it is called.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub value: Value,
    /// Its `title` (or the legacy `enumNames`), else the value as written.
    pub label: String,
}

/// How a row is filled in.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// Typed text; `format` as the schema names it (email, uri, date…).
    Text {
        format: Option<String>,
    },
    Integer,
    Number,
    Boolean,
    /// One of named values (`enum`, `const`, `oneOf`/`anyOf` of titled consts).
    Choice(Arc<[Choice]>),
    /// Any number of named values (an array whose items are choices).
    Many(Arc<[Choice]>),
    /// Rows of its own properties.
    Object,
    /// Rows of its elements; the items' schema for the next one added.
    Array(Arc<Value>),
    /// One of several object shapes, chosen by title; rows of the chosen one's properties.
    Variants(Arc<Shapes>),
    /// Any JSON value, typed as JSON (text that is not JSON is a string).
    Loose,
}

impl Kind {
    /// Rows that hold rows.
    pub fn holds_rows(&self) -> bool {
        matches!(self, Kind::Object | Kind::Array(_) | Kind::Variants(_))
    }

    /// Rows filled by typing.
    pub fn is_typed(&self) -> bool {
        matches!(
            self,
            Kind::Text { .. } | Kind::Integer | Kind::Number | Kind::Loose
        )
    }
}

/// The object shapes a variant row chooses from.
#[derive(Debug, Clone, PartialEq)]
pub struct Shapes {
    /// Each shape's name and schema.
    pub options: Vec<(String, Value)>,
    /// The schema around them (properties every shape shares), without `oneOf`/`anyOf`.
    pub outer: Value,
}

/// What a row holds now.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// Nothing: the property is left out.
    Unset,
    /// Typed text (text, numbers, JSON).
    Text(String),
    /// A value picked (a boolean, a choice, null).
    Value(Value),
    /// The indices of the choices picked, in the order of the choices.
    Picks(Vec<usize>),
    /// The variant shown (its rows follow).
    Chosen(usize),
}

/// What a row is: fixed when it is built, shared by the copies the undo history keeps.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    pub title: Option<String>,
    pub description: Option<String>,
    /// The schema's own words (its subschemas left out), for [`Spec::about`].
    words: Map<String, Value>,
    pub required: bool,
    /// `null` is allowed too (`type: [T, "null"]`, `anyOf: [T, {type: null}]`).
    pub nullable: bool,
    pub kind: Kind,
}

/// One row of a form.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The property name, or the element's index.
    pub key: String,
    /// JSON Pointer of its value in the whole.
    pub pointer: String,
    pub depth: usize,
    pub spec: Arc<Spec>,
    pub input: Input,
    /// A row holding rows is in the value (a required one always is; an optional one once a
    /// row in it is set, or when it was given).
    pub present: bool,
    /// Its rows are hidden.
    pub folded: bool,
    /// Not typed into yet: the first key typed replaces what it shows.
    pub fresh: bool,
    /// Why its value is not acceptable, when it is not.
    pub problem: Option<String>,
}

/// Where a row's starting value comes from.
#[derive(Debug, Clone, Copy)]
pub enum Start<'v> {
    /// The schema's defaults (a new form).
    Defaults,
    /// A value given (a draft loaded); `None`: the property is absent.
    Given(Option<&'v Value>),
}

/// Builds rows from one schema document, counting them.
pub struct Builder<'a> {
    doc: Document<'a>,
    count: usize,
    /// Set when [`MAX_FIELDS`] was reached: the form is incomplete.
    pub cut: bool,
}

impl<'a> Builder<'a> {
    pub fn new(root: &'a Value) -> Builder<'a> {
        Builder {
            doc: Document::new(root),
            count: 0,
            cut: false,
        }
    }

    /// The rows of an object schema's properties (with those of its `allOf` branches).
    pub fn properties(
        &mut self,
        out: &mut Vec<Field>,
        schema: &Value,
        pointer: &str,
        depth: usize,
        start: Start<'_>,
    ) {
        let object = self.resolve(schema);
        let mut required = HashSet::new();
        let mut properties = Map::new();
        self.gather(&object, &mut properties, &mut required, 0);
        for (key, property) in properties {
            if self.cut {
                return;
            }
            let child = match start {
                Start::Defaults => Start::Defaults,
                Start::Given(v) => Start::Given(v.and_then(|v| v.get(&key))),
            };
            let at = format!("{pointer}/{}", escape_segment(&key));
            let is_required = required.contains(&key);
            self.field(out, key, &property, at, depth, is_required, child);
        }
    }

    /// Properties and required names of an object schema and its `allOf` branches.
    fn gather(
        &self,
        object: &Map<String, Value>,
        properties: &mut Map<String, Value>,
        required: &mut HashSet<String>,
        level: usize,
    ) {
        // A map and a set: a schema of 10,000 properties is not scanned per property.
        if let Some(Value::Object(props)) = object.get("properties") {
            for (k, v) in props {
                if !properties.contains_key(k) {
                    properties.insert(k.clone(), v.clone());
                }
            }
        }
        if let Some(Value::Array(names)) = object.get("required") {
            required.extend(names.iter().filter_map(Value::as_str).map(String::from));
        }
        if let Some(Value::Array(branches)) = object.get("allOf").filter(|_| level < MAX_HOPS) {
            for branch in branches {
                let branch = self.resolve(branch);
                self.gather(&branch, properties, required, level + 1);
            }
        }
    }

    /// One row for a property (and the rows it holds).
    #[allow(clippy::too_many_arguments)]
    pub fn field(
        &mut self,
        out: &mut Vec<Field>,
        key: String,
        schema: &Value,
        pointer: String,
        depth: usize,
        required: bool,
        start: Start<'_>,
    ) {
        if self.count >= MAX_FIELDS {
            self.cut = true;
            return;
        }
        self.count += 1;
        let (inner, nullable) = self.without_null(self.resolve(schema));
        let mut kind = if depth >= MAX_DEPTH {
            Kind::Loose
        } else {
            self.kind_of(&inner)
        };
        let defaulted: Option<Value> = match (&kind, start) {
            (_, Start::Given(_)) => None,
            (Kind::Choice(c), _) if c.len() == 1 && inner.contains_key("const") => {
                Some(c[0].value.clone())
            }
            // `Optional[Model] = None`: a null default is the row left out, not a value that
            // turns the model's rows into one JSON row.
            _ if nullable && inner.get("default") == Some(&Value::Null) => None,
            _ => inner.get("default").cloned(),
        };
        let given = match start {
            Start::Defaults => defaulted.as_ref(),
            Start::Given(v) => v,
        };
        let input = starting_input(&mut kind, given);
        let title = text_of(&inner, "title");
        let description = text_of(&inner, "description");
        // Its words are put in sentences only when the row is shown selected.
        let words: Map<String, Value> = inner
            .iter()
            .filter(|(k, v)| v.is_boolean() || !HEAVY.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let index = out.len();
        out.push(Field {
            key,
            pointer,
            depth,
            spec: Arc::new(Spec {
                title,
                description,
                words,
                required,
                nullable,
                kind,
            }),
            input,
            present: required || given.is_some(),
            folded: false,
            fresh: true,
            problem: None,
        });
        let inner_value = Value::Object(inner);
        self.rows_of(out, index, &inner_value, given, start);
    }

    /// The rows a row holds: an object's properties, an array's elements, a variant's shape.
    fn rows_of(
        &mut self,
        out: &mut Vec<Field>,
        index: usize,
        schema: &Value,
        given: Option<&Value>,
        start: Start<'_>,
    ) {
        let (pointer, depth) = (out[index].pointer.clone(), out[index].depth + 1);
        match out[index].spec.kind.clone() {
            Kind::Object => {
                let start = match start {
                    Start::Given(_) => Start::Given(given),
                    Start::Defaults => given.map_or(Start::Defaults, |g| Start::Given(Some(g))),
                };
                self.properties(out, schema, &pointer, depth, start);
                // An optional object starts folded: it is left out until a row in it is set.
                out[index].folded = !out[index].present;
            }
            Kind::Array(items) => {
                for (i, element) in given
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    let at = format!("{pointer}/{i}");
                    self.field(
                        out,
                        i.to_string(),
                        &items,
                        at,
                        depth,
                        true,
                        Start::Given(Some(element)),
                    );
                }
            }
            Kind::Variants(shapes) => {
                let chosen = match out[index].input {
                    Input::Chosen(i) => i,
                    _ => 0,
                };
                let start = given.map_or(start, |g| Start::Given(Some(g)));
                self.properties(out, &shapes.shape(chosen), &pointer, depth, start);
                out[index].folded = !out[index].present;
            }
            _ => {}
        }
    }

    /// The schema with its `$ref` chain merged: the referring keywords win over the target's.
    pub fn resolve(&self, schema: &Value) -> Map<String, Value> {
        let mut merged = Map::new();
        let mut at = schema;
        for _ in 0..MAX_HOPS {
            let Some(map) = at.as_object() else { break };
            for (k, v) in map {
                if k != "$ref" && !merged.contains_key(k) {
                    merged.insert(k.clone(), v.clone());
                }
            }
            match map
                .get("$ref")
                .and_then(Value::as_str)
                .map(|r| self.doc.resolve(r))
            {
                Some(RefTarget::Found { schema, .. }) => at = schema,
                _ => break,
            }
        }
        merged
    }

    /// `T` out of `type: [T, "null"]` or `anyOf/oneOf: [T, {type: null}]`, and whether null
    /// was allowed; the outer words (title, description, default) kept.
    fn without_null(&self, schema: Map<String, Value>) -> (Map<String, Value>, bool) {
        let typed_null: Option<Vec<Value>> = match schema.get("type") {
            Some(Value::Array(types)) if types.iter().any(|t| t == "null") => {
                Some(types.iter().filter(|t| *t != "null").cloned().collect())
            }
            _ => None,
        };
        if let Some(rest) = typed_null {
            let mut inner = schema;
            inner.insert(
                "type".into(),
                match rest.len() {
                    1 => rest[0].clone(),
                    _ => Value::Array(rest),
                },
            );
            return (inner, true);
        }
        for key in ["anyOf", "oneOf"] {
            let Some(Value::Array(branches)) = schema.get(key) else {
                continue;
            };
            let branches = branches.clone();
            let is_null = |b: &Value| self.resolve(b).get("type") == Some(&Value::from("null"));
            let nulls = branches.iter().filter(|b| is_null(b)).count();
            if nulls > 0 && branches.len() - nulls > 1 {
                // `Union[Cat, Dog, None]`: the shapes without the null, null allowed beside.
                let mut inner = schema.clone();
                let rest: Vec<Value> = branches.into_iter().filter(|b| !is_null(b)).collect();
                inner.insert(key.to_string(), Value::Array(rest));
                return (inner, true);
            }
            if branches.len() == 2 && nulls == 1 {
                let other = branches
                    .iter()
                    .find(|b| !is_null(b))
                    .unwrap_or(&Value::Null);
                let mut inner = self.resolve(other);
                for (k, v) in schema {
                    if k != key {
                        inner.insert(k, v);
                    }
                }
                return (inner, true);
            }
        }
        (schema, false)
    }

    /// How a (resolved, null-free) schema is filled in.
    fn kind_of(&self, schema: &Map<String, Value>) -> Kind {
        if let Some(choices) = self.choices(schema) {
            return Kind::Choice(choices.into());
        }
        let types: Vec<&str> = match schema.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        match types.as_slice() {
            ["boolean"] => Kind::Boolean,
            ["integer"] => Kind::Integer,
            ["number"] => Kind::Number,
            ["string"] => Kind::Text {
                format: text_of(schema, "format"),
            },
            ["array"] => self.array_kind(schema),
            ["object"] | [] if self.variants(schema).is_some() => {
                let mut outer = schema.clone();
                outer.remove("oneOf");
                outer.remove("anyOf");
                Kind::Variants(Arc::new(Shapes {
                    options: self.variants(schema).unwrap_or_default(),
                    outer: Value::Object(outer),
                }))
            }
            ["object"] => Kind::Object,
            [] if schema.contains_key("properties") => Kind::Object,
            _ => Kind::Loose,
        }
    }

    fn array_kind(&self, schema: &Map<String, Value>) -> Kind {
        let items = schema.get("items").filter(|i| i.is_object());
        match items {
            Some(items) => {
                let resolved = self.resolve(items);
                match self.choices(&resolved) {
                    Some(choices) => Kind::Many(choices.into()),
                    None => Kind::Array(Arc::new(items.clone())),
                }
            }
            None => Kind::Loose,
        }
    }

    /// The named values of an `enum` (with `enumNames`), a `const`, or `oneOf`/`anyOf` consts.
    fn choices(&self, schema: &Map<String, Value>) -> Option<Vec<Choice>> {
        if let Some(Value::Array(values)) = schema.get("enum") {
            let names = schema.get("enumNames").and_then(Value::as_array);
            return Some(
                values
                    .iter()
                    .take(MAX_CHOICES)
                    .enumerate()
                    .map(|(i, v)| Choice {
                        value: v.clone(),
                        label: names
                            .and_then(|n| n.get(i))
                            .and_then(Value::as_str)
                            .map_or_else(|| plain(v), String::from),
                    })
                    .collect(),
            );
        }
        if let Some(value) = schema.get("const") {
            let label = text_of(schema, "title").unwrap_or_else(|| plain(value));
            return Some(vec![Choice {
                value: value.clone(),
                label,
            }]);
        }
        for key in ["oneOf", "anyOf"] {
            let Some(Value::Array(branches)) = schema.get(key) else {
                continue;
            };
            let consts: Option<Vec<Choice>> = branches
                .iter()
                .take(MAX_CHOICES)
                .map(|b| {
                    let b = self.resolve(b);
                    let value = b.get("const")?.clone();
                    let label = text_of(&b, "title").unwrap_or_else(|| plain(&value));
                    Some(Choice { value, label })
                })
                .collect();
            if let Some(consts) = consts.filter(|c| !c.is_empty()) {
                return Some(consts);
            }
        }
        None
    }

    /// `oneOf`/`anyOf` branches that are all object shapes, each with its name: its title, the
    /// value of a const property it has (a discriminator), its `$ref` name, or its number.
    fn variants(&self, schema: &Map<String, Value>) -> Option<Vec<(String, Value)>> {
        let branches = ["oneOf", "anyOf"]
            .iter()
            .find_map(|k| schema.get(*k).and_then(Value::as_array))?;
        let mut named = Vec::new();
        for (i, branch) in branches.iter().enumerate().take(MAX_CHOICES) {
            let resolved = self.resolve(branch);
            let objectish = resolved.get("type") == Some(&Value::from("object"))
                || resolved.contains_key("properties");
            if !objectish {
                return None;
            }
            // Kept resolved: choosing a shape by its properties needs them (refs inside it
            // still resolve from the root).
            let name = variant_name(branch, &resolved, i);
            named.push((name, Value::Object(resolved)));
        }
        (!named.is_empty()).then_some(named)
    }
}

impl Shapes {
    /// The schema of shape `chosen`: the outer schema with the shape as one more `allOf`.
    pub fn shape(&self, chosen: usize) -> Value {
        let mut shape = self.outer.clone();
        if let (Some(map), Some((_, branch))) = (shape.as_object_mut(), self.options.get(chosen)) {
            let all = map
                .entry("allOf")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(all) = all {
                all.push(branch.clone());
            }
        }
        shape
    }
}

fn variant_name(branch: &Value, resolved: &Map<String, Value>, i: usize) -> String {
    if let Some(title) = text_of(resolved, "title") {
        return title;
    }
    let discriminator = resolved
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .find_map(|(_, p)| p.get("const"));
    if let Some(value) = discriminator {
        return plain(value);
    }
    match branch.get("$ref").and_then(Value::as_str) {
        Some(r) => r.rsplit('/').next().unwrap_or(r).to_string(),
        None => format!("variant {}", i + 1),
    }
}

/// A row's input from the value it starts with; a value its kind cannot show (a choice
/// not offered, an object where text goes) makes the row a JSON row, so nothing is lost.
fn starting_input(kind: &mut Kind, given: Option<&Value>) -> Input {
    let Some(value) = given else {
        return match kind {
            Kind::Variants(_) => Input::Chosen(0),
            _ => Input::Unset,
        };
    };
    let json = |v: &Value| crate::untrusted::json(v, false);
    match (&*kind, value) {
        (_, Value::Null) if !kind.holds_rows() => Input::Value(Value::Null),
        (Kind::Text { .. }, Value::String(s)) => Input::Text(s.clone()),
        (Kind::Integer | Kind::Number, Value::Number(n)) => Input::Text(n.to_string()),
        (Kind::Boolean, Value::Bool(_)) => Input::Value(value.clone()),
        (Kind::Choice(c), v) if c.iter().any(|c| c.value == *v) => Input::Value(v.clone()),
        (Kind::Many(c), Value::Array(values))
            if values.iter().all(|v| c.iter().any(|c| c.value == *v)) =>
        {
            let picks = c
                .iter()
                .enumerate()
                .filter(|(_, c)| values.contains(&c.value));
            Input::Picks(picks.map(|(i, _)| i).collect())
        }
        (Kind::Object, Value::Object(_)) | (Kind::Array(_), Value::Array(_)) => Input::Unset,
        (Kind::Variants(shapes), Value::Object(map)) => {
            Input::Chosen(pick_variant(&shapes.options, map))
        }
        (Kind::Loose, v) => Input::Text(json(v)),
        (_, v) => {
            *kind = Kind::Loose;
            Input::Text(json(v))
        }
    }
}

/// The variant a value is in: the one whose const properties it matches, else whose required
/// names it has, else the first.
fn pick_variant(options: &[(String, Value)], value: &Map<String, Value>) -> usize {
    let consts_match = |schema: &Value| {
        let props = schema.get("properties").and_then(Value::as_object);
        let consts: Vec<(&String, &Value)> = props
            .into_iter()
            .flatten()
            .filter_map(|(k, p)| p.get("const").map(|c| (k, c)))
            .collect();
        !consts.is_empty() && consts.iter().all(|(k, c)| value.get(*k) == Some(*c))
    };
    let has_required = |schema: &Value| {
        schema
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .all(|k| value.contains_key(k))
            })
    };
    options
        .iter()
        .position(|(_, s)| consts_match(s))
        .or_else(|| options.iter().position(|(_, s)| has_required(s)))
        .unwrap_or(0)
}

fn text_of(schema: &Map<String, Value>, key: &str) -> Option<String> {
    schema.get(key).and_then(Value::as_str).map(String::from)
}

/// A value as a person reads it: strings bare, everything else as JSON.
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => crate::untrusted::json(other, false),
    }
}

/// Keywords whose values are subschemas or lists of them: a row's words leave them out.
const HEAVY: &[&str] = &[
    "properties",
    "patternProperties",
    "additionalProperties",
    "items",
    "prefixItems",
    "allOf",
    "anyOf",
    "oneOf",
    "$defs",
    "definitions",
    "required",
];

impl Spec {
    /// The row's type, constraints and default in words: `integer · minimum: 1 · maximum: 100`.
    pub fn about(&self) -> String {
        about(&self.words, &self.kind, self.nullable)
    }
}

fn about(schema: &Map<String, Value>, kind: &Kind, nullable: bool) -> String {
    let mut view = View::default();
    view.push(schema, String::new(), String::new());
    let facts = describe(&view);
    let mut words = vec![match kind {
        Kind::Choice(c) => format!("one of {}", c.len()),
        Kind::Many(c) => format!("any of {}", c.len()),
        Kind::Variants(v) => format!("one of {} shapes", v.options.len()),
        Kind::Loose if facts.types.is_empty() => "any JSON".into(),
        _ if facts.types.is_empty() => "any".into(),
        _ => facts.types.join(" or "),
    }];
    if nullable {
        words[0].push_str(" or null");
    }
    words.extend(facts.constraints);
    if let Some(d) = &facts.default {
        words.push(format!("default: {}", crate::untrusted::json(d, false)));
    }
    words.join(" · ")
}
