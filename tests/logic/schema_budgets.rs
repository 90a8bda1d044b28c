//! Schemas built to exhaust the validator: a 60,000-link `$ref` chain (once a stack overflow),
//! nested `allOf`s over one `$ref` (exponential, even for a conforming instance) and an error
//! flood. Each must end within its budget with a named reason, in this very process. How long
//! each takes is measured in `benches/schema.rs` (budgets), not timed here.

use mcp_inspect::testing::schema::{Compiled, Unusable};
use serde_json::{Map, Value, json};
use std::time::Duration;

fn ref_chain(links: usize) -> Value {
    let mut defs = Map::new();
    for i in 0..links {
        defs.insert(
            format!("d{i}"),
            json!({"$ref": format!("#/$defs/d{}", i + 1)}),
        );
    }
    defs.insert(format!("d{links}"), json!({"type": "object"}));
    json!({"$defs": defs, "$ref": "#/$defs/d0"})
}

/// `n = {allOf: [{properties: {a: n}}, {properties: {a: n}}]}`: 2^depth visits for an instance
/// nested `depth` levels.
fn doubling() -> Value {
    json!({"$defs": {"n": {"type": "object", "allOf": [
        {"properties": {"a": {"$ref": "#/$defs/n"}}},
        {"properties": {"a": {"$ref": "#/$defs/n"}}}
    ]}}, "$ref": "#/$defs/n"})
}

/// `d0 = allOf[d1, d1]`, `d1 = allOf[d2, d2]` …: 2^levels visits for any instance, no recursion.
fn fan(levels: usize) -> Value {
    let mut defs = Map::new();
    for i in 0..levels {
        let next = json!({"$ref": format!("#/$defs/d{}", i + 1)});
        defs.insert(format!("d{i}"), json!({"allOf": [next.clone(), next]}));
    }
    defs.insert(format!("d{levels}"), json!({"minProperties": 0}));
    json!({"$defs": defs, "$ref": "#/$defs/d0"})
}

fn nested(depth: usize, leaf: Value) -> Value {
    (0..depth).fold(leaf, |inner, _| json!({"a": inner}))
}

#[test]
fn a_sixty_thousand_link_ref_chain_is_too_deep_not_a_stack_overflow() {
    let compiled = Compiled::new(&ref_chain(60_000));
    match compiled.unusable() {
        Some(Unusable::TooDeep(why)) => assert!(why.contains("1000 levels"), "{why}"),
        other => panic!("expected too deep, got {other:?}"),
    }
    assert!(compiled.check(&json!({})).is_err());
}

#[test]
fn a_chain_within_the_depth_limit_still_validates() {
    let compiled = Compiled::new(&ref_chain(300));
    assert!(compiled.unusable().is_none());
    let checked = compiled.check(&json!("not an object")).expect("usable");
    assert_eq!(checked.violations.len(), 1);
    assert!(checked.incomplete.is_none());
}

#[test]
fn recursive_doubling_is_judged_in_full_for_a_conforming_instance() {
    let checked = Compiled::new(&doubling())
        .check(&nested(40, json!({})))
        .expect("usable");
    assert!(checked.violations.is_empty() && checked.incomplete.is_none());
}

#[test]
fn exponential_validation_of_a_conforming_instance_ends_at_its_budget() {
    let compiled = Compiled::new(&fan(40));
    let instance = json!({"any": "thing"});
    let limit = Duration::from_millis(300);
    let checked = compiled.check_within(&instance, limit).expect("usable");
    assert!(checked.violations.is_empty());
    let why = checked.incomplete.expect("stopped, not judged");
    assert!(
        why.contains("validation exceeded 0.30 s") || why.contains("too large"),
        "{why}"
    );
}

#[test]
fn exponential_validation_of_a_violating_instance_still_names_a_violation() {
    let compiled = Compiled::new(&doubling());
    let instance = nested(40, json!({"a": 5}));
    let checked = compiled
        .check_within(&instance, Duration::from_millis(300))
        .expect("usable");
    assert!(checked.incomplete.is_some());
    assert_eq!(checked.violations.len(), 1, "{checked:?}");
}

#[test]
fn small_exponential_cases_are_judged_in_full() {
    let compiled = Compiled::new(&doubling());
    let checked = compiled.check(&nested(6, json!({}))).expect("usable");
    assert!(checked.violations.is_empty() && checked.incomplete.is_none());
}
