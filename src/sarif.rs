//! Findings as SARIF 2.1.0, the format CI systems read to annotate code (`check --format sarif`,
//! `diff --format sarif`): each finding a result with its rule, level and message, located
//! logically at `tool` + JSON Pointer, and physically in a snapshot file when there is one (at
//! the line of the tool's name). Pure.

use crate::drift::compare::Kind;
use serde_json::{Value, json};

/// One finding to report.
pub struct Finding<'a> {
    /// A stable id: `lint/error`, `drift/breaking` …
    pub rule: &'a str,
    /// `error`, `warning` or `note`.
    pub level: &'a str,
    /// The item's name (a tool's, a prompt's, a resource's URI …).
    pub tool: &'a str,
    /// What the item is: where its line is looked for in a snapshot.
    pub kind: Kind,
    pub pointer: &'a str,
    pub message: String,
}

/// A file the findings are about, and its text (to find each tool's line).
pub struct Artifact<'a> {
    pub uri: &'a str,
    pub text: &'a str,
}

/// The whole SARIF log: one run of mcp-inspect with its rules and results.
pub fn log(findings: &[Finding<'_>], artifact: Option<&Artifact<'_>>) -> Value {
    let mut rules: Vec<&str> = findings.iter().map(|f| f.rule).collect();
    rules.sort_unstable();
    rules.dedup();
    let results: Vec<Value> = findings
        .iter()
        .map(|f| {
            let mut location = json!({"logicalLocations": [{
                "fullyQualifiedName": format!("{}{}", f.tool, f.pointer),
                "name": f.tool,
                "kind": "member",
            }]});
            if let Some(a) = artifact {
                let mut physical = json!({"artifactLocation": {"uri": a.uri}});
                if let Some(line) = line_of(a.text, f.kind, f.tool) {
                    physical["region"] = json!({"startLine": line});
                }
                location["physicalLocation"] = physical;
            }
            json!({
                "ruleId": f.rule,
                "level": f.level,
                "message": {"text": crate::untrusted::line(&f.message, 2_000)},
                "locations": [location],
            })
        })
        .collect();
    json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "tool": {"driver": {
                "name": "mcp-inspect",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules.iter().map(|r| json!({"id": r})).collect::<Vec<_>>(),
            }},
            "results": results,
        }],
    })
}

/// The 1-based line where `"<key>": "<name>"` stands in a pretty-printed snapshot, within the
/// list of `kind` (a prompt and a tool may share a name).
fn line_of(text: &str, kind: Kind, name: &str) -> Option<usize> {
    let (list, key) = kind.list_and_key();
    let start = format!("\"{list}\": [");
    let needle = format!("\"{key}\": {}", serde_json::to_string(name).ok()?);
    let mut lines = text.lines().enumerate();
    // Lists stand one level into the document, items one level further: the list's line is
    // at two spaces and the item's key at six.
    lines.find(|(_, l)| l.strip_prefix("  ").is_some_and(|l| l.starts_with(&start)))?;
    lines
        .take_while(|(_, l)| !l.starts_with("  ]"))
        .find(|(_, l)| {
            l.strip_prefix("      ")
                .is_some_and(|l| l.starts_with(&needle))
        })
        .map(|(i, _)| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_carry_rule_level_and_both_locations() {
        let text = "{\n  \"tools\": [\n    {\n      \"name\": \"add\"\n    }\n  ]\n}\n";
        let findings = [Finding {
            rule: "drift/breaking",
            level: "error",
            tool: "add",
            kind: Kind::Tool,
            pointer: "/inputSchema/properties/c",
            message: "property `c` added (required)".into(),
        }];
        let artifact = Artifact {
            uri: "mcp-surface.json",
            text,
        };
        let log = log(&findings, Some(&artifact));
        let result = &log["runs"][0]["results"][0];
        assert_eq!(result["ruleId"], "drift/breaking");
        assert_eq!(result["level"], "error");
        let location = &result["locations"][0];
        assert_eq!(location["physicalLocation"]["region"]["startLine"], 4);
        assert_eq!(
            location["physicalLocation"]["artifactLocation"]["uri"],
            "mcp-surface.json"
        );
        assert_eq!(
            location["logicalLocations"][0]["fullyQualifiedName"],
            "add/inputSchema/properties/c"
        );
        assert_eq!(
            log["runs"][0]["tool"]["driver"]["rules"][0]["id"],
            "drift/breaking"
        );
    }

    #[test]
    fn an_item_is_found_in_its_own_list() {
        // A prompt and a tool share a name; a resource is named by its URI (its `name` is
        // the tool's name too). Each finding points at its own item's line.
        let doc = serde_json::json!({
            "prompts": [{"name": "add"}],
            "resources": [{"name": "add", "uri": "file:///add"}],
            "tools": [{"name": "add", "inputSchema": {"default": {"name": "add"}}}],
        });
        let text = serde_json::to_string_pretty(&doc).expect("text");
        let line = |kind, name| line_of(&text, kind, name).map(|n| text.lines().nth(n - 1));
        assert_eq!(
            line(Kind::Prompt, "add"),
            Some(Some("      \"name\": \"add\""))
        );
        assert_eq!(
            line(Kind::Resource, "file:///add"),
            Some(Some("      \"uri\": \"file:///add\""))
        );
        let tool = line_of(&text, Kind::Tool, "add").expect("tool");
        assert!(
            text.lines().take(tool).any(|l| l.contains("\"tools\"")),
            "{text}"
        );
        assert_eq!(line_of(&text, Kind::ResourceTemplate, "add"), None);
    }
}
