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
    let now = listing(model);
    let changes = compare::tools(&baseline, &now);
    let summary = Summary::of(&changes);
    let named = names(&changes);
    model.tools.drift.clear();
    for change in changes {
        model
            .tools
            .drift
            .entry(change.name.clone())
            .or_default()
            .push(change);
    }
    let kind = if summary.breaking > 0 {
        LogKind::Problem
    } else {
        LogKind::Event
    };
    let against = match model.tools.since_last_start {
        true => "since the last start",
        false => "against the baseline",
    };
    model.push_log(kind, format!("{against}: {}{named}", summary.line()));
}

/// `; removed: a; added: b; changed: c`: the tools each change concerns, by what it did.
fn names(changes: &[compare::Change]) -> String {
    let mut groups: [(&str, Vec<String>); 3] = [
        ("removed", Vec::new()),
        ("added", Vec::new()),
        ("changed", Vec::new()),
    ];
    for change in changes {
        let group = match (change.pointer.as_str(), change.verdict) {
            ("/", Verdict::Breaking) => 0,
            ("/", Verdict::Compatible) => 1,
            _ => 2,
        };
        let name = crate::untrusted::line(&change.name, 80).into_owned();
        let names = &mut groups[group].1;
        // Changes come sorted by tool: a tool's several changes are named once.
        if names.last() != Some(&name) && names.len() < 20 {
            names.push(name);
        }
    }
    groups
        .iter()
        .filter(|(_, names)| !names.is_empty())
        .map(|(what, names)| format!("; {what}: {}", names.join(", ")))
        .collect()
}

/// The tools listed now, in a snapshot's form (keys sorted), as a baseline is.
pub fn listing(model: &Model) -> serde_json::Value {
    let tools: Vec<_> = (model.tools.list.iter())
        .map(|e| Tool::definition(&e.tool))
        .collect();
    crate::drift::snapshot::canonical(json!({ "tools": tools }))
}
