//! `--baseline FILE` in the TUI: once tools are listed, each is compared with the snapshot; the
//! list marks the changed ones (Δ) and the tool pane says what changed, with its verdict. Pure.

use crate::app::model::{LogKind, Model};
use crate::drift::compare::{self, Verdict};
use crate::drift::report::Summary;
use crate::mcp::surface::tool::Tool;
use serde_json::json;

/// Compares the tools just listed with the baseline, if there is one.
pub fn compare(model: &mut Model) {
    let Some(baseline) = model.tools.baseline.clone() else {
        return;
    };
    let tools: Vec<_> = model
        .tools
        .list
        .iter()
        .map(|e| Tool::definition(&e.tool))
        .collect();
    // In a snapshot's form (keys sorted), as the baseline is.
    let now = crate::drift::snapshot::canonical(json!({ "tools": tools }));
    let changes = compare::tools(&baseline, &now);
    let summary = Summary::of(&changes);
    let removed: Vec<String> = changes
        .iter()
        .filter(|c| c.pointer == "/" && c.verdict == Verdict::Breaking)
        .map(|c| crate::untrusted::line(&c.tool, 80).into_owned())
        .collect();
    model.tools.drift.clear();
    for change in changes {
        model
            .tools
            .drift
            .entry(change.tool.clone())
            .or_default()
            .push(change);
    }
    let kind = if summary.breaking > 0 {
        LogKind::Problem
    } else {
        LogKind::Event
    };
    let gone = if removed.is_empty() {
        String::new()
    } else {
        format!("; removed: {}", removed.join(", "))
    };
    model.push_log(
        kind,
        format!("against the baseline: {}{gone}", summary.line()),
    );
}
