//! The call panel: the argument editor with its live schema check, the call in flight (spinner,
//! progress, timeout countdown), and the shown result: verdict, value with violations marked in
//! place, content blocks and the raw JSON-RPC result.

use super::keep_in_view;
use super::outline::{Label, Piece, draw_page, page_height};
use super::prose::wrap;
use crate::app::call::query::remaining;
use crate::app::call::result_text::ResultText;
use crate::app::call::state::{CallState, InFlight, Made, Outcome, Record};
use crate::app::command::Command;
use crate::app::keymap::Layer;
use crate::app::model::{Model, Viewport};
use crate::app::outline::{self, NodeId, Row};
use crate::app::saved::query::is_kept;
use crate::app::server::state::CallLimits;
use crate::app::theme::Theme;
use crate::mcp::RequestError;
use crate::mcp::surface::result::{CallResult, describe_block};
use crate::schema::verdict::Mirror;
use crate::schema::{Status, Verdict};
use crate::untrusted;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use std::collections::HashMap;
use std::time::Instant;

const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

pub fn draw(frame: &mut Frame<'_>, area: Rect, model: &Model, viewport: &mut Viewport) {
    let theme = model.view.theme;
    let hint = |command: Command| {
        model
            .view
            .keymap
            .key_for(Layer::Editor, command)
            .unwrap_or_default()
    };
    let hints = format!(
        " {} send · esc results · {} $EDITOR · {} reset ",
        hint(Command::Send),
        hint(Command::ExternalEditor),
        hint(Command::ResetArguments)
    );
    let Some(name) = model.selected_entry().map(|e| e.tool.name.clone()) else {
        return;
    };
    let Some(state) = model.call(&name) else {
        frame.render_widget(Paragraph::new(no_panel_yet(model, &name)), area);
        return;
    };
    let block = theme
        .pane(format!(" call {} ", untrusted::line(&name, 60)), true)
        .title_bottom(if state.editing { hints } else { String::new() });
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let complete_key = hint(Command::Complete);
    let problems = problem_lines(state, &complete_key, theme);
    let [editor_area, checks, status, result] = rows(
        inner,
        draft_height(state, inner),
        problems.len().min(4) as u16,
        state.editing,
    );
    (viewport.form_area, viewport.form_top) = draw_draft(frame, editor_area, model, state);
    frame.render_widget(Paragraph::new(problems), checks);
    frame.render_widget(Paragraph::new(status_line(model, &name, state)), status);
    let mut cursor_line = None;
    let mut value_top = None;
    let value_rows = state
        .value
        .as_ref()
        .map(|v| outline::rows(&[v.part()]))
        .unwrap_or_default();
    let violations = violation_marks(state);
    let value_label = |node: NodeId, _depth: usize| value_row(state, &violations, node, theme);
    let pieces = result_pieces(
        result.width as usize,
        state,
        !state.editing,
        (&value_label, &value_rows),
        (&mut cursor_line, &mut value_top),
        theme,
    );
    let height = result.height.max(1) as usize;
    let mut scroll = state.scroll;
    if let (Some(line), Some(view)) = (cursor_line, state.value.as_ref())
        && view.follow
    {
        scroll = keep_in_view(scroll, line, height);
    }
    scroll = scroll.min(page_height(&pieces).saturating_sub(height));
    viewport.call_rows = height;
    viewport.call_area = result;
    viewport.call_value_line = value_top;
    viewport.call_scroll = Some((name, scroll));
    draw_page(frame, result, &pieces, scroll);
}

/// The panel's rows, top to bottom: the arguments, their problems, the status line and the
/// result. Each gets what it asks while there is room; when there is not, the status line
/// comes first, then the arguments (the result keeps a row unless they have the keys), then
/// the problems, and the result has what is left. Arguments with no room for a row inside
/// their box are left out rather than drawn over.
fn rows(inner: Rect, arguments: u16, problems: u16, editing: bool) -> [Rect; 4] {
    let status = inner.height.min(1);
    let room = inner.height - status;
    let arguments = arguments.min(room.saturating_sub(u16::from(!editing)));
    let arguments = if arguments < 3 { 0 } else { arguments };
    let problems = problems.min(room - arguments);
    let result = room - arguments - problems;
    let mut y = inner.y;
    let mut next = |height: u16| {
        let area = Rect { y, height, ..inner };
        y += height;
        area
    };
    [next(arguments), next(problems), next(status), next(result)]
}

