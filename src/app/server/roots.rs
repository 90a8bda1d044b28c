//! The roots handed to the server, edited in the TUI (`R` in the server pane): a form of the
//! directories (or `file://` URIs) given, sent to the connection task, which checks each is a
//! directory and tells the server. Empty unless the user names some. While the user types,
//! each entry is checked off the UI thread (a `stat` may hang on a dead mount) and the form
//! says which is not a directory before it is sent; if sending fails all the same, the form
//! opens again with every entry the user typed: nothing typed is lost.

use crate::app::asked::state::{AskPanel, OwnForm, root_entries as entries};
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
    let roots = roots.clone();
    open(model, &roots, false)
}

/// Opens the roots form with `entries` (in front when `again`: the user just sent it), and
/// has them checked.
fn open(model: &mut Model, entries: &[String], again: bool) -> Vec<Effect> {
    let panel = AskPanel::for_roots(entries);
    match again {
        true => model.asked.push_front(panel),
        false => model.asked.push_back(panel),
    }
    vec![Effect::CheckRoots(entries.to_vec())]
}

/// After an edit of the front panel: if it is the roots form and its entries are not the
/// ones last checked, they are checked.
pub fn recheck(model: &Model) -> Vec<Effect> {
    let Some(panel) = model.asked.front() else {
        return Vec::new();
    };
    let (Some(OwnForm::Roots), Ok(value)) = (&panel.own, panel.draft.value()) else {
        return Vec::new();
    };
    let now = entries(&value);
    match &panel.roots_checked {
        Some((checked, _)) if *checked == now => Vec::new(),
        _ => vec![Effect::CheckRoots(now)],
    }
}

/// What the check off the UI thread found: kept on the roots form it was for (every roots
/// form open; only the one whose entries are still these shows it).
pub fn checked(model: &mut Model, entries: Vec<String>, problem: Option<String>) {
    let problem = problem.map(|why| format!("{why} (fix or remove it)"));
    for panel in model.asked.iter_mut() {
        if panel.own == Some(OwnForm::Roots) {
            panel.roots_checked = Some((entries.clone(), problem.clone()));
            panel.check();
        }
    }
}

/// The form was sent: the directories asked of the connection task.
pub fn chosen(model: &mut Model, result: Result<Value, String>) -> Vec<Effect> {
    let content = match &result {
        Ok(v) if v.get("action").and_then(Value::as_str) == Some("accept") => v.get("content"),
        _ => return Vec::new(),
    };
    let entries = content.map(entries).unwrap_or_default();
    model.view.status = Some("handing the roots to the server…".into());
    vec![Effect::Session(SessionRequest::SetRoots(entries))]
}

/// What the connection task did with them: the roots now handed and how the server learns
/// of them; or why not, with the form open again on the entries sent.
pub fn set(
    model: &mut Model,
    entries: Vec<String>,
    outcome: Result<(Vec<String>, &'static str), String>,
) -> Vec<Effect> {
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
            Vec::new()
        }
        Err(why) => {
            let why = crate::untrusted::line(&why, 300).into_owned();
            let said =
                format!("roots not changed: {why} (nothing handed; the form keeps what you typed)");
            model.push_log(LogKind::Problem, said.clone());
            model.view.status = Some(said);
            open(model, &entries, true)
        }
    }
}
