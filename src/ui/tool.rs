//! The tool pane: title, description, signature and hints, then the input and output schema
//! trees (one cursor over both), and the full text of the row under the cursor.

use super::keep_in_view;
use super::outline::{Label, Piece, draw_page, page_height};
use crate::app::model::{Model, Pane, Viewport};
use crate::app::outline;
use crate::app::theme::Theme;
use crate::app::tools::entry::ToolEntry;
use crate::app::tools::state::{ToolDetail, ToolView, Which};
use crate::app::tools::tree_view;
use crate::schema::signature::type_text;
use crate::schema::{Edge, NodeId, SchemaTree};
use crate::untrusted;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

/// Findings listed in the tool pane before the rest are counted.
const MAX_FINDINGS: usize = 5;

/// Lines of a description shown above the trees before "…".
const DESCRIPTION_LINES: usize = 200;

pub fn draw(frame: &mut Frame<'_>, area: Rect, model: &Model, viewport: &mut Viewport) {
    let theme = model.view.theme;
    let focused = model.view.focus == Pane::Tool;
    // Borrowed, not cloned: a tool's schema can be megabytes.
    let Some(entry) = model.selected_entry() else {
        let block = theme.pane(" Tool ", focused);
        frame.render_widget(Paragraph::new("no tool selected").block(block), area);
        return;
    };
    let title = format!(" {} ", untrusted::line(&entry.tool.name, 80));
    let block = theme.pane(title, focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let per = model.tools.per_tool.get(&entry.tool.name);
    let (Some(detail), Some(view)) = (per.and_then(|p| p.detail.as_ref()), per.map(|p| &p.view))
    else {
        if per.is_some_and(|p| p.building) {
            let note = "building the schema trees (a large schema)…";
            frame.render_widget(Paragraph::new(Line::styled(note, theme.dim())), inner);
        }
        return;
    };
    let (about, mut facts) = header_lines(entry, detail, theme, inner.width);
    let changes = model.tools.drift.get(&entry.tool.name).map(Vec::as_slice);
    facts.extend(drift_lines(changes.unwrap_or_default(), theme, inner.width));
    if view.whole_description {
        // The header alone, over the whole pane (the trees come back with the same key).
        let header = fit_header(about, facts, inner.height as usize, inner.width, theme);
        frame.render_widget(Paragraph::new(header).wrap(Wrap { trim: false }), inner);
        return;
    }
    let below = draw_header(frame, inner, (about, facts), theme);
    let shown = (detail, view);
    let most = details_most(inner.height);
    draw_trees(frame, (below, most), entry, shown, focused, theme, viewport);
}

/// The tool's two schema trees as one outline with one cursor, and the row under it in full
/// below them.
fn draw_trees(
    frame: &mut Frame<'_>,
    (area, details_most): (Rect, usize),
    entry: &ToolEntry,
    (detail, view): (&ToolDetail, &ToolView),
    focused: bool,
    theme: Theme,
    viewport: &mut Viewport,
) {
    let parts = tree_view::parts(detail, view, entry.boxing());
    let rows = outline::rows(&parts);
    let at = outline::index_of(&rows, view.cursor.map(|(w, n)| (w.part(), n)));
    let cursor = rows.get(at).map(|r| (Which::of_part(r.part), r.node));
    let selected = cursor.and_then(|(which, node)| detail.tree(which).map(|t| (which, t, node)));
    let details = row_details(selected, theme);
    // The row's details keep their height as the cursor moves (the trees do not jump), except
    // on a short pane, where rows they would leave empty go to the trees.
    let details_rows = if area.height < 30 {
        let needed: usize = details.iter().map(|l| rows_of(l, area.width)).sum();
        details_most.min(needed + 1)
    } else {
        details_most
    };
    let [trees, info] = Layout::vertical([
        Constraint::Min(1),
        Constraint::Length(u16::try_from(details_rows).unwrap_or(3)),
    ])
    .areas(area);
    let cursor_style = if focused {
        theme.selected()
    } else {
        theme.name()
    };
    let input_label = |node: NodeId, _depth: usize| row_line(&detail.input, node, theme);
    let output_label = |node: NodeId, _depth: usize| match &detail.output {
        Some(tree) => row_line(tree, node, theme),
        None => Line::default(),
    };
    // Rows come part by part: input's, then output's.
    let split = rows.partition_point(|r| r.part == 0);
    let part_rows = [&rows[..split], &rows[split..]];
    let mut pieces = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        let which = Which::of_part(index);
        pieces.push(Piece::Lines(vec![heading(which, entry, view, theme)]));
        let label: Label = match which {
            Which::Input => &input_label,
            Which::Output => &output_label,
        };
        let on_cursor = cursor
            .filter(|(w, _)| *w == which)
            .map(|(_, node)| (node, cursor_style));
        pieces.push(Piece::tree(*part, part_rows[index], label, on_cursor));
    }
    if detail.output.is_none() {
        pieces.push(Piece::Lines(vec![
            Line::styled("Output schema", theme.heading()),
            Line::styled("  No output schema defined by the server", theme.dim()),
        ]));
    }
    // The cursor's line on the page: its row, below one heading per tree it comes after.
    let cursor_line = at + 1 + usize::from(cursor.is_some_and(|(w, _)| w == Which::Output));
    let height = usize::from(trees.height).max(1);
    let scroll = keep_in_view(view.scroll, cursor_line, height)
        .min(page_height(&pieces).saturating_sub(height));
    viewport.tree_rows = height.saturating_sub(2).max(1);
    viewport.tree_scroll = Some((entry.tool.name.clone(), scroll));
    viewport.tree_area = trees;
    draw_page(frame, trees, &pieces, scroll);
    let details = Paragraph::new(details).wrap(Wrap { trim: false });
    let rule = Block::default()
        .borders(Borders::TOP)
        .border_style(theme.dim());
    frame.render_widget(details.block(rule), info);
}

