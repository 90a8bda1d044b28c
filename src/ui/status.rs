//! The status line: the last message, the connection state, and key hints from the keymap.

use crate::app::command::Command;
use crate::app::keymap::Layer;
use crate::app::model::Model;
use crate::app::server::state::Connection;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The first line of why a connection ended; when it announces lines below it (`server stderr
/// (last lines):`), the last of them too, so the status line never ends on an empty heading.
fn headline(reason: &str) -> String {
    let mut lines = reason.lines();
    let first = lines.next().unwrap_or_default();
    match (
        first.trim_end().ends_with(':'),
        lines.rfind(|l| !l.trim().is_empty()),
    ) {
        (true, Some(last)) => format!("{} {}", first.trim_end(), last.trim()),
        _ => first.to_string(),
    }
}

pub fn draw(frame: &mut Frame<'_>, area: Rect, model: &Model) {
    let theme = model.view.theme;
    let mut spans = Vec::new();
    match (&model.session.connection, &model.view.status) {
        // A tapped session ends with its tap; nothing here can start it again.
        (Connection::Lost(reason), _) if model.session.attached => spans.push(Span::styled(
            format!("{}  ", crate::untrusted::label(&headline(reason))),
            theme.dim(),
        )),
        (Connection::Lost(reason) | Connection::Failed(reason), _) => spans.push(Span::styled(
            format!(
                "{}: {} — {} reconnects  ",
                match model.session.connection {
                    Connection::Failed(_) => "could not connect",
                    _ => "connection lost",
                },
                crate::untrusted::label(&headline(reason)),
                model
                    .view
                    .keymap
                    .key_for(Layer::Global, Command::Reconnect)
                    .unwrap_or_else(|| "?".into())
            ),
            theme.error(),
        )),
        (_, Some(status)) => spans.push(Span::styled(
            format!("{}  ", crate::untrusted::label(status)),
            theme.warn(),
        )),
        (Connection::Connecting, None) => spans.push(Span::styled("connecting…  ", theme.dim())),
        (Connection::Connected, None) => {}
    }
    // Only keys that work where the focus is: what the focused pane does first, then what
    // works everywhere.
    let layer = model.active_layer();
    let hints = [
        (Command::Open, "open"),
        (Command::Call, "call"),
        (Command::Save, "save"),
        (Command::Send, "send"),
        (Command::NextViolation, "next ✗"),
        (Command::OlderResult, "older"),
        (Command::FilterAccept, "keep"),
        (Command::FilterCancel, "clear"),
        (Command::Close, "close"),
        (Command::Help, "help"),
        (Command::Filter, "filter"),
        (Command::FocusNext, "pane"),
        (Command::NextTab, "tab"),
        (Command::CopyMenu, "copy"),
        (
            Command::Zoom,
            if model.view.zoomed { "unzoom" } else { "zoom" },
        ),
        (Command::Quit, "quit"),
    ];
    let tabs = crate::app::library::query::tabs(model).len();
    for (command, word) in hints {
        if command == Command::NextTab && tabs < 2 {
            continue;
        }
        // `/` is named where it filters the pane itself; elsewhere it is the list's (help says so).
        if command == Command::Filter && model.view.keymap.key_for(layer, command).is_none() {
            continue;
        }
        if let Some(key) = model.view.keymap.reachable_key(layer, command) {
            spans.push(Span::styled(key, theme.heading()));
            spans.push(Span::styled(format!(" {word}  "), theme.dim()));
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_heading_for_lines_below_is_never_shown_alone() {
        let reason = "the server exited (exit status: 1); server stderr (last lines):\n  Traceback\n  NameError: x\n";
        assert_eq!(
            super::headline(reason),
            "the server exited (exit status: 1); server stderr (last lines): NameError: x"
        );
        assert_eq!(super::headline("refused"), "refused");
    }
}
