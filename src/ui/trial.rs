//! The trial pane: a verify run's progress and findings (each openable as a call), or a load
//! run's rate and latency drawn as they go, then its numbers.

use crate::app::model::{Model, Pane, Viewport};
use crate::app::trial::query::{load_line, verdict_line};
use crate::app::trial::state::{Body, Run, Sample};
use crate::untrusted;
use crate::verify::report::{Failure, LoadSummary, Status, ToolReport};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Chart, Dataset, GraphType, List, ListItem, ListState, Paragraph, Wrap,
};

pub fn draw(frame: &mut Frame<'_>, area: Rect, model: &Model, viewport: &mut Viewport) {
    let theme = model.view.theme;
    let focused = model.view.focus == Pane::Trial;
    let Some(run) = &model.trial.run else {
        let hint = "No run yet. On a tool: V verifies it (generated inputs, each result judged, failures shrunk); M puts it under load (rate and latency, live).";
        let block = theme.pane(" Trial ", focused);
        frame.render_widget(
            Paragraph::new(hint)
                .wrap(Wrap { trim: false })
                .style(theme.dim())
                .block(block),
            area,
        );
        return;
    };
    let block = theme.pane(title(model, run), focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    match &run.body {
        Body::Verify {
            failures, result, ..
        } => draw_verify(frame, inner, model, (failures, result.as_ref()), viewport),
        Body::Load {
            samples, summary, ..
        } => draw_load(frame, inner, model, (samples, summary.as_deref())),
    }
}

/// ` verify add · seed 7 · 37/100 calls · 2.1 s · x stops `
fn title(model: &Model, run: &Run) -> String {
    let tool = untrusted::line(&run.tool, 40);
    let took = run
        .took
        .unwrap_or_else(|| model.now.saturating_duration_since(run.started));
    let took = took.as_secs_f64();
    let what = match &run.body {
        Body::Verify {
            seed,
            planned,
            calls,
            ..
        } => format!("seed {seed} · {calls}/{planned} calls · {took:.1} s"),
        Body::Load {
            concurrency,
            seconds,
            ..
        } => format!("{concurrency} callers · {took:.1} of {seconds} s"),
    };
    let state = match (run.running(), run.stopped) {
        (true, _) => " · x stops",
        (false, true) => " · stopped",
        (false, false) => "",
    };
    format!(" {} {tool} · {what}{state} ", run.kind.word())
}

fn draw_verify(
    frame: &mut Frame<'_>,
    area: Rect,
    model: &Model,
    (failures, result): (&[Failure], Option<&ToolReport>),
    viewport: &mut Viewport,
) {
    let theme = model.view.theme;
    let head = match result {
        Some(r) => {
            let style = match r.status {
                Status::Ok => theme.kind(),
                Status::NotChecked => theme.warn(),
                Status::Failed => theme.error(),
            };
            Line::styled(verdict_line(r), style)
        }
        None if model.trial.run.as_ref().is_some_and(|r| r.stopped) => Line::styled(
            format!(
                "stopped: {} found",
                crate::plural::count(failures.len(), "failure")
            ),
            theme.warn(),
        ),
        None => Line::styled(
            format!(
                "running: {} found so far",
                crate::plural::count(failures.len(), "failure")
            ),
            theme.dim(),
        ),
    };
    let hint = match failures.is_empty() {
        true => "",
        false => "Enter opens the finding as a call (its smallest input in the editor)",
    };
    let [head_area, list_area, hint_area] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    frame.render_widget(Paragraph::new(head).wrap(Wrap { trim: false }), head_area);
    frame.render_widget(Paragraph::new(Line::styled(hint, theme.dim())), hint_area);
    let width = usize::from(list_area.width.saturating_sub(4)).max(20);
    let items: Vec<ListItem<'_>> = failures.iter().map(|f| finding(f, width, model)).collect();
    let mut state = ListState::default()
        .with_selected(Some(model.trial.cursor.min(items.len().saturating_sub(1))))
        .with_offset(model.trial.scroll);
    frame.render_stateful_widget(
        List::new(items)
            .highlight_style(theme.selected())
            .highlight_symbol("▸ "),
        list_area,
        &mut state,
    );
    viewport.trial_scroll = state.offset();
    viewport.trial_rows = usize::from(list_area.height / 3).max(1);
}

/// A finding in three lines: its kind and words, the smallest input, where it was found.
fn finding<'a>(f: &Failure, width: usize, model: &Model) -> ListItem<'a> {
    let theme = model.view.theme;
    let input = untrusted::json(&f.input, false);
    let input = untrusted::line(&input, width.saturating_sub(16)).into_owned();
    let found = match f.input == f.found {
        true => String::new(),
        false => format!(
            "  (shrunk from {} in {} calls)",
            untrusted::line(&untrusted::json(&f.found, false), 60),
            f.shrink_calls
        ),
    };
    let hits = match f.hits {
        Some(n) => format!("  ({})", crate::plural::count(n, "call")),
        None => String::new(),
    };
    let mut lines = vec![Line::from(vec![
        Span::styled("✗ ", theme.error()),
        Span::styled(f.kind.words(), theme.error()),
        Span::styled(hits, theme.dim()),
    ])];
    // The failure's words wrapped (a list row does not wrap), four lines at most.
    let words: Vec<char> = untrusted::line(&f.message, 4 * width).chars().collect();
    let chunks = words.chunks(width.max(1));
    let more = chunks.len() > 4;
    for (i, chunk) in chunks.take(4).enumerate() {
        let tail = if more && i == 3 { "…" } else { "" };
        lines.push(Line::from(format!(
            "  {}{tail}",
            chunk.iter().collect::<String>()
        )));
    }
    lines.push(Line::from(vec![
        Span::styled(
            match f.smallest {
                Some(true) => "  smallest input ",
                _ => "  input ",
            },
            theme.dim(),
        ),
        Span::raw(input),
        Span::styled(found, theme.dim()),
    ]));
    ListItem::new(lines)
}

fn draw_load(
    frame: &mut Frame<'_>,
    area: Rect,
    model: &Model,
    (samples, summary): (&[Sample], Option<&LoadSummary>),
) {
    let theme = model.view.theme;
    let mut head = Vec::new();
    match (summary, samples.last()) {
        (Some(s), _) => {
            head.push(Line::styled(load_line(s), theme.heading()));
            for (key, words) in &s.said {
                let words = untrusted::line(words, 200);
                let kind = crate::verify::load::said_words(key);
                head.push(Line::styled(
                    format!("first {kind}: {words}"),
                    theme.error(),
                ));
            }
        }
        (None, Some(last)) => head.push(Line::from(format!(
            "now {:.1} calls/s · p50 {:.2} ms · p99 {:.2} ms · {} failed in the last interval",
            last.calls_per_second, last.p50_ms, last.p99_ms, last.failed
        ))),
        (None, None) => head.push(Line::styled("starting…", theme.dim())),
    }
    let head_rows = u16::try_from(head.len()).unwrap_or(1).min(4);
    let [head_area, rate_area, latency_area] = Layout::vertical([
        Constraint::Length(head_rows + 1),
        Constraint::Percentage(50),
        Constraint::Percentage(50),
    ])
    .areas(area);
    frame.render_widget(Paragraph::new(head).wrap(Wrap { trim: false }), head_area);
    draw_charts(frame, (rate_area, latency_area), samples, model.view.theme);
}

/// Calls per second, and p50 and p99 latency, over the run's time.
fn draw_charts(
    frame: &mut Frame<'_>,
    (rate_area, latency_area): (Rect, Rect),
    samples: &[Sample],
    theme: crate::app::theme::Theme,
) {
    let end = samples.last().map_or(1.0, |s| s.at).max(1.0);
    let start = samples.first().map_or(0.0, |s| s.at - 0.5).max(0.0);
    let points = |f: fn(&Sample) -> f64| -> Vec<(f64, f64)> {
        samples.iter().map(|s| (s.at, f(s))).collect()
    };
    let rate = points(|s| s.calls_per_second);
    let p50 = points(|s| s.p50_ms);
    let p99 = points(|s| s.p99_ms);
    let top = |d: &[(f64, f64)]| d.iter().map(|p| p.1).fold(0.0, f64::max).max(1.0) * 1.1;
    let axis = |(low, high): (f64, f64), labels: [String; 2]| {
        Axis::default()
            .bounds([low, high])
            .labels(labels)
            .style(theme.dim())
    };
    let x_axis = || {
        axis(
            (start, end),
            [format!("{start:.0} s"), format!("{end:.0} s")],
        )
    };
    let rate_top = top(&rate);
    let rate_chart = Chart::new(vec![series("calls/s", theme.kind(), &rate)])
        .x_axis(x_axis())
        .y_axis(axis(
            (0.0, rate_top),
            ["0".into(), format!("{rate_top:.0}")],
        ));
    frame.render_widget(rate_chart, rate_area);
    let latency_top = top(&p99);
    let latency_chart = Chart::new(vec![
        series("p50 ms", theme.kind(), &p50),
        series("p99 ms", theme.warn(), &p99),
    ])
    .hidden_legend_constraints((Constraint::Ratio(1, 2), Constraint::Ratio(1, 2)))
    .x_axis(x_axis())
    .y_axis(axis(
        (0.0, latency_top),
        ["0".into(), format!("{latency_top:.1} ms")],
    ));
    frame.render_widget(latency_chart, latency_area);
}

/// One line of a chart.
fn series<'a>(name: &'a str, style: ratatui::style::Style, data: &'a [(f64, f64)]) -> Dataset<'a> {
    Dataset::default()
        .name(name)
        .marker(Marker::Braille)
        .graph_type(GraphType::Line)
        .style(style)
        .data(data)
}
