//! The tab names across the top of the left pane (Tools, Resources, Templates, Prompts: those
//! the server has), with their counts; wrapped onto a second row when the pane is narrow.

use crate::app::model::{Model, Viewport};
use crate::app::tabs::Tab;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Draws the tabs at the top of `area` when the server has more than the Tools tab, and
/// returns the area left below them.
pub fn draw(frame: &mut Frame<'_>, area: Rect, model: &Model, viewport: &mut Viewport) -> Rect {
    let tabs = crate::app::library::query::tabs(model);
    if tabs.len() < 2 || area.height < 6 {
        return area;
    }
    let theme = model.view.theme;
    // Each tab's name, placed left to right; a name that does not fit starts a new row.
    let mut rows: Vec<Vec<Span>> = vec![Vec::new()];
    let (mut x, mut y) = (0u16, 0u16);
    for tab in tabs {
        let active = tab == model.view.tab;
        // The shown tab is bracketed, so it shows without colour too.
        let name = if active {
            format!("[{}]", label(model, tab))
        } else {
            format!(" {} ", label(model, tab))
        };
        let width = name.chars().count() as u16;
        if x > 0 && x + width > area.width {
            rows.push(Vec::new());
            (x, y) = (0, y + 1);
        }
        viewport.tab_areas.push((
            Rect {
                x: area.x + x,
                y: area.y + y,
                width: width.min(area.width.saturating_sub(x)),
                height: 1,
            },
            tab,
        ));
        let style = if active {
            theme.selected()
        } else {
            theme.dim()
        };
        if let Some(row) = rows.last_mut() {
            row.push(Span::styled(name, style));
        }
        x += width;
    }
    let height = (rows.len() as u16).min(area.height);
    let lines: Vec<Line> = rows.into_iter().map(Line::from).collect();
    frame.render_widget(Paragraph::new(lines), Rect { height, ..area });
    Rect {
        y: area.y + height,
        height: area.height - height,
        ..area
    }
}

/// `Tools 13`, `Resources 4`; a library tab says `…` while its list is asked for.
fn label(model: &Model, tab: Tab) -> String {
    let library = &model.library;
    match tab {
        Tab::Tools => format!("Tools {}", model.tools.list.len()),
        Tab::Library(kind) if library.listed => {
            format!("{} {}", kind.heading(), library.count(kind))
        }
        Tab::Library(kind) if library.asked => format!("{} …", kind.heading()),
        Tab::Library(kind) => kind.heading().to_string(),
    }
}
