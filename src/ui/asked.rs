//! The panel in front of everything while the server waits for the user: what it asks (the
//! message, the URL, the conversation to reply to), the draft answer, why it cannot be sent
//! yet, and the keys that answer. Every server string escaped.

use super::help::centered;
use crate::app::asked::state::{AskPanel, Asked, OwnForm};
use crate::app::command::Command;
use crate::app::keymap::Layer;
use crate::app::library::state::Kind;
use crate::app::model::Model;
use crate::untrusted;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use serde_json::Value;

pub fn draw(frame: &mut Frame<'_>, model: &Model) {
    let Some(panel) = model.asked.front() else {
        return;
    };
    let theme = model.view.theme;
    let asked = asked_lines(panel, theme);
    let screen = frame.area();
    let area = centered(screen, 100, dialog_height(panel, &asked, screen));
    let hints = hints(model, panel);
    let block = theme.pane(title(model, panel), true).title_bottom(hints);
    let inner = block.inner(area);
    frame.render_widget(Clear, area);
    frame.render_widget(block, area);
    // The message wrapped, not cut: its height counted at the panel's width.
    let asked_height = super::wrapped_height(&asked, inner.width);
    let [top, editor_area, problem] = Layout::vertical([
        Constraint::Length(asked_height.clamp(1, inner.height / 2)),
        Constraint::Min(3),
        Constraint::Length(1),
    ])
    .areas(inner);
    frame.render_widget(Paragraph::new(asked).wrap(Wrap { trim: false }), top);
    let block = draft_block(model, panel);
    if let Some(form) = panel.draft.shown_form() {
        let _ = super::form::draw(frame, editor_area, block, form, true, theme);
    } else {
        // The editor's look was set by `update` (`Draft::set_look`): drawn where it is.
        let inner = block.inner(editor_area);
        frame.render_widget(block, editor_area);
        frame.render_widget(&panel.draft.editor, inner);
    }
    frame.render_widget(Paragraph::new(status_line(model, panel)), problem);
}

/// Who asks (the server, or the TUI before it does something) and how many wait.
fn title(model: &Model, panel: &AskPanel) -> String {
    let waiting = model.asked.len();
    let asker = match panel.own {
        Some(OwnForm::Open(_)) => "before it opens",
        Some(OwnForm::Save(_)) => "before it is written",
        Some(OwnForm::Request) => "before it is sent",
        Some(OwnForm::KeepTest(_)) => "before it is kept",
        Some(OwnForm::Roots) => "before they are handed over",
        Some(OwnForm::Trial(_)) => "before it runs",
        None => "the server asks",
    };
    format!(
        " {asker}: {}{} ",
        untrusted::line(&panel.method, 40),
        if waiting > 1 {
            format!(" (1 of {waiting})")
        } else {
            String::new()
        }
    )
}

/// The box around the answer: what it holds and how to switch, the preview under it.
fn draft_block<'a>(model: &Model, panel: &AskPanel) -> Block<'a> {
    let key = |c| {
        let keymap = &model.view.keymap;
        keymap.key_for(Layer::Asked, c).unwrap_or_default()
    };
    let toggle = key(Command::ToggleForm);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(match (panel.kind, panel.draft.in_form) {
            (Asked::Form, true) => format!(" {} · {toggle} JSON ", filled(panel)),
            (Asked::Form, false) if panel.draft.form.is_some() => {
                format!(" {} as JSON · {toggle} the form ", filled(panel))
            }
            (Asked::Form, false) => format!(" {} as JSON ", filled(panel)),
            (Asked::Url, _) => format!(
                " nothing to fill: {} opens the URL, {} copies it; accept once visited ",
                key(Command::LinkOpen),
                key(Command::LinkCopy)
            ),
            (Asked::Sampling, _) => " your reply, as the model's result ".into(),
        })
        .border_style(model.view.theme.border(true));
    match &panel.preview {
        Some(preview) => block.title_bottom(format!(" {} ", untrusted::line(preview, 300))),
        None => block,
    }
}

/// The dialog's height: what the server asks, the draft and the status line under it, so that
/// completions and problems are said right below the field being typed, not at the foot of
/// the screen; at most the screen less two rows.
fn dialog_height(panel: &AskPanel, asked: &[Line<'_>], screen: ratatui::layout::Rect) -> u16 {
    let most = screen.height.saturating_sub(2);
    let inner_width = screen.width.min(100).saturating_sub(2);
    let asked = super::wrapped_height(asked, inner_width).clamp(1, most / 2);
    let draft = match panel.draft.shown_form() {
        Some(form) => super::form::height(form, inner_width, true),
        None => u16::try_from(panel.draft.editor.lines().len())
            .unwrap_or(u16::MAX)
            .saturating_add(2),
    };
    asked
        .saturating_add(draft.max(3))
        .saturating_add(3)
        .min(most)
}

/// What the form is filled with: the server's requested fields, or our own form's values.
fn filled(panel: &AskPanel) -> &'static str {
    match (&panel.own, panel.item().map(|i| i.kind)) {
        (None, _) => "your answer: the requested fields",
        (_, Some(Kind::Prompt)) => "the prompt's arguments",
        (Some(OwnForm::Open(_)), _) => "the template's variables",
        (Some(OwnForm::Save(_)), _) => "where to write it",
        (Some(OwnForm::Request), _) => "the request",
        (Some(OwnForm::KeepTest(_)), _) => "the test file",
        (Some(OwnForm::Roots), _) => "the roots",
        (Some(OwnForm::Trial(_)), _) => "the run's settings",
    }
}

