//! The tools pane: the (filtered) list with matched letters highlighted and badges for hints,
//! boxing and schema problems.

use super::keep_in_view;
use crate::app::model::{Model, Pane, Viewport};
use crate::app::tools::entry::ToolEntry;
use crate::untrusted;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame<'_>, area: Rect, model: &Model, viewport: &mut Viewport) {
    let theme = model.view.theme;
    let focused = model.view.focus == Pane::Tools;
    let shown = model.tools.filter.visible.len();
    let title = if model.tools.filter.text.is_empty() {
        format!(" Tools ({}) ", model.tools.list.len())
    } else {
        format!(" Tools ({shown}/{}) ", model.tools.list.len())
    };
    let block = theme.pane(title, focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut lines = Vec::new();
    if model.tools.filter.editing || !model.tools.filter.text.is_empty() {
        let cursor = if model.tools.filter.editing {
            "▏"
        } else {
            ""
        };
        // Text that the next character replaces is shown selected.
        let text = untrusted::label(&model.tools.filter.text).into_owned();
        let text = match model.view.filter_fresh && model.tools.filter.editing {
            true => Span::styled(text, theme.selected()),
            false => Span::raw(text),
        };
        lines.push(Line::from(vec![
            Span::styled("/ ", theme.heading()),
            text,
            Span::raw(cursor),
        ]));
    }
    let rows = (inner.height as usize).saturating_sub(lines.len()).max(1);
    viewport.list_rows = rows;
    let scroll = keep_in_view(model.tools.scroll, model.tools.selected, rows);
    viewport.list_scroll = scroll;
    viewport.list_area = Rect {
        y: inner.y + lines.len() as u16,
        height: rows as u16,
        ..inner
    };
    if model.tools.list.is_empty() {
        lines.push(Line::styled("(no tools yet)", theme.dim()));
    } else if shown == 0 {
        lines.push(Line::styled("no tool matches", theme.dim()));
    }
    for (i, visible) in model
        .tools
        .filter
        .visible
        .iter()
        .enumerate()
        .skip(scroll)
        .take(rows)
    {
        let entry = &model.tools.list[visible.index];
        let mut spans = vec![Span::raw(if i == model.tools.selected {
            "▶ "
        } else {
            "  "
        })];
        spans.extend(name_spans(entry, &visible.name_hits, model));
        spans.extend(badges(entry, model));
        let mut line = Line::from(spans);
        if i == model.tools.selected {
            line = line.style(if focused {
                theme.selected()
            } else {
                theme.name()
            });
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

fn name_spans(entry: &ToolEntry, hits: &[u32], model: &Model) -> Vec<Span<'static>> {
    let name = untrusted::line(&entry.tool.name, 120);
    if hits.is_empty() || name.len() != entry.tool.name.len() {
        return vec![Span::raw(name.into_owned())];
    }
    entry
        .tool
        .name
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if hits.contains(&(i as u32)) {
                Span::styled(c.to_string(), model.view.theme.match_hit())
            } else {
                Span::raw(c.to_string())
            }
        })
        .collect()
}

fn badges(entry: &ToolEntry, model: &Model) -> Vec<Span<'static>> {
    let theme = model.view.theme;
    let a = &entry.tool.annotations;
    let mut out = Vec::new();
    let mut push = |text: &str, style| {
        out.push(Span::raw(" "));
        out.push(Span::styled(text.to_string(), style));
    };
    if a.read_only == Some(true) {
        push("ro", theme.dim());
    }
    if a.destructive == Some(true) {
        push("destructive", theme.error());
    }
    if a.idempotent == Some(true) {
        push("idem", theme.dim());
    }
    if a.open_world == Some(true) {
        push("open", theme.dim());
    }
    if entry.boxing().is_some() {
        push("boxed", theme.badge());
    }
    match entry.tool.task_support() {
        Some("required") => push("task", theme.badge()),
        Some("optional") => push("task?", theme.dim()),
        _ => {}
    }
    match crate::app::tools::query::mark(model, &entry.tool.name) {
        Some(true) => push("Δ breaking", theme.error()),
        Some(false) => push("Δ", theme.badge()),
        None => {}
    }
    let era = model.session.server.as_ref().map(|s| s.era);
    if era.is_some_and(|era| entry.tool.excluded_in(era).is_some()) {
        // A tool every client of this era leaves out (its reason is in the tool pane).
        push("excluded", theme.error());
    } else if entry.tool.facts.has_problem || entry.tool.facts.header_problem.is_some() {
        push("⚠ schema", theme.warn());
    }
    out
}
