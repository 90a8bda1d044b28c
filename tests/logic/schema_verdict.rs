//! Verdicts: every status, dialect, violation paths, boxing mismatches, era rules, no network.

use mcp_inspect::testing::schema::lint::{Severity, ToolSchemas, lint};
use mcp_inspect::testing::schema::verdict::{Mirror, ResultView, verdict};
use mcp_inspect::testing::schema::{Compiled, Era, SchemaTree, Status, Verdict};
use serde_json::{Value, json};

fn judge(schema: Option<Value>, structured: Option<Value>, is_error: bool, era: Era) -> Verdict {
    let compiled = schema.as_ref().map(Compiled::new);
    verdict(
        schema.as_ref().zip(compiled.as_ref()),
        ResultView {
            is_error,
            structured: structured.as_ref(),
            texts: &[],
            meta: None,
        },
        era,
    )
}

#[test]
fn violations_carry_every_path_and_mark_formats() {
    let schema = json!({"type": "object", "properties": {
        "id": {"type": "string", "format": "uuid"},
        "items": {"type": "array", "items": {"type": "integer", "maximum": 5}}}, "required": ["id", "name"]});
    let instance = json!({"id": "nope", "items": [1, 9, "x"]});
    let places = |list: &[mcp_inspect::testing::schema::validate::Violation]| {
        let mut got: Vec<(String, String, String, bool)> = list
            .iter()
            .map(|x| {
                (
                    x.instance_path.clone(),
                    x.keyword.clone(),
                    x.schema_path.clone(),
                    x.format,
                )
            })
            .collect();
        got.sort();
        got
    };
    let format_at_id = (
        "/id".to_string(),
        "format".to_string(),
        "/properties/id/format".to_string(),
        true,
    );
    let others = [
        ("".into(), "required".into(), "/required".into(), false),
        (
            "/items/1".into(),
            "maximum".into(),
            "/properties/items/items/maximum".into(),
            false,
        ),
        (
            "/items/2".into(),
            "type".into(),
            "/properties/items/items/type".into(),
            false,
        ),
    ];
    // 2020-12: `format` is an annotation; its mismatch is a finding beside the verdict.
    let v = judge(
        Some(schema.clone()),
        Some(instance.clone()),
        false,
        Era::Legacy,
    );
    assert_eq!(v.status, Status::Violations);
    assert_eq!(v.dialect.as_deref(), Some("2020-12"));
    assert_eq!(places(&v.violations), others);
    assert_eq!(
        places(&v.format_findings),
        std::slice::from_ref(&format_at_id)
    );
    assert_eq!(v.headline(), "3 violations (2020-12)");
    // Only the format wrong: conforms, with the finding.
    let v = judge(
        Some(schema.clone()),
        Some(json!({"id": "nope", "name": "n", "items": []})),
        false,
        Era::Legacy,
    );
    assert_eq!(v.status, Status::Conforms, "{v:?}");
    assert_eq!(v.format_findings.len(), 1);
    // Asserted where the schema declares the format-assertion vocabulary, and in draft-07.
    for asserting in [
        {
            let mut s = schema.clone();
            s["$vocabulary"] =
                json!({"https://json-schema.org/draft/2020-12/vocab/format-assertion": true});
            s
        },
        {
            let mut s = schema.clone();
            s["$schema"] = json!("http://json-schema.org/draft-07/schema#");
            // draft-07 knows no `uuid` format (it came with 2019-09).
            s["properties"]["id"]["format"] = json!("email");
            s
        },
    ] {
        let v = judge(Some(asserting), Some(instance.clone()), false, Era::Legacy);
        let mut all = others.to_vec();
        all.insert(1, format_at_id.clone());
        assert_eq!(places(&v.violations), all, "{:?}", v.dialect);
        assert!(v.format_findings.is_empty());
    }
}

