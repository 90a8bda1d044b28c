//! Budgets for validation, which a hostile schema could otherwise make exponential (nested
//! `allOf`s over the same `$ref`), unbounded in memory (millions of errors) or deep enough to
//! overflow the stack (a `$ref` chain of 60,000 links). Pure.
//!
//! How: the root and every subschema that can revisit the instance or cost more than a step
//! (see [`GUARDED_AT`]) get a [`GUARD`] keyword in the compiled copy, placed first so the
//! validator meets it before any other keyword of that subschema. The guard counts visits,
//! looks at the clock and at the stack in use, and once a budget is spent it unwinds the whole
//! validation at once (`resume_unwind`, which runs no panic hook) to [`run`], which turns it
//! into a named [`Stop`]. Validation itself runs on a thread of its own with a large stack.

use super::numbers;
use serde_json::{Map, Value};
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::time::{Duration, Instant};

/// The keyword put into every subschema of the compiled copy.
pub const GUARD: &str = "x-mcp-inspect-budget";
/// Nesting through subschemas and `$ref`s beyond which a schema is not compiled.
pub const MAX_SCHEMA_DEPTH: usize = 1_000;
/// Stack of the thread that compiles and validates.
const STACK_BYTES: usize = 64 << 20;
/// Stack a validation may use before it stops as too deep (the rest is margin).
const STACK_USE_LIMIT: usize = 48 << 20;
/// Subschema visits a yes/no pass may make: nothing accumulates, so only time matters.
pub const CHECK_VISITS: u64 = 100_000_000;
/// Subschema visits a pass that lists errors may make, at least; more for big instances.
pub const MIN_VISITS: u64 = 2_000_000;
/// Visits allowed per value of the instance (each visit may add an error: this bounds memory).
const VISITS_PER_VALUE: u64 = 16;

/// Why a validation stopped before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Slow,
    Deep,
    Large,
}

impl Stop {
    pub fn describe(self, limit: Duration) -> String {
        match self {
            Stop::Slow => format!("validation exceeded {}", seconds(limit)),
            Stop::Deep => "validation went too deep (the schema's $refs nest without end)".into(),
            Stop::Large => {
                "validation grew too large (the schema makes it revisit the instance too often)"
                    .into()
            }
        }
    }
}

fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s} s")
    } else {
        format!("{s:.2} s")
    }
}

#[derive(Clone, Copy)]
struct Limits {
    deadline: Instant,
    stack_base: usize,
    visits_left: u64,
}

thread_local! {
    static LIMITS: Cell<Option<Limits>> = const { Cell::new(None) };
}

/// Where this thread's stack is now (it grows down on every platform we build for).
fn stack_address() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// Called by the guard keyword at every subschema visit: unwinds when a budget is spent.
fn visit() {
    let Some(mut limits) = LIMITS.with(Cell::get) else {
        return;
    };
    let stop = if limits.stack_base.saturating_sub(stack_address()) > STACK_USE_LIMIT {
        Some(Stop::Deep)
    } else if limits.visits_left == 0 {
        Some(Stop::Large)
    } else if limits.visits_left % 16 == 0 && Instant::now() > limits.deadline {
        Some(Stop::Slow)
    } else {
        None
    };
    if let Some(stop) = stop {
        LIMITS.with(|l| l.set(None));
        resume_unwind(Box::new(stop));
    }
    limits.visits_left -= 1;
    LIMITS.with(|l| l.set(Some(limits)));
}

/// The visit budget for listing the errors of one instance: proportional to its size (each
/// visit may add an error: this bounds memory), never below [`MIN_VISITS`].
pub fn visits_for(instance: &Value) -> u64 {
    let values = count_values(instance, usize::MAX) as u64;
    MIN_VISITS.max(values.saturating_mul(VISITS_PER_VALUE))
}

/// Counts JSON values up to `limit` (stops early on huge documents).
pub fn count_values(value: &Value, limit: usize) -> usize {
    let mut count = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        count += 1;
        if count >= limit {
            break;
        }
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    count
}

/// Runs one validation pass under the budgets.
pub fn run<T>(deadline: Instant, visits: u64, pass: impl FnOnce() -> T) -> Result<T, Stop> {
    LIMITS.with(|l| {
        l.set(Some(Limits {
            deadline,
            stack_base: stack_address(),
            visits_left: visits,
        }))
    });
    let outcome = catch_unwind(AssertUnwindSafe(pass));
    LIMITS.with(|l| l.set(None));
    match outcome {
        Ok(value) => Ok(value),
        Err(payload) => match payload.downcast::<Stop>() {
            Ok(stop) => Err(*stop),
            // A real panic inside the validator: let it continue as one.
            Err(other) => resume_unwind(other),
        },
    }
}

/// Runs `work` on a thread with a large stack and waits for it. `None` if the thread could not
/// start or `work` panicked.
pub fn on_large_stack<T: Send>(work: impl FnOnce() -> T + Send) -> Option<T> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("mcp-inspect-schema".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, work)
            .ok()?
            .join()
            .ok()
    })
}

