//! Schema engine benchmarks: a 100,000-node schema tree, and the whole verdict on a 10 MB
//! structuredContent with 1,000 violations against the jsonschema crate validating it directly.

mod support;

use mcp_inspect::testing::schema::verdict::{ResultView, verdict};
use mcp_inspect::testing::schema::{Compiled, Era, SchemaTree, Status};
use serde_json::{Value, json};
use std::time::Duration;
use support::measure;

/// An object schema with `n` properties, each a small object of 4 typed fields (5 rows each).
fn wide_schema(rows: usize) -> Value {
    let mut props = serde_json::Map::new();
    for i in 0..rows / 5 {
        props.insert(format!("p{i}"), json!({"type": "object", "properties": {
            "a": {"type": "string", "maxLength": 10}, "b": {"type": "integer"}, "c": {"type": "boolean"}, "d": {"type": "number"}}}));
    }
    json!({"type": "object", "properties": props})
}

/// An array of records totalling about 10 MB, with `bad` records breaking the schema once each.
fn big_instance(bad: usize) -> (Value, Value) {
    let schema = json!({"type": "object", "properties": {"records": {"type": "array", "items": {"type": "object", "properties": {
        "id": {"type": "integer", "minimum": 0}, "name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}, "score": {"type": "number"}
    }, "required": ["id", "name"]}}}, "required": ["records"]});
    let mut records = Vec::new();
    let mut size = 0;
    let mut i = 0usize;
    while size < 10 * 1024 * 1024 {
        let id: i64 = if i < bad { -1 } else { i as i64 };
        let r = json!({"id": id, "name": format!("record number {i} with some padding text"), "tags": ["alpha", "beta", "gamma"], "score": i as f64 / 3.0});
        size += r.to_string().len();
        records.push(r);
        i += 1;
    }
    (schema, json!({"records": records}))
}

fn main() {
    let budget = Duration::from_secs(3);
    let schema = wide_schema(100_000);
    let tree = SchemaTree::build(&schema);
    println!("schema tree rows: {}", tree.nodes.len());
    measure("tree: build a 100,000-row schema tree", budget, || {
        SchemaTree::build(&schema).nodes.len()
    });

    let (schema, instance) = big_instance(1_000);
    println!(
        "instance size: {:.1} MB",
        instance.to_string().len() as f64 / 1e6
    );
    let compiled = Compiled::new(&schema);
    let bare = jsonschema::options()
        .offline()
        .build(&schema)
        .expect("compiles");
    let direct = measure(
        "validate: jsonschema iter_errors, 1,000 errors (baseline)",
        budget,
        || {
            bare.iter_errors(&instance)
                .map(|e| e.instance_path().as_str().len())
                .sum::<usize>()
        },
    );
    let ours = measure(
        "validate: mcp-inspect verdict, same document",
        budget,
        || {
            let v = verdict(
                Some((&schema, &compiled)),
                ResultView {
                    is_error: false,
                    structured: Some(&instance),
                    texts: &[],
                    meta: None,
                },
                Era::Modern,
            );
            assert_eq!(v.status, Status::Violations);
            assert_eq!(v.violations.len(), 1_000);
            v.violations.len()
        },
    );
    println!(
        "verdict / bare validation: {:.2}x (target 1.2x)",
        ours.median.as_secs_f64() / direct.median.as_secs_f64()
    );
    drift(budget);
    budgets(budget);
    println!("peak RSS: {} MiB", support::peak_rss_kib() / 1024);
}

/// A snapshot of `n` tools, each with a nested input schema (a `$ref` into `$defs`) and an
/// output schema; `changed` of them with a bound tightened and a property made required.
fn snapshot(n: usize, changed: usize) -> Value {
    let tools: Vec<Value> = (0..n)
        .map(|i| {
            let limit = if i < changed { 10 } else { 100 };
            let required = if i < changed {
                json!(["query", "limit"])
            } else {
                json!(["query"])
            };
            json!({
                "name": format!("tool_{i:05}"),
                "description": format!("Tool number {i}, which searches something."),
                "inputSchema": {"type": "object", "properties": {
                    "query": {"type": "string", "minLength": 1},
                    "limit": {"type": "integer", "maximum": limit},
                    "mode": {"enum": ["fast", "full"]},
                    "where": {"$ref": "#/$defs/Place"},
                    "tags": {"type": "array", "items": {"type": "string"}}
                }, "required": required, "$defs": {"Place": {"type": "object", "properties": {
                    "lat": {"type": "number"}, "lon": {"type": "number"}}}}},
                "outputSchema": {"type": "object", "properties": {
                    "items": {"type": "array", "items": {"type": "object", "properties": {
                        "id": {"type": "string"}, "score": {"type": "number"}}}}}},
                "annotations": {"readOnlyHint": true}
            })
        })
        .collect();
    json!({"mcpInspectSnapshot": 1, "tools": tools})
}

