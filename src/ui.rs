//! Drawing: functions from `&Model` to widgets on a frame. Read-only: what a frame learns (pane
//! heights, scroll kept around the cursor) is returned as a [`Viewport`] for the model to adopt.
//! Nothing here can fail. Every server string arrives escaped.

mod asked;
mod authorize;
mod call;
mod conduct;
mod form;
mod help;
mod layout;
mod library;
mod log;
mod outline;
mod picker;
mod picture;
mod prose;
mod protocol;
mod server;
mod status;
mod tabs;
mod tool;
mod tools;
mod trial;

use crate::app::model::{Model, Overlay, Pane, Viewport};
use crate::app::tabs::Tab;
use ratatui::Frame;
use ratatui::layout::Rect;

/// Draws the whole screen and returns what it learned of the panes.
pub fn draw(frame: &mut Frame<'_>, model: &Model) -> Viewport {
    let mut viewport = Viewport {
        list_area: Rect::default(),
        tree_area: Rect::default(),
        call_area: Rect::default(),
        call_value_line: None,
        form_area: Rect::default(),
        protocol_area: Rect::default(),
        tab_areas: Vec::new(),
        library_area: Rect::default(),
        opened_area: Rect::default(),
        log_area: Rect::default(),
        ..model.view.viewport.clone()
    };
    let areas = layout::split(
        frame.area(),
        model.view.focus,
        model.view.zoomed,
        model.view.left_percent,
    );
    viewport.divider = areas.divider;
    if let Some(area) = areas.tools {
        let list = tabs::draw(frame, area, model, &mut viewport);
        match model.view.tab {
            Tab::Tools => tools::draw(frame, list, model, &mut viewport),
            Tab::Library(_) => library::draw_list(frame, list, model, &mut viewport),
        }
    }
    if let Some(area) = areas.tool {
        match (model.view.focus, model.view.tab) {
            (Pane::Call, _) => call::draw(frame, area, model, &mut viewport),
            (Pane::Protocol, _) => protocol::draw(frame, area, model, &mut viewport),
            (Pane::Trial, _) => trial::draw(frame, area, model, &mut viewport),
            (_, Tab::Library(_)) => library::draw_opened(frame, area, model, &mut viewport),
            (_, Tab::Tools) => tool::draw(frame, area, model, &mut viewport),
        }
    }
    if let Some(area) = areas.server {
        server::draw(frame, area, model, &mut viewport);
    }
    if let Some(area) = areas.log {
        log::draw(frame, area, model);
        viewport.log_area = area;
    }
    status::draw(frame, areas.status, model);
    match model.view.overlay {
        Some(Overlay::Help) => help::draw_help(frame, model, &mut viewport),
        Some(Overlay::CopyMenu) => help::draw_copy_menu(frame, model),
        Some(Overlay::LogLevel(cursor)) => help::draw_levels(frame, model, cursor),
        None => {}
    }
    // In front of everything: the server waits for the user.
    asked::draw(frame, model);
    authorize::draw(frame, model);
    sanitize(frame.buffer_mut());
    viewport
}

/// Draws the server picker on the whole screen; returns the first row of its list shown.
pub fn draw_picker(frame: &mut Frame<'_>, picker: &crate::app::picker::Picker) -> usize {
    let scroll = picker::draw(frame, picker, picker.theme);
    sanitize(frame.buffer_mut());
    scroll
}

/// The first row to show so that row `cursor` is among the `rows` shown, moving the window
/// from `scroll` as little as possible.
fn keep_in_view(scroll: usize, cursor: usize, rows: usize) -> usize {
    if cursor < scroll {
        cursor
    } else if cursor >= scroll + rows {
        cursor + 1 - rows
    } else {
        scroll
    }
}

/// What a list's title says of its filter: `· 3 shown /text▏` while typing or set, else
/// nothing.
fn filter_note(filter: &str, typing: bool, shown: usize) -> String {
    if !typing && filter.is_empty() {
        return String::new();
    }
    let cursor = if typing { "▏" } else { "" };
    let filter = crate::untrusted::line(filter, 40);
    format!("· {shown} shown /{filter}{cursor} ")
}

/// Lines `lines` take wrapped at `width` columns (about: a word carried whole is not weighed).
pub(super) fn wrapped_height(lines: &[ratatui::text::Line<'_>], width: u16) -> u16 {
    let width = usize::from(width.max(1));
    let total: usize = lines.iter().map(|l| l.width().max(1).div_ceil(width)).sum();
    u16::try_from(total).unwrap_or(u16::MAX)
}

/// The last guard before the terminal: a cell that still holds a control, bidi or invisible
/// character (text that reached a widget unescaped) is drawn as `�` instead. Every server
/// string is escaped before it gets here, so this only ever catches a mistake.
fn sanitize(buffer: &mut ratatui::buffer::Buffer) {
    for cell in &mut buffer.content {
        if cell.symbol().chars().any(crate::untrusted::is_dangerous) {
            cell.set_symbol("\u{FFFD}");
        }
    }
}
