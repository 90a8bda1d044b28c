//! The panes as a whole: which is focused (Tab cycles those beside the tab), the overlays
//! (help, copy menu) and zoom, and motions sent to the focused pane.

use crate::app::command::Command;
use crate::app::model::{Model, Overlay, Pane};
use crate::app::tabs::Tab;

/// Help, close, the copy menu and zoom.
/// The left pane's share changed by `by` percent, within its bounds.
pub fn resize_left(model: &mut Model, by: i16) {
    let (_, least, most) = crate::app::model::LEFT_PERCENT;
    let now = model.view.left_percent.saturating_add_signed(by);
    model.view.left_percent = now.clamp(least, most);
    model.view.status = Some(format!(
        "left pane {}% of the width",
        model.view.left_percent
    ));
}

pub fn overlay(model: &mut Model, command: Command) {
    match command {
        Command::Help => {
            model.view.help_scroll = 0;
            model.view.help_search.clear();
            model.view.help_searching = false;
            model.view.overlay = if model.view.overlay == Some(Overlay::Help) {
                None
            } else {
                Some(Overlay::Help)
            };
        }
        Command::Close => model.view.overlay = None,
        Command::CopyMenu => model.view.overlay = Some(Overlay::CopyMenu),
        Command::Zoom => model.view.zoomed = !model.view.zoomed,
        Command::NarrowLeft => resize_left(model, -4),
        Command::WidenLeft => resize_left(model, 4),
        _ => {}
    }
}

/// Moves the focus: to the next or previous pane, or to one by name.
pub fn focus(model: &mut Model, command: Command) {
    match command {
        Command::FocusNext => cycle(model, true),
        Command::FocusPrev => cycle(model, false),
        Command::FocusTools => {
            model.view.tab = Tab::Tools;
            model.view.focus = Pane::Tools;
        }
        Command::FocusTool | Command::Open => {
            model.view.tab = Tab::Tools;
            model.view.focus = Pane::Tool;
        }
        Command::FocusServer => model.view.focus = Pane::Server,
        Command::FocusLog => model.view.focus = Pane::Log,
        Command::FocusProtocol => model.view.focus = Pane::Protocol,
        Command::Back if model.view.focus == Pane::Opened => model.view.focus = Pane::Library,
        Command::Back if model.view.focus == Pane::Trial => model.view.focus = Pane::Tool,
        Command::Back => model.view.focus = Pane::Tools,
        _ => {}
    }
}

/// The next pane beside the tab. Tab shows a call panel only where one is open, and lands on
/// its results, so the next Tab moves on instead of typing into the editor.
fn cycle(model: &mut Model, forward: bool) {
    let n = Pane::ORDER.len();
    let step = if forward { 1 } else { n - 1 };
    let mut i = Pane::ORDER
        .iter()
        .position(|p| *p == model.view.focus)
        .unwrap_or(0);
    loop {
        i = (i + step) % n;
        // The trial pane only once something ran there.
        let empty = Pane::ORDER[i] == Pane::Trial && model.trial.run.is_none();
        if !Pane::ORDER[i].beside(model.view.tab) || empty {
            continue;
        }
        model.view.focus = Pane::ORDER[i];
        if model.view.focus != Pane::Call {
            break;
        }
        let name = model.selected_entry().map(|e| e.tool.name.clone());
        if let Some(panel) = name.and_then(|n| model.call_mut(&n)) {
            panel.editing = false;
            break;
        }
    }
}

/// A motion in the help overlay: its scroll.
pub fn help_motion(model: &mut Model, motion: Command) {
    let page = model.view.viewport.help_rows.max(1);
    let scroll = model.view.help_scroll;
    model.view.help_scroll = match motion {
        Command::Down => scroll + 1,
        Command::Up => scroll.saturating_sub(1),
        Command::PageDown => scroll + page,
        Command::PageUp => scroll.saturating_sub(page),
        _ => scroll,
    };
}

/// A motion in the protocol or the server pane: their scroll (other panes' motions are their
/// features', routed by `update`).
pub fn scroll(model: &mut Model, motion: Command) {
    match model.view.focus {
        Pane::Protocol => {
            let page = model.view.viewport.protocol_rows;
            model.protocol.motion(motion, page);
        }
        Pane::Server => {
            let scroll = model.view.server_scroll;
            model.view.server_scroll = match motion {
                Command::Down => scroll.saturating_add(1),
                Command::Up => scroll.saturating_sub(1),
                Command::First => 0,
                Command::Last => usize::MAX,
                _ => scroll,
            }
        }
        _ => {}
    }
}