/// Draws the tool's header over `inner` and returns where the trees and the row's details go.
/// The header takes a third of the pane, more when the signature and hints need it; the
/// description gives way first, never the signature, hints or problems.
fn draw_header(
    frame: &mut Frame<'_>,
    inner: Rect,
    (about, facts): (Vec<Line<'static>>, Vec<Line<'static>>),
    theme: Theme,
) -> Rect {
    let facts_rows: usize = facts.iter().map(|l| rows_of(l, inner.width)).sum();
    let height = inner.height as usize;
    // The description gets no more than leaves the trees half of what the row's details
    // leave (on a short pane the trees are what it is for; `d` shows the description whole);
    // the signature, hints and problems are never cut for it.
    let half = height.saturating_sub(details_most(inner.height)) / 2;
    let budget = (height / 3)
        .max(facts_rows + 2)
        .min(height.saturating_sub(4))
        .min(half.max(facts_rows + 1));
    let header = fit_header(about, facts, budget, inner.width, theme);
    let header_rows: usize = header.iter().map(|l| rows_of(l, inner.width)).sum();
    let [head, below] = Layout::vertical([
        Constraint::Length(header_rows.clamp(1, budget.max(1)) as u16),
        Constraint::Min(1),
    ])
    .areas(inner);
    frame.render_widget(Paragraph::new(header).wrap(Wrap { trim: false }), head);
    below
}

/// Rows at most for the row's details under the trees (its rule included).
fn details_most(pane_height: u16) -> usize {
    if pane_height >= 20 { 6 } else { 3 }
}

/// Rows a line takes once wrapped at `width`.
fn rows_of(line: &Line, width: u16) -> usize {
    line.width().max(1).div_ceil(usize::from(width.max(1)))
}

/// The title and description, then the facts (signature, hints, problems), in at most `budget`
/// rows: the description is cut first, with a line that says how to read it whole.
fn fit_header(
    about: Vec<Line<'static>>,
    facts: Vec<Line<'static>>,
    budget: usize,
    width: u16,
    theme: Theme,
) -> Vec<Line<'static>> {
    let rows = |lines: &[Line]| lines.iter().map(|l| rows_of(l, width)).sum::<usize>();
    let (about_rows, facts_rows) = (rows(&about), rows(&facts));
    if about_rows + facts_rows <= budget {
        return about.into_iter().chain(facts).collect();
    }
    // Whole lines while they fit, keeping one row for the first line that does not: as much
    // of it as that row holds, and a mark that the rest is one key away.
    const MORE: &str = " … d shows all";
    let mut room = budget.saturating_sub(facts_rows);

    let mut kept = Vec::new();
    for line in about {
        let needed = rows_of(&line, width);
        if needed < room {
            room -= needed;
            kept.push(line);
            continue;
        }
        if room > 0 {
            let fits = usize::from(width).saturating_sub(MORE.chars().count());
            let text: String = line.to_string().chars().take(fits).collect();
            kept.push(Line::from(vec![
                Span::styled(text, line.style),
                Span::styled(MORE, theme.dim()),
            ]));
        }
        break;
    }
    kept.into_iter().chain(facts).collect()
}

