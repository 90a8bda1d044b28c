//! Schema drift rules, each in both directions: what a change to an input schema does to
//! callers and to an output schema to consumers; refs moved into `$defs` are no change;
//! recursive schemas end; boxing, tools removed (and renamed), annotations.

use mcp_inspect::testing::drift::compare::{self, Audience, Change, Verdict};
use serde_json::{Value, json};

fn snapshot(tools: Vec<Value>) -> Value {
    json!({"mcpInspectSnapshot": 1, "tools": tools})
}

fn tool(input: Value, output: Option<Value>) -> Value {
    let mut t = json!({"name": "t", "inputSchema": input});
    if let Some(o) = output {
        t["outputSchema"] = o;
    }
    t
}

/// The changes from `old` to `new` as an input schema, then as an output schema.
fn both_ways(old: Value, new: Value) -> (Vec<Change>, Vec<Change>) {
    let as_input = compare::tools(
        &snapshot(vec![tool(old.clone(), None)]),
        &snapshot(vec![tool(new.clone(), None)]),
    );
    let empty = json!({"type": "object"});
    let as_output = compare::tools(
        &snapshot(vec![tool(empty.clone(), Some(old))]),
        &snapshot(vec![tool(empty, Some(new))]),
    );
    (as_input, as_output)
}

fn verdicts(changes: &[Change]) -> Vec<Verdict> {
    changes.iter().map(|c| c.verdict).collect()
}

/// Asserts one change each way with these verdicts (input, output), then the reverse change's.
#[track_caller]
fn rule(old: Value, new: Value, forward: [Verdict; 2], reverse: [Verdict; 2]) {
    let (i, o) = both_ways(old.clone(), new.clone());
    assert_eq!(verdicts(&i), [forward[0]], "input {old} → {new}: {i:#?}");
    assert_eq!(verdicts(&o), [forward[1]], "output {old} → {new}: {o:#?}");
    let (i, o) = both_ways(new.clone(), old.clone());
    assert_eq!(verdicts(&i), [reverse[0]], "input {new} → {old}: {i:#?}");
    assert_eq!(verdicts(&o), [reverse[1]], "output {new} → {old}: {o:#?}");
}

use Verdict::{Breaking as B, Compatible as C, Info as I, Unknown as U};

fn obj(props: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": props, "required": required})
}

#[test]
fn properties_added_removed_and_required() {
    // Added optional: compatible for both; removed: breaking for both.
    rule(
        obj(json!({}), &[]),
        obj(json!({"a": {"type": "string"}}), &[]),
        [C, C],
        [B, B],
    );
    // A new required property breaks callers; consumers get more.
    let (i, o) = both_ways(obj(json!({}), &[]), obj(json!({"a": {}}), &["a"]));
    assert_eq!((verdicts(&i), verdicts(&o)), (vec![B], vec![C]));
    // Became required: callers break; consumers can rely on more. Dropped: the reverse.
    rule(
        obj(json!({"a": {}}), &[]),
        obj(json!({"a": {}}), &["a"]),
        [B, C],
        [C, B],
    );
}

#[test]
fn types_narrowed_widened_and_changed() {
    rule(
        json!({"type": ["string", "number"]}),
        json!({"type": "string"}),
        [B, C],
        [C, B],
    );
    rule(
        json!({"type": "number"}),
        json!({"type": "integer"}),
        [B, C],
        [C, B],
    );
    rule(json!({}), json!({"type": "string"}), [B, C], [C, B]);
    // A type that changed breaks both audiences, both ways.
    rule(
        json!({"type": "string"}),
        json!({"type": "boolean"}),
        [B, B],
        [B, B],
    );
}

#[test]
fn enums_consts_and_closed_objects() {
    rule(
        json!({"enum": ["a", "b"]}),
        json!({"enum": ["a"]}),
        [B, C],
        [C, B],
    );
    rule(
        json!({"enum": ["a", "b"]}),
        json!({"enum": ["a", "c"]}),
        [B, B],
        [B, B],
    );
    rule(
        json!({"type": "string"}),
        json!({"type": "string", "const": "x"}),
        [B, C],
        [C, B],
    );
    rule(
        json!({"type": "object"}),
        json!({"type": "object", "additionalProperties": false}),
        [B, C],
        [C, B],
    );
}