/// A key the object may not have is the violation's place (not the object), one each.
#[test]
fn unexpected_keys_are_each_a_violation_on_the_key() {
    let closed = json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false});
    let v = judge(
        Some(closed),
        Some(json!({"a": 1, "x": 2, "a/b": 3})),
        false,
        Era::Legacy,
    );
    let mut got: Vec<(String, String, String)> = v
        .violations
        .iter()
        .map(|x| {
            (
                x.instance_path.clone(),
                x.keyword.clone(),
                x.message.clone(),
            )
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            (
                "/a~1b".into(),
                "additionalProperties".into(),
                "\"a/b\" is not allowed here (additionalProperties does not allow it)".into()
            ),
            (
                "/x".into(),
                "additionalProperties".into(),
                "\"x\" is not allowed here (additionalProperties does not allow it)".into()
            ),
        ]
    );
    let unevaluated =
        json!({"type": "object", "properties": {"a": {}}, "unevaluatedProperties": false});
    let v = judge(
        Some(unevaluated),
        Some(json!({"a": 1, "z": 0})),
        false,
        Era::Legacy,
    );
    let paths: Vec<&str> = v
        .violations
        .iter()
        .map(|x| x.instance_path.as_str())
        .collect();
    assert_eq!(paths, ["/z"]);
}

#[test]
fn violations_map_to_schema_rows_through_refs() {
    let schema = json!({"$defs": {"P": {"type": "object", "properties": {"x": {"type": "number"}}}}, "type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}});
    let v = judge(
        Some(schema.clone()),
        Some(json!({"p": {"x": "one"}})),
        false,
        Era::Legacy,
    );
    let tree = SchemaTree::build(&schema);
    let row = tree.node_for_eval_path(&v.violations[0].evaluation_path);
    assert_eq!(tree.nodes[row].edge.label(), "x");
    assert_eq!(v.violations[0].schema_path, "/$defs/P/properties/x/type");
}

#[test]
fn falsy_and_null_values_are_judged_not_dropped() {
    for (schema, value) in [
        (json!({"type": "integer"}), json!(0)),
        (json!({"type": "boolean"}), json!(false)),
        (json!({"type": "string"}), json!("")),
        (json!({"type": "null"}), json!(null)),
    ] {
        let v = judge(Some(schema), Some(value.clone()), false, Era::Modern);
        assert_eq!(
            (v.status, v.natural_value(Some(&value))),
            (Status::Conforms, Some(&value))
        );
        assert_eq!(v.value, None, "an unboxed value is not copied");
    }
    let wrong = judge(
        Some(json!({"type": "integer"})),
        Some(json!(false)),
        false,
        Era::Modern,
    );
    assert_eq!(wrong.status, Status::Violations);
}

/// A `$ref` that resolves nowhere no longer hides every violation (the dedalus
/// `search_invalid` case): the rest of the schema is checked, and the verdict says which part
/// was not.
#[test]
fn a_dangling_ref_leaves_the_rest_of_the_schema_checked() {
    let schema = json!({"type": "object", "properties": {
        "query": {"type": "string", "minLength": 3},
        "limit": {"type": "integer", "maximum": 50},
        "filter": {"$ref": "#/$defs/Filter"}}});
    let v = judge(
        Some(schema),
        Some(json!({"query": "a", "limit": 500, "filter": {}})),
        false,
        Era::Legacy,
    );
    assert_eq!(v.status, Status::Violations);
    let at: Vec<&str> = v
        .violations
        .iter()
        .map(|x| x.instance_path.as_str())
        .collect();
    assert_eq!(at, ["/query", "/limit"]);
    assert_eq!(
        v.notes,
        ["the schema at /properties/filter was not checked: dangling $ref #/$defs/Filter"]
    );
}

#[test]
fn unusable_schemas_are_not_checked_never_valid() {
    let cases = [
        (
            json!({"$schema": "https://example.com/custom", "type": "object"}),
            "not checked: unknown dialect https://example.com/custom",
        ),
        (
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Nope"}}}),
            "not checked: no violation where it could check, but the schema at /properties/a \
             was not checked: dangling $ref #/$defs/Nope",
        ),
        (
            json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}),
            "not checked: no violation where it could check, but the schema at /properties/a \
             was not checked: $ref https://example.com/a.json points outside the schema (not fetched)",
        ),
    ];
    for (schema, headline) in cases {
        let v = judge(Some(schema), Some(json!({"a": 1})), false, Era::Legacy);
        assert_eq!(
            (v.status, v.headline().as_str()),
            (Status::NotChecked, headline)
        );
    }
    let broken = judge(
        Some(json!({"type": "object", "minLength": "three"})),
        Some(json!({})),
        false,
        Era::Legacy,
    );
    assert_eq!(broken.status, Status::NotChecked);
    assert!(
        broken
            .headline()
            .starts_with("not checked: schema does not compile"),
        "{}",
        broken.headline()
    );
}

