//! A form drawn: one line per row (its name, title, value or placeholder, and problem), the
//! selected row's words below (title, type and constraints, description wrapped, its choices,
//! the keys it takes). Every server string escaped; only the rows in view are drawn.

use crate::app::form::fields::{Field, Input, Kind};
use crate::app::form::state::Form;
use crate::app::theme::Theme;
use crate::untrusted;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

/// Characters of a typed row shown before its cursor.
const CURSOR_CONTEXT: usize = 40;

/// Lines the selected row's words take at most.
const DETAIL_LINES: u16 = 6;

/// Draws `form` in `block` over `area`; `focused`: it has the keys (the cursor is shown).
/// Returns where its rows were drawn and the first row's place among the visible ones (for a
/// click).
pub fn draw(
    frame: &mut Frame<'_>,
    area: Rect,
    block: Block<'_>,
    form: &Form,
    focused: bool,
    theme: Theme,
) -> (Rect, usize) {
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height == 0 {
        return (Rect::default(), 0);
    }
    if form.rows.is_empty() {
        let none = if form.extra.is_empty() {
            "no arguments: the schema names no properties"
        } else {
            "the schema names no properties; the JSON draft holds the value"
        };
        frame.render_widget(Paragraph::new(Line::styled(none, theme.dim())), inner);
        return (Rect::default(), 0);
    }
    // The selected row's words only while the form has the keys: read, it is its rows.
    let detail = if focused {
        detail_lines(form, theme)
    } else {
        Vec::new()
    };
    let detail_height = super::wrapped_height(&detail, inner.width)
        .min(DETAIL_LINES)
        .min(inner.height / 2);
    let visible = form.visible();
    let rows_height = (visible.len() as u16)
        .min(inner.height.saturating_sub(detail_height))
        .max(1);
    // The selected row's words right under the rows, not at the foot.
    let rows_area = Rect {
        height: rows_height,
        ..inner
    };
    let detail_area = Rect {
        y: inner.y + rows_height,
        height: inner.height.saturating_sub(rows_height),
        ..inner
    };
    let height = rows_area.height as usize;
    let at = visible
        .iter()
        .position(|i| *i == form.selected)
        .unwrap_or(0);
    let top = at.saturating_sub(height.saturating_sub(1));
    let shown = &visible[top..visible.len().min(top + height)];
    let label_width = shown
        .iter()
        .map(|i| label_width(&form.rows[*i]))
        .max()
        .unwrap_or(0)
        .min(rows_area.width as usize * 2 / 5)
        .max(8);
    let lines: Vec<Line<'static>> = shown
        .iter()
        .map(|i| row_line(form, *i, label_width, focused, theme))
        .collect();
    frame.render_widget(Paragraph::new(lines), rows_area);
    frame.render_widget(
        Paragraph::new(detail).wrap(Wrap { trim: false }),
        detail_area,
    );
    (rows_area, top)
}

/// The lines `form` would like at `width` columns (its border included): a row each and the
/// selected row's words.
pub fn height(form: &Form, width: u16, focused: bool) -> u16 {
    if form.rows.is_empty() {
        return 3;
    }
    let inner = width.saturating_sub(2);
    let detail = if focused {
        super::wrapped_height(&detail_lines(form, Theme { color: false }), inner).min(DETAIL_LINES)
    } else {
        0
    };
    (form.visible().len() as u16)
        .saturating_add(detail)
        .saturating_add(2)
}

/// The characters a row's label takes: indent, fold mark, name, required mark.
fn label_width(row: &Field) -> usize {
    2 * row.depth
        + 2
        + untrusted::line(&row.key, 60).chars().count()
        + usize::from(row.spec.required)
}

fn row_line(form: &Form, i: usize, width: usize, focused: bool, theme: Theme) -> Line<'static> {
    let row = &form.rows[i];
    let selected = i == form.selected;
    let mark = match (&row.spec.kind, row.folded) {
        (k, true) if k.holds_rows() => "▸ ",
        (k, false) if k.holds_rows() => "▾ ",
        _ => "  ",
    };
    let name = untrusted::line(&row.key, 60).into_owned();
    let mut label = format!("{}{mark}{name}", "  ".repeat(row.depth));
    if row.spec.required {
        label.push('*');
    }
    let label: String = pad(&label, width);
    let name_style = if selected {
        theme.selected()
    } else {
        theme.name()
    };
    let mut spans = vec![
        Span::raw(if selected && focused { "›" } else { " " }),
        Span::styled(label, name_style),
        Span::raw(" "),
    ];
    spans.extend(value_spans(form, i, selected && focused, theme));
    if let Some(title) = row.spec.title.as_deref().filter(|t| *t != row.key) {
        spans.push(Span::styled(
            format!("  {}", untrusted::line(title, 60)),
            theme.dim(),
        ));
    }
    if let Some(problem) = &row.problem {
        spans.push(Span::styled(
            format!("  ✗ {}", untrusted::line(problem, 120)),
            theme.error(),
        ));
    }
    Line::from(spans)
}

