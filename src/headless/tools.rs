//! `mcp-inspect tools`: every tool across all pages, one line each or as JSON.

use super::output::Report;
use crate::cli::Format;
use crate::headless::exit;
use crate::mcp::Session;
use crate::mcp::surface::tool::Tool;
use crate::schema::SchemaTree;
use crate::schema::signature::signature;
use crate::untrusted;
use serde_json::json;

pub async fn run(session: &Session, report: &Report) -> i32 {
    let mut list = match session.list_tools().await {
        Ok(l) => l,
        Err(e) => return report.error(&format!("tools/list failed: {e}"), exit::ERROR),
    };
    set_apart_excluded(&mut list, session.server.era);
    match report.format {
        Format::Json => report.json(&json!({
            "server": session.server,
            "tools": list.tools.iter().map(Tool::definition).collect::<Vec<_>>(),
            "rejected": list.rejected,
        })),
        Format::Text => {
            for tool in &list.tools {
                report.line(&tool_line(tool));
            }
        }
    }
    for r in &list.rejected {
        report.warn(&r.to_string());
    }
    match list.problem {
        Some(problem) => report.error(&problem, exit::ERROR),
        None => exit::OK,
    }
}

/// Moves the tools a client of `era` must leave out (see [`Tool::excluded_in`]) to the rejected
/// ones, with the reason, at the place they had in the listing.
fn set_apart_excluded(list: &mut crate::mcp::ToolList, era: crate::schema::Era) {
    let tools = std::mem::take(&mut list.tools);
    for (index, tool) in tools.into_iter().enumerate() {
        match tool.excluded_in(era) {
            Some(reason) => list.rejected.push(crate::mcp::surface::tool::RejectedTool {
                index,
                name: Some(tool.name),
                reason,
            }),
            None => list.tools.push(tool),
        }
    }
}

/// `signature  [hints]  first line of the description`, escaped and bounded.
pub fn tool_line(tool: &Tool) -> String {
    let input = SchemaTree::outline(&tool.input_schema);
    let output = tool.output_schema.as_deref().map(SchemaTree::outline);
    let sig = signature(
        &tool.name,
        &input,
        output.as_ref().map(|t| (t, tool.facts.boxing.as_ref())),
    );
    let mut line = untrusted::line(&sig, 300).into_owned();
    let hints = tool.annotations.words();
    if !hints.is_empty() {
        line.push_str(&format!("  [{}]", hints.join(", ")));
    }
    if let Some(first) = tool
        .description
        .as_deref()
        .and_then(|d| d.lines().find(|l| !l.trim().is_empty()))
    {
        line.push_str("  ");
        line.push_str(&untrusted::line(first.trim(), 160));
    }
    line
}
