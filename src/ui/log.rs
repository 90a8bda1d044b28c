//! The log pane: the server's stderr, its `notifications/message` logs and connection events,
//! newest last, scrollable. Each line is escaped as it is drawn, whoever pushed it.

use crate::app::model::{LogKind, Model, Pane};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame<'_>, area: Rect, model: &Model) {
    let theme = model.view.theme;
    let focused = model.view.focus == Pane::Log;
    let log = &model.log;
    let mut title = format!(" Log ({}) ", log.lines.len());
    if log.scroll > 0 {
        title = format!(" Log ({}, {} newer below) ", log.lines.len(), log.scroll);
    }
    let block = theme.pane(title, focused);
    let inner = block.inner(area);
    let rows = inner.height as usize;
    let end = log.lines.len().saturating_sub(log.scroll);
    let start = end.saturating_sub(rows);
    let lines: Vec<Line> = log
        .lines
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