/// `text` wrapped at words to `width`, two columns in, its later lines four.
fn hanging(text: &str, width: usize, style: Style) -> Vec<Line<'static>> {
    wrap(text, width.saturating_sub(4).max(20))
        .into_iter()
        .enumerate()
        .map(|(i, piece)| {
            let indent = if i == 0 { "  " } else { "    " };
            Line::styled(format!("{indent}{piece}"), style)
        })
        .collect()
}

/// What the panel says before it exists: how to open it, or that a large one is being built.
fn no_panel_yet(model: &Model, tool: &str) -> &'static str {
    if model
        .tools
        .per_tool
        .get(tool)
        .is_some_and(|p| p.building_call)
    {
        "building the form (a large schema)…"
    } else {
        "press a to call this tool"
    }
}

/// The lines the arguments take: a form's rows, the selected row's words and the border. While
/// the form has the keys it may take all but the status line (and, once there are results, the
/// result's first two lines: the form being edited matters more than the last result); while
/// the result has them, a third. JSON text takes half.
fn draft_height(state: &CallState, inner: Rect) -> u16 {
    match state.draft.shown_form() {
        Some(form) => {
            // While the results have the keys, the form is its rows in at most a third.
            let most = if !state.editing {
                inner.height / 3
            } else if state.history.is_empty() && state.in_flight.is_none() {
                inner.height.saturating_sub(2)
            } else {
                inner.height.saturating_sub(3)
            };
            super::form::height(form, inner.width, state.editing).clamp(3, most.max(3))
        }
        None => (state.draft.editor.lines().len() as u16 + 2).clamp(4, (inner.height / 2).max(4)),
    }
}

/// The arguments as this frame shows them: the form, or a styled copy of the JSON editor (a
/// draft is small text) with line numbers so the violations listed below ("line 3 /query: …")
/// point into it; the title says how the call goes out. Returns where a form's rows were drawn.
fn draw_draft(
    frame: &mut Frame<'_>,
    area: Rect,
    model: &Model,
    state: &CallState,
) -> (Rect, usize) {
    let theme = model.view.theme;
    let border = if state.editing {
        theme.border(true)
    } else {
        theme.dim()
    };
    let support = model.selected_entry().and_then(|e| e.tool.task_support());
    let how = match (state.as_task, support) {
        (true, _) => " · sent as a task",
        (false, Some("optional")) => " · sent as a plain call (may run as a task)",
        _ => "",
    };
    let toggle = model
        .view
        .keymap
        .key_for(Layer::Editor, Command::ToggleForm)
        .unwrap_or_default();
    let title = match (&state.draft.form, state.draft.in_form, &state.draft.no_form) {
        (_, true, _) => format!(" arguments{how} · {toggle} JSON "),
        (Some(_), false, _) => format!(" arguments as JSON{how} · {toggle} the form "),
        (None, _, Some(why)) => format!(
            " arguments as JSON{how} · no form: {} ",
            untrusted::line(why, 80)
        ),
        (None, _, None) => format!(" arguments{how} "),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .title(title)
        .border_style(border);
    if let Some(form) = state.draft.shown_form() {
        return super::form::draw(frame, area, block, form, state.editing, theme);
    }
    // The editor's look was set by `update` (`Draft::set_look`): drawn where it is.
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(&state.draft.editor, inner);
    (Rect::default(), 0)
}

fn problem_lines(state: &CallState, complete_key: &str, theme: Theme) -> Vec<Line<'static>> {
    // What the schema names for the cursor's line comes first: it is what the user is at.
    let mut lines: Vec<Line<'static>> = match (&state.choices, state.editing) {
        (Some((path, values)), true) => {
            let shown: Vec<String> = values.iter().map(|v| untrusted::json(v, false)).collect();
            let said = format!(
                "{}: {} · {complete_key} puts the next",
                untrusted::label(path),
                shown.join(" · ")
            );
            vec![Line::styled(
                untrusted::line(&said, 400).into_owned(),
                theme.dim(),
            )]
        }
        _ => Vec::new(),
    };
    if let Some(e) = &state.parse_error {
        lines.push(Line::styled(
            format!("✗ {}", untrusted::line(e, 200)),
            theme.error(),
        ));
        return lines;
    }
    if state.draft.in_form {
        // The form marks each violation on its row.
        return lines;
    }
    let at_lines = state
        .violation_lines
        .iter()
        .copied()
        .chain(std::iter::repeat(None));
    lines.extend(state.violations.iter().zip(at_lines).map(|(v, line)| {
        let at = if v.instance_path.is_empty() {
            "/"
        } else {
            &v.instance_path
        };
        let line = line.map(|l| format!("line {l} ")).unwrap_or_default();
        // Paths hold the server's property names: escaped here, matched raw above.
        let at = crate::untrusted::label(at);
        Line::styled(format!("✗ {line}{at}: {}", v.message), theme.error())
    }));
    lines
}

