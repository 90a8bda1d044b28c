//! What the keys do in the library pane (`6`): listing the server's resources, templates and
//! prompts once it is shown, moving through them, opening one (a form first when a prompt has
//! arguments or a template has variables), saving what was read, subscribing to a resource.
//! Completions in the forms: `update_completions`. Pure.

use crate::app::asked::AskPanel;
use crate::app::command::Command;
use crate::app::effect::{Effect, SessionRequest};
use crate::app::library::{Item, Open, Opened, Selection, result_lines};
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
    if result.is_ok()
        && let Some(uri) = open.params.get("uri").and_then(Value::as_str)
    {
        library.updated.remove(uri);
    }
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

/// Asks where to write what the last read gave (its first content: a blob decoded, a text
/// as UTF-8).
pub fn save(model: &mut Model) -> Vec<Effect> {
    let contents = model
        .library
        .opened
        .as_ref()
        .and_then(|o| o.result.as_ref())
        .and_then(|r| r.get("contents"))
        .and_then(Value::as_array);
    let Some(first) = contents.and_then(|c| c.first()) else {
        model.status = Some("nothing to save: read a resource first".into());
        return Vec::new();
    };
    let bytes = match crate::mcp::library::content_bytes(first) {
        Ok(bytes) => bytes,
        Err(why) => {
            model.status = Some(why);
            return Vec::new();
        }
    };
    let uri = first.get("uri").and_then(Value::as_str).unwrap_or_default();
    let mut about = crate::plural::count(bytes.len(), "byte");
    if let Some(all) = contents.map(Vec::len).filter(|n| *n > 1) {
        about.push_str(&format!(" (the first of {all} contents)"));
    }
    let panel = AskPanel::for_save(bytes, &file_name(uri), &about);
    model.asked.push_back(panel);
    Vec::new()
}

/// A file name suggested for a resource: the last segment of its URI when it is a plain name
/// (letters, digits, `.`, `_`, `-`, not starting with a dot), else `resource.bin`.
pub fn file_name(uri: &str) -> String {
    let last = uri.rsplit(['/', ':']).next().unwrap_or_default();
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    let fits =
        !last.is_empty() && !last.starts_with('.') && last.len() <= 100 && last.chars().all(plain);
    if fits {
        last.to_string()
    } else {
        "resource.bin".into()
    }
}

/// The save form was answered: written where it says, or dropped.
pub fn save_to(
    model: &mut Model,
    bytes: std::sync::Arc<Vec<u8>>,
    answer: Result<Value, String>,
) -> Vec<Effect> {
    let accepted = answer.ok().filter(|a| a["action"] == "accept");
    let Some(content) = accepted.as_ref().map(|a| &a["content"]) else {
        return Vec::new();
    };
    let Some(path) = content["path"].as_str().filter(|p| !p.is_empty()) else {
        return Vec::new();
    };
    let overwrite = content["overwrite"] == Value::Bool(true);
    model.status = Some(format!("writing {}…", untrusted::line(path, 200)));
    vec![Effect::Save {
        path: path.into(),
        bytes,
        overwrite,
    }]
}

/// A save ended: said in the status line and the log.
pub fn saved(model: &mut Model, outcome: Result<String, String>) {
    let (kind, said) = match outcome {
        Ok(said) => (LogKind::Event, said),
        Err(why) => (LogKind::Problem, why),
    };
    model.status = Some(untrusted::line(&said, 300).into_owned());
    model.push_log(kind, untrusted::block(&said));
}

/// Subscribes to the selected resource, or ends its subscription (when the server declares
/// `resources.subscribe`).
pub fn subscribe(model: &mut Model) -> Vec<Effect> {
    let Some(uri) = model.library.selected_item().and_then(Item::uri) else {
        model.status = Some("only a resource can be subscribed to".into());
        return Vec::new();
    };
    let declared = model
        .server
        .as_ref()
        .and_then(|s| s.capabilities.pointer("/resources/subscribe"))
        == Some(&Value::Bool(true));
    if !declared {
        model.status = Some("the server does not declare resources.subscribe".into());
        return Vec::new();
    }
    let uri = uri.to_string();
    let on = !model.library.subscribed.contains(&uri);
    model.status = Some(format!(
        "{} {}…",
        if on {
            "subscribing to"
        } else {
            "unsubscribing from"
        },
        untrusted::line(&uri, 200)
    ));
    vec![Effect::Session(SessionRequest::Subscribe { uri, on })]
}

/// The server took (or refused) a subscription's start or end.
pub fn subscribed(model: &mut Model, uri: String, on: bool, outcome: Result<(), String>) {
    let shown = untrusted::line(&uri, 200).into_owned();
    let said = match outcome {
        Err(why) => {
            let said = format!("subscription to {shown} not changed: {why}");
            model.push_log(LogKind::Problem, untrusted::block(&said));
            model.status = Some(untrusted::line(&said, 300).into_owned());
            return;
        }
        Ok(()) if on => {
            model.library.subscribed.insert(uri);
            format!("subscribed to {shown}: its updates are marked in the list")
        }
        Ok(()) => {
            model.library.subscribed.remove(&uri);
            model.library.updated.remove(&uri);
            format!("unsubscribed from {shown}")
        }
    };
    model.push_log(LogKind::Event, said.clone());
    model.status = Some(said);
}

/// `notifications/resources/updated`: the resource is marked until it is read again.
pub fn resource_updated(model: &mut Model, uri: String) {
    let shown = untrusted::line(&uri, 200).into_owned();
    let subscribed = model.library.subscribed.contains(&uri);
    // A flood of updates marks once; the log says the first.
    if model.library.updated.insert(uri) {
        let said = if subscribed {
            format!("resource updated: {shown} (enter reads it again)")
        } else {
            format!("resource updated, though not subscribed to: {shown}")
        };
        model.push_log(LogKind::Event, said);
    }
}

/// Moves through the list; page keys scroll what was opened.
pub fn motion(model: &mut Model, command: Command) {
    let library = &mut model.library;
    let page = model.viewport.opened_rows.max(1);
    match command {
        Command::Down => library.select(Selection::Next),
        Command::Up => library.select(Selection::Previous),
        Command::First => library.select(Selection::First),
        Command::Last => library.select(Selection::Last),
        Command::PageDown => library.opened_scroll += page,
        Command::PageUp => library.opened_scroll = library.opened_scroll.saturating_sub(page),
        _ => {}
    }
}
