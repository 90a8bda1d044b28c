//! Where each pane goes: side by side from 100 columns, stacked below that (down to 80×24).

use crate::app::model::Pane;
use ratatui::layout::{Constraint, Direction, Layout, Rect};

pub struct Areas {
    pub tools: Option<Rect>,
    pub tool: Option<Rect>,
    pub server: Option<Rect>,
    pub log: Option<Rect>,
    pub status: Rect,
    /// Side by side: the area both share, and the right pane's first column.
    pub divider: Option<(Rect, u16)>,
}

/// Columns from which the tools list and the tool pane sit side by side.
pub const WIDE: u16 = 100;

/// The panes' places: side by side when wide, stacked when narrow; when `zoomed`, the focused
/// pane alone above the status line.
pub fn split(area: Rect, focus: Pane, zoomed: bool, left_percent: u16) -> Areas {
    let [main, status] = Layout::vertical([Constraint::Min(3), Constraint::Length(1)]).areas(area);
    if zoomed {
        let mut alone = Areas {
            tools: None,
            tool: None,
            server: None,
            log: None,
            status,
            divider: None,
        };
        match focus {
            Pane::Tools | Pane::Library => alone.tools = Some(main),
            Pane::Server => alone.server = Some(main),
            Pane::Log => alone.log = Some(main),
            Pane::Tool | Pane::Call | Pane::Protocol | Pane::Opened | Pane::Trial => {
                alone.tool = Some(main)
            }
        }
        return alone;
    }
    // Below 20 rows (a split terminal) the log and an unfocused list shrink to leave the
    // focused pane room for more than its border.
    let log_height = match main.height {
        30.. => 8,
        20.. => 5,
        _ => 3,
    };
    let [main, log] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(log_height)]).areas(main);
    if area.width >= WIDE {
        let [left, right] = Layout::horizontal([
            Constraint::Percentage(left_percent),
            Constraint::Percentage(100 - left_percent.min(100)),
        ])
        .areas(main);
        let server_height = if left.height >= 24 { 9 } else { 7 };
        let [tools, server] =
            Layout::vertical([Constraint::Min(3), Constraint::Length(server_height)]).areas(left);
        Areas {
            tools: Some(tools),
            tool: Some(right),
            server: Some(server),
            log: Some(log),
            status,
            divider: Some((main, right.x)),
        }
    } else {
        // The focused pane gets the room: a short list while reading a tool, a long one while choosing.
        let list = if matches!(focus, Pane::Tools | Pane::Library) {
            Constraint::Percentage(50)
        } else if main.height < 16 {
            Constraint::Length(4)
        } else {
            Constraint::Length(5)
        };
        let parts = Layout::default()
            .direction(Direction::Vertical)
            .constraints([list, Constraint::Min(3)])
            .split(main);
        let (tool, server) = if focus == Pane::Server {
            (None, Some(parts[1]))
        } else {
            (Some(parts[1]), None)
        };
        Areas {
            tools: Some(parts[0]),
            tool,
            server,
            log: Some(log),
            status,
            divider: None,
        }
    }
}
