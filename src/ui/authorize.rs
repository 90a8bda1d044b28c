//! The OAuth panel in front of everything while an authorization waits for the browser: its
//! steps, the URL to open (whole, wrapped, escaped), the line to paste the address the browser
//! ended at, and its keys; after a failure, why.

use super::help::centered;
use crate::app::command::Command;
use crate::app::keymap::Layer;
use crate::app::model::Model;
use crate::untrusted;
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

pub fn draw(frame: &mut Frame<'_>, model: &Model) {
    let Some(panel) = model.authorizing.as_ref().filter(|a| a.shown()) else {
        return;
    };
    let theme = model.view.theme;
    let key = |c| {
        model
            .view
            .keymap
            .key_for(Layer::Authorize, c)
            .unwrap_or_default()
    };
    let hints = match panel.failed {
        Some(_) => format!(" {} close ", key(Command::AuthCancel)),
        None => format!(
            " {} open · {} copy URL · {} send pasted · {} cancel ",
            key(Command::AuthOpen),
            key(Command::AuthCopyUrl),
            key(Command::AuthSend),
            key(Command::AuthCancel)
        ),
    };
    let title = format!(" OAuth: {} ", untrusted::line(&model.session.target, 60));
    let mut lines: Vec<Line> = panel
        .steps
        .iter()
        .map(|s| Line::styled(format!("· {s}"), theme.dim()))
        .collect();
    if let Some(why) = &panel.failed {
        lines.push(Line::default());
        lines.push(Line::styled(format!("failed: {why}"), theme.error()));
    } else if let Some(url) = &panel.url {
        lines.push(Line::default());
        lines.push(Line::styled("Open this URL to authorize:", theme.heading()));
        lines.push(Line::styled(
            untrusted::line(url, 8_000).into_owned(),
            theme.link(),
        ));
        lines.push(Line::default());
        lines.push(Line::from(
            "Browser on another machine (SSH)? Paste here the address it ended at, then Enter:",
        ));
        let shown = untrusted::line(&panel.pasted, 8_000);
        lines.push(Line::from(vec![
            Span::styled("> ", theme.name()),
            Span::raw(shown.into_owned()),
            Span::styled("▏", theme.name()),
        ]));
    }
    let height = (lines.len() as u16 + 8).min(frame.area().height.saturating_sub(2));
    let area = centered(frame.area(), 100, height);
    let block = theme.pane(title, true).title_bottom(hints);
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}