#[test]
fn structured_content_presence_rules() {
    let schema = json!({"type": "object"});
    assert_eq!(
        judge(Some(schema.clone()), None, false, Era::Legacy).status,
        Status::MissingStructuredContent
    );
    assert_eq!(
        judge(None, Some(json!({"a": 1})), false, Era::Legacy).status,
        Status::UnexpectedStructuredContent
    );
    assert_eq!(
        judge(None, None, false, Era::Legacy).status,
        Status::NotChecked
    );
}

#[test]
fn tool_errors_keep_mismatches_as_information() {
    let v = judge(
        Some(json!({"type": "object", "required": ["ok"]})),
        Some(json!({"error": "x"})),
        true,
        Era::Legacy,
    );
    assert_eq!(v.status, Status::ToolError);
    assert!(v.violations.is_empty());
    assert!(v.notes[0].starts_with("information only"), "{:?}", v.notes);
}

#[test]
fn boxing_schema_with_unboxed_value_is_called_out() {
    let schema = json!({"type": "object", "properties": {"result": {"type": "integer"}}, "required": ["result"], "x-fastmcp-wrap-result": true});
    let v = judge(Some(schema.clone()), Some(json!(42)), false, Era::Modern);
    assert_eq!(v.status, Status::Violations);
    assert!(
        v.notes.iter().any(|n| n.contains("not boxed")),
        "{:?}",
        v.notes
    );
    // A key beside the box does not unbox it: the value is still the box's, the key named.
    let v = judge(
        Some(schema),
        Some(json!({"result": 1, "result2": 2})),
        false,
        Era::Modern,
    );
    assert_eq!(v.value, Some(json!(1)), "{v:?}");
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("other keys beside the box: `result2`")),
        "{:?}",
        v.notes
    );
    assert!(
        !v.notes.iter().any(|n| n.contains("not boxed")),
        "{:?}",
        v.notes
    );
}

#[test]
fn legacy_era_requires_objects() {
    let v = judge(
        Some(json!({"type": "array"})),
        Some(json!([1])),
        false,
        Era::Legacy,
    );
    // The protocol's rule is part of the verdict: a violation, not a note.
    assert_eq!(v.status, Status::Violations, "{v:?}");
    assert_eq!(v.violations.len(), 1, "{v:?}");
    assert_eq!(v.violations[0].keyword, "structuredContent");
    assert!(v.violations[0].message.contains("got an array"), "{v:?}");
    assert_eq!(
        v.notes.len(),
        1,
        "the schema's root is named: {:?}",
        v.notes
    );
    let modern = judge(
        Some(json!({"type": "array"})),
        Some(json!([1])),
        false,
        Era::Modern,
    );
    assert!(modern.notes.is_empty());
}

#[test]
fn text_mirror_is_information() {
    let schema = json!({"type": "object"});
    let compiled = Compiled::new(&schema);
    let sc = json!({"a": 1});
    let mk = |texts: &[&str]| {
        verdict(
            Some((&schema, &compiled)),
            ResultView {
                is_error: false,
                structured: Some(&sc),
                texts,
                meta: None,
            },
            Era::Legacy,
        )
    };
    assert_eq!(mk(&["{\"a\": 1}"]).text_mirror, Some(Mirror::Matches));
    assert_eq!(mk(&["{\"a\": 2}"]).text_mirror, Some(Mirror::Differs));
    assert_eq!(mk(&["hello"]).text_mirror, Some(Mirror::NoJsonText));
    assert_eq!(mk(&["{\"a\": 2}"]).status, Status::Conforms);
}