/// `text` cut or padded to `width` characters.
fn pad(text: &str, width: usize) -> String {
    let mut out: String = text.chars().take(width).collect();
    let len = out.chars().count();
    out.extend(std::iter::repeat_n(' ', width - len));
    out
}

/// What a row holds, as drawn; the typing cursor in the row being typed into.
fn value_spans(form: &Form, i: usize, cursor: bool, theme: Theme) -> Vec<Span<'static>> {
    let row = &form.rows[i];
    let dim = |s: String| vec![Span::styled(s, theme.dim())];
    match (&row.spec.kind, &row.input) {
        (Kind::Object, _) if !row.present && row.folded => dim("left out · enter opens it".into()),
        (Kind::Object, _) if !row.present => dim("left out until a row in it is set".into()),
        (Kind::Object, _) => dim(format!("{{{} fields}}", form.children(i).count())),
        (Kind::Variants(shapes), Input::Chosen(c)) => {
            let name = shapes.options.get(*c).map_or("", |(n, _)| n.as_str());
            let mut spans = vec![Span::styled(
                format!("‹ {} ›", untrusted::line(name, 60)),
                theme.kind(),
            )];
            spans.extend(dim(format!(" {} of {}", c + 1, shapes.options.len())));
            if !row.present {
                spans.extend(dim(" · left out".into()));
            }
            spans
        }
        (Kind::Array(_), _) => {
            let n = form.children(i).count();
            dim(format!(
                "[{}] · + adds one",
                crate::plural::count(n, "element")
            ))
        }
        (Kind::Boolean, Input::Value(serde_json::Value::Bool(b))) => {
            vec![Span::styled(
                format!("[{}] {b}", if *b { "x" } else { " " }),
                theme.kind(),
            )]
        }
        (Kind::Boolean, Input::Unset) => dim("[ ] not set".into()),
        (Kind::Choice(choices), Input::Value(v)) => {
            let label = choices
                .iter()
                .find(|c| c.value == *v)
                .map(|c| c.label.clone());
            let shown = label.clone().unwrap_or_else(|| untrusted::json(v, false));
            let mut spans = vec![Span::styled(
                format!("‹ {} ›", untrusted::line(&shown, 60)),
                theme.kind(),
            )];
            let written = match v {
                serde_json::Value::String(s) => s.clone(),
                other => untrusted::json(other, false),
            };
            if label.is_some_and(|l| l != written) {
                spans.extend(dim(format!(" {}", untrusted::line(&written, 40))));
            }
            spans
        }
        (Kind::Choice(choices), Input::Unset) => dim(format!("‹ none of {} ›", choices.len())),
        (Kind::Many(choices), Input::Picks(picks)) if !picks.is_empty() => {
            let names: Vec<String> = picks
                .iter()
                .filter_map(|p| choices.get(*p))
                .map(|c| untrusted::line(&c.label, 40).into_owned())
                .collect();
            vec![Span::styled(names.join(", "), theme.kind())]
        }
        (Kind::Many(_), _) => dim("none picked".into()),
        (_, Input::Unset) if cursor => {
            let mut spans = vec![Span::styled(
                " ",
                Style::default().add_modifier(Modifier::REVERSED),
            )];
            spans.extend(dim(placeholder(row)));
            spans
        }
        (_, Input::Unset) => dim(placeholder(row)),
        // An empty text (a default of "") shows what it takes, as an unset row does.
        (_, Input::Text(t)) if t.is_empty() && !cursor => dim(placeholder(row)),
        _ => typed_spans(form, i, cursor, theme),
    }
}

/// A typed row's text, with the cursor drawn where typing goes.
fn typed_spans(form: &Form, i: usize, cursor: bool, theme: Theme) -> Vec<Span<'static>> {
    let text = form.shown_text(i);
    let style = if form.rows[i].fresh {
        theme.kind()
    } else {
        Style::default()
    };
    if !cursor {
        return vec![Span::styled(
            untrusted::line(&text, 200).into_owned(),
            style,
        )];
    }
    // A window around the cursor: the characters just before it (a long text scrolls, "…"
    // says where it was cut), the one under it, a few after; a text of megabytes is not
    // walked past the window.
    let at = text
        .char_indices()
        .nth(form.cursor)
        .map_or(text.len(), |(b, _)| b);
    let head = &text[..at];
    let kept = head
        .char_indices()
        .rev()
        .nth(CURSOR_CONTEXT - 1)
        .map_or(0, |(b, _)| b);
    let before = if kept > 0 {
        format!("…{}", &head[kept..])
    } else {
        head.to_string()
    };
    let mut rest = text[at..].chars();
    let under = rest.next().map_or(" ".into(), |c| c.to_string());
    let after: String = rest.take(200).collect();
    vec![
        Span::styled(untrusted::line(&before, 200).into_owned(), style),
        Span::styled(
            untrusted::line(&under, 1).into_owned(),
            style.add_modifier(Modifier::REVERSED),
        ),
        Span::styled(untrusted::line(&after, 200).into_owned(), style),
    ]
}

