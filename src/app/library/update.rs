//! What the keys do in the library's tabs (`6`, `t`): listing the server's resources, templates,
//! prompts and skills once a connection's tools are listed, moving through them, opening one (a form
//! first when a prompt has arguments or a template has variables), saving what was read,
//! subscribing to a resource.
//! Completions in the forms: `update_completions`. Pure.

use crate::app::asked::state::AskPanel;
use crate::app::command::Command;
use crate::app::effect::{Effect, SessionRequest};
use crate::app::library::query::tabs;
use crate::app::library::state::{Item, Kind, Open, Opened, Selection, result_lines};
use crate::app::model::{LogKind, Model, Pane};
use crate::app::outline;
use crate::app::server::state::Connection;
use crate::app::tabs::Tab;
use crate::mcp::session::requests::OpenRequest;
use crate::untrusted;
use serde_json::{Map, Value};

/// Shows `tab` across the left pane, its list focused (asking for the lists if not yet).
pub fn show(model: &mut Model, tab: Tab) -> Vec<Effect> {
    model.view.tab = tab;
    match tab {
        Tab::Tools => {
            if !model.view.focus.beside(tab) {
                model.view.focus = Pane::Tools;
            }
            Vec::new()
        }
        Tab::Library(kind) => {
            model.library.show(kind);
            model.view.focus = Pane::Library;
            list(model)
        }
    }
}

/// `6`: the library tab shown last, else the first the server has.
pub fn focus(model: &mut Model) -> Vec<Effect> {
    let tabs = tabs(model);
    let last = Tab::Library(model.library.kind);
    let Some(&first) = tabs.iter().find(|t| **t != Tab::Tools) else {
        model.view.status = Some(match model.session.server {
            None => "not connected: the library is listed once connected".into(),
            Some(_) => "the server declares no resources, prompts or skills".into(),
        });
        return Vec::new();
    };
    show(model, if tabs.contains(&last) { last } else { first })
}

/// `t`/`T`: the next or the previous tab, round.
pub fn step(model: &mut Model, forward: bool) -> Vec<Effect> {
    let tabs = tabs(model);
    if tabs.len() < 2 {
        model.view.status =
            Some("the server declares no resources, prompts or skills: no tabs".into());
        return Vec::new();
    }
    let from = if tabs.contains(&model.view.tab) {
        model.view.tab
    } else {
        Tab::Tools
    };
    show(model, from.step(&tabs, forward))
}

/// Asks for the lists, once on a connection: when its tools are listed (so the tabs can show
/// their counts), or when a tab is first shown.
pub fn list(model: &mut Model) -> Vec<Effect> {
    if model.library.asked
        || model.session.connection != Connection::Connected
        || tabs(model).len() < 2
    {
        return Vec::new();
    }
    model.library.asked = true;
    vec![Effect::Session(SessionRequest::ListLibrary)]
}

/// A new connection: its lists asked afresh, the tab shown kept when the server has it.
pub fn connected(model: &mut Model) {
    let kind = model.library.kind;
    model.library = Default::default();
    model.library.show(kind);
    if !tabs(model).contains(&model.view.tab) {
        show(model, Tab::Tools);
    }
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

/// Reads a resource a call's result links to: the Resources tab shown, on the resource when it
/// is listed, and what the read gives beside it.
pub fn read_link(model: &mut Model, uri: &str) -> Vec<Effect> {
    let mut effects = show(model, Tab::Library(Kind::Resource));
    let library = &mut model.library;
    if let Some(at) = library.items.iter().position(|i| {
        i.kind == Kind::Resource && i.json.get("uri").and_then(Value::as_str) == Some(uri)
    }) && library.shown.contains(&at)
    {
        library.selected = at;
    }
    model.view.focus = Pane::Opened;
    effects.push(opening(model, Open::read(uri)));
    effects
}

/// `open` asked of the connection task, what it gives to be shown beside the selected item.
fn opening(model: &mut Model, open: Open) -> Effect {
    model.library.opening = Some(open.title.clone());
    model.library.opened_for = Some(model.library.selected);
    Effect::Session(SessionRequest::Open(open))
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
        Ok(open) => vec![opening(model, open)],
        Err(why) => {
            model.view.status = Some(why);
            Vec::new()
        }
    }
}

