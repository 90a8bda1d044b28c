//! The library pane (in place of the tool pane): the server's resources, templates and prompts
//! under their headings, and below them what the last read or prompt gave. Every server string
//! escaped (the lines come escaped from the pure layer).

use super::keep_in_view;
use crate::app::library::{Kind, Row};
use crate::app::model::{Connection, Model, Viewport};
use crate::untrusted;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

pub fn draw(frame: &mut Frame<'_>, area: Rect, model: &Model, viewport: &mut Viewport) {
    let theme = model.theme;
    let library = &model.library;
    let count = |kind: Kind| library.items.iter().filter(|i| i.kind == kind).count();
    let mut title = format!(
        " Resources {} · Templates {} · Prompts {} ",
        count(Kind::Resource),
        count(Kind::Template),
        count(Kind::Prompt)
    );
    if library.filtering || !library.filter.is_empty() {
        let cursor = if library.filtering { "▏" } else { "" };
        title.push_str(&format!(
            "· {} shown /{}{cursor} ",
            library.shown.len(),
            untrusted::line(&library.filter, 40)
        ));
    }
    let block = theme.pane(title, true);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if library.items.is_empty() {
        let declares = |c: &str| {
            model
                .server
                .as_ref()
                .is_some_and(|s| s.capabilities.get(c).is_some())
        };
        let hint = match () {
            _ if model.connection != Connection::Connected => "not connected",
            _ if !declares("resources") && !declares("prompts") => {
                "the server declares neither resources nor prompts"
            }
            _ if library.asked && library.problems.is_empty() => "listing…",
            _ => "nothing listed",
        };
        let mut lines = vec![Line::styled(hint, theme.dim())];
        lines.extend(
            library
                .problems
                .iter()
                .map(|p| Line::styled(p.clone(), theme.error())),
        );
        frame.render_widget(Paragraph::new(lines), inner);
        return;
    }
    let [list, opened] =
        Layout::vertical([Constraint::Percentage(40), Constraint::Min(3)]).areas(inner);
    draw_list(frame, list, model, viewport);
    draw_opened(frame, opened, model, viewport);
}

/// Items under a heading per kind, the selected one marked. Only the rows in the window are
/// written out (a server may list thousands).
fn draw_list(frame: &mut Frame<'_>, area: Rect, model: &Model, viewport: &mut Viewport) {
    let theme = model.theme;
    let library = &model.library;
    // Each row: a heading (the kind it starts) or an item's index.
    let rows = library.rows();
    let selected_row = rows
        .iter()
        .position(|r| *r == Row::Item(library.selected))
        .unwrap_or(0);
    viewport.library_area = area;
    let height = usize::from(area.height).max(1);
    let scroll = keep_in_view(library.scroll, selected_row, height);
    viewport.library_rows = height;
    viewport.library_scroll = scroll;
    let shown: Vec<Line> = rows
        .iter()
        .skip(scroll)
        .take(height)
        .map(|row| match *row {
            Row::Heading(kind) => Line::styled(kind.heading(), theme.heading()),
            Row::Item(i) => {
                let item = &library.items[i];
                let selected = i == library.selected;
                let marker = if selected { "▶ " } else { "  " };
                // The marks come first: a long line is cut at the right.
                let mut spans = vec![Span::raw(marker)];
                if let Some(uri) = item.uri() {
                    if library.subscribed.contains(uri) {
                        spans.push(Span::styled("[subscribed] ", theme.badge()));
                    }
                    if library.updated.contains(uri) {
                        spans.push(Span::styled("[updated] ", theme.warn()));
                    }
                }
                spans.push(Span::raw(item.line()));
                let line = Line::from(spans);
                if selected {
                    line.style(theme.selected())
                } else {
                    line
                }
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(shown), area);
}

/// What the last read or prompt gave, scrolled by the page keys.
fn draw_opened(frame: &mut Frame<'_>, area: Rect, model: &Model, viewport: &mut Viewport) {
    let theme = model.theme;
    let library = &model.library;
    let title = match (&library.opening, &library.opened) {
        (Some(opening), _) => format!(" {opening} … "),
        (None, Some(opened)) => format!(" {} ", opened.title),
        (None, None) => " enter reads a resource or gets a prompt ".into(),
    };
    let block = Block::default()
        .borders(Borders::TOP)
        .border_style(theme.dim())
        .title(title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let height = usize::from(inner.height).max(1);
    viewport.opened_rows = height;
    viewport.opened_area = inner;
    let Some(opened) = &library.opened else {
        return;
    };
    let lines: Vec<Line> = match &opened.lines {
        Err(why) => vec![Line::styled(why.clone(), theme.error())],
        Ok(lines) => {
            let scroll = library
                .opened_scroll
                .min(lines.len().saturating_sub(height));
            viewport.opened_scroll = scroll;
            lines
                .iter()
                .skip(scroll)
                .take(height)
                .map(|l| Line::raw(l.clone()))
                .collect()
        }
    };
    frame.render_widget(Paragraph::new(lines), inner);
}