/// What an empty typed row shows: what it takes.
fn placeholder(row: &Field) -> String {
    match &row.spec.kind {
        Kind::Text { format: Some(f) } => format!("‹{}›", untrusted::line(f, 30)),
        Kind::Text { format: None } => "‹text›".into(),
        Kind::Integer => "‹integer›".into(),
        Kind::Number => "‹number›".into(),
        _ => "‹JSON›".into(),
    }
}

/// The selected row's words: name and title, type and constraints, description, choices,
/// keys; then what the whole has wrong.
fn detail_lines(form: &Form, theme: Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(row) = form.row() {
        let name = row.spec.title.as_deref().unwrap_or(&row.key);
        lines.push(Line::from(vec![
            Span::styled(untrusted::line(name, 80).into_owned(), theme.heading()),
            Span::styled(
                format!(" · {}", untrusted::line(&row.spec.about(), 300)),
                theme.dim(),
            ),
        ]));
        if let Some(d) = &row.spec.description {
            lines.push(Line::raw(untrusted::line(d, 600).into_owned()));
        }
        if let Some(choices) = choice_line(form, row, theme) {
            lines.push(choices);
        }
        lines.push(Line::styled(keys_of(row), theme.dim()));
    }
    for p in &form.problems {
        lines.push(Line::styled(
            format!("✗ {}", untrusted::line(p, 200)),
            theme.error(),
        ));
    }
    if !form.extra.is_empty() {
        let names: Vec<String> = form
            .extra
            .keys()
            .map(|k| untrusted::line(k, 40).into_owned())
            .collect();
        lines.push(Line::styled(
            format!(
                "kept as written (the schema names no row for them): {}",
                names.join(", ")
            ),
            theme.warn(),
        ));
    }
    lines
}

/// The choices of a choice row, the current one marked; of a many-choice row, each picked or
/// not, the one under the cursor marked.
fn choice_line(form: &Form, row: &Field, theme: Theme) -> Option<Line<'static>> {
    let mut spans = Vec::new();
    match (&row.spec.kind, &row.input) {
        (Kind::Choice(choices), input) if choices.len() > 1 => {
            for c in choices.iter().take(50) {
                let on = matches!(input, Input::Value(v) if *v == c.value);
                let style = if on { theme.selected() } else { theme.dim() };
                spans.push(Span::styled(
                    format!(" {} ", untrusted::line(&c.label, 40)),
                    style,
                ));
            }
        }
        (Kind::Many(choices), input) => {
            let picks = match input {
                Input::Picks(p) => p.as_slice(),
                _ => &[],
            };
            for (n, c) in choices.iter().enumerate().take(50) {
                let mark = if picks.contains(&n) { "[x]" } else { "[ ]" };
                let style = if n == form.option {
                    theme.selected()
                } else {
                    Style::default()
                };
                spans.push(Span::styled(
                    format!("{mark} {}", untrusted::line(&c.label, 40)),
                    style,
                ));
                spans.push(Span::raw("  "));
            }
        }
        _ => return None,
    }
    Some(Line::from(spans))
}

/// The keys a row takes, by its kind.
fn keys_of(row: &Field) -> String {
    let leave = if row.spec.required {
        ""
    } else {
        " · ctrl-u leaves it out"
    };
    let what = match &row.spec.kind {
        Kind::Text { .. } | Kind::Integer | Kind::Number => {
            "type (the first key replaces what is shown)"
        }
        Kind::Loose => "type JSON (text that is not JSON is a string)",
        Kind::Boolean => "space toggles · t/f",
        Kind::Choice(_) => "←/→ or space picks · a letter jumps",
        Kind::Many(_) => "←/→ moves · space picks or unpicks",
        Kind::Object => "enter folds or opens · a row set inside adds it",
        Kind::Array(_) => "+ or enter adds an element · ctrl-k in one removes it",
        Kind::Variants(_) => "←/→ chooses the shape · enter folds",
    };
    format!("{what}{leave} · ↑/↓ rows")
}
