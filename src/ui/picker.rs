//! The server picker's screen: the servers found (name, client, command or URL), the selected
//! one's details below, and what was looked at when nothing was found. Every string escaped.

use super::keep_in_view;
use crate::app::command::Command;
use crate::app::keymap::Layer;
use crate::app::picker::{Entry, Picker, details, tap_details};
use crate::app::theme::Theme;
use crate::untrusted;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// Draws the picker; returns the first row shown (the scroll kept around the selection).
pub fn draw(frame: &mut Frame<'_>, picker: &Picker, theme: Theme) -> usize {
    let [list, about, status] = Layout::vertical([
        Constraint::Min(4),
        Constraint::Length(8),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    let found = &picker.found;
    let mut title = format!(
        " Pick a server: {} in {} ",
        crate::plural::count(found.servers.len(), "server"),
        untrusted::line(&picker.source, 200)
    );
    if !picker.taps.is_empty() {
        title.push_str(&format!(
            "· {} running ",
            crate::plural::count(picker.taps.len(), "tap")
        ));
    }
    title.push_str(&super::filter_note(
        &picker.filter,
        picker.filtering,
        picker.shown.len(),
    ));
    let block = theme.pane(title, true);
    let inner = block.inner(list);
    frame.render_widget(block, list);
    let rows = usize::from(inner.height).max(1);
    let scroll = keep_in_view(picker.scroll, picker.selected, rows);
    let lines: Vec<Line> = if found.servers.is_empty() && picker.taps.is_empty() {
        nothing_found(picker, theme)
    } else {
        picker
            .shown
            .iter()
            .enumerate()
            .skip(scroll)
            .take(rows)
            .map(|(at, &entry)| {
                let chosen = at == picker.selected;
                let mut spans = vec![Span::raw(if chosen { "▶ " } else { "  " })];
                if let Entry::Server(i) = entry {
                    let server = &found.servers[i];
                    if server.target.is_err() {
                        spans.push(Span::styled("✗ ", theme.error()));
                    } else if !server.warnings.is_empty() {
                        spans.push(Span::styled("⚠ ", theme.warn()));
                    }
                }
                spans.push(Span::raw(picker.line(entry)));
                let line = Line::from(spans);
                if chosen {
                    line.style(theme.selected())
                } else {
                    line
                }
            })
            .collect()
    };
    frame.render_widget(Paragraph::new(lines), inner);
    draw_selected(frame, about, picker, theme);
    draw_keys(frame, status, picker, theme);
    scroll
}

/// The server under the cursor in full, and the files that could not be read.
fn draw_selected(frame: &mut Frame<'_>, about: Rect, picker: &Picker, theme: Theme) {
    let found = &picker.found;
    let block = theme.pane(" Selected ", false);
    let inner = block.inner(about);
    frame.render_widget(block, about);
    let about = match picker.selected() {
        Some(Entry::Tap(i)) => tap_details(&picker.taps[i]),
        Some(Entry::Server(i)) => details(&found.servers[i]),
        None => Vec::new(),
    };
    let mut lines: Vec<Line> = about.into_iter().map(Line::raw).collect();
    lines.extend(found.problems.iter().map(|p| {
        Line::styled(
            format!("not read: {}", untrusted::line(p, 500)),
            theme.error(),
        )
    }));
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

/// The status and the keys that act here.
fn draw_keys(frame: &mut Frame<'_>, status: Rect, picker: &Picker, theme: Theme) {
    let mut spans = Vec::new();
    if let Some(status) = &picker.status {
        spans.push(Span::styled(format!("{status}  "), theme.warn()));
    }
    let layer = if picker.filtering {
        Layer::Filter
    } else {
        Layer::Picker
    };
    let open = match picker.selected() {
        Some(Entry::Tap(_)) => "watch",
        _ => "connect",
    };
    for (command, word) in [
        (Command::Open, open),
        (Command::FilterAccept, "keep"),
        (Command::Filter, "filter"),
        (Command::Quit, "quit"),
    ] {
        if let Some(key) = picker.keymap.reachable_key(layer, command) {
            spans.push(Span::styled(key, theme.heading()));
            spans.push(Span::styled(format!(" {word}  "), theme.dim()));
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), status);
}

/// Where the search looked, and how to name a server instead.
fn nothing_found(picker: &Picker, theme: Theme) -> Vec<Line<'static>> {
    let mut lines = vec![Line::styled(
        "No MCP server configured there. Looked for:",
        theme.heading(),
    )];
    lines.extend(picker.found.looked.iter().map(|file| {
        Line::raw(format!(
            "  {}",
            untrusted::line(&file.display().to_string(), 500)
        ))
    }));
    lines.push(Line::raw(""));
    lines.push(Line::raw(
        "Name one instead: mcp-inspect -- COMMAND ARGS…, --url URL, --config FILE --server NAME,",
    ));
    lines.push(Line::raw("or try the built-in demo: mcp-inspect --demo"));
    lines
}
