//! The protocol pane (in place of the tool pane): every JSON-RPC message of the session, one a
//! line (time, direction, method or answer, id, latency, size), and the selected message below
//! as a value tree.

use super::keep_in_view;
use super::outline::{Piece, draw_page};
use crate::app::model::{Model, Viewport};
use crate::app::outline::{self, NodeId, Part};
use crate::app::protocol::state::Entry;
use crate::app::theme::Theme;
use crate::mcp::transport::wire::{Direction, HttpExchange};
use crate::untrusted;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use std::time::Instant;

pub fn draw(frame: &mut Frame<'_>, area: Rect, model: &Model, viewport: &mut Viewport) {
    let theme = model.view.theme;
    let protocol = &model.protocol;
    let count = crate::plural::count(protocol.entries.len(), "message");
    let mut about = match protocol.filter.is_on() {
        true => format!("{} of {count}", protocol.rows()),
        false => count,
    };
    if protocol.dropped > 0 {
        about.push_str(&format!(", {} dropped", protocol.dropped));
    }
    let mut title = format!(" Protocol ({about}) ");
    if protocol.filter.is_on() || protocol.filter.editing {
        let cursor = if protocol.filter.editing { "▏" } else { "" };
        title.push_str(&format!(
            "/{}{cursor} ",
            untrusted::line(&protocol.filter.text, 40)
        ));
    }
    let block = theme.pane(title, true);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(selected) = protocol.selected_row() else {
        let hint = match protocol.filter.is_on() {
            true => "no message matches the filter (esc clears it)",
            false => "no messages yet: each request, answer and notification shows here",
        };
        frame.render_widget(Paragraph::new(Line::styled(hint, theme.dim())), inner);
        return;
    };
    let [list, detail] =
        Layout::vertical([Constraint::Percentage(45), Constraint::Min(3)]).areas(inner);
    let rows = usize::from(list.height).max(1);
    let scroll = keep_in_view(protocol.scroll, selected, rows);
    viewport.protocol_rows = rows;
    viewport.protocol_scroll = scroll;
    viewport.protocol_area = list;
    let origin = protocol.origin.unwrap_or(model.now);
    let lines: Vec<Line> = (scroll..protocol.rows().min(scroll + rows))
        .filter_map(|row| Some((row, &protocol.entries[protocol.index_of_row(row)?])))
        .map(|(row, entry)| {
            let line = entry_line(entry, origin, theme);
            if row == selected {
                line.style(theme.selected())
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list);
    if let Some(index) = protocol.index_of_row(selected) {
        draw_detail(frame, detail, model, index);
    }
}

/// `+1.234s → tools/call #3  1.2 KiB`, or `← #3 result of tools/call  15 ms  2.3 KiB`.
fn entry_line(entry: &Entry, origin: Instant, theme: Theme) -> Line<'static> {
    let wire = &entry.wire;
    let at = wire.at.saturating_duration_since(origin).as_secs_f64();
    let (arrow, style) = match wire.direction {
        Direction::Out => ("→", theme.kind()),
        Direction::In => ("←", theme.name()),
    };
    let mut spans = vec![
        Span::styled(format!("+{at:.3}s "), theme.dim()),
        Span::styled(format!("{arrow} "), style),
    ];
    if let Some(method) = &wire.method {
        spans.push(Span::styled(
            untrusted::line(method, 80).into_owned(),
            style,
        ));
    }
    if let Some(id) = &wire.id {
        let gap = if wire.method.is_some() { " " } else { "" };
        spans.push(Span::raw(format!("{gap}#{}", untrusted::line(id, 40))));
    }
    if let Some(answer) = wire.answer {
        let answer_style = if answer == "error" {
            theme.error()
        } else {
            theme.kind()
        };
        spans.push(Span::styled(format!(" {answer}"), answer_style));
        if let Some(method) = &entry.answers {
            let method = untrusted::line(method, 80);
            spans.push(Span::styled(format!(" of {method}"), theme.dim()));
        }
    }
    if let Some(http) = wire.http.as_ref().filter(|h| h.failed()) {
        let status = match http.status {
            Some(code) => format!(" HTTP {code}"),
            None => " no HTTP response".into(),
        };
        spans.push(Span::styled(status, theme.error()));
    }
    if let Some(latency) = entry.latency {
        spans.push(Span::styled(
            format!("  {} ms", latency.as_millis()),
            theme.warn(),
        ));
    }
    spans.push(Span::styled(format!("  {}", size(wire.bytes)), theme.dim()));
    Line::from(spans)
}

fn size(bytes: usize) -> String {
    match bytes {
        b if b < 1024 => format!("{b} B"),
        b if b < 1 << 20 => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{:.1} MiB", b as f64 / f64::from(1 << 20)),
    }
}

/// `POST → HTTP 200`, the start of an error body, then the headers each way (secrets already
/// redacted), one a line.
fn exchange_lines(http: &HttpExchange, theme: Theme) -> Vec<Line<'static>> {
    let outcome = match (http.status, &http.error) {
        (Some(code), _) => format!("HTTP {code}"),
        (None, Some(error)) => format!("no response: {error}"),
        (None, None) => "no response".into(),
    };
    let style = if http.failed() {
        theme.error()
    } else {
        theme.kind()
    };
    let mut first = vec![
        Span::styled(format!("{} → ", http.method), theme.heading()),
        Span::styled(outcome, style),
    ];
    if let Some((_, kind)) = http.received.iter().find(|(n, _)| n == "content-type") {
        first.push(Span::styled(format!("  {kind}"), theme.dim()));
    }
    if !http.failed() {
        first.push(Span::styled("  (headers below)", theme.dim()));
    }
    let mut lines = vec![Line::from(first)];
    let header = |arrow: &str, (name, value): &(String, String)| {
        Line::from(vec![
            Span::styled(format!("  {arrow} {name}: "), theme.dim()),
            Span::raw(value.clone()),
        ])
    };
    // An error's body first: it says most.
    if let Some(body) = &http.body {
        lines.push(Line::from(vec![
            Span::styled("  body: ", theme.dim()),
            Span::raw(body.clone()),
        ]));
    }
    lines.extend(http.sent.iter().map(|h| header("→", h)));
    lines.extend(http.received.iter().map(|h| header("←", h)));
    lines
}