/// The line under the draft: the call in flight, a confirmation asked, or the shown result.
fn status_line(model: &Model, tool: &str, state: &CallState) -> Line<'static> {
    let theme = model.view.theme;
    if let Some(f) = &state.in_flight {
        let asking = crate::app::call::query::server_waits_on_user(&model.asked);
        return flight_line(f, model.session.limits, asking, model.now, theme);
    }
    // Asked here, under the draft it is about (the status line says it too).
    if let Some(confirm) = state.confirm {
        return Line::styled(
            format!("⚠ {}", confirm.question(state.violations.len())),
            theme.warn(),
        );
    }
    match state.shown_record() {
        None => Line::styled("no call yet", theme.dim()),
        Some(r) => {
            // The call's number is the session's; the result's place is in this tool's history
            // (said once there is more than one, the line is short of room).
            let count = state.history.len();
            let position = match count {
                1 => String::new(),
                _ => format!("result {}/{count} · ", state.shown.map_or(count, |i| i + 1)),
            };
            let mut call = match &r.made {
                Made::Earlier => "an earlier session's call".to_string(),
                Made::Here => format!("call #{}", r.id),
                Made::ByHost(id) => format!("the host's call (id {})", untrusted::line(id, 40)),
            };
            if is_kept(model, tool, &r.arguments) {
                call.push_str(" (kept as a test)");
            }
            let mut spans = vec![Span::styled(
                format!("{call} · {position}{} ms · ", r.elapsed.as_millis()),
                theme.dim(),
            )];
            spans.extend(headline(r, theme));
            Line::from(spans)
        }
    }
}

/// A call in flight: its time, progress and time left, or, while the server waits on the
/// user (`asking`), that it is not timed.
fn flight_line(
    f: &InFlight,
    limits: CallLimits,
    asking: bool,
    now: Instant,
    theme: Theme,
) -> Line<'static> {
    let elapsed = now.saturating_duration_since(f.started);
    let frame = SPINNER[(elapsed.as_millis() / 100) as usize % SPINNER.len()];
    let state = if f.cancelling {
        "cancelling…"
    } else {
        "running"
    };
    let mut text = format!("{frame} {state} {:.1}s", elapsed.as_secs_f32());
    if let Some((value, total, message)) = &f.progress {
        match total {
            Some(t) if *t > 0.0 => {
                let ratio = (value / t).clamp(0.0, 1.0);
                let filled = (ratio * 20.0).round() as usize;
                text.push_str(&format!(
                    " [{}{}] {:.0}%",
                    "█".repeat(filled),
                    "░".repeat(20 - filled),
                    ratio * 100.0
                ));
            }
            _ => text.push_str(&format!(" progress {value}")),
        }
        if let Some(m) = message {
            text.push_str(&format!(" {}", untrusted::line(m, 60)));
        }
    }
    match asking {
        true => text.push_str(" · not timed while the server waits on you"),
        false => text.push_str(&format!(
            " · timeout in {}s",
            remaining(f, limits, now).as_secs()
        )),
    }
    if !f.cancelling {
        text.push_str(" · ctrl-x cancels");
    }
    Line::styled(text, theme.warn())
}