/// The guard keyword itself.
struct Guard;

impl<'i> jsonschema::Keyword<'i> for Guard {
    fn validate(&self, _: &'i Value) -> Result<(), jsonschema::ValidationError<'i>> {
        visit();
        Ok(())
    }

    fn is_valid(&self, _: &'i Value) -> bool {
        visit();
        true
    }

    // The default boxes an iterator at every visit; an empty one is a zero-sized box.
    fn iter_errors(
        &self,
        _: &'i Value,
    ) -> Box<dyn Iterator<Item = jsonschema::ValidationError<'i>> + 'i> {
        visit();
        Box::new(std::iter::empty())
    }
}

/// Options that compile the [`GUARD`] keyword.
pub fn with_guard(options: jsonschema::ValidationOptions) -> jsonschema::ValidationOptions {
    options.with_keyword(GUARD, |_, _, _| Ok(Box::new(Guard)))
}

/// Keywords whose value is an object of subschemas.
pub(crate) const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];
/// Keywords whose value is data, never a subschema.
pub(crate) const DATA: &[&str] = &[
    "const",
    "enum",
    "default",
    "examples",
    "required",
    "type",
    "dependentRequired",
    "discriminator",
    "$vocabulary",
];

/// Keywords that make a subschema worth guarding: the ones that revisit an instance location
/// (refs and combinators: the only ways to recursion and exponential work) or cost more than a
/// step per value (enums, patterns, uniqueness, formats). A subschema without any of them moves
/// the validation one step into the instance, so between two guards the work is bounded by the
/// instance's size; leaving them unguarded keeps the validator's fast paths (a guard in every
/// subschema cost 1.8x on a 10 MB result).
const GUARDED_AT: &[&str] = &[
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "dependentSchemas",
    "dependencies",
    "enum",
    "const",
    "pattern",
    "patternProperties",
    "propertyNames",
    "uniqueItems",
    "contains",
    "unevaluatedProperties",
    "unevaluatedItems",
    "format",
    "multipleOf",
];

/// A copy of `schema` with [`GUARD`] first in the root and in every subschema that has one of
/// [`GUARDED_AT`], and [`numbers::WATCH`] beside numeric keywords (iteratively: the schema may
/// be deep). Keywords holding data (`const`,
/// `enum`, `default` …) are left exactly as sent.
pub fn guarded(schema: &Value) -> Value {
    let mut root = schema.clone();
    guard(&mut root);
    root
}

/// [`guarded`] in place: for a schema that is compiled and then dropped, no copy.
pub fn guard(root: &mut Value) {
    let mut stack: Vec<(&mut Value, bool)> = vec![(root, true)];
    while let Some((node, is_root)) = stack.pop() {
        let Value::Object(map) = node else { continue };
        if is_root || GUARDED_AT.iter().any(|k| map.contains_key(*k)) {
            let mut with_guard = Map::with_capacity(map.len() + 2);
            with_guard.insert(GUARD.into(), Value::Bool(true));
            with_guard.extend(std::mem::take(map));
            *map = with_guard;
        }
        if numbers::watches(map) {
            map.insert(numbers::WATCH.into(), Value::Bool(true));
        }
        for (key, value) in map.iter_mut() {
            if key == GUARD || DATA.contains(&key.as_str()) {
                continue;
            }
            if SCHEMA_MAPS.contains(&key.as_str())
                && let Value::Object(children) = value
            {
                stack.extend(children.values_mut().map(|c| (c, false)));
            } else if let Value::Array(items) = value {
                stack.extend(items.iter_mut().map(|i| (i, false)));
            } else if value.is_object() {
                stack.push((value, false));
            }
        }
    }
}

/// How a schema nests: its deepest path through subschemas and same-document `$ref`s (a cycle
/// counts once), up to `limit + 1`, and whether a `$ref` leads back into its own path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub depth: usize,
    pub cyclic: bool,
}

/// Deepest validation an acyclic schema may have to run on the caller's thread: at most this
/// many subschemas deep, its recursion fits any thread's stack.
pub const INLINE_DEPTH: usize = 64;

impl Shape {
    /// Whether validating against it can recurse deeper than [`INLINE_DEPTH`] steps.
    pub fn needs_large_stack(self) -> bool {
        self.cyclic || self.depth > INLINE_DEPTH
    }
}