/// The selected message as a value tree (the small ones fully open).
fn draw_detail(frame: &mut Frame<'_>, area: Rect, model: &Model, index: usize) {
    let entry = &model.protocol.entries[index];
    let theme = model.view.theme;
    let block = Block::default()
        .borders(Borders::TOP)
        .border_style(theme.dim())
        .title(" y m copies it ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let detail = model.protocol.detail.as_ref();
    let Some(detail) = detail.filter(|d| d.number == model.protocol.number(index)) else {
        let note = match entry.wire.message {
            None => format!(
                "not kept: {} (messages over 1 MiB are listed, not kept)",
                size(entry.wire.bytes)
            ),
            Some(_) => String::new(),
        };
        frame.render_widget(Paragraph::new(Line::styled(note, theme.dim())), inner);
        return;
    };
    let part = Part {
        nodes: &detail.tree,
        root: 0,
        open: &detail.open,
    };
    let rows = outline::rows(&[part]);
    let label = |node: NodeId, _depth: usize| Line::raw(detail.tree.rows[node].text());
    let mut exchange = entry.wire.http.as_ref().map(|h| exchange_lines(h, theme));
    let failed = entry.wire.http.as_ref().is_some_and(|h| h.failed());
    let mut pieces = Vec::new();
    // The exchange's outcome above the message, its headers below it; a failed exchange's
    // headers and body above, where a small terminal still shows them.
    match &mut exchange {
        Some(_) if failed => pieces.push(Piece::Lines(exchange.take().unwrap_or_default())),
        Some(lines) => pieces.push(Piece::Lines(vec![lines.remove(0)])),
        None => {}
    }
    pieces.push(Piece::tree(part, &rows, &label, None));
    if detail.tree.truncated {
        pieces.push(Piece::Lines(vec![Line::styled(
            "… larger than shown (y m copies it all)",
            theme.dim(),
        )]));
    }
    if let Some(headers) = exchange {
        pieces.push(Piece::Lines(headers));
    }
    draw_page(frame, inner, &pieces, 0);
}