fn headline(r: &Record, theme: Theme) -> Vec<Span<'static>> {
    match &r.outcome {
        Outcome::Cancelled => vec![Span::styled("⊘ cancelled".to_string(), theme.warn())],
        Outcome::Failed(e) => vec![Span::styled(
            format!("✗ {}", untrusted::line(&e.to_string(), 200)),
            theme.error(),
        )],
        Outcome::Result { verdict, .. } => {
            let style = match verdict.status {
                Status::Conforms => theme.kind(),
                Status::Violations | Status::ToolError | Status::MissingStructuredContent => {
                    theme.error()
                }
                _ => theme.warn(),
            };
            let mark = match verdict.status {
                Status::Conforms => "✓",
                Status::Violations | Status::ToolError | Status::MissingStructuredContent => "✗",
                _ => "•",
            };
            let mut spans = vec![Span::styled(
                format!("{mark} {}", verdict.headline()),
                style,
            )];
            if let Some(b) = &verdict.boxing {
                spans.push(Span::styled(format!("  [{}]", b.describe()), theme.badge()));
            }
            spans
        }
    }
}

/// The shown result's violations by instance path (each row looks its own up).
fn violation_marks(state: &CallState) -> HashMap<&str, Vec<&str>> {
    let mut marks: HashMap<&str, Vec<&str>> = HashMap::new();
    if let Some(Record {
        outcome: Outcome::Result { verdict, .. },
        ..
    }) = state.shown_record()
    {
        for v in &verdict.violations {
            marks
                .entry(v.instance_path.as_str())
                .or_default()
                .push(v.message.as_str());
        }
    }
    marks
}

/// One row of the value tree: key or index, the value or its size, and violations at it.
fn value_row(
    state: &CallState,
    violations: &HashMap<&str, Vec<&str>>,
    node: NodeId,
    theme: Theme,
) -> Line<'static> {
    let Some(row) = state.value.as_ref().and_then(|v| v.tree.rows.get(node)) else {
        return Line::default();
    };
    let text = row.text();
    match violations.get(row.pointer.as_str()) {
        None => Line::raw(text),
        Some(hits) => Line::from(vec![
            Span::styled(text, theme.error()),
            Span::styled(format!("  ← {}", hits.join("; ")), theme.error()),
        ]),
    }
}

/// A long or multi-line string under the value cursor, whole and wrapped under the tree (its
/// row shows only the start).
fn whole_string(
    value: Option<&serde_json::Value>,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    const LONG: usize = 60;
    let Some(text) = value.and_then(serde_json::Value::as_str) else {
        return Vec::new();
    };
    if text.chars().count() <= LONG && !text.contains('\n') {
        return Vec::new();
    }
    let mut lines = vec![Line::styled(
        "  the string under the cursor, whole:",
        theme.dim(),
    )];
    let (shown, more) = untrusted::first_lines(text, 500);
    lines.extend(
        shown
            .iter()
            .flat_map(|l| wrap(l, width.saturating_sub(4).max(20)))
            .map(|l| Line::raw(format!("    {l}"))),
    );
    if more > 0 {
        lines.push(Line::styled(
            format!("    … {more} more lines (copy the value to see all)"),
            theme.dim(),
        ));
    }
    lines
}

