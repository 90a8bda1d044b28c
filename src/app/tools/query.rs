//! What the tools pane asks of the tools' state without changing it.

use crate::app::model::Model;
use crate::drift::compare::Verdict;

/// Whether `tool` changed against the baseline, and whether a change breaks someone.
pub fn mark(model: &Model, tool: &str) -> Option<bool> {
    let changes = model.tools.drift.get(tool)?;
    Some(changes.iter().any(|c| c.verdict == Verdict::Breaking))
}
