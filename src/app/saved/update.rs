//! Saved calls in `update`: a tool's panel kept after each result, and what earlier sessions
//! with this server kept brought back once the tools are listed (the draft as it was, the
//! results judged again against the schema listed now). Pure.

use crate::app::call::state::Record;
use crate::app::effect::{Effect, SessionRequest};
use crate::app::model::{LogKind, Model};
use crate::app::saved::state::SavedTool;

/// Keeps `tool`'s panel for the next session (when this session keeps calls).
pub fn save(model: &Model, tool: &str) -> Vec<Effect> {
    match model.call(tool) {
        Some(state) if model.saved.saving => vec![Effect::SaveCalls(SavedTool::of(tool, state))],
        _ => Vec::new(),
    }
}

/// What earlier sessions kept arrived.
pub fn loaded(model: &mut Model, tools: Vec<SavedTool>) -> Vec<Effect> {
    model.saved.to_restore = Some(tools);
    restore(model)
}

/// Once both the tools and what was kept are here: each kept tool that is still listed gets
/// its panel back with its draft, and its results are sent to be judged again.
pub fn restore(model: &mut Model) -> Vec<Effect> {
    if model.tools.list.is_empty() || model.saved.to_restore.is_none() {
        return Vec::new();
    }
    let kept = model.saved.to_restore.take().unwrap_or_default();
    let mut effects = Vec::new();
    let (mut tools, mut results) = (0, 0);
    for saved in kept {
        let Some(entry) = model.tools.list.iter().find(|e| e.tool.name == saved.tool) else {
            continue;
        };
        let tool = entry.tool.clone();
        let state = model.panel_of(&tool);
        state.set_text(&saved.draft);
        tools += 1;
        results += saved.calls.len();
        if !saved.calls.is_empty() {
            effects.push(Effect::Session(SessionRequest::Rejudge {
                tool: saved.tool,
                output: state.output().cloned(),
                calls: saved.calls,
            }));
        }
    }
    if tools > 0 {
        model.push_log(
            LogKind::Event,
            format!(
                "{} and {} kept from earlier sessions with {} ([ and ] in a call panel)",
                crate::plural::count(tools, "draft"),
                crate::plural::count(results, "result"),
                match model.saved.kept_for.as_str() {
                    "" => "this server",
                    kept_for => kept_for,
                }
            ),
        );
    }
    effects
}

/// A tool's kept results, judged again: the oldest of its history.
pub fn restored(model: &mut Model, tool: &str, records: Vec<Record>) {
    if let Some(state) = model.call_mut(tool) {
        state.restore(records);
    }
}
