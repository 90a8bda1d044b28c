//! Findings as SARIF 2.1.0, the format CI systems read to annotate code (`check --format sarif`,
//! `diff --format sarif`): each finding a result with its rule, level and message, located
//! logically at `tool` + JSON Pointer, and physically in a snapshot file when there is one (at
//! the line of the tool's name). Pure.

use serde_json::{Value, json};

/// One finding to report.
pub struct Finding<'a> {
    /// A stable id: `lint/error`, `drift/breaking` …
    pub rule: &'a str,
    /// `error`, `warning` or `note`.
    pub level: &'a str,
    pub tool: &'a str,
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
                if let Some(line) = line_of(a.text, f.tool) {
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

/// The 1-based line where `"name": "<tool>"` stands in a pretty-printed snapshot.
fn line_of(text: &str, tool: &str) -> Option<usize> {
    let needle = format!("\"name\": {}", serde_json::to_string(tool).ok()?);
    text.lines()
        .position(|l| l.trim_start().starts_with(&needle))
        .map(|i| i + 1)
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
}
