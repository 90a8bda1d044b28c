//! The status line: the last message, the connection state, and key hints from the keymap.

use crate::app::keymap::Layer;
use crate::app::model::{Connection, Model};
use crate::app::update::active_layer;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame<'_>, area: Rect, model: &Model) {
    let theme = model.theme;
    let mut spans = Vec::new();
    match (&model.connection, &model.status) {
        (Connection::Lost(reason), _) => spans.push(Span::styled(
            format!(
                "connection lost: {} — {} reconnects  ",
                crate::untrusted::label(reason.lines().next().unwrap_or_default()),
                key(model, Layer::Global, "reconnect")
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
    let layer = active_layer(model);
    let hints: Vec<(Layer, &str, &str)> = match layer {
        Layer::Filter => vec![
            (Layer::Filter, "filter-accept", "keep"),
            (Layer::Filter, "filter-cancel", "clear"),
        ],
        Layer::Copy | Layer::Help => vec![(layer, "close", "close")],
        _ => vec![
            (Layer::Global, "help", "help"),
            (Layer::Tools, "filter", "filter"),
            (Layer::Global, "focus-next", "pane"),
            (Layer::Global, "copy-menu", "copy"),
            (Layer::Global, "quit", "quit"),
        ],
    };
    for (layer, command, word) in hints {
        spans.push(Span::styled(key(model, layer, command), theme.heading()));
        spans.push(Span::styled(format!(" {word}  "), theme.dim()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn key(model: &Model, layer: Layer, command: &str) -> String {
    model
        .keymap
        .key_for(layer, command)
        .unwrap_or_else(|| "?".into())
}
