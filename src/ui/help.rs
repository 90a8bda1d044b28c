//! Overlays generated from the keymap, so they cannot drift from it: help, the copy menu and
//! the log level picker.

use crate::app::keymap::Layer;
use crate::app::model::{Model, Viewport};
use crate::mcp::session::logging::LEVELS;
use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// The help overlay's width at most.
const HELP_WIDTH: u16 = 96;

pub(super) fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let [v] = Layout::vertical([Constraint::Length(height.min(area.height))])
        .flex(Flex::Center)
        .areas(area);
    let [h] = Layout::horizontal([Constraint::Length(width.min(area.width))])
        .flex(Flex::Center)
        .areas(v);
    h
}

fn binding_lines(model: &Model, layer: Layer, width: usize) -> Vec<Line<'static>> {
    lines_of(model, model.view.keymap.bindings(layer), width)
}

/// Whether a binding's keys or description hold `wanted` (already lowercase).
fn matches(binding: &crate::app::keymap::Binding, wanted: &str) -> bool {
    binding.desc.to_lowercase().contains(wanted)
        || binding
            .keys
            .iter()
            .any(|k| k.label().to_lowercase() == wanted)
}

/// Width of the keys' column.
const KEYS: usize = 20;

/// One line a binding, its description wrapped at words under `width` columns (never cut).
fn lines_of(
    model: &Model,
    bindings: &[crate::app::keymap::Binding],
    width: usize,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for b in bindings {
        let keys: Vec<String> = b.keys.iter().map(|k| k.label()).collect();
        let keys = format!("  {:<w$}", keys.join(" "), w = KEYS - 2);
        let desc = super::prose::wrap(&b.desc, width.saturating_sub(KEYS).max(20));
        for (i, part) in desc.into_iter().enumerate() {
            let lead = if i == 0 {
                Span::styled(keys.clone(), model.view.theme.heading())
            } else {
                Span::raw(" ".repeat(KEYS))
            };
            lines.push(Line::from(vec![lead, Span::raw(part)]));
        }
    }
    lines
}

pub fn draw_help(frame: &mut Frame<'_>, model: &Model, viewport: &mut Viewport) {
    let width = usize::from(frame.area().width.min(HELP_WIDTH).saturating_sub(2));
    let view = &model.view;
    let wanted = view.help_search.to_lowercase();
    let mut lines = Vec::new();
    if view.help_searching || !wanted.is_empty() {
        let cursor = if view.help_searching { "▏" } else { "" };
        lines.push(Line::styled(
            format!("/ {}{cursor}", view.help_search),
            view.theme.heading(),
        ));
    }
    for &(layer, title) in crate::app::keymap::SECTIONS {
        // A search keeps the keys whose names or words hold it, under their section's title.
        let bindings: Vec<_> = (view.keymap.bindings(layer).iter())
            .filter(|b| wanted.is_empty() || matches(b, &wanted))
            .cloned()
            .collect();
        if bindings.is_empty() {
            continue;
        }
        lines.push(Line::styled(title, view.theme.name()));
        lines.extend(lines_of(model, &bindings, width));
    }
    if lines.len() == 1 {
        lines.push(Line::styled("no key does that", view.theme.dim()));
    }
    let height = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let area = centered(frame.area(), HELP_WIDTH, height);
    let visible = area.height.saturating_sub(2) as usize;
    let scroll = model
        .view
        .help_scroll
        .min(lines.len().saturating_sub(visible));
    viewport.help_rows = visible;
    viewport.help_scroll = scroll;
    let title = if lines.len() > visible {
        format!(
            " Help: keys ({}-{} of {}; j/k scroll, / search, esc closes) ",
            scroll + 1,
            (scroll + visible).min(lines.len()),
            lines.len()
        )
    } else {
        " Help: keys (/ search, ? or esc closes) ".to_string()
    };
    let block = model.view.theme.pane(title, true);
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines)
            .scroll((scroll as u16, 0))
            .block(block),
        area,
    );
}

/// The log level picker: the eight levels, the cursor's marked, the one asked so far named.
pub fn draw_levels(frame: &mut Frame<'_>, model: &Model, cursor: usize) {
    let theme = model.view.theme;
    let mut lines: Vec<Line<'static>> = LEVELS
        .iter()
        .enumerate()
        .map(|(i, level)| {
            let marker = if i == cursor { "▶ " } else { "  " };
            let asked = if model.session.log_level == Some(level) {
                "  (asked now)"
            } else {
                ""
            };
            let style = if i == cursor {
                theme.selected()
            } else {
                Style::default()
            };
            Line::styled(format!("{marker}{level}{asked}"), style)
        })
        .collect();
    lines.push(Line::styled(
        "The server sends this level and above.",
        theme.dim(),
    ));
    lines.extend(binding_lines(model, Layer::Levels, 62));
    let area = centered(frame.area(), 64, lines.len() as u16 + 2);
    let block = theme.pane(" Log level ", true);
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

pub fn draw_copy_menu(frame: &mut Frame<'_>, model: &Model) {
    let offered: Vec<_> = model
        .view
        .keymap
        .bindings(Layer::Copy)
        .iter()
        .filter(|b| crate::app::copy::offered(model, b.run))
        .cloned()
        .collect();
    // What has nothing to copy yet is greyed, with why.
    let entries: Vec<_> = offered
        .into_iter()
        .map(|mut b| match crate::app::copy::not_yet(model, b.run) {
            Some(why) => {
                b.desc = format!("{} ({why})", b.desc);
                (b, true)
            }
            None => (b, false),
        })
        .collect();
    let widest = entries.iter().map(|(b, _)| KEYS + b.desc.chars().count());
    let width = (widest.max().unwrap_or(40) as u16 + 2)
        .clamp(52, 100)
        .min(frame.area().width);
    // Descriptions wrap at words under the overlay's width, never cut.
    let mut lines = Vec::new();
    for (binding, greyed) in &entries {
        let wrapped = lines_of(
            model,
            std::slice::from_ref(binding),
            usize::from(width.saturating_sub(2)),
        );
        lines.extend(wrapped.into_iter().map(|line| match greyed {
            true => {
                let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
                Line::styled(text, model.view.theme.dim())
            }
            false => line,
        }));
    }
    let area = centered(frame.area(), width, lines.len() as u16 + 2);
    let block = model.view.theme.pane(" Copy ", true);
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
