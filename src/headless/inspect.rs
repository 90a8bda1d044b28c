//! `mcp-inspect inspect TOOL`: one tool's definition as JSON, with its signature and boxing.

use super::output::Report;
use crate::mcp::Session;
use crate::mcp::error::exit;
use crate::schema::SchemaTree;
use crate::schema::signature::signature;
use crate::untrusted;
use serde_json::{Value, json};

pub async fn run(session: &Session, name: &str, report: &Report) -> i32 {
    let list = match session.list_tools().await {
        Ok(l) => l,
        Err(e) => return report.error(&format!("tools/list failed: {e}"), exit::ERROR),
    };
    let Some(tool) = list.tools.iter().find(|t| t.name == name) else {
        return report.error(
            &unknown_tool(name, list.tools.iter().map(|t| t.name.as_str())),
            exit::TOOL_ERROR,
        );
    };
    let input = SchemaTree::build(&tool.input_schema);
    let boxed = tool.facts.boxing.clone();
    let output = tool.output_schema.as_deref().map(SchemaTree::build);
    let mut out = json!({
        "name": tool.name,
        "title": tool.field("title").cloned().unwrap_or(Value::Null),
        "description": tool.field("description").cloned().unwrap_or(Value::Null),
        "annotations": tool.field("annotations").cloned().unwrap_or(Value::Null),
        "inputSchema": tool.input_schema,
        "outputSchema": tool.output_schema.as_deref().cloned().unwrap_or(Value::Null),
        "signature": signature(&tool.name, &input, output.as_ref().map(|t| (t, boxed.as_ref()))),
        "boxing": boxed,
    });
    if tool.output_schema.is_none() {
        out["note"] = json!("the server defines no outputSchema for this tool");
    }
    report.json(&out);
    exit::OK
}

/// `unknown tool X (known: a, b, …)`, bounded and escaped.
pub fn unknown_tool<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> String {
    let known: Vec<String> = known
        .take(20)
        .map(|n| untrusted::line(n, 60).into_owned())
        .collect();
    format!(
        "unknown tool `{}` (known: {})",
        untrusted::line(name, 80),
        known.join(", ")
    )
}
