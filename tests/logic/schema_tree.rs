//! Display trees: every keyword shown, refs resolved with badges, recursion as back-links, caps.

use mcp_inspect::testing::schema::lint::{ToolSchemas, lint};
use mcp_inspect::testing::schema::signature::{signature, type_text};
use mcp_inspect::testing::schema::{Edge, SchemaTree, boxing};
use serde_json::{Value, json};

fn labels(tree: &SchemaTree, id: usize) -> Vec<String> {
    tree.nodes[id]
        .children
        .iter()
        .map(|c| tree.nodes[*c].edge.label())
        .collect()
}

fn child(tree: &SchemaTree, id: usize, label: &str) -> usize {
    *tree.nodes[id]
        .children
        .iter()
        .find(|c| tree.nodes[**c].edge.label() == label)
        .unwrap_or_else(|| panic!("no child {label} under {id}: {:?}", labels(tree, id)))
}

#[test]
fn properties_keep_order_required_and_facts() {
    let tree = SchemaTree::build(&json!({"type": "object", "properties": {
        "query": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^\\w", "description": "What to find"},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
        "when": {"type": "string", "format": "date-time", "deprecated": true, "examples": ["2026-01-01T00:00:00Z"]}
    }, "required": ["query"], "additionalProperties": false}));
    assert_eq!(labels(&tree, 0), ["query", "limit", "when"]);
    let q = &tree.nodes[child(&tree, 0, "query")];
    assert!(q.required);
    assert_eq!(
        q.facts.constraints,
        ["minLength: 1", "maxLength: 200", "pattern: ^\\w"]
    );
    assert_eq!(q.facts.description.as_deref(), Some("What to find"));
    assert_eq!(q.pointer, "/properties/query");
    let l = &tree.nodes[child(&tree, 0, "limit")];
    assert!(!l.required);
    assert_eq!(l.facts.default, Some(json!(10)));
    let w = &tree.nodes[child(&tree, 0, "when")];
    assert_eq!(w.facts.flags, ["deprecated"]);
    assert_eq!(w.facts.examples, [json!("2026-01-01T00:00:00Z")]);
    assert!(
        tree.root()
            .facts
            .constraints
            .contains(&"no additional properties".to_string())
    );
}

#[test]
fn every_2020_12_applicator_is_a_row() {
    let tree = SchemaTree::build(&json!({
        "type": "object",
        "properties": {"a": {}},
        "patternProperties": {"^x-": {"type": "string"}},
        "additionalProperties": {"type": "number"},
        "propertyNames": {"maxLength": 10},
        "dependentSchemas": {"a": {"required": ["b"]}},
        "dependentRequired": {"a": ["c"]},
        "allOf": [{"title": "one"}],
        "anyOf": [{"type": "object"}, {"required": ["a"]}],
        "oneOf": [{}, {}],
        "not": {"required": ["z"]},
        "if": {"properties": {"a": {"const": 1}}},
        "then": {"required": ["b"]},
        "else": {"required": ["c"]},
        "x-vendor": {"k": 1}
    }));
    assert_eq!(
        labels(&tree, 0),
        [
            "a",
            "/^x-/",
            "(additional properties)",
            "(property names)",
            "(if a present)",
            "allOf[0]",
            "anyOf[0]",
            "anyOf[1]",
            "oneOf[0]",
            "oneOf[1]",
            "not",
            "(if)",
            "(then: when if holds)",
            "(else: when if fails)"
        ]
    );
    assert!(
        tree.root()
            .facts
            .constraints
            .contains(&"if a present, requires: c".to_string())
    );
    assert_eq!(
        tree.root().facts.extras,
        [("x-vendor".to_string(), json!({"k": 1}))]
    );
    // A subschema of `required` alone says what it requires (it read as a bare `any`).
    for (label, name) in [
        ("(then: when if holds)", "b"),
        ("(else: when if fails)", "c"),
        ("not", "z"),
        ("anyOf[1]", "a"),
    ] {
        let facts = &tree.nodes[child(&tree, 0, label)].facts;
        assert_eq!(facts.constraints, [format!("requires: {name}")], "{label}");
    }
}

#[test]
fn arrays_prefix_items_contains_and_draft07_tuples() {
    let t = SchemaTree::build(
        &json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false, "contains": {"const": 3}, "minContains": 1, "uniqueItems": true}),
    );
    assert_eq!(labels(&t, 0), ["[0]", "[1]", "(contains)"]);
    assert!(t.root().facts.constraints.contains(&"no items".to_string()));
    assert!(
        t.root()
            .facts
            .constraints
            .contains(&"uniqueItems".to_string())
    );
    let d7 = SchemaTree::build(
        &json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "array", "items": [{"type": "string"}], "additionalItems": {"type": "number"}}),
    );
    assert_eq!(labels(&d7, 0), ["[0]", "(additional items)"]);
    assert_eq!(d7.nodes[child(&d7, 0, "[0]")].instance_path, "/0");
}