pub fn opened(
    model: &mut Model,
    open: Open,
    result: Result<Value, String>,
    pictures: Vec<(
        String,
        Result<crate::mcp::surface::picture::Picture, String>,
    )>,
) {
    let library = &mut model.library;
    library.opening = None;
    library.opened_for.get_or_insert(library.selected);
    if result.is_ok()
        && let OpenRequest::Read { uri } = &open.request
    {
        library.updated.remove(uri);
    }
    library.opened_scroll = 0;
    let title = untrusted::line(&open.title, 200).into_owned();
    let (lines, json) = match &result {
        Ok(value) => {
            let (lines, json) = result_lines(&open, value);
            (Ok(lines), json)
        }
        Err(why) => {
            let said = format!("{title}: {why}");
            model.push_log(LogKind::Problem, untrusted::block(&said));
            (Err(why.clone()), None)
        }
    };
    model.library.opened = Some(Opened {
        title,
        lines,
        json,
        result: result.ok(),
        pictures,
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
        model.view.status = Some("nothing to save: read a resource first".into());
        return Vec::new();
    };
    let bytes = match crate::mcp::surface::library::content_bytes(first) {
        Ok(bytes) => bytes,
        Err(why) => {
            model.view.status = Some(why);
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
    model.view.status = Some(format!("writing {}…", untrusted::line(path, 200)));
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
    model.view.status = Some(untrusted::line(&said, 300).into_owned());
    model.push_log(kind, untrusted::block(&said));
}

/// Subscribes to the selected resource, or ends its subscription (when the server declares
/// `resources.subscribe`).
pub fn subscribe(model: &mut Model) -> Vec<Effect> {
    let Some(uri) = model.library.selected_item().and_then(Item::uri) else {
        model.view.status = Some("only a resource can be subscribed to".into());
        return Vec::new();
    };
    let declared = model
        .session
        .server
        .as_ref()
        .and_then(|s| s.capabilities.pointer("/resources/subscribe"))
        == Some(&Value::Bool(true));
    if !declared {
        model.view.status = Some("the server does not declare resources.subscribe".into());
        return Vec::new();
    }
    let uri = uri.to_string();
    let on = !model.library.subscribed.contains(&uri);
    model.view.status = Some(format!(
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
            model.view.status = Some(untrusted::line(&said, 300).into_owned());
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
    model.view.status = Some(said);
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
    match command {
        Command::Down => library.select(Selection::Next),
        Command::Up => library.select(Selection::Previous),
        Command::First => library.select(Selection::First),
        Command::Last => library.select(Selection::Last),
        Command::PageDown | Command::PageUp => scroll_opened(model, command),
        _ => {}
    }
}

/// The keys in the pane beside the list: they move the cursor of a JSON content's tree and
/// open and close its rows; the page keys, and every key when there is no tree, scroll.
pub fn in_opened(model: &mut Model, command: Command) {
    let json = model.library.opened.as_mut().and_then(|o| o.json.as_mut());
    let json = match (json, command) {
        (_, Command::PageDown | Command::PageUp) | (None, _) => {
            return scroll_opened(model, command);
        }
        (Some(json), _) => json,
    };
    outline::step_in(&json.tree, &mut json.open, &mut json.cursor, command);
    json.follow = true;
}

/// Scrolls what was opened (the pane beside the list): a line, a page, or to an end.
pub fn scroll_opened(model: &mut Model, command: Command) {
    let page = model.view.viewport.opened_rows.max(1);
    let scroll = &mut model.library.opened_scroll;
    *scroll = match command {
        Command::Down => scroll.saturating_add(1),
        Command::Up => scroll.saturating_sub(1),
        Command::PageDown => scroll.saturating_add(page),
        Command::PageUp => scroll.saturating_sub(page),
        Command::First => 0,
        // Clamped to the last page when drawn.
        Command::Last => usize::MAX,
        _ => *scroll,
    };
}
