//! Drawing: functions from `&Model` to widgets on a frame. Read-only apart from remembering the
//! page size and scroll offsets; nothing here can fail. Every server string arrives escaped.

mod call;
mod help;
mod layout;
mod log;
mod server;
mod status;
mod tool;
mod tools;

use crate::app::model::{Model, Overlay, Pane};
use ratatui::Frame;

pub fn draw(frame: &mut Frame<'_>, model: &mut Model) {
    let areas = layout::split(frame.area(), model.focus);
    tools::draw(frame, areas.tools, model);
    if let Some(area) = areas.tool {
        if model.focus == Pane::Call {
            call::draw(frame, area, model);
        } else {
            tool::draw(frame, area, model);
        }
    }
    if let Some(area) = areas.server {
        server::draw(frame, area, model);
    }
    log::draw(frame, areas.log, model);
    status::draw(frame, areas.status, model);
    match model.overlay {
        Some(Overlay::Help) => help::draw_help(frame, model),
        Some(Overlay::CopyMenu) => help::draw_copy_menu(frame, model),
        None => {}
    }
    sanitize(frame.buffer_mut());
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