/// The tool's title and description, and apart from them the facts a caller needs.
fn header_lines(
    entry: &ToolEntry,
    detail: &ToolDetail,
    theme: Theme,
    width: u16,
) -> (Vec<Line<'static>>, Vec<Line<'static>>) {
    let tool = &entry.tool;
    let mut lines = Vec::new();
    let title = tool.display_title();
    if title != tool.name {
        lines.push(Line::styled(
            untrusted::line(title, 200).into_owned(),
            theme.name(),
        ));
    }
    if let Some(desc) = &tool.description {
        let (shown, more) = untrusted::first_lines(desc.trim(), DESCRIPTION_LINES);
        lines.extend(shown.into_iter().map(Line::raw));
        if more > 0 {
            lines.push(Line::styled(
                format!("… {more} more lines (y t copies the tool)"),
                theme.dim(),
            ));
        }
    } else {
        lines.push(Line::styled("(no description)", theme.dim()));
    }
    let about = std::mem::take(&mut lines);
    lines.push(Line::styled(
        untrusted::line(&detail.signature, width as usize * 3).into_owned(),
        theme.kind(),
    ));
    let hints = tool.annotations.words();
    if !hints.is_empty() {
        lines.push(Line::from(vec![
            Span::styled("hints: ", theme.dim()),
            Span::raw(hints.join(", ")),
        ]));
    }
    if let Some(problem) = &tool.facts.header_problem {
        lines.push(Line::styled(
            format!(
                "⚠ {}; clients of the 2026 protocol drop this tool",
                untrusted::line(problem, width as usize * 2)
            ),
            theme.warn(),
        ));
    }
    // What `check` finds, as it says it: the same count, the same words.
    for finding in detail.findings.iter().take(MAX_FINDINGS) {
        let severity = finding.severity.word();
        let said = format!("⚠ {severity} {}: {}", finding.pointer, finding.message);
        let style = match finding.severity {
            crate::schema::lint::Severity::Info => theme.dim(),
            _ => theme.warn(),
        };
        lines.push(Line::styled(
            untrusted::line(&said, width as usize * 2).into_owned(),
            style,
        ));
    }
    if let Some(more) = detail
        .findings
        .len()
        .checked_sub(MAX_FINDINGS)
        .filter(|n| *n > 0)
    {
        lines.push(Line::styled(
            format!("⚠ and {more} more (mcp-inspect check lists every one)"),
            theme.warn(),
        ));
    }
    (about, lines)
}

/// Changes against `--baseline`, one line each, breaking first: verdict, audience, where, what.
fn drift_lines(
    changes: &[crate::drift::compare::Change],
    theme: Theme,
    width: u16,
) -> Vec<Line<'static>> {
    use crate::drift::compare::{Audience, Verdict};
    changes
        .iter()
        .take(MAX_FINDINGS)
        .map(|c| {
            let style = match c.verdict {
                Verdict::Breaking => theme.error(),
                Verdict::Unknown => theme.warn(),
                _ => theme.dim(),
            };
            let audience = match c.audience {
                Audience::Callers => "callers",
                Audience::Consumers => "consumers",
                Audience::Everyone => "all",
            };
            let said = format!(
                "Δ {} for {audience} {}: {}",
                c.verdict.word(),
                c.pointer,
                c.what
            );
            Line::styled(
                untrusted::line(&said, width as usize * 2).into_owned(),
                style,
            )
        })
        .collect()
}

fn heading(which: Which, entry: &ToolEntry, view: &ToolView, theme: Theme) -> Line<'static> {
    match which {
        Which::Input => Line::styled("Input schema", theme.heading()),
        Which::Output => {
            let mut spans = vec![Span::styled("Output schema", theme.heading())];
            if let Some(b) = entry.boxing() {
                let how = if view.raw_output {
                    "raw; o unwraps"
                } else {
                    "unwrapped; o shows raw"
                };
                spans.push(Span::styled(
                    format!("  [{}: {how}]", b.describe()),
                    theme.badge(),
                ));
            }
            Line::from(spans)
        }
    }
}

