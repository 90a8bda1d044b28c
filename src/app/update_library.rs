//! What the keys do in the library pane (`6`): listing the server's resources, templates and
//! prompts once it is shown, moving through them, and opening one (a form first when a prompt
//! has arguments or a template has variables). Pure.

use crate::app::asked::AskPanel;
use crate::app::command::Command;
use crate::app::effect::{Effect, SessionRequest};
use crate::app::library::{Item, Open, Opened, result_lines};
use crate::app::model::{Connection, LogKind, Model, Pane};
use crate::untrusted;
use serde_json::{Map, Value};

/// Shows the pane; the first time on a connection, asks for the lists.
pub fn focus(model: &mut Model) -> Vec<Effect> {
    model.focus = Pane::Library;
    let library = &mut model.library;
    if library.asked || model.connection != Connection::Connected {
        return Vec::new();
    }
    library.asked = true;
    vec![Effect::Session(SessionRequest::ListLibrary)]
}

pub fn listed(model: &mut Model, items: Vec<Item>, problems: Vec<String>) {
    for problem in &problems {
        model.push_log(LogKind::Problem, untrusted::block(problem));
    }
    model.library.listed(items, problems);
}

/// Opens the selected item, or asks first for what it needs.
pub fn open(model: &mut Model) -> Vec<Effect> {
    let Some(item) = model.library.selected_item().cloned() else {
        return Vec::new();
    };
    match item.form() {
        Some(form) => {
            model.asked.push_back(AskPanel::for_item(item, form));
            Vec::new()
        }
        None => request(model, &item, &Map::new()),
    }
}

/// The form for `item` was answered: opened with its values, or dropped.
pub fn filled(model: &mut Model, item: &Item, answer: Result<Value, String>) -> Vec<Effect> {
    let accepted = answer.ok().filter(|a| a["action"] == "accept");
    match accepted.as_ref().and_then(|a| a["content"].as_object()) {
        Some(values) => request(model, item, values),
        None => Vec::new(),
    }
}

fn request(model: &mut Model, item: &Item, values: &Map<String, Value>) -> Vec<Effect> {
    match item.request(values) {
        Ok(open) => {
            model.library.opening = Some(open.title.clone());
            vec![Effect::Session(SessionRequest::Open(open))]
        }
        Err(why) => {
            model.status = Some(why);
            Vec::new()
        }
    }
}

pub fn opened(model: &mut Model, open: Open, result: Result<Value, String>) {
    let library = &mut model.library;
    library.opening = None;
    library.opened_scroll = 0;
    let title = untrusted::line(&open.title, 200).into_owned();
    let lines = result.as_ref().map(|value| result_lines(&open, value));
    let lines = lines.map_err(Clone::clone);
    if let Err(why) = &lines {
        model.push_log(
            LogKind::Problem,
            untrusted::block(&format!("{title}: {why}")),
        );
    }
    model.library.opened = Some(Opened {
        title,
        lines,
        result: result.ok(),
    });
}

/// Moves through the list; page keys scroll what was opened.
pub fn motion(model: &mut Model, command: Command) {
    let library = &mut model.library;
    let last = library.items.len().saturating_sub(1);
    let page = model.viewport.opened_rows.max(1);
    match command {
        Command::Down => library.selected = (library.selected + 1).min(last),
        Command::Up => library.selected = library.selected.saturating_sub(1),
        Command::First => library.selected = 0,
        Command::Last => library.selected = last,
        Command::PageDown => library.opened_scroll += page,
        Command::PageUp => library.opened_scroll = library.opened_scroll.saturating_sub(page),
        _ => {}
    }
}