#[test]
fn refs_resolve_with_badge_and_sibling_keywords_kept() {
    let t = SchemaTree::build(
        &json!({"type": "object", "$defs": {"Point": {"type": "object", "description": "A point", "properties": {"x": {"type": "number"}}}},
        "properties": {"at": {"$ref": "#/$defs/Point", "description": "Where"}}}),
    );
    let at = &t.nodes[child(&t, 0, "at")];
    assert_eq!(at.facts.ref_name.as_deref(), Some("Point"));
    assert_eq!(
        at.facts.description.as_deref(),
        Some("Where"),
        "sibling wins over target"
    );
    assert_eq!(at.facts.types, ["object"]);
    let x = &t.nodes[child(&t, child(&t, 0, "at"), "x")];
    assert_eq!(x.pointer, "/$defs/Point/properties/x");
    assert_eq!(x.eval_path, "/properties/at/$ref/properties/x");
    assert_eq!(x.instance_path, "/at/x");
}

#[test]
fn recursion_is_a_back_link_not_an_infinite_tree() {
    let t = SchemaTree::build(&json!({"$defs": {"Node": {"type": "object", "properties": {
        "name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}},
        "$ref": "#/$defs/Node"}));
    assert!(t.nodes.len() < 10, "{} rows", t.nodes.len());
    let children = child(&t, 0, "children");
    let items = child(&t, children, "[]");
    assert_eq!(t.nodes[items].facts.back_link, Some(0));
    assert_eq!(type_text(&t, children), "Node[]");
    let root_ref =
        SchemaTree::build(&json!({"type": "object", "properties": {"self": {"$ref": "#"}}}));
    assert_eq!(root_ref.nodes[1].facts.back_link, Some(0));
}

#[test]
fn dangling_and_foreign_refs_are_visible_problems() {
    let t = SchemaTree::build(&json!({"type": "object", "properties": {
        "a": {"$ref": "#/$defs/Missing"}, "b": {"$ref": "https://example.com/x.json"}, "c": {"$ref": "#/$defs/Ok"}}, "$defs": {"Ok": {}}}));
    let problems: Vec<(usize, &str)> = t.problems().collect();
    assert_eq!(problems.len(), 2);
    assert!(problems[0].1.contains("dangling $ref #/$defs/Missing"));
    assert!(problems[1].1.contains("not fetched"));
    // Refs resolve from the root: a definition of the same name nested deeper is named, in the
    // tree and in `check`.
    let nested = json!({"type": "object", "properties": {"result": {
        "$defs": {"Node": {"type": "string"}}, "properties": {"n": {"$ref": "#/$defs/Node"}}}}});
    let hint =
        "refs resolve from the root; a `Node` definition sits at /properties/result/$defs/Node";
    let t = SchemaTree::build(&nested);
    let problems: Vec<(usize, &str)> = t.problems().collect();
    assert!(problems[0].1.contains(hint), "{problems:?}");
    let tool = ToolSchemas {
        name: "t",
        description: None,
        input: &nested,
        output: None,
    };
    let findings = lint(&[tool], mcp_inspect::testing::schema::Era::Legacy);
    assert!(
        findings.iter().any(|f| f.message.contains(hint)),
        "{findings:?}"
    );
}

#[test]
fn nullable_any_of_reads_as_nullable_type() {
    let t = SchemaTree::build(&json!({"type": "object", "properties": {
        "note": {"anyOf": [{"type": "string", "maxLength": 5}, {"type": "null"}], "default": null},
        "tags": {"type": ["array", "null"], "items": {"type": "string"}},
        "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}));
    let note = child(&t, 0, "note");
    assert!(t.nodes[note].facts.nullable);
    assert_eq!(t.nodes[note].facts.constraints, ["maxLength: 5"]);
    assert!(t.nodes[note].children.is_empty());
    assert_eq!(type_text(&t, note), "string | null");
    assert_eq!(type_text(&t, child(&t, 0, "tags")), "string[] | null");
    assert_eq!(type_text(&t, child(&t, 0, "either")), "string | integer");
}

#[test]
fn boolean_schemas_show_as_any_and_never() {
    let t = SchemaTree::build(
        &json!({"type": "object", "properties": {"anything": true, "nothing": false}}),
    );
    assert_eq!(type_text(&t, child(&t, 0, "anything")), "any");
    assert_eq!(type_text(&t, child(&t, 0, "nothing")), "never");
}

#[test]
fn ref_bomb_stops_expanding_refs_but_keeps_every_other_row() {
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        defs.insert(format!("L{i}"), json!({"anyOf": [{"$ref": format!("#/$defs/L{}", i + 1)}, {"$ref": format!("#/$defs/L{}", i + 1)}]}));
    }
    defs.insert("L40".into(), json!({"type": "string"}));
    let t = SchemaTree::build(&json!({
        "$defs": defs,
        "type": "object",
        "properties": {"bomb": {"$ref": "#/$defs/L0"}, "after": {"type": "integer"}},
    }));
    let limit = mcp_inspect::testing::schema::tree::MAX_REF_ROWS;
    assert!(t.nodes.len() <= limit + 100, "{} rows", t.nodes.len());
    assert!(t.problems().any(|(_, p)| p.contains("not expanded")));
    // Rows outside refs are all there: the property after the bomb too.
    assert!(
        t.nodes[0]
            .children
            .iter()
            .any(|c| t.nodes[*c].edge == Edge::Property("after".into()))
    );
}

#[test]
fn a_schema_larger_than_the_row_cap_is_cut_with_a_notice() {
    let cap = mcp_inspect::testing::schema::tree::MAX_NODES;
    let properties: serde_json::Map<String, serde_json::Value> = (0..cap + 5)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let t = SchemaTree::build(&json!({"type": "object", "properties": properties}));
    assert_eq!(t.nodes.len(), cap);
    assert!(
        t.notice.as_deref().is_some_and(|n| n.contains("cut at")),
        "{:?}",
        t.notice
    );
}

#[test]
fn a_definition_used_twice_is_expanded_at_both_places() {
    let t = SchemaTree::build(&json!({
        "$defs": {"Address": {"type": "object", "properties": {"city": {"type": "string"}}}},
        "type": "object",
        "properties": {"billing": {"$ref": "#/$defs/Address"}, "shipping": {"$ref": "#/$defs/Address"}},
    }));
    for name in ["billing", "shipping"] {
        let id = child(&t, 0, name);
        assert_eq!(t.nodes[id].children.len(), 1, "{name}");
    }
}

#[test]
fn deep_nesting_stops_with_a_problem() {
    let mut s = json!({"type": "string"});
    for _ in 0..100 {
        s = json!({"type": "object", "properties": {"x": s}});
    }
    let t = SchemaTree::build(&s);
    assert!(t.problems().any(|(_, p)| p.contains("nested deeper")));
}

#[test]
fn eval_paths_map_violations_to_rows() {
    let t = SchemaTree::build(
        &json!({"type": "object", "properties": {"list": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}}}}}),
    );
    let id = t.node_for_eval_path("/properties/list/items/properties/n/type");
    assert_eq!(t.nodes[id].edge, Edge::Property("n".into()));
    assert_eq!(t.nodes[id].instance_path, "/list/*/n");
    assert_eq!(t.node_for_eval_path("/required"), 0);
}

#[test]
fn signatures_read_naturally() {
    let input = SchemaTree::build(&json!({"type": "object", "properties": {
        "limit": {"type": "integer", "default": 10}, "query": {"type": "string"}, "mode": {"enum": ["a", "b"]}}, "required": ["query"]}));
    let out_schema = json!({"type": "object", "properties": {"result": {"type": "array", "items": {"type": "string"}}}, "required": ["result"], "x-fastmcp-wrap-result": true});
    let output = SchemaTree::build(&out_schema);
    let b = boxing::detect(&out_schema, None);
    assert_eq!(
        signature("search", &input, Some((&output, b.as_ref()))),
        "search(query: string, limit?: integer = 10, mode?: \"a\" | \"b\") -> string[]"
    );
    assert_eq!(
        signature("ping", &SchemaTree::build(&json!({"type": "object"})), None),
        "ping()"
    );
    // Union branches that are all objects read apart: by title, else by the property each
    // fixes with a const.
    let pets = SchemaTree::build(&json!({"type": "object", "properties": {"pet": {"oneOf": [
        {"type": "object", "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}}},
        {"type": "object", "title": "Dog"},
        {"type": "object"}]}}}));
    assert_eq!(
        signature("adopt", &pets, None),
        "adopt(pet?: {kind: \"cat\"} | Dog | object)"
    );
}

#[test]
fn an_outline_of_a_huge_schema_is_a_few_rows_and_its_signature_says_it_was_cut() {
    let properties: serde_json::Map<String, Value> = (0..30_000)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let schema = json!({"type": "object", "properties": properties, "required": ["p0"]});
    let outline = SchemaTree::outline(&schema);
    assert!(outline.nodes.len() <= 2_000, "{} rows", outline.nodes.len());
    assert!(outline.notice.is_some());
    let line = signature("wide", &outline, None);
    assert!(line.starts_with("wide(p0: string, p1?: string"), "{line}");
    assert!(line.ends_with(", …)"), "{}", &line[line.len() - 40..]);
    // A whole tree is not cut, and its signature does not say so.
    assert_eq!(SchemaTree::build(&schema).nodes.len(), 30_001);
    let small = json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}}});
    assert_eq!(
        signature("small", &SchemaTree::outline(&small), None),
        "small(a?: integer[][])"
    );
}

#[test]
fn arbitrary_values_never_panic() {
    for v in [
        json!(null),
        json!(1),
        json!("x"),
        json!([1, {"$ref": "#"}]),
        json!({"properties": 5, "items": "x", "anyOf": {}, "$ref": 3}),
    ] {
        let t = SchemaTree::build(&v);
        assert!(!t.nodes.is_empty());
        let _ = type_text(&t, 0);
    }
    let _: Value = json!({});
}