#[test]
fn verdict_json_shape() {
    let v = judge(
        Some(json!({"type": "object", "properties": {"n": {"type": "integer"}}})),
        Some(json!({"n": "x"})),
        false,
        Era::Legacy,
    );
    let j = serde_json::to_value(&v).expect("json");
    assert_eq!(j["status"], "violations");
    assert_eq!(j["dialect"], "2020-12");
    assert_eq!(j["violations"][0]["instancePath"], "/n");
    assert_eq!(j["violations"][0]["keyword"], "type");
    assert_eq!(j["violations"][0]["schemaPath"], "/properties/n/type");
    assert!(
        j["violations"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("integer"))
    );
    assert_eq!(j["boxing"], Value::Null);
}

#[test]
fn lint_reports_each_rule_with_a_pointer() {
    let bad_input = json!({"type": "array"});
    let dangling = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/X"}, "b": true}});
    let out_dialect = json!({"$schema": "urn:mine", "type": "object"});
    let good = json!({"type": "object"});
    let tools = [
        ToolSchemas {
            name: "a",
            description: Some("ok"),
            input: &bad_input,
            output: None,
        },
        ToolSchemas {
            name: "b",
            description: None,
            input: &dangling,
            output: Some(&out_dialect),
        },
        ToolSchemas {
            name: "a",
            description: Some("dup"),
            input: &good,
            output: Some(&json!("nope")),
        },
    ];
    let findings = lint(&tools, Era::Legacy);
    let got: Vec<(String, Severity, String)> = findings
        .iter()
        .map(|f| (f.tool.clone(), f.severity, f.pointer.clone()))
        .collect();
    for expected in [
        ("a".to_string(), Severity::Error, "/inputSchema".to_string()),
        (
            "b".into(),
            Severity::Error,
            "/inputSchema/properties/a/$ref".into(),
        ),
        ("b".into(), Severity::Error, "/outputSchema".into()),
        ("b".into(), Severity::Warning, "/description".into()),
        (
            "b".into(),
            Severity::Info,
            "/inputSchema/properties/b".into(),
        ),
        ("a".into(), Severity::Error, "".into()),
    ] {
        assert!(got.contains(&expected), "{expected:?} not in {got:?}");
    }
    assert!(findings.iter().any(|f| f.message.contains("not a schema")));
    assert_eq!(findings[0].severity, Severity::Error, "errors first");
}

#[test]
fn no_ref_ever_reaches_the_network() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let url = format!(
        "http://{}/schema.json",
        listener.local_addr().expect("addr")
    );
    let schema = json!({"type": "object", "properties": {"a": {"$ref": url}, "b": {"$ref": format!("{url}#/x")}}, "allOf": [{"$ref": url}]});
    let _ = SchemaTree::build(&schema);
    let v = judge(
        Some(schema.clone()),
        Some(json!({"a": 1})),
        false,
        Era::Legacy,
    );
    assert_eq!(v.status, Status::NotChecked);
    let tools = [ToolSchemas {
        name: "t",
        description: None,
        input: &schema,
        output: Some(&schema),
    }];
    assert!(!lint(&tools, Era::Legacy).is_empty());
    // Also straight through the validator with a ref that is not caught by our pre-scan.
    let _ = Compiled::new(&json!({"$id": url.clone(), "$ref": "other.json"})).check(&json!(1));
    match listener.accept() {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
        other => panic!("a connection reached the listener: {other:?}"),
    }
}

/// An instance parsed as the wire carries it (every digit kept).
fn parsed(text: &str) -> Value {
    serde_json::from_str(text).expect("json")
}