#[test]
fn bounds_formats_and_patterns() {
    rule(
        json!({"maximum": 100}),
        json!({"maximum": 10}),
        [B, C],
        [C, B],
    );
    rule(
        json!({"minLength": 1}),
        json!({"minLength": 3}),
        [B, C],
        [C, B],
    );
    rule(json!({}), json!({"maxItems": 5}), [B, C], [C, B]);
    rule(
        json!({"type": "string"}),
        json!({"type": "string", "format": "email"}),
        [B, C],
        [C, B],
    );
    // Two different patterns: cannot be decided either way, and says so.
    rule(
        json!({"pattern": "^a"}),
        json!({"pattern": "^b"}),
        [U, U],
        [U, U],
    );
    rule(json!({"pattern": "^a"}), json!({}), [C, B], [B, C]);
}

#[test]
fn words_are_info_and_unknown_keywords_unknown() {
    rule(
        json!({"description": "old"}),
        json!({"description": "new"}),
        [I, I],
        [I, I],
    );
    rule(
        json!({"multipleOf": 2}),
        json!({"multipleOf": 3}),
        [U, U],
        [U, U],
    );
}

#[test]
fn nested_items_and_branches() {
    let list = |item: Value| json!({"type": "array", "items": item});
    rule(
        list(json!({"type": "number"})),
        list(json!({"type": "integer"})),
        [B, C],
        [C, B],
    );
    let (i, _) = both_ways(
        list(json!({"type": "number"})),
        list(json!({"type": "integer"})),
    );
    assert_eq!(i[0].pointer, "/inputSchema/items");
    rule(
        json!({"anyOf": [{"type": "string"}, {"type": "number"}]}),
        json!({"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}]}),
        [C, B],
        [B, C],
    );
}

#[test]
fn a_definition_moved_into_defs_is_no_change() {
    let inline = obj(
        json!({"p": {"type": "object", "properties": {"x": {"type": "integer"}}}}),
        &["p"],
    );
    let mut moved = obj(json!({"p": {"$ref": "#/$defs/Point"}}), &["p"]);
    moved["$defs"] = json!({"Point": {"type": "object", "properties": {"x": {"type": "integer"}}}});
    let (i, o) = both_ways(inline.clone(), moved.clone());
    assert!(i.is_empty() && o.is_empty(), "{i:#?} {o:#?}");
    // A change inside the definition is found through the ref, at the property's place.
    let mut changed = moved.clone();
    changed["$defs"]["Point"]["properties"]["x"]["type"] = json!("string");
    let (i, _) = both_ways(inline, changed);
    assert_eq!(verdicts(&i), [B]);
    assert_eq!(i[0].pointer, "/inputSchema/properties/p/properties/x");
    // Both through the same ref, the definition changed: the refs read alike, the change is
    // still found where the definition is used.
    let mut wrapped = obj(json!({"outer": {"$ref": "#/$defs/Outer"}}), &[]);
    wrapped["$defs"] = json!({"Outer": {"type": "object", "properties": {"p": {"$ref": "#/$defs/Point"}}}, "Point": moved["$defs"]["Point"].clone()});
    let mut changed = wrapped.clone();
    changed["$defs"]["Point"]["properties"]["x"]["type"] = json!("string");
    let (i, _) = both_ways(wrapped, changed);
    assert_eq!(verdicts(&i), [B], "{i:#?}");
    assert_eq!(
        i[0].pointer,
        "/inputSchema/properties/outer/properties/p/properties/x"
    );
}

#[test]
fn recursive_schemas_end() {
    let tree = |leaf: &str| {
        json!({"$defs": {"Node": {"type": "object", "properties": {
            "value": {"type": leaf},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
        }}}, "$ref": "#/$defs/Node"})
    };
    let (i, o) = both_ways(tree("number"), tree("number"));
    assert!(i.is_empty() && o.is_empty());
    let (i, o) = both_ways(tree("number"), tree("integer"));
    assert_eq!((verdicts(&i), verdicts(&o)), (vec![B], vec![C]));
}

#[test]
fn boxing_and_output_schemas_added_or_removed() {
    let boxed = json!({"type": "object", "properties": {"result": {"type": "integer"}}, "required": ["result"], "x-fastmcp-wrap-result": true});
    let plain = json!({"type": "object", "properties": {"sum": {"type": "integer"}}});
    let empty = json!({"type": "object"});
    let changes = compare::tools(
        &snapshot(vec![tool(empty.clone(), Some(plain))]),
        &snapshot(vec![tool(empty.clone(), Some(boxed))]),
    );
    assert!(
        changes
            .iter()
            .any(|c| c.verdict == B && c.what.starts_with("boxing changed")),
        "{changes:#?}"
    );
    let with = snapshot(vec![tool(empty.clone(), Some(json!({"type": "object"})))]);
    let without = snapshot(vec![tool(empty, None)]);
    assert_eq!(verdicts(&compare::tools(&with, &without)), [B]);
    assert_eq!(verdicts(&compare::tools(&without, &with)), [C]);
}

#[test]
fn tools_removed_renamed_added_and_annotations() {
    let a = json!({"name": "search", "inputSchema": {"type": "object", "properties": {"q": {}}}});
    let mut renamed = a.clone();
    renamed["name"] = json!("find");
    let changes = compare::tools(&snapshot(vec![a.clone()]), &snapshot(vec![renamed]));
    assert_eq!(verdicts(&changes), [C, B], "{changes:#?}");
    assert_eq!(changes[1].what, "tool removed (likely renamed to `find`)");
    assert_eq!(changes[1].audience, Audience::Callers);
    let mut destructive = a.clone();
    destructive["annotations"] = json!({"destructiveHint": true, "title": "Search"});
    let changes = compare::tools(
        &snapshot(vec![a.clone()]),
        &snapshot(vec![destructive.clone()]),
    );
    assert_eq!(verdicts(&changes), [B, I], "{changes:#?}");
    assert_eq!(changes[0].pointer, "/annotations/destructiveHint");
    // Losing `destructiveHint: true` is breaking (invariant 12): the warning a client asked
    // the user on is gone, though the spec's default means the same.
    let changes = compare::tools(&snapshot(vec![destructive]), &snapshot(vec![a.clone()]));
    assert_eq!(verdicts(&changes), [B, I], "{changes:#?}");
    assert_eq!(changes[0].what, "`destructiveHint` true → unset");
    // Unset is risky by the spec's defaults: a hint removed is breaking whatever it said, a
    // hint that makes the tool safer is only said.
    let mut safe = a.clone();
    safe["annotations"] = json!({"destructiveHint": false, "readOnlyHint": true});
    let changes = compare::tools(&snapshot(vec![safe.clone()]), &snapshot(vec![a.clone()]));
    assert_eq!(verdicts(&changes), [B, B], "{changes:#?}");
    let changes = compare::tools(&snapshot(vec![a]), &snapshot(vec![safe]));
    assert_eq!(verdicts(&changes), [I, I], "{changes:#?}");
}

/// A server's schemas bound the work: a `$ref` chain of 20,000 links (each a new pair, no
/// cycle) ends at the depth the schema tree shows, without the stack; two enums of 100,000
/// values are said to differ without matching 10^10 pairs; 5,000 tools removed and 5,000
/// added are matched for renames once each.
#[test]
fn hostile_schemas_and_listings_are_compared_within_bounds() {
    let chain = |leaf: &str| {
        let mut defs = serde_json::Map::new();
        for i in 0..20_000 {
            defs.insert(format!("d{i}"), json!({"type": "object", "properties": {"x": {"$ref": format!("#/$defs/d{}", i + 1)}}}));
        }
        defs.insert("d20000".into(), json!({"type": leaf}));
        json!({"$defs": defs, "$ref": "#/$defs/d0"})
    };
    let started = std::time::Instant::now();
    let (i, _) = both_ways(chain("string"), chain("integer"));
    assert_eq!(verdicts(&i), [U], "{i:#?}");
    assert!(i[0].what.contains("nested deeper than"), "{i:#?}");
    let values = |from: usize| json!({"enum": (from..from + 100_000).collect::<Vec<_>>()});
    let (i, o) = both_ways(values(0), values(1));
    assert_eq!((verdicts(&i), verdicts(&o)), (vec![U], vec![U]));
    let tools = |prefix: &str| {
        snapshot(
            (0..5_000)
                .map(|n| json!({"name": format!("{prefix}{n}"), "inputSchema": {"type": "object", "properties": {"n": {"const": n}}}}))
                .collect(),
        )
    };
    let changes = compare::tools(&tools("old_"), &tools("new_"));
    assert_eq!(changes.len(), 10_000);
    assert!(
        changes
            .iter()
            .any(|c| c.what == "tool removed (likely renamed to `new_42`)")
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn a_change_behind_a_ref_inside_any_combinator_or_subschema_keyword_is_found() {
    // Pydantic's `Optional[Filter]`: the branch list reads alike, the definition changed.
    let optional = |limit: &str| {
        json!({
            "type": "object",
            "properties": {"filter": {"anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}], "default": null}},
            "$defs": {"Filter": {"type": "object", "properties": {"limit": {"type": limit}}}}
        })
    };
    let (i, o) = both_ways(optional("integer"), optional("string"));
    assert_eq!((verdicts(&i), verdicts(&o)), (vec![B], vec![B]), "{i:#?}");
    assert_eq!(
        i[0].pointer,
        "/inputSchema/properties/filter/anyOf/0/properties/limit"
    );
    // A branch added beside one that reads alike: the change behind the kept one is found too.
    let mut wider = optional("string");
    wider["properties"]["filter"]["anyOf"]
        .as_array_mut()
        .expect("list")
        .push(json!({"type": "boolean"}));
    let (i, _) = both_ways(optional("integer"), wider);
    assert!(verdicts(&i).contains(&B), "{i:#?}");
    // The same behind every keyword that holds schemas.
    for (keyword, wrap) in [
        (
            "prefixItems",
            json!({"prefixItems": [{"$ref": "#/$defs/Filter"}]}),
        ),
        (
            "then",
            json!({"if": {"type": "object"}, "then": {"$ref": "#/$defs/Filter"}}),
        ),
        (
            "patternProperties",
            json!({"patternProperties": {"^f": {"$ref": "#/$defs/Filter"}}}),
        ),
        ("contains", json!({"contains": {"$ref": "#/$defs/Filter"}})),
        ("not", json!({"not": {"$ref": "#/$defs/Filter"}})),
    ] {
        let with = |limit: &str| {
            let mut s = wrap.clone();
            s["$defs"] =
                json!({"Filter": {"type": "object", "properties": {"limit": {"type": limit}}}});
            s
        };
        let (i, _) = both_ways(with("integer"), with("string"));
        assert_eq!(i.len(), 1, "{keyword}: {i:#?}");
        let expected = if keyword == "not" { U } else { B };
        assert_eq!(i[0].verdict, expected, "{keyword}: {i:#?}");
    }
    // Narrowing what `not` excludes widens what passes.
    let (i, _) = both_ways(
        json!({"not": {"type": "string", "maxLength": 3}}),
        json!({"not": {"type": "string", "maxLength": 2}}),
    );
    assert_eq!(verdicts(&i), [C], "{i:#?}");
}

#[test]
fn a_ref_chain_longer_than_the_walk_or_a_ref_that_cannot_be_followed_is_unknown() {
    let chain = |links: usize, leaf: &str| {
        let mut defs = serde_json::Map::new();
        for i in 0..links {
            defs.insert(
                format!("d{i}"),
                json!({"$ref": format!("#/$defs/d{}", i + 1)}),
            );
        }
        defs.insert(format!("d{links}"), json!({"type": leaf}));
        json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs})
    };
    // Within the walk: followed to its end.
    let (i, _) = both_ways(chain(40, "integer"), chain(40, "string"));
    assert_eq!(verdicts(&i), [B], "{i:#?}");
    // Longer: said to be unknown, never "no changes".
    let (i, _) = both_ways(chain(100, "integer"), chain(100, "string"));
    assert_eq!(verdicts(&i), [U], "{i:#?}");
    assert!(i[0].what.contains("chain longer than"), "{i:#?}");
    let broken =
        |to: &str| json!({"properties": {"x": {"$ref": to}}, "$defs": {"A": {"type": "string"}}});
    let (i, _) = both_ways(broken("#/$defs/A"), broken("#/$defs/Missing"));
    assert_eq!(verdicts(&i), [U], "{i:#?}");
    assert!(i[0].what.contains("cannot be followed"), "{i:#?}");
}
