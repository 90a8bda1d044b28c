//! How a run from the TUI goes (`e` in the trial pane): a verify run's calls, whether it
//! also sends inputs the schema refuses and its call timeout, a load run's length and
//! callers. A form of our own; kept for the session, the next run of that kind starts with
//! them. Pure.

use super::state::{Kind, Run};
use crate::app::asked::state::{AskPanel, OwnForm};
use crate::app::effect::Effect;
use crate::app::model::Model;
use serde_json::{Value, json};

/// The bounds the form holds them to.
const MOST_CALLS: usize = 100_000;
const MOST_SECONDS: f64 = 3_600.0;
const MOST_CALLERS: usize = 256;

/// `e`: the form of the shown run's kind (a verify run's when none was made).
pub fn edit(model: &mut Model) -> Vec<Effect> {
    let kind = model.trial.run.as_ref().map_or(Kind::Verify, |r| r.kind);
    let now = model.trial.settings;
    let (properties, message) = match kind {
        Kind::Verify => (
            json!({
                "calls": {"type": "integer", "title": "Calls", "minimum": 1, "maximum": MOST_CALLS, "default": now.verify_calls,
                          "description": "Calls at most: boundary values first, then random ones"},
                "invalid": {"type": "boolean", "title": "Invalid inputs too", "default": now.verify_invalid,
                            "description": "Also send inputs the inputSchema refuses (the tool should answer with an error, not crash)"},
                "call_timeout": {"type": "number", "title": "Call timeout (s)", "exclusiveMinimum": 0, "maximum": MOST_SECONDS, "default": now.verify_call_timeout,
                                 "description": "A call silent this long is sent again; ten times it is the longest a call is waited for (a slow tool needs more)"}
            }),
            "how the verify run goes; ctrl-s starts it on the selected tool",
        ),
        Kind::Load => (
            json!({
                "seconds": {"type": "integer", "title": "Seconds", "minimum": 1, "maximum": MOST_SECONDS as u64, "default": now.load_seconds.round().max(1.0) as u64,
                            "description": "How long calls are started"},
                "callers": {"type": "integer", "title": "Callers", "minimum": 1, "maximum": MOST_CALLERS, "default": now.load_callers,
                            "description": "Calls in flight at once"}
            }),
            "how the load run goes; ctrl-s starts it on the selected tool",
        ),
    };
    // The form is the one question: a tool that is not read-only is named with its risk here,
    // and ctrl-s goes ahead.
    let message = match model.selected_entry() {
        Some(entry) => match super::update::risk(&entry.tool) {
            Some(risk) => format!(
                "{message}; {} {risk}: ctrl-s runs it all the same",
                crate::untrusted::line(&entry.tool.name, 60)
            ),
            None => message.to_string(),
        },
        None => message.to_string(),
    };
    let form = json!({"type": "object", "properties": properties});
    let params = json!({"message": message, "requestedSchema": form});
    let mut panel = AskPanel::new(0, format!("{} settings", kind.word()), params);
    panel.own = Some(OwnForm::Trial(kind));
    model.asked.push_back(panel);
    Vec::new()
}

/// The form was sent: the settings kept, and a run of that kind started with them.
pub fn chosen(model: &mut Model, kind: Kind, result: Result<Value, String>) -> Vec<Effect> {
    let content = match &result {
        Ok(v) if v.get("action").and_then(Value::as_str) == Some("accept") => &v["content"],
        _ => return Vec::new(),
    };
    let count = |key: &str, most: usize| {
        let n = content.get(key).and_then(Value::as_u64)?;
        usize::try_from(n).ok().map(|n| n.clamp(1, most))
    };
    // Seconds over zero, at most an hour (the form's bounds, held again: an answer is data).
    let seconds = |key: &str, was: f64| {
        let n = content.get(key).and_then(Value::as_f64);
        n.filter(|s| *s > 0.0).map_or(was, |s| s.min(MOST_SECONDS))
    };
    let settings = &mut model.trial.settings;
    match kind {
        Kind::Verify => {
            settings.verify_calls = count("calls", MOST_CALLS).unwrap_or(settings.verify_calls);
            settings.verify_invalid = content
                .get("invalid")
                .and_then(Value::as_bool)
                .unwrap_or(settings.verify_invalid);
            settings.verify_call_timeout = seconds("call_timeout", settings.verify_call_timeout);
        }
        Kind::Load => {
            settings.load_seconds = seconds("seconds", settings.load_seconds);
            settings.load_callers = count("callers", MOST_CALLERS).unwrap_or(settings.load_callers);
        }
    }
    if model.trial.run.as_ref().is_some_and(Run::running) {
        model.view.status = Some(format!(
            "kept: the next {} run goes so (x stops this one)",
            kind.word()
        ));
        return Vec::new();
    }
    // The form named the risk; its ctrl-s is the second press.
    model.trial.confirm = model.selected_entry().map(|e| (e.tool.name.clone(), kind));
    super::update::start(model, kind)
}