/// The keys that answer, at the panel's foot.
fn hints(model: &Model, panel: &AskPanel) -> String {
    let key = |c| {
        model
            .view
            .keymap
            .key_for(Layer::Asked, c)
            .unwrap_or_default()
    };
    // Our own forms (a prompt's arguments, the roots…) are not the server's elicitation: the
    // key does what the form is for, and there is nothing to decline.
    let own = match &panel.own {
        Some(OwnForm::Open(_)) if panel.item().is_some_and(|i| i.kind == Kind::Prompt) => {
            Some("get the prompt")
        }
        Some(OwnForm::Open(_)) => Some("read it"),
        Some(OwnForm::Save(_)) => Some("write it"),
        Some(OwnForm::Request) => Some("send it"),
        Some(OwnForm::KeepTest(_)) => Some("keep it"),
        Some(OwnForm::Roots) => Some("hand them over"),
        Some(OwnForm::Trial(_)) => Some("run it"),
        None => None,
    };
    if let Some(what) = own {
        return format!(
            " {} {what} · {} cancel ",
            key(Command::AnswerSend),
            key(Command::AnswerCancel)
        );
    }
    let (send, decline, cancel) = match panel.kind {
        Asked::Sampling => ("send the reply", "reject", "reject"),
        Asked::Form | Asked::Url => ("accept", "decline", "cancel"),
    };
    format!(
        " {} {send} · {} {decline} · {} {cancel} ",
        key(Command::AnswerSend),
        key(Command::AnswerDecline),
        key(Command::AnswerCancel)
    )
}

/// Under the draft: completions for the field being typed into come before the draft's
/// problem; else whether it is ready to send.
fn status_line(model: &Model, panel: &AskPanel) -> Line<'static> {
    let theme = model.view.theme;
    let complete_key = model
        .view
        .keymap
        .key_for(Layer::Asked, Command::Complete)
        .unwrap_or_default();
    let field = panel.field_at_cursor().map(|(name, _)| name);
    let suggested = panel
        .completions
        .as_ref()
        .filter(|c| field.as_ref() == Some(&c.argument));
    match (&panel.problem, suggested.or(panel.completions.as_ref())) {
        (Some(p), _) if suggested.is_none() => {
            Line::styled(format!("✗ {}", untrusted::line(p, 200)), theme.error())
        }
        // The values came escaped from the update.
        (_, Some(c)) => {
            let more = c
                .more
                .as_deref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default();
            let values = match c.values.is_empty() {
                true => "none".to_string(),
                false => c.values.join(" · "),
            };
            let put = match (c.at, c.values.is_empty()) {
                (None, false) => format!(" · {complete_key} puts the first"),
                _ => String::new(),
            };
            Line::styled(
                format!("{}: {values}{more}{put}", untrusted::line(&c.argument, 60)),
                theme.dim(),
            )
        }
        (Some(p), None) => Line::styled(format!("✗ {}", untrusted::line(p, 200)), theme.error()),
        (None, None) if panel.item().is_some() => Line::styled(
            format!("✓ ready to send · {complete_key} completes the value under the cursor"),
            theme.dim(),
        ),
        (None, None) => Line::styled("✓ ready to send", theme.dim()),
    }
}

/// What the server asks, in words: its message, a URL, the conversation and its settings.
fn asked_lines(panel: &AskPanel, theme: crate::app::theme::Theme) -> Vec<Line<'static>> {
    let p = &panel.params;
    let text = |key: &str| p.get(key).and_then(Value::as_str);
    let mut lines = Vec::new();
    if let Some(message) = text("message") {
        lines.extend(untrusted::lines(message).into_iter().map(Line::raw));
    }
    if let Some(url) = text("url") {
        lines.push(Line::from(vec![
            Span::styled("url ", theme.dim()),
            Span::styled(untrusted::line(url, 400).into_owned(), theme.kind()),
            Span::styled("  (shown, never opened by mcp-inspect)", theme.dim()),
        ]));
    }
    if let Some(system) = text("systemPrompt") {
        lines.push(Line::from(vec![
            Span::styled("system ", theme.dim()),
            Span::raw(untrusted::line(system, 400).into_owned()),
        ]));
    }
    for message in p
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .take(20)
    {
        let role = message.get("role").and_then(Value::as_str).unwrap_or("?");
        let content = message.get("content").map(content_text).unwrap_or_default();
        lines.push(Line::from(vec![
            Span::styled(format!("{} ", untrusted::line(role, 20)), theme.name()),
            Span::raw(untrusted::line(&content, 400).into_owned()),
        ]));
    }
    if let Some(max) = p.get("maxTokens").and_then(Value::as_u64) {
        lines.push(Line::styled(format!("at most {max} tokens"), theme.dim()));
    }
    lines
}

/// A content block (or a list of them) as one line of text: its text, or its type.
fn content_text(content: &Value) -> String {
    match content {
        Value::Array(blocks) => blocks
            .iter()
            .map(content_text)
            .collect::<Vec<_>>()
            .join(" "),
        block => match block.get("text").and_then(Value::as_str) {
            Some(text) => text.to_string(),
            None => format!(
                "[{}]",
                block
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("content")
            ),
        },
    }
}
