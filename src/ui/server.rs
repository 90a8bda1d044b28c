//! The server pane: who the server is, the negotiated protocol and transport, capabilities,
//! instructions, and its protocol conduct once checked (`C`).

use crate::app::model::{Model, Pane, Viewport};
use crate::mcp::ServerSummary;

use crate::app::server::query::round_trip;
use crate::app::server::state::Connection;
use crate::untrusted;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

pub fn draw(frame: &mut Frame<'_>, area: Rect, model: &Model, viewport: &mut Viewport) {
    let theme = model.view.theme;
    let block = theme.pane(" Server ", model.view.focus == Pane::Server);
    let mut lines = Vec::new();
    match &model.session.server {
        None => lines.push(Line::styled(
            format!(
                "connecting to {}",
                untrusted::line(&model.session.target, 200)
            ),
            theme.dim(),
        )),
        Some(s) => lines.extend(summary(model, s)),
    }
    let ended = match &model.session.connection {
        Connection::Lost(reason) => Some(("connection lost", reason)),
        Connection::Failed(reason) => Some(("could not connect", reason)),
        Connection::Connecting | Connection::Connected => None,
    };
    if let Some((what, reason)) = ended.filter(|_| !model.session.attached) {
        lines.insert(
            0,
            Line::styled(
                format!("{what}: {} (r reconnects)", first_line(reason)),
                theme.error(),
            ),
        );
    }
    // Rows once wrapped, so the last of long instructions can be scrolled to.
    let width = usize::from(block.inner(area).width.max(1));
    let height = usize::from(block.inner(area).height);
    let rows: usize = lines.iter().map(|l| l.width().max(1).div_ceil(width)).sum();
    let scroll = model.view.server_scroll.min(rows.saturating_sub(height));
    viewport.server_scroll = scroll;
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((u16::try_from(scroll).unwrap_or(u16::MAX), 0))
            .block(block),
        area,
    );
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

/// `tools (listChanged)` from `"tools": {"listChanged": true}`.
fn capability(name: &str, value: &serde_json::Value) -> String {
    let flags: Vec<&str> = value
        .as_object()
        .map(|m| {
            m.iter()
                .filter(|(_, v)| v.as_bool() == Some(true))
                .map(|(k, _)| k.as_str())
                .collect()
        })
        .unwrap_or_default();
    if flags.is_empty() {
        name.to_string()
    } else {
        format!("{name} ({})", flags.join(", "))
    }
}

/// What the server said of itself and what was asked of it.
fn summary(model: &Model, s: &ServerSummary) -> Vec<Line<'static>> {
    let theme = model.view.theme;
    let mut lines = Vec::new();
    let mut name = vec![
        Span::styled(untrusted::line(&s.name, 80).into_owned(), theme.name()),
        Span::raw(format!(" {}", untrusted::line(&s.version, 40))),
    ];
    if let Some(t) = &s.title {
        name.push(Span::styled(
            format!("  {}", untrusted::line(t, 80)),
            theme.dim(),
        ));
    }
    lines.push(Line::from(name));
    lines.push(Line::from(vec![
        Span::styled("protocol ", theme.dim()),
        Span::styled(s.protocol_version.clone(), theme.kind()),
        Span::styled(format!(" ({:?})", s.era).to_lowercase(), theme.dim()),
        Span::styled(" over ", theme.dim()),
        Span::raw(s.transport),
    ]));
    let caps: Vec<String> = s
        .capabilities
        .as_object()
        .map(|m| m.iter().map(|(k, v)| capability(k, v)).collect())
        .unwrap_or_default();
    lines.push(Line::from(vec![
        Span::styled("capabilities ", theme.dim()),
        Span::raw(untrusted::line(&caps.join(", "), 300).into_owned()),
    ]));
    if !s.extras.is_null() {
        // serverInfo's other fields, _meta, keys this client has no name for.
        let more = untrusted::json(&s.extras, false);
        lines.push(Line::from(vec![
            Span::styled("also sent ", theme.dim()),
            Span::raw(untrusted::line(&more, 300).into_owned()),
        ]));
    }
    lines.extend(declared_and_asked(model, s));
    if let Some(i) = &s.instructions {
        lines.push(Line::styled("instructions", theme.dim()));
        lines.extend(untrusted::lines(i.trim()).into_iter().map(Line::raw));
    }
    lines.extend(super::conduct::lines(model));
    lines
}

/// What this client declared, and what it asked of the server (log level, ping).
fn declared_and_asked(model: &Model, s: &ServerSummary) -> Vec<Line<'static>> {
    let theme = model.view.theme;
    let mut lines = Vec::new();
    // Roots hand the server directories: only the ones the user named (--roots).
    let declared: Vec<String> = s
        .client_capabilities
        .as_object()
        .map(|m| {
            m.keys()
                .map(|k| match (k.as_str(), &s.roots) {
                    ("roots", Some(given)) if given.is_empty() => {
                        "roots (none given: --roots DIR)".to_string()
                    }
                    ("roots", Some(given)) => {
                        format!("roots ({})", untrusted::line(&given.join(", "), 200))
                    }
                    (k, _) => k.to_string(),
                })
                .collect()
        })
        .unwrap_or_default();
    lines.push(Line::from(vec![
        Span::styled(
            match model.session.attached {
                true => "the host declared ",
                false => "we declared ",
            },
            theme.dim(),
        ),
        Span::raw(if declared.is_empty() {
            "nothing".to_string()
        } else {
            declared.join(", ")
        }),
    ]));
    let mut asked = Vec::new();
    if let Some(level) = model.session.log_level {
        asked.push(format!("log level {level} (L)"));
    }
    if let Some((took, method)) = model.session.last_ping {
        let method = if method == "ping" {
            ""
        } else {
            " by server/discover"
        };
        asked.push(format!("ping {}{method} (p)", round_trip(took)));
    }
    if !asked.is_empty() {
        lines.push(Line::styled(asked.join(" · "), theme.dim()));
    }
    lines
}
