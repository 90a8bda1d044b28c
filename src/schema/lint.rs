//! `check`: lints every tool's schemas (compiles in its dialect, refs, object input root,
//! boolean subschemas, duplicates, descriptions, unusable outputs, `x-mcp-header` rules), each
//! finding with a pointer. Pure.

use super::headers::header_problems;
use super::refs::{Document, MAX_HINTS, RefTarget, all_refs, escape_segment, same_named_hint};
use super::validate::Compiled;
use super::verdict::Era;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashSet;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    /// How `check` and the tool pane say it.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub tool: String,
    pub severity: Severity,
    /// JSON Pointer into the tool definition (`/inputSchema/properties/x`), or empty for the tool.
    pub pointer: String,
    pub message: String,
}

/// What `check` needs of one tool.
pub struct ToolSchemas<'a> {
    pub name: &'a str,
    pub description: Option<&'a str>,
    pub input: &'a Value,
    /// `None` when the tool declares no outputSchema.
    pub output: Option<&'a Value>,
}

/// The 2025-11-25 spec: tool names SHOULD be 1 to 128 characters of A-Z, a-z, 0-9, `_`, `-`
/// and `.` (clients such as LLM APIs reject others).
fn name_problem(name: &str) -> Option<String> {
    let length = name.chars().count();
    if length > 128 {
        return Some(format!(
            "name is {length} characters long; the spec says at most 128"
        ));
    }
    let odd: String = name
        .chars()
        .filter(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .take(8)
        .collect();
    (!odd.is_empty()).then(|| {
        format!(
            "name has characters outside A-Z a-z 0-9 _ - . (the spec's set): {}",
            crate::untrusted::line(&odd, 40)
        )
    })
}

/// Every finding for a tool list, errors first, then by tool in list order.
pub fn lint(tools: &[ToolSchemas<'_>], era: Era) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for tool in tools {
        let mut add = |severity, pointer: String, message: String| {
            out.push(Finding {
                tool: tool.name.to_string(),
                severity,
                pointer,
                message,
            })
        };
        if !seen.insert(tool.name) {
            add(
                Severity::Error,
                String::new(),
                format!("duplicate tool name `{}`", tool.name),
            );
        }
        if let Some(problem) = name_problem(tool.name) {
            add(Severity::Warning, "/name".into(), problem);
        }
        if tool.description.is_none_or(|d| d.trim().is_empty()) {
            add(
                Severity::Warning,
                "/description".into(),
                "no description".into(),
            );
        }
        if tool.input.get("type") != Some(&Value::from("object")) {
            add(
                Severity::Error,
                "/inputSchema".into(),
                "input schema root is not `type: object`".into(),
            );
        }
        schema_findings(tool.input, "/inputSchema", &mut add);
        // Clients of the 2026 protocol drop such a tool; in the legacy era it is only a warning.
        let severity = match era {
            Era::Modern => Severity::Error,
            Era::Legacy => Severity::Warning,
        };
        for (at, why) in header_problems(tool.input) {
            add(severity, format!("/inputSchema{at}"), why);
        }
        match tool.output {
            None => {}
            Some(output) if !output.is_object() && !output.is_boolean() => add(
                Severity::Error,
                "/outputSchema".into(),
                "outputSchema is not a schema (neither object nor boolean)".into(),
            ),
            Some(output) => {
                if era == Era::Legacy && output.get("type") != Some(&Value::from("object")) {
                    add(
                        Severity::Warning,
                        "/outputSchema".into(),
                        "legacy protocol requires the outputSchema root to be `type: object`"
                            .into(),
                    );
                }
                schema_findings(output, "/outputSchema", &mut add);
            }
        }
    }
    out.sort_by_key(|f| std::cmp::Reverse(f.severity));
    out
}

fn schema_findings(schema: &Value, at: &str, add: &mut impl FnMut(Severity, String, String)) {
    let doc = Document::new(schema);
    let mut ref_problem = false;
    let mut hinted = 0;
    for (pointer, reference) in all_refs(schema) {
        let message = match doc.resolve(&reference) {
            RefTarget::Found { .. } => continue,
            RefTarget::Dangling => {
                // Each hint scans the schema: the first few dangling refs get one.
                hinted += 1;
                match (hinted <= MAX_HINTS)
                    .then(|| same_named_hint(schema, &reference))
                    .flatten()
                {
                    Some(hint) => format!("dangling $ref {reference} ({hint})"),
                    None => format!("dangling $ref {reference}"),
                }
            }
            RefTarget::NotFetched => {
                format!("$ref {reference} points outside the schema (never fetched)")
            }
        };
        ref_problem = true;
        add(Severity::Error, format!("{at}{pointer}/$ref"), message);
    }
    if !ref_problem && let Some(unusable) = Compiled::new(schema).unusable() {
        add(
            Severity::Error,
            at.to_string(),
            format!("not validated: {}", unusable.describe()),
        );
    }
    boolean_subschemas(schema, &mut at.to_string(), add);
}

/// Boolean schemas where a property, item or branch is expected (`additionalProperties: false`
/// and its kin are the ordinary way to close a schema and are not reported).
fn boolean_subschemas(
    value: &Value,
    at: &mut String,
    add: &mut impl FnMut(Severity, String, String),
) {
    let Some(map) = value.as_object() else { return };
    for (key, child) in map {
        let base = at.len();
        at.push('/');
        at.push_str(&escape_segment(key));
        match (key.as_str(), child) {
            (
                "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas",
                Value::Object(m),
            ) => {
                for (name, sub) in m {
                    let len = at.len();
                    at.push('/');
                    at.push_str(&escape_segment(name));
                    report_or_descend(sub, at, add);
                    at.truncate(len);
                }
            }
            ("anyOf" | "oneOf" | "allOf" | "prefixItems" | "items", Value::Array(a)) => {
                for (i, sub) in a.iter().enumerate() {
                    let len = at.len();
                    at.push_str(&format!("/{i}"));
                    report_or_descend(sub, at, add);
                    at.truncate(len);
                }
            }
            ("items" | "contains" | "not" | "if" | "then" | "else" | "propertyNames", sub) => {
                report_or_descend(sub, at, add)
            }
            (
                "additionalProperties"
                | "unevaluatedProperties"
                | "additionalItems"
                | "unevaluatedItems",
                sub,
            ) => boolean_subschemas(sub, at, add),
            _ => {}
        }
        at.truncate(base);
    }
}

fn report_or_descend(sub: &Value, at: &mut String, add: &mut impl FnMut(Severity, String, String)) {
    match sub {
        Value::Bool(b) => add(
            Severity::Info,
            at.clone(),
            format!(
                "boolean subschema `{b}` ({})",
                if *b {
                    "accepts anything"
                } else {
                    "accepts nothing"
                }
            ),
        ),
        other => boolean_subschemas(other, at, add),
    }
}
