//! What the user does with the panel in front: types into its form, answers it; and a
//! server's request arriving (refused at once when too many already wait).

use crate::app::asked::completions;
use crate::app::asked::state::{AskPanel, Asked, MAX_WAITING, Reply};
use crate::app::command::Command;
use crate::app::copy::Clipping;
use crate::app::effect::{Effect, Handoff, SessionRequest};
use crate::app::model::Model;
use crossterm::event::KeyEvent;
use serde_json::Value;

/// A request from the server for the user: queued behind the panels already open, or refused
/// when [`MAX_WAITING`] wait.
pub fn arrived(model: &mut Model, id: u64, method: String, params: Value) -> Vec<Effect> {
    if model.asked.len() >= MAX_WAITING {
        let result = Err(format!("{MAX_WAITING} requests already wait for the user"));
        return vec![Effect::Session(SessionRequest::Answer { id, result })];
    }
    model.asked.push_back(AskPanel::new(id, method, params));
    Vec::new()
}

/// A key typed into the front panel's form: checked again, completions asked once typing pauses.
pub fn type_into_form(model: &mut Model, event: KeyEvent) {
    if let Some(panel) = model.asked.front_mut() {
        let before = panel.field_at_cursor();
        if panel.draft.key(event) {
            panel.check();
            completions::typed(model, before);
        }
    }
}

/// Undo, redo, or the form switched with its JSON draft, in the front panel.
pub fn edit(model: &mut Model, command: Command) {
    let Some(panel) = model.asked.front_mut() else {
        return;
    };
    let outcome = match command {
        Command::ToggleForm => panel.draft.toggle(),
        _ if panel.draft.undo(command == Command::Redo) => Ok(()),
        _ => Err("nothing to undo".into()),
    };
    panel.check();
    if let Err(why) = outcome {
        model.view.status = Some(why);
    }
}

/// Text pasted into the front panel's draft.
pub fn paste(model: &mut Model, text: &str) {
    if let Some(panel) = model.asked.front_mut() {
        panel.draft.paste(text);
        panel.check();
    }
}

/// The URL a URL elicitation asks the user to visit: copied, or opened in the browser, on
/// these keys only; one with control characters neither.
pub fn link(model: &mut Model, command: Command) -> Vec<Effect> {
    let url = model
        .asked
        .front()
        .filter(|p| p.kind == Asked::Url)
        .and_then(|p| p.params.get("url")?.as_str().map(str::to_string));
    let Some(url) = url else {
        model.view.status = Some("no URL in this panel".into());
        return Vec::new();
    };
    if url.chars().any(crate::untrusted::is_dangerous) {
        model.view.status = Some("the URL holds control characters: not copied or opened".into());
        return Vec::new();
    }
    match command {
        Command::LinkOpen => vec![Effect::OpenInBrowser(url)],
        _ => vec![Effect::Copy(Clipping {
            label: "the URL the server asks you to visit".into(),
            text: url,
        })],
    }
}

/// The user's answer to the front panel: to the server, or to the TUI's own form.
pub fn answer(model: &mut Model, reply: Reply) -> Vec<Effect> {
    let Some(panel) = model.asked.front() else {
        return Vec::new();
    };
    match panel.answer(reply) {
        Err(why) => {
            model.view.status = Some(why);
            Vec::new()
        }
        Ok(result) => {
            let id = panel.id;
            let own = panel.own.clone();
            model.asked.pop_front();
            match own {
                Some(form) => vec![Effect::Handoff(Handoff::OwnFormAnswered {
                    form,
                    answer: result,
                })],
                None => vec![Effect::Session(SessionRequest::Answer { id, result })],
            }
        }
    }
}