/// `diff` of two 10,000-tool snapshots (100 tools changed) against deep equality of the same two
/// documents, the least any comparison costs.
fn drift(budget: Duration) {
    use mcp_inspect::testing::drift::compare;
    let (old, new) = (snapshot(10_000, 0), snapshot(10_000, 100));
    // Equal documents: equality walks all of both (a difference would end it early).
    let same = old.clone();
    let equal = measure(
        "drift: deep equality of two equal 10,000-tool snapshots (baseline)",
        budget,
        || old == same,
    );
    let diffed = measure(
        "drift: diff two 10,000-tool snapshots, 100 changed",
        budget,
        || {
            let changes = compare::tools(&old, &new);
            assert_eq!(changes.len(), 200);
            changes.len()
        },
    );
    println!(
        "drift: diff {:.1} ms (target under 1 s), {:.1}x deep equality",
        diffed.median.as_secs_f64() * 1e3,
        diffed.median.as_secs_f64() / equal.median.as_secs_f64()
    );
}

/// The schemas built to exhaust the validator (`tests/logic/schema_budgets.rs` checks what
/// they come to; here, how long): nested `allOf`s over one `$ref`, judged in full when the
/// instance conforms; a fan that only a time budget stops; a self-referencing skeleton.
fn budgets(budget: Duration) {
    use mcp_inspect::testing::schema::skeleton::skeleton;
    let doubling = json!({"$defs": {"n": {"type": "object", "allOf": [
        {"properties": {"a": {"$ref": "#/$defs/n"}}},
        {"properties": {"a": {"$ref": "#/$defs/n"}}}
    ]}}, "$ref": "#/$defs/n"});
    let nested = |leaf: Value| (0..40).fold(leaf, |inner, _| json!({"a": inner}));
    let compiled = Compiled::new(&doubling);
    let conforming = nested(json!({}));
    let full = measure(
        "budgets: doubling allOf, 40 deep, conforming",
        budget,
        || compiled.check(&conforming).map(|c| c.violations.len()),
    );
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        let next = json!({"$ref": format!("#/$defs/d{}", i + 1)});
        defs.insert(format!("d{i}"), json!({"allOf": [next.clone(), next]}));
    }
    defs.insert("d40".into(), json!({"minProperties": 0}));
    let fan = Compiled::new(&json!({"$defs": defs, "$ref": "#/$defs/d0"}));
    let limit = Duration::from_millis(300);
    let stopped = measure("budgets: a 2^40 fan under a 300 ms budget", budget, || {
        fan.check_within(&json!({"any": "thing"}), limit)
            .map(|c| c.incomplete.is_some())
    });
    let names: Vec<String> = (0..10).map(|i| format!("p{i}")).collect();
    let props: serde_json::Map<String, Value> = names
        .iter()
        .map(|n| (n.clone(), json!({"$ref": "#"})))
        .collect();
    let fanning = json!({"type": "object", "properties": props, "required": names});
    let skeletons = measure(
        "budgets: skeleton of a 10-way self-referencing fan",
        budget,
        || skeleton(&fanning),
    );
    println!(
        "budgets: doubling {:.1} ms (target under 2 s), fan stopped {:.0} ms after its 300 ms budget (target under 100), skeleton {:.1} ms (target under 1 s)",
        full.median.as_secs_f64() * 1e3,
        (stopped.median.as_secs_f64() - limit.as_secs_f64()) * 1e3,
        skeletons.median.as_secs_f64() * 1e3
    );
}
