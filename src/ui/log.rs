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
    let width = usize::from(inner.width).max(1);
    let end = log.lines.len().saturating_sub(log.scroll);
    // From the newest line up, each wrapped at words under its tag (a long line is read
    // whole, not cut), until the pane is full.
    let mut shown: Vec<Line> = Vec::new();
    for l in log.lines.range(..end).rev() {
        let (tag, style) = match &l.kind {
            LogKind::Stderr => ("stderr ".to_string(), theme.dim()),
            LogKind::Log(level) => (format!("{level} "), theme.kind()),
            LogKind::Event => ("• ".to_string(), theme.heading()),
            LogKind::Problem => ("⚠ ".to_string(), theme.warn()),
        };
        let indent = tag.chars().count();
        // An entry of several lines (a failed start with the server's last stderr lines) is
        // shown as its lines, each escaped, never as one line with `\n` in it.
        let pieces: Vec<String> = l
            .text
            .split('\n')
            .flat_map(|part| {
                let text = crate::untrusted::label(part);
                super::prose::wrap(&text, width.saturating_sub(indent).max(10))
            })
            .collect();
        let mut wrapped: Vec<Line> = pieces
            .into_iter()
            .enumerate()
            .map(|(i, piece)| {
                let lead = match i {
                    0 => Span::styled(tag.clone(), style),
                    _ => Span::raw(" ".repeat(indent)),
                };
                Line::from(vec![lead, Span::raw(piece)])
            })
            .collect();
        while let Some(row) = wrapped.pop() {
            shown.push(row);
            if shown.len() >= rows {
                break;
            }
        }
        if shown.len() >= rows {
            break;
        }
    }
    shown.reverse();
    let lines = shown;
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(lines), inner);
}
