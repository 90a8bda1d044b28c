//! Completions in a prompt's or a template's form: asked as the user types (once typing
//! pauses) or on `ctrl-n`, shown under the form, put in on `ctrl-n`; a late answer for a value
//! since changed is dropped. Pure.

use crate::app::effect::{Effect, SessionRequest};
use crate::app::library::state::Kind;
use crate::app::model::Model;
use crate::mcp::session::requests::{Completion, CompletionRef};
use crate::untrusted;
use serde_json::{Map, Value, json};

/// How long typing must pause before completions are asked for.
pub const TYPING_PAUSE: std::time::Duration = std::time::Duration::from_millis(250);

/// A key went into a form: if it changed a field of a prompt's or template's form, its
/// completions are asked for once typing pauses (when the server declares completions).
pub fn typed(model: &mut Model, field_before: Option<(String, String)>) {
    let declares = declares_completions(model);
    let now = model.now;
    let Some(panel) = model.asked.front_mut().filter(|p| p.item().is_some()) else {
        return;
    };
    let field = panel.field_at_cursor();
    if declares && let Some((name, _)) = field.clone().filter(|_| field != field_before) {
        panel.complete_due = Some((now + TYPING_PAUSE, name));
    }
}

/// Time passed: completions are asked for when typing has paused long enough.
pub fn tick(model: &mut Model) -> Vec<Effect> {
    let now = model.now;
    let Some(panel) = model.asked.front_mut() else {
        return Vec::new();
    };
    let Some((_, field)) = panel.complete_due.take_if(|(due, _)| *due <= now) else {
        return Vec::new();
    };
    // The cursor left the field typed into: nothing to ask.
    if panel
        .field_at_cursor()
        .is_none_or(|(name, _)| name != field)
    {
        return Vec::new();
    }
    ask_completions(model, true)
}

fn declares_completions(model: &Model) -> bool {
    model
        .session
        .server
        .as_ref()
        .is_some_and(|s| s.declares("completions"))
}

/// `completion/complete` for the form's field under the cursor (`ctrl-n`): the first value
/// goes in; again, the next of the values already given.
pub fn complete(model: &mut Model) -> Vec<Effect> {
    let Some(panel) = model.asked.front_mut() else {
        return Vec::new();
    };
    if panel.item().is_none() {
        model.view.status = Some("completions are for a prompt's or a template's form".into());
        return Vec::new();
    }
    let Some((argument, _)) = panel.field_at_cursor() else {
        model.view.status = Some("put the cursor on a field's line to complete it".into());
        return Vec::new();
    };
    if let Some(c) = panel
        .completions
        .as_mut()
        .filter(|c| c.argument == argument && !c.values.is_empty())
    {
        let at = c.at.map_or(0, |at| (at + 1) % c.values.len());
        c.at = Some(at);
        let next = c.values[at].clone();
        panel.set_field_at_cursor(&next);
        panel.complete_due = None;
        return Vec::new();
    }
    // Asked now: the question typing had made due would only repeat it.
    panel.complete_due = None;
    ask_completions(model, false)
}

/// Asks the server to complete the field under the cursor; `typed` when typing asked (the
/// values are then shown, not put in).
fn ask_completions(model: &mut Model, typed: bool) -> Vec<Effect> {
    let declares = declares_completions(model);
    let Some(panel) = model.asked.front_mut() else {
        return Vec::new();
    };
    let (Some(item), Some((argument, value))) = (panel.item().cloned(), panel.field_at_cursor())
    else {
        return Vec::new();
    };
    if !declares {
        model.view.status = Some("the server does not declare the `completions` capability".into());
        return Vec::new();
    }
    panel.asked_for = Some((argument.clone(), value.clone(), typed));
    let named = |key: &str| item.json.get(key).and_then(Value::as_str).map(String::from);
    let reference = match item.kind {
        Kind::Prompt => named("name").map(CompletionRef::Prompt),
        _ => named("uriTemplate").map(CompletionRef::Template),
    };
    let Some(reference) = reference else {
        model.view.status = Some("the item has no name to complete against".into());
        return Vec::new();
    };
    // The other fields, as filled so far, for servers that complete in context.
    let draft = panel.draft.value().ok();
    let context: Map<String, Value> = draft
        .as_ref()
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(k, v)| **k != argument && v.as_str().is_some_and(|s| !s.is_empty()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    vec![Effect::Session(SessionRequest::Complete(Completion {
        reference,
        argument,
        value,
        context,
    }))]
}

/// The server's completions for `argument`, shown under the form; asked by `ctrl-n`, the
/// first goes in the draft. An answer for a value since changed is dropped (a newer question
/// is on its way or due).
pub fn completed(model: &mut Model, argument: &str, result: Result<Value, String>) {
    let Some(panel) = model.asked.front_mut().filter(|p| p.item().is_some()) else {
        return;
    };
    let current = panel.field_at_cursor();
    let Some((_, _, typed)) = panel.asked_for.take_if(|(asked, value, _)| {
        asked == argument && current.as_ref().map(|(_, v)| v) == Some(value)
    }) else {
        return;
    };
    let completion = match result {
        Ok(result) => result.get("completion").cloned().unwrap_or(Value::Null),
        Err(why) => {
            model.view.status = Some(format!("completion/complete failed: {why}"));
            return;
        }
    };
    let values: Vec<String> = completion
        .get("values")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .take(100)
        .map(|v| untrusted::line(v, 200).into_owned())
        .collect();
    let total = completion.get("total").filter(|t| t.is_number());
    let more = match (total, completion.get("hasMore") == Some(&json!(true))) {
        (Some(total), true) => Some(format!("{} of {total}, more on the server", values.len())),
        (Some(total), false) => Some(format!("{} of {total}", values.len())),
        (None, true) => Some("more on the server".to_string()),
        (None, false) => None,
    };
    let mut at = None;
    if let Some(first) = values.first().filter(|_| !typed) {
        panel.set_field_at_cursor(first);
        at = Some(0);
    }
    panel.completions = Some(crate::app::asked::state::Completions {
        argument: argument.to_string(),
        values,
        at,
        more,
    });
}
