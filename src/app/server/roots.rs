//! The roots handed to the server, edited in the TUI (`R` in the server pane): a form of the
//! directories (or `file://` URIs) given, sent to the connection task, which checks each is a
//! directory and tells the server. Empty unless the user names some. A path that is not a
//! directory is caught before sending (one `stat` each: roots are few), the form opened again
//! with every entry the user typed: nothing typed is lost.

use crate::app::asked::state::AskPanel;
use crate::app::effect::{Effect, SessionRequest};
use crate::app::model::{LogKind, Model};
use serde_json::Value;

/// `R`: the roots form, filled with the roots handed now.
pub fn edit(model: &mut Model) -> Vec<Effect> {
    let Some(server) = &model.session.server else {
        model.view.status = Some("not connected yet".into());
        return Vec::new();
    };
    let Some(roots) = &server.roots else {
        model.view.status = Some("roots are not declared (--no-roots): nothing to edit".into());
        return Vec::new();
    };
    model.asked.push_back(AskPanel::for_roots(roots));
    Vec::new()
}

/// The form was sent: the directories asked of the connection task.
pub fn chosen(model: &mut Model, result: Result<Value, String>) -> Vec<Effect> {
    let content = match &result {
        Ok(v) if v.get("action").and_then(Value::as_str) == Some("accept") => v.get("content"),
        _ => return Vec::new(),
    };
    let entries: Vec<String> = content
        .and_then(|c| c.get("roots"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(String::from)
        .collect();
    if let Some(missing) = entries.iter().find(|e| !is_usable(e)) {
        let why = format!(
            "not a directory: {} (nothing handed; fix or remove it)",
            crate::untrusted::line(missing, 200)
        );
        model.push_log(LogKind::Problem, format!("roots not changed: {why}"));
        model.view.status = Some(format!("roots not changed: {why}"));
        model.asked.push_front(AskPanel::for_roots(&entries));
        return Vec::new();
    }
    model.view.status = Some("handing the roots to the server…".into());
    vec![Effect::Session(SessionRequest::SetRoots(entries))]
}

/// Whether an entry can be handed: a `file://` URI (the connection task reads it), or a path
/// that is a directory now.
fn is_usable(entry: &str) -> bool {
    entry.starts_with("file://") || std::path::Path::new(entry).is_dir()
}

/// What the connection task did with them: the roots now handed and how the server learns
/// of them, or why not.
pub fn set(model: &mut Model, outcome: Result<(Vec<String>, &'static str), String>) {
    match outcome {
        Ok((uris, how)) => {
            let listed = match uris.is_empty() {
                true => "none".to_string(),
                false => crate::untrusted::line(&uris.join(", "), 400).into_owned(),
            };
            model.push_log(LogKind::Event, format!("roots now {listed}; {how}"));
            model.view.status = Some(format!("roots: {listed}"));
            if let Some(server) = model.session.server.as_mut() {
                server.roots = Some(uris);
            }
        }
        Err(why) => {
            let why = crate::untrusted::line(&why, 300).into_owned();
            model.push_log(LogKind::Problem, format!("roots not changed: {why}"));
            model.view.status = Some(format!("roots not changed: {why}"));
        }
    }
}
