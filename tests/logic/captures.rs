//! Every captured tools/list and call from real servers, judged as a careful reader would.

use crate::capture_files as captures;

use mcp_inspect::testing::schema::lint::{Severity, lint};
use mcp_inspect::testing::schema::verdict::{Mirror, Verdict};
use mcp_inspect::testing::schema::{Boxer, Compiled, SchemaTree, Status};
use serde_json::json;

/// (capture, call label) -> verdict, for every captured call.
fn verdicts() -> Vec<(String, String, Verdict)> {
    let mut out = Vec::new();
    for cap in captures::all() {
        for (label, tool, result) in &cap.calls {
            let def = cap.tools.iter().find(|t| &t.name == tool);
            let schema = def.and_then(|d| d.output_schema.as_deref());
            let compiled = schema.map(Compiled::new);
            let v = result.verdict(schema.zip(compiled.as_ref()), cap.era);
            out.push((cap.name.clone(), label.clone(), v));
        }
    }
    out
}

fn find<'a>(all: &'a [(String, String, Verdict)], cap: &str, label: &str) -> &'a Verdict {
    &all.iter()
        .find(|(c, l, _)| c == cap && l == label)
        .unwrap_or_else(|| panic!("{cap}/{label}"))
        .2
}

#[test]
fn every_success_with_an_output_schema_conforms_in_its_dialect() {
    let all = verdicts();
    assert!(all.len() > 100, "{} calls", all.len());
    for (cap, label, v) in &all {
        let ts = cap.starts_with("everything") || cap == "filesystem" || cap == "memory";
        match v.status {
            Status::Conforms => {
                let dialect = if ts { "draft-07" } else { "2020-12" };
                assert_eq!(v.dialect.as_deref(), Some(dialect), "{cap}/{label}");
                assert!(v.violations.is_empty());
            }
            Status::ToolError | Status::NotChecked => {}
            other => panic!("{cap}/{label}: unexpected {other:?} {:?}", v.notes),
        }
    }
}

#[test]
fn tool_errors_are_never_judged_as_violations() {
    let all = verdicts();
    for (cap, label) in [
        ("everything-stdio", "get-structured-content_invalid_enum"),
        ("fastmcp", "fail"),
        ("fastmcp", "search_invalid"),
        ("mcp-sdk2-2026", "fail"),
        ("filesystem", "read_text_file_outside_root"),
    ] {
        assert_eq!(
            find(&all, cap, label).status,
            Status::ToolError,
            "{cap}/{label}"
        );
    }
}

#[test]
fn fastmcp_boxing_is_certain_and_unboxed() {
    let all = verdicts();
    for cap in [
        "fastmcp",
        "fastmcp-2026",
        "fastmcp-http",
        "fastmcp-http-2026",
    ] {
        let add = find(&all, cap, "add");
        let b = add.boxing.as_ref().expect("boxed");
        assert_eq!(
            (b.boxer, b.certain, b.field.as_str()),
            (Boxer::Fastmcp, true, "result")
        );
        assert_eq!(add.value, Some(json!(42)));
        assert_eq!(
            add.text_mirror,
            Some(Mirror::MatchesUnboxed),
            "the text carries the unboxed 42"
        );
        let null = find(&all, cap, "maybe_number_null");
        assert_eq!(
            (null.status, null.value.clone()),
            (Status::Conforms, Some(json!(null)))
        );
        assert_eq!(
            find(&all, cap, "get_point").boxing,
            None,
            "an object return is not boxed"
        );
    }
}

#[test]
fn python_sdk_boxing_is_a_named_guess() {
    let all = verdicts();
    for cap in ["mcp-sdk2", "mcp-sdk2-2026", "time"] {
        if cap == "time" {
            continue;
        }
        let add = find(&all, cap, "add");
        let b = add.boxing.as_ref().expect("boxed");
        assert_eq!((b.boxer, b.certain), (Boxer::PythonSdk, false));
        assert_eq!(add.value, Some(json!(42)));
        let nothing = find(&all, cap, "do_nothing");
        assert_eq!(
            (nothing.status, nothing.value.clone()),
            (Status::Conforms, Some(json!(null)))
        );
    }
}

#[test]
fn content_only_results_are_not_checked_and_say_why() {
    let all = verdicts();
    let v = find(&all, "everything-stdio", "echo");
    assert_eq!(v.status, Status::NotChecked);
    assert_eq!(
        v.headline(),
        "not checked: the tool declares no outputSchema"
    );
    let sc = find(&all, "everything-stdio", "get-structured-content");
    assert_eq!(
        (sc.status, sc.text_mirror),
        (Status::Conforms, Some(Mirror::Matches))
    );
}

#[test]
fn every_captured_schema_builds_a_clean_tree_and_lints_without_errors() {
    for cap in captures::all() {
        for tool in &cap.tools {
            for schema in std::iter::once(&tool.input_schema).chain(tool.output_schema.as_ref()) {
                let tree = SchemaTree::build(schema);
                assert_eq!(tree.problems().count(), 0, "{}/{}", cap.name, tool.name);
                assert!(tree.notice.is_none());
            }
        }
        let schemas: Vec<_> = cap.tools.iter().map(|t| t.schemas()).collect();
        let errors: Vec<_> = lint(&schemas, cap.era)
            .into_iter()
            .filter(|f| f.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", cap.name);
    }
}

#[test]
fn recursive_defs_show_a_back_link() {
    let cap = captures::all()
        .into_iter()
        .find(|c| c.name == "fastmcp")
        .expect("fastmcp capture");
    let tool = cap
        .tools
        .iter()
        .find(|t| t.name == "get_tree")
        .expect("get_tree");
    let tree = SchemaTree::build(tool.output_schema.as_ref().expect("schema"));
    let links: Vec<_> = tree
        .nodes
        .iter()
        .filter(|n| n.facts.back_link.is_some())
        .collect();
    assert_eq!(links.len(), 1);
    assert_eq!(links[0].facts.ref_name.as_deref(), Some("Node"));
    assert_eq!(
        mcp_inspect::testing::schema::signature::type_text(
            &tree,
            tree.nodes
                .iter()
                .position(|n| n.edge.label() == "children")
                .expect("children")
        ),
        "Node[]"
    );
}