/// A failed call in full below its one-line headline: every line of the error (a server's
/// multi-line message, the stderr lines of one that died), wrapped, and an error's `data`.
fn failure_lines(error: &RequestError, width: usize, theme: Theme) -> Vec<Line<'static>> {
    let mut lines = vec![Line::styled("error", theme.heading())];
    let wrapped = |text: &str| {
        untrusted::lines(text)
            .into_iter()
            .flat_map(|l| wrap(&format!("  {l}"), width.max(8)))
            .map(Line::raw)
            .collect::<Vec<_>>()
    };
    lines.extend(wrapped(&error.to_string()));
    if matches!(error, RequestError::Closed(_)) {
        lines.push(Line::styled(
            "  r reconnects (a new handshake); the draft stays",
            theme.dim(),
        ));
    }
    if let RequestError::Server {
        data: Some(data), ..
    } = error
    {
        lines.push(Line::raw(""));
        lines.push(Line::styled("data", theme.heading()));
        let (shown, more) = untrusted::first_lines(&untrusted::json(data, true), 200);
        lines.extend(shown.into_iter().map(|l| Line::raw(format!("  {l}"))));
        if more > 0 {
            lines.push(Line::styled(format!("  … {more} more lines"), theme.dim()));
        }
    }
    lines
}

/// The result page: verdict, the value as an outline, content blocks, the raw result. Sets
/// `cursor_line` to the value cursor's line on the page.
fn result_pieces<'a>(
    width: usize,
    state: &'a CallState,
    focused: bool,
    (value_label, value_rows): (Label<'a>, &'a [Row]),
    (cursor_line, value_top): (&mut Option<usize>, &mut Option<usize>),
    theme: Theme,
) -> Vec<Piece<'a>> {
    let Some(record) = state.shown_record() else {
        return Vec::new();
    };
    let sent = sent_line(state, record, width, theme);
    let (result, verdict, text) = match &record.outcome {
        Outcome::Result {
            result,
            verdict,
            text,
        } => (result, verdict, text),
        Outcome::Failed(error) => {
            let mut lines = sent;
            lines.extend(failure_lines(error, width, theme));
            return vec![Piece::Lines(lines)];
        }
        Outcome::Cancelled => return vec![Piece::Lines(sent)],
    };
    let mut pieces = Vec::new();
    let mut lines = sent;
    lines.extend(verdict_lines(verdict, width, theme));
    lines.push(Line::raw(""));
    let (label, value) = match (
        state.raw_value,
        verdict.natural_value(result.structured.as_ref()),
    ) {
        (false, Some(v)) if verdict.value.is_some() => {
            ("value (unboxed; w shows it as sent)", Some(v))
        }
        _ => ("structuredContent", result.structured.as_ref()),
    };
    lines.push(Line::styled(label, theme.heading()));
    match value {
        None => lines.push(Line::styled(
            "  (absent: the server sent no structuredContent)",
            theme.dim(),
        )),
        Some(_) => {
            if let Some(view) = &state.value {
                let part = view.part();
                let at = outline::index_of(value_rows, Some((0, view.cursor)));
                *cursor_line = Some(lines.len() + at);
                *value_top = Some(lines.len());
                let cursor = focused.then_some((view.cursor, theme.selected()));
                pieces.push(Piece::Lines(std::mem::take(&mut lines)));
                pieces.push(Piece::tree(part, value_rows, value_label, cursor).indented(2));
                if view.tree.truncated {
                    lines.push(Line::styled(
                        "  … the value is larger than shown (copy it to see all)",
                        theme.dim(),
                    ));
                }
                let row = &view.tree.rows[view.cursor];
                let under = result
                    .structured
                    .as_ref()
                    .and_then(|s| s.pointer(&row.pointer));
                lines.extend(whole_string(under, width, theme));
            }
        }
    }
    lines.extend(content_lines(result, text, width, theme));
    pieces.push(Piece::Lines(lines));
    pieces
}

/// A result beside a draft that has changed since: what produced it, said first.
fn sent_line(state: &CallState, record: &Record, width: usize, theme: Theme) -> Vec<Line<'static>> {
    (state.draft_value.as_ref() != Some(&record.arguments))
        .then(|| {
            let sent = untrusted::json(&record.arguments, false);
            let shown = untrusted::line(&sent, width.saturating_sub(30).max(20));
            Line::styled(format!("sent (not the draft above): {shown}"), theme.dim())
        })
        .into_iter()
        .collect()
}