/// One tree row's text (the widget draws indent and marker): name, required mark, type, ref badge, back-link, problem, constraints,
/// default, and the first line of the description.
pub fn row_line(tree: &SchemaTree, id: NodeId, theme: Theme) -> Line<'static> {
    let node = &tree.nodes[id];
    let f = &node.facts;
    let label = match &node.edge {
        Edge::Root => "(root)".to_string(),
        other => untrusted::line(&other.label(), 80).into_owned(),
    };
    let mut spans = vec![Span::styled(label, theme.name())];
    // A variant is read by its title where it has one (`oneOf[0] (Superman)`), not only its
    // index.
    if let (Edge::AnyOf(_) | Edge::OneOf(_) | Edge::AllOf(_), Some(title)) = (&node.edge, &f.title)
    {
        let title = untrusted::line(title, 60);
        spans.push(Span::styled(format!(" ({title})"), theme.name()));
    }
    if node.required {
        spans.push(Span::styled("*", theme.required()));
    }
    spans.push(Span::raw(": "));
    spans.push(Span::styled(
        untrusted::line(&type_text(tree, id), 120).into_owned(),
        theme.kind(),
    ));
    if let Some(name) = &f.ref_name
        && f.back_link.is_none()
    {
        spans.push(Span::styled(
            format!(" ⟨{}⟩", untrusted::line(name, 60)),
            theme.badge(),
        ));
    }
    if let Some(target) = f.back_link {
        let target_label = tree.nodes[target].edge.label();
        spans.push(Span::styled(
            format!(
                " ↺ recursive, back to {} (b)",
                untrusted::line(&target_label, 40)
            ),
            theme.link(),
        ));
    }
    if let Some(problem) = &f.problem {
        spans.push(Span::styled(
            format!(" ⚠ {}", untrusted::line(problem, 120)),
            theme.error(),
        ));
    }
    for c in &f.constraints {
        spans.push(Span::styled(
            format!(" · {}", untrusted::line(c, 60)),
            theme.dim(),
        ));
    }
    if let Some(d) = &f.default {
        spans.push(Span::styled(
            format!(" = {}", untrusted::line(&d.to_string(), 40)),
            theme.dim(),
        ));
    }
    for flag in &f.flags {
        spans.push(Span::styled(format!(" [{flag}]"), theme.warn()));
    }
    if let Some(desc) = f.description.as_deref().and_then(|d| d.lines().next()) {
        spans.push(Span::styled(
            format!("  {}", untrusted::line(desc, 100)),
            theme.dim(),
        ));
    }
    Line::from(spans)
}

fn row_details(selected: Option<(Which, &SchemaTree, NodeId)>, theme: Theme) -> Vec<Line<'static>> {
    let Some((which, tree, id)) = selected else {
        return vec![];
    };
    let node = &tree.nodes[id];
    let f = &node.facts;
    let pointer = crate::app::copy::display_pointer(which, &node.pointer);
    let mut lines = vec![Line::from(vec![
        Span::styled(untrusted::line(&pointer, 200).into_owned(), theme.link()),
        Span::styled(
            format!(
                "  instance {}",
                if node.instance_path.is_empty() {
                    "/"
                } else {
                    &node.instance_path
                }
            ),
            theme.dim(),
        ),
    ])];
    if let Some(t) = &f.title {
        lines.push(Line::styled(
            untrusted::line(t, 200).into_owned(),
            theme.name(),
        ));
    }
    if let Some(d) = &f.description {
        lines.extend(untrusted::lines(d).into_iter().map(Line::raw));
    }
    let mut facts = Vec::new();
    if let Some(values) = &f.enum_values {
        facts.push(format!(
            "enum: {}",
            values
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(c) = &f.const_value {
        facts.push(format!("const: {c}"));
    }
    if !f.examples.is_empty() {
        facts.push(format!(
            "examples: {}",
            f.examples
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    for (k, v) in &f.extras {
        facts.push(format!("{k}: {v}"));
    }
    for fact in facts {
        lines.push(Line::styled(
            untrusted::line(&fact, 400).into_owned(),
            theme.dim(),
        ));
    }
    lines
}