#[test]
fn numbers_64_bits_cannot_hold_are_compared_exactly_or_not_judged() {
    let schema = |keyword: &str, limit: &str| {
        parsed(&format!(
            r#"{{"type": "object", "properties": {{"n": {{"{keyword}": {limit}}}}}}}"#
        ))
    };
    let status = |schema: Value, instance: &str| {
        judge(Some(schema), Some(parsed(instance)), false, Era::Legacy)
    };
    // Both round to 1e29 as doubles: only an exact comparison sees the instance is smaller.
    let v = status(
        schema("minimum", "100000000000000000000000000001"),
        r#"{"n": 99999999999999999999999999999}"#,
    );
    assert_eq!(v.status, Status::Violations, "{v:?}");
    assert_eq!(v.violations[0].keyword, "minimum");
    assert_eq!(v.violations[0].instance_path, "/n");
    assert!(
        v.violations[0].message.contains("compared exactly"),
        "{v:?}"
    );
    // Rounded, these two are equal and the validator says "not above": exactly, it is above.
    let v = status(
        schema("exclusiveMinimum", "1"),
        r#"{"n": 1.00000000000000000001}"#,
    );
    assert_eq!(v.status, Status::Conforms, "{v:?}");
    let v = status(
        schema("maximum", "18446744073709551615"),
        r#"{"n": 18446744073709551616}"#,
    );
    assert_eq!(v.status, Status::Violations, "{v:?}");
    let v = status(
        schema("maximum", "18446744073709551615"),
        r#"{"n": 18446744073709551615}"#,
    );
    assert_eq!(v.status, Status::Conforms, "{v:?}");
    // `const` exactly; `multipleOf` cannot be: not checked, never a clean "conforms".
    let v = status(
        schema("const", "100000000000000000000000000001"),
        r#"{"n": 100000000000000000000000000000}"#,
    );
    assert_eq!(v.status, Status::Violations, "{v:?}");
    // `multipleOf` exactly too: 10^29 + 3 leaves 1 divided by 7; 10^29 + 2 is a multiple.
    let v = status(
        schema("multipleOf", "7"),
        r#"{"n": 100000000000000000000000000003}"#,
    );
    assert_eq!(v.status, Status::Violations, "{v:?}");
    assert_eq!(
        v.violations.len(),
        1,
        "the exact verdict replaces the rounded one: {v:?}"
    );
    let v = status(
        schema("multipleOf", "7"),
        r#"{"n": 100000000000000000000000000002}"#,
    );
    assert_eq!(v.status, Status::Conforms, "{v:?}");
    let v = status(
        schema("multipleOf", "0.01"),
        r#"{"n": 1.00000000000000000001}"#,
    );
    assert_eq!(v.status, Status::Violations, "{v:?}");
    // Ordinary numbers are judged as before.
    let v = status(schema("minimum", "10"), r#"{"n": 3}"#);
    assert_eq!(v.status, Status::Violations, "{v:?}");
    assert_eq!(v.violations[0].message, "3 is less than the minimum of 10");
}

#[test]
fn integers_equality_and_uniqueness_are_decided_on_the_numbers_as_written_at_any_depth() {
    let status = |schema: &str, instance: &str| {
        judge(
            Some(parsed(schema)),
            Some(parsed(instance)),
            false,
            Era::Modern,
        )
        .status
    };
    let integer = r#"{"type": "object", "properties": {"n": {"type": "integer"}}}"#;
    for (instance, expected) in [
        (r#"{"n": 1.00000000000000000001}"#, Status::Violations),
        (r#"{"n": 9007199254740993.5}"#, Status::Violations),
        (r#"{"n": 1e-400}"#, Status::Violations),
        (r#"{"n": 1e400}"#, Status::Conforms),
        (r#"{"n": 18446744073709551617}"#, Status::Conforms),
        (r#"{"n": 1.0}"#, Status::Conforms),
        (r#"{"n": 2.5}"#, Status::Violations),
    ] {
        assert_eq!(status(integer, instance), expected, "{instance}");
    }
    let unique =
        r#"{"type": "object", "properties": {"xs": {"type": "array", "uniqueItems": true}}}"#;
    for (instance, expected) in [
        (
            r#"{"xs": [18446744073709551616, 18446744073709551617]}"#,
            Status::Conforms,
        ),
        (r#"{"xs": [1.00000000000000000001, 1]}"#, Status::Conforms),
        (
            r#"{"xs": [[18446744073709551616], [18446744073709551617]]}"#,
            Status::Conforms,
        ),
        (r#"{"xs": [1e400, 10e399]}"#, Status::Violations),
        (
            r#"{"xs": [{"a": 1, "b": 1e400}, {"b": 10e399, "a": 1.0}]}"#,
            Status::Violations,
        ),
        (r#"{"xs": [1, 1.0]}"#, Status::Violations),
    ] {
        assert_eq!(status(unique, instance), expected, "{instance}");
    }
    let nested_const =
        r#"{"type": "object", "properties": {"v": {"const": {"x": 18446744073709551617}}}}"#;
    assert_eq!(
        status(nested_const, r#"{"v": {"x": 18446744073709551616}}"#),
        Status::Violations
    );
    assert_eq!(
        status(nested_const, r#"{"v": {"x": 18446744073709551617.0}}"#),
        Status::Conforms
    );
    let nested_enum =
        r#"{"type": "object", "properties": {"v": {"enum": [[1, 1.00000000000000000001], "a"]}}}"#;
    assert_eq!(status(nested_enum, r#"{"v": [1, 1]}"#), Status::Violations);
    assert_eq!(
        status(nested_enum, r#"{"v": [1.0, 1.000000000000000000010]}"#),
        Status::Conforms
    );
}

#[test]
fn an_unknown_part_never_decides_a_verdict() {
    let status =
        |schema: Value, instance: Value| judge(Some(schema), Some(instance), false, Era::Modern);
    let gone = json!({"$ref": "#/$defs/gone"});
    // Each of these "fails" only if the dangling part is taken as `{}`: never a violation.
    for (schema, instance) in [
        (json!({"not": gone}), json!({})),
        (json!({"oneOf": [gone, {"type": "object"}]}), json!({})),
        (json!({"if": gone, "then": {"required": ["a"]}}), json!({})),
        (
            json!({"type": "object", "properties": {"xs": {"contains": gone, "maxContains": 1}}}),
            json!({"xs": [1, 2]}),
        ),
        (json!({"propertyNames": {"not": gone}}), json!({"a": 1})),
        (
            json!({"allOf": [{"properties": {"a": gone}}], "unevaluatedProperties": false}),
            json!({"b": 1}),
        ),
    ] {
        let v = status(schema.clone(), instance);
        assert_eq!(v.status, Status::NotChecked, "{schema}: {v:?}");
        assert!(
            v.reason
                .as_deref()
                .is_some_and(|r| r.contains("dangling $ref #/$defs/gone")),
            "{v:?}"
        );
    }
    // A violation that holds whatever the unknown part is still stands, and says what was left.
    let v = status(
        json!({"type": "object", "properties": {"n": {"type": "integer"}, "x": {"not": gone}}}),
        json!({"n": "three", "x": 1}),
    );
    assert_eq!(v.status, Status::Violations, "{v:?}");
    assert_eq!(v.violations.len(), 1, "{v:?}");
    assert_eq!(v.violations[0].instance_path, "/n");
    assert!(v.notes.iter().any(|n| n.contains("dangling")), "{v:?}");
    // Cycles that never move into the value decide nothing either.
    for schema in [
        json!({"$ref": "#"}),
        json!({"type": "object", "properties": {"x": {"$ref": "#/properties/x"}}}),
        json!({"allOf": [{"$ref": "#"}]}),
    ] {
        let v = status(schema.clone(), json!({"x": 1}));
        assert_eq!(v.status, Status::NotChecked, "{schema}: {v:?}");
        assert!(
            v.reason
                .as_deref()
                .is_some_and(|r| r.contains("comes back to itself")),
            "{v:?}"
        );
    }
    // A pattern outside ECMA-262 is not read as another dialect.
    let v = status(
        json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "\\Aabc\\z"}}}),
        json!({"s": "abc"}),
    );
    assert_eq!(v.status, Status::NotChecked, "{v:?}");
    assert!(
        v.reason.as_deref().is_some_and(|r| r.contains("ECMA-262")),
        "{v:?}"
    );
    let v = status(
        json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "^a+$"}}}),
        json!({"s": "b"}),
    );
    assert_eq!(v.status, Status::Violations, "{v:?}");
}
