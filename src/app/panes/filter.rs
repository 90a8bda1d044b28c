//! The filter line of the tools list, the protocol pane, the library and the help overlay:
//! which one a key types into, and applying it (typing selects the best match; clearing keeps
//! the selection).

use crate::app::command::Command;
use crate::app::model::{Model, Overlay, Pane};

/// Starts, accepts, cancels or edits the filter of the focused pane. Started again on text
/// typed before, the filter shows it, and the first character typed replaces it.
pub fn command(model: &mut Model, command: Command) {
    model.view.filter_fresh = command == Command::Filter;
    if model.view.overlay == Some(Overlay::Help) {
        return help_search(model, command);
    }
    // A pane with no filter of its own hands `/` to the list beside it.
    if command == Command::Filter
        && !matches!(
            model.view.focus,
            Pane::Tools | Pane::Library | Pane::Protocol
        )
    {
        model.view.focus = match model.view.tab {
            crate::app::tabs::Tab::Tools => Pane::Tools,
            crate::app::tabs::Tab::Library(_) => Pane::Library,
        };
    }
    match command {
        Command::Filter if model.view.focus == Pane::Protocol => {
            model.protocol.filter.editing = true
        }
        Command::Filter if model.view.focus == Pane::Library => model.library.filtering = true,
        Command::Filter => model.tools.filter.editing = true,
        Command::FilterAccept => stop_editing(model),
        Command::FilterCancel | Command::FilterClear => {
            edit(model, String::clear);
            stop_editing(model);
        }
        Command::FilterDelete => edit(model, |text| {
            text.pop();
        }),
        _ => {}
    }
}

/// The help overlay's search: `/` types it, enter keeps it, esc clears it.
fn help_search(model: &mut Model, command: Command) {
    model.view.help_scroll = 0;
    let view = &mut model.view;
    match command {
        Command::Filter => view.help_searching = true,
        Command::FilterAccept => view.help_searching = false,
        Command::FilterCancel | Command::FilterClear => {
            view.help_search.clear();
            view.help_searching = false;
        }
        Command::FilterDelete => {
            view.help_search.pop();
        }
        _ => {}
    }
}

fn stop_editing(model: &mut Model) {
    model.tools.filter.editing = false;
    model.protocol.filter.editing = false;
    model.library.filtering = false;
}

/// A character typed into the filter line: after the text typed before, or in its place when
/// the line was just opened on it.
pub fn type_char(model: &mut Model, c: char) {
    if model.view.overlay == Some(Overlay::Help) {
        model.view.help_search.push(c);
        model.view.help_scroll = 0;
        return;
    }
    if std::mem::take(&mut model.view.filter_fresh) {
        edit(model, String::clear);
    }
    edit(model, |text| text.push(c));
}

/// Edits the text of the filter being typed into, or else the focused pane's (the protocol
/// pane's, the library's or the tools list's), and applies it.
pub fn edit(model: &mut Model, edit: impl FnOnce(&mut String)) {
    let protocol = &mut model.protocol;
    let library = &mut model.library;
    let typing_elsewhere = model.tools.filter.editing || protocol.filter.editing;
    if library.filtering || (!typing_elsewhere && model.view.focus == Pane::Library) {
        let mut text = library.filter.clone();
        edit(&mut text);
        library.set_filter(text);
    } else if protocol.filter.editing
        || (!model.tools.filter.editing && model.view.focus == Pane::Protocol)
    {
        let mut text = protocol.filter.text.clone();
        edit(&mut text);
        protocol.set_filter(text);
    } else {
        edit(&mut model.tools.filter.text);
        refilter(model);
    }
}

/// Applies the tool filter: typing selects the best match; a cleared filter keeps the tool
/// that was selected.
fn refilter(model: &mut Model) {
    let before = model
        .tools
        .filter
        .visible
        .get(model.tools.selected)
        .map(|m| m.index);
    model.tools.filter.apply(&model.tools.list);
    let visible = &model.tools.filter.visible;
    model.tools.selected = before
        .filter(|_| model.tools.filter.text.is_empty())
        .and_then(|i| visible.iter().position(|m| m.index == i))
        .unwrap_or(0);
    model.tools.scroll = 0;
}
