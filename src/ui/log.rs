//! The log pane: the server's stderr, its `notifications/message` logs and connection events,
//! newest last, scrollable. Each line is escaped as it is drawn, whoever pushed it.

use crate::app::model::{LogKind, Model, Pane};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame<'_>, area: Rect, model: &Model) {
    let theme = model.theme;
    let focused = model.focus == Pane::Log;
    let mut title = format!(" Log ({}) ", model.log.len());
    if model.log_scroll > 0 {
        title = format!(
            " Log ({}, {} newer below) ",
            model.log.len(),
            model.log_scroll
        );
    }
    let block = theme.pane(title, focused);
    let inner = block.inner(area);
    let rows = inner.height as usize;
    let end = model.log.len().saturating_sub(model.log_scroll);
    let start = end.saturating_sub(rows);
    let lines: Vec<Line> = model
        .log
        .range(start..end)
        .map(|l| {
            let (tag, style) = match &l.kind {
                LogKind::Stderr => ("stderr ".to_string(), theme.dim()),
                LogKind::Log(level) => (format!("{level} "), theme.kind()),
                LogKind::Event => ("• ".to_string(), theme.heading()),
                LogKind::Problem => ("⚠ ".to_string(), theme.warn()),
            };
            Line::from(vec![
                Span::styled(tag, style),
                Span::raw(crate::untrusted::label(&l.text).into_owned()),
            ])
        })
        .collect();
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(lines), inner);
}
