//! Schema engine benchmarks: a 100,000-node schema tree, and the whole verdict on a 10 MB
//! structuredContent with 1,000 violations against the jsonschema crate validating it directly.

mod support;

use mcp_inspect::schema::verdict::{ResultView, verdict};
use mcp_inspect::schema::{Compiled, Era, SchemaTree, Status};
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
    println!("peak RSS: {} MiB", support::peak_rss_kib() / 1024);
}