/// The result's content blocks (each described, its text wrapped) and the raw result.
fn content_lines(
    result: &CallResult,
    text: &ResultText,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        format!(
            "content ({})",
            crate::plural::count(result.content.len(), "block")
        ),
        theme.heading(),
    ));
    for (i, block) in result.content.iter().enumerate() {
        let mut line = format!("  [{i}] {}", describe_block(block));
        if let Some(Some(a)) = result.annotations.get(i) {
            line.push_str(&format!(" annotations {a}"));
        }
        lines.push(Line::styled(
            untrusted::line(&line, 300).into_owned(),
            theme.dim(),
        ));
        match text.pictures.get(i) {
            Some(Some(Ok(picture))) if theme.color => {
                lines.extend(super::picture::lines(picture, width, 4));
            }
            Some(Some(Ok(_))) => lines.push(Line::raw("    (not drawn: NO_COLOR)")),
            Some(Some(Err(why))) => lines.push(Line::styled(
                format!("    image {}", untrusted::line(why, 200)),
                theme.warn(),
            )),
            _ => {}
        }
        for l in text.blocks.get(i).into_iter().flatten().flatten() {
            lines.extend(
                wrap(l, width.saturating_sub(4).max(20))
                    .into_iter()
                    .map(|w| Line::raw(format!("    {w}"))),
            );
        }
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("raw result", theme.heading()));
    lines.extend(
        text.raw
            .iter()
            .map(|l| Line::styled(format!("  {l}"), theme.dim())),
    );
    lines
}

/// The verdict: each violation where it is and what is wrong first, the schema keyword and
/// location after, wrapped at `width` (the useful part is never cut at the pane's edge).
fn verdict_lines(verdict: &Verdict, width: usize, theme: Theme) -> Vec<Line<'static>> {
    let mut lines = vec![Line::styled("verdict", theme.heading())];
    for v in &verdict.violations {
        let at = if v.instance_path.is_empty() {
            "/"
        } else {
            &v.instance_path
        };
        let format = if v.format { ", format" } else { "" };
        let said = format!(
            "✗ {}: {} ({}{format}; schema {})",
            crate::untrusted::label(at),
            v.message,
            v.keyword,
            crate::untrusted::label(&v.schema_path),
        );
        lines.extend(hanging(&said, width, theme.error()));
    }
    if verdict.more_violations > 0 {
        lines.push(Line::styled(
            format!("  … and {} more", verdict.more_violations),
            theme.error(),
        ));
    }
    if !verdict.format_findings.is_empty() {
        lines.push(Line::styled(
            crate::schema::verdict::FORMAT_FINDINGS,
            theme.dim(),
        ));
        for v in &verdict.format_findings {
            let at = if v.instance_path.is_empty() {
                "/"
            } else {
                &v.instance_path
            };
            let said = format!(
                "~ {}: {} (schema {})",
                crate::untrusted::label(at),
                v.message,
                crate::untrusted::label(&v.schema_path),
            );
            lines.extend(hanging(&said, width, theme.warn()));
        }
    }
    match verdict.text_mirror {
        Some(Mirror::Matches) => lines.push(Line::styled(
            "  text mirror matches structuredContent",
            theme.dim(),
        )),
        Some(Mirror::MatchesUnboxed) => lines.push(Line::styled(
            "  text mirror matches the unboxed value",
            theme.dim(),
        )),
        Some(Mirror::Differs) => lines.push(Line::styled(
            "  a JSON text block differs from structuredContent (information)",
            theme.dim(),
        )),
        _ => {}
    }
    for note in &verdict.notes {
        lines.push(Line::styled(
            format!("  note: {}", untrusted::line(note, 300)),
            theme.warn(),
        ));
    }
    if let Some(d) = &verdict.dialect {
        lines.push(Line::styled(format!("  dialect {d}"), theme.dim()));
    }
    lines
}
