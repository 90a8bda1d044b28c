//! Property tests: arbitrary JSON as schema and as instance never panics and always terminates
//! within the caps, through the tree, signature, skeleton, validation, verdict and lint; and
//! arbitrary JSON as a tools/call result decodes, is judged and is drawn as escaped text.

use mcp_inspect::testing::app::call::result_text::ResultText;
use mcp_inspect::testing::mcp::surface::result::CallResult;
use mcp_inspect::testing::schema::lint::{ToolSchemas, lint};
use mcp_inspect::testing::schema::signature::{signature, type_text};
use mcp_inspect::testing::schema::skeleton::skeleton;
use mcp_inspect::testing::schema::verdict::{ResultView, verdict};
use mcp_inspect::testing::schema::{Compiled, Era, SchemaTree, boxing};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// Keys that steer the engine, mixed with plain ones so generated objects look like schemas.
const KEYS: &[&str] = &[
    "type",
    "properties",
    "items",
    "prefixItems",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$defs",
    "definitions",
    "required",
    "enum",
    "const",
    "default",
    "additionalProperties",
    "patternProperties",
    "$anchor",
    "$schema",
    "minimum",
    "pattern",
    "format",
    "result",
    "x-fastmcp-wrap-result",
    "a",
    "content",
    "structuredContent",
    "isError",
    "_meta",
    "text",
    "data",
    "mimeType",
    "uri",
];
const REFS: &[&str] = &[
    "#",
    "#/$defs/a",
    "#/properties/a",
    "#a",
    "#/definitions/result",
    "http://127.0.0.1:9/x",
    "#/$defs/missing",
];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        prop::sample::select(REFS).prop_map(|r| json!(r)),
        prop::sample::select(
            &[
                "string",
                "object",
                "array",
                "integer",
                "null",
                "^a+$",
                "uuid",
                "text",
                "image",
                "resource_link",
                "\u{1b}]0;pwned\u{7}",
                "\u{9b}2J\u{202e}",
                "a\nb\tc\r"
            ][..]
        )
        .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(6, 120, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..6).prop_map(|kv| {
                Value::Object(
                    kv.into_iter()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect::<Map<_, _>>(),
                )
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn engine_is_total(schema in json_value(), instance in json_value(), is_error in any::<bool>()) {
        let tree = SchemaTree::build(&schema);
        prop_assert!(!tree.nodes.is_empty());
        prop_assert!(tree.nodes.len() <= mcp_inspect::testing::schema::tree::MAX_NODES);
        for id in 0..tree.nodes.len().min(50) {
            let _ = type_text(&tree, id);
        }
        let b = boxing::detect(&schema, None);
        let _ = signature("t", &tree, Some((&tree, b.as_ref())));
        prop_assert!(skeleton(&schema).is_object());
        let compiled = Compiled::new(&schema);
        let v = verdict(Some((&schema, &compiled)), ResultView { is_error, structured: Some(&instance), texts: &["{}"], meta: Some(&instance) }, Era::Modern);
        let _ = serde_json::to_string(&v).expect("serialises");
        let tools = [ToolSchemas { name: "t", description: None, input: &schema, output: Some(&instance) }];
        let _ = lint(&tools, Era::Legacy);
    }

    #[test]
    fn result_decoding_is_total(raw in json_value(), schema in json_value()) {
        let _ = CallResult::check_shape(&raw);
        let result = CallResult::decode(raw);
        let compiled = Compiled::new(&schema);
        for era in [Era::Legacy, Era::Modern] {
            let _ = result.verdict(Some((&schema, &compiled)), era);
        }
        let shown = ResultText::new(&result);
        for line in shown.blocks.iter().flatten().flatten().chain(&shown.raw) {
            prop_assert!(!line.chars().any(char::is_control), "{line:?}");
        }
    }
}