/// The [`Shape`] of a schema. Iterative, and linear in the schema's size.
pub fn shape<'a>(schema: &'a Value, limit: usize) -> Shape {
    let mut cyclic = false;
    use std::collections::HashMap;
    let doc = super::refs::Document::new(schema);
    let id = |v: &Value| v as *const Value as usize;
    // Depth below each finished node; nodes on the current path are absent (a cycle: 0).
    let mut done: HashMap<usize, usize> = HashMap::new();
    let mut on_path: std::collections::HashSet<usize> = Default::default();
    // (node, children, next child index, deepest child so far)
    let mut stack: Vec<(&'a Value, Vec<&'a Value>, usize, usize)> = Vec::new();
    let children = |v: &'a Value| subschemas(&doc, v);
    on_path.insert(id(schema));
    stack.push((schema, children(schema), 0, 0));
    let mut deepest = 0;
    let too_deep = |cyclic| Shape {
        depth: limit + 1,
        cyclic,
    };
    loop {
        if stack.len() > limit {
            return too_deep(cyclic);
        }
        let Some((node, kids, next, best)) = stack.last_mut() else {
            break;
        };
        if *next < kids.len() {
            let child = kids[*next];
            *next += 1;
            if let Some(d) = done.get(&id(child)) {
                *best = (*best).max(*d);
            } else if on_path.contains(&id(child)) {
                cyclic = true;
            } else {
                on_path.insert(id(child));
                let grandchildren = children(child);
                stack.push((child, grandchildren, 0, 0));
            }
            continue;
        }
        let below = *best + 1;
        let node_id = id(node);
        stack.pop();
        on_path.remove(&node_id);
        done.insert(node_id, below);
        deepest = deepest.max(below);
        if below > limit {
            return too_deep(cyclic);
        }
        if let Some(parent) = stack.last_mut() {
            parent.3 = parent.3.max(below);
        }
    }
    Shape {
        depth: deepest,
        cyclic,
    }
}

/// What a schema node leads to: its object and array values but data, and its `$ref` target.
fn subschemas<'a>(doc: &super::refs::Document<'a>, v: &'a Value) -> Vec<&'a Value> {
    let mut out = Vec::new();
    match v {
        Value::Object(map) => {
            for (key, value) in map {
                if DATA.contains(&key.as_str()) {
                    continue;
                }
                if key == "$ref"
                    && let Value::String(r) = value
                    && let super::refs::RefTarget::Found { schema, .. } = doc.resolve(r)
                {
                    out.push(schema);
                } else if value.is_object() || value.is_array() {
                    out.push(value);
                }
            }
        }
        Value::Array(items) => out.extend(items.iter().filter(|i| i.is_object() || i.is_array())),
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_guard_goes_first_where_work_can_multiply_and_never_into_data() {
        let schema = json!({"type": "object", "properties": {"a": {"const": {"k": 1}}, "b": {"items": [{"type": "string", "pattern": "x"}]}, "c": {"type": "string"}},
            "dependentRequired": {"a": ["b"]},
            "$defs": {"d": {"allOf": [{"minimum": 1}]}}, "enum": [{"x": 1}]});
        let g = guarded(&schema);
        assert_eq!(
            g.as_object()
                .and_then(|m| m.keys().next())
                .map(String::as_str),
            Some(GUARD)
        );
        assert_eq!(g.pointer("/properties/a/const"), Some(&json!({"k": 1})));
        assert_eq!(
            g.pointer(&format!("/properties/b/items/0/{GUARD}")),
            Some(&json!(true))
        );
        assert_eq!(g.pointer(&format!("/$defs/d/{GUARD}")), Some(&json!(true)));
        assert_eq!(g.pointer("/enum"), Some(&json!([{"x": 1}])));
        assert_eq!(g.pointer("/dependentRequired"), Some(&json!({"a": ["b"]})));
        assert!(g.pointer(&format!("/properties/{GUARD}")).is_none());
        assert!(
            g.pointer(&format!("/properties/c/{GUARD}")).is_none(),
            "a plain step"
        );
    }

    #[test]
    fn depth_follows_refs_counts_cycles_once_and_stops_at_the_limit() {
        let recursive = json!({"$defs": {"n": {"properties": {"next": {"$ref": "#/$defs/n"}}}}, "$ref": "#/$defs/n"});
        let recursive = shape(&recursive, 100);
        assert!(recursive.depth < 10 && recursive.cyclic);
        assert!(!shape(&json!({"properties": {"a": {"type": "string"}}}), 100).needs_large_stack());
        let mut defs = Map::new();
        for i in 0..5_000 {
            defs.insert(
                format!("d{i}"),
                json!({"$ref": format!("#/$defs/d{}", i + 1)}),
            );
        }
        defs.insert("d5000".into(), json!({"type": "string"}));
        let chain = json!({"$defs": defs, "$ref": "#/$defs/d0"});
        assert_eq!(shape(&chain, MAX_SCHEMA_DEPTH).depth, MAX_SCHEMA_DEPTH + 1);
    }

    #[test]
    fn a_spent_budget_unwinds_to_run_with_its_reason() {
        let deadline = Instant::now() + Duration::from_secs(60);
        assert_eq!(
            run(deadline, 3, || (0..10).for_each(|_| visit())),
            Err(Stop::Large)
        );
        assert_eq!(run(deadline, 30, || 7), Ok(7));
        let past = Instant::now();
        assert_eq!(
            run(past, 5_000, || (0..5_000).for_each(|_| visit())),
            Err(Stop::Slow)
        );
    }
}
