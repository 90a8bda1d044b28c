//! `mcp-inspect load TOOL`: one tool called by concurrent callers (on one session, or each on
//! its own with `--sessions`), until a number of calls or a duration: latency percentiles,
//! calls per second, errors and verdict failures under load, and a histogram. Exit 1 when a
//! call failed, 7 (unknown) when none did but results could not be judged.

use super::output::Report;
use crate::cli::{ConnectionArgs, Format};
use crate::headless::exit;
use crate::mcp::Session;
use crate::schema::Compiled;
use crate::schema::judge::Judge;
use crate::verify::load::{Done, Shape, callers, summarize};
use crate::verify::report::LoadSummary;
use serde_json::Value;
use std::time::{Duration, Instant};

/// What `load` was asked.
pub struct Options<'a> {
    pub tool: &'a str,
    pub args: Option<&'a str>,
    pub pairs: &'a [String],
    pub calls: usize,
    pub concurrency: usize,
    pub duration: Option<Duration>,
    pub sessions: bool,
    pub format: Format,
    /// What the annotations must allow (verify's rules).
    pub allow: crate::verify::plan::Allow,
    /// `--allow-invalid`: arguments the inputSchema refuses are sent anyway.
    pub allow_invalid: bool,
}

pub async fn run(connection: &ConnectionArgs, options: Options<'_>) -> i32 {
    let report = Report {
        format: options.format,
    };
    let concurrency = options.concurrency.max(1);
    let connections = if options.sessions { concurrency } else { 1 };
    let mut signals = super::Signals::new();
    let mut sessions = Vec::new();
    for _ in 0..connections {
        let (events, mut receiver) = crate::mcp::EventSink::new();
        match super::connect(connection, &report, &mut signals, &events, &mut receiver).await {
            Ok(session) => sessions.push(session),
            Err(code) => return close_all(sessions, code).await,
        }
    }
    let (stop, stop_rx) = tokio::sync::watch::channel(false);
    let prepared = prepare(&sessions[0], &options).await;
    let (arguments, output) = match prepared {
        Ok(p) => p,
        Err(why) => return close_all(sessions, report.error(&why, exit::ERROR)).await,
    };
    let shape = Shape {
        tool: options.tool,
        arguments: &arguments,
        output: output.as_ref(),
        era: sessions[0].server.era,
        calls: options.calls,
        duration: options.duration,
        concurrency,
        stop: Some(stop_rx),
    };
    let before = unclaimed(&sessions);
    let started = Instant::now();
    let outcome = measured(&sessions, &shape, started, &mut signals, (&report, &stop)).await;
    let (done, interrupted) = match outcome {
        Ok(ran) => ran,
        Err(again) => {
            let code = report.error(&format!("interrupted by {again}"), 130);
            return close_all(sessions, code).await;
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let mut summary = summarize(&shape, connections, done, seconds);
    // Answers nothing awaited: one request answered twice, or an id never sent, breaks
    // JSON-RPC (and a client that believes the second answer); late ones follow cancels.
    let after = unclaimed(&sessions);
    let stray = after.0 - before.0;
    summary.stray_answers = Some(stray);
    summary.late_answers = Some(after.1 - before.1);
    let code = exit_code(&summary, stray);
    if let Some(signal) = interrupted {
        summary.interrupted = Some(signal.to_string());
    }
    match options.format {
        Format::Json => report.serialized(&summary),
        Format::Text => tell(&report, &summary),
    }
    if let Some(signal) = interrupted {
        let said =
            format!("interrupted by {signal}: the report holds what was measured until then");
        return close_all(sessions, report.error(&said, 130)).await;
    }
    close_all(sessions, code).await
}

/// The callers' calls, from `started`, with the status line shown on a terminal. A signal
/// stops the run: calls in flight are cancelled and what was measured is kept, with the
/// signal (exit 130); a second signal ends it at once (`Err`).
async fn measured(
    sessions: &[Session],
    shape: &Shape<'_>,
    started: Instant,
    signals: &mut super::Signals,
    (report, stop): (&Report, &tokio::sync::watch::Sender<bool>),
) -> Result<(Vec<Done>, Option<&'static str>), &'static str> {
    let sampled = super::status::Sampled::default();
    let run = callers(sessions, shape, started, sampled.tap());
    let line = |seconds| sampled.line(shape.tool, seconds, shape.duration);
    let run = super::status::shown(report, line, run);
    tokio::pin!(run);
    tokio::select! {
        done = &mut run => Ok((done, None)),
        signal = signals.next() => {
            let _ = stop.send(true);
            tokio::select! {
                done = &mut run => Ok((done, Some(signal))),
                again = signals.next() => Err(again),
            }
        }
    }
}

/// The answers nothing claimed on all `sessions` so far: (stray, late).
fn unclaimed(sessions: &[Session]) -> (u64, u64) {
    (sessions.iter().map(Session::unclaimed_answers))
        .fold((0, 0), |(s, l), u| (s + u.stray, l + u.late))
}

/// Failed calls or stray answers fail the run; results that could not be judged make it
/// unknown, never a pass.
fn exit_code(summary: &LoadSummary, stray: u64) -> i32 {
    match (summary.failed, summary.not_checked) {
        _ if stray > 0 => exit::ERROR,
        (0, 0) => exit::OK,
        (0, _) => exit::UNKNOWN,
        _ => exit::ERROR,
    }
}

async fn close_all(sessions: Vec<Session>, code: i32) -> i32 {
    futures::future::join_all(sessions.into_iter().map(Session::shutdown)).await;
    code
}

/// The arguments, and the tool's output schema compiled once.
async fn prepare(
    session: &Session,
    options: &Options<'_>,
) -> Result<(Value, Option<Judge>), String> {
    let list = session
        .list_tools()
        .await
        .map_err(|e| format!("tools/list failed: {e}"))?;
    let tool = list.tools.iter().find(|t| t.name == options.tool);
    let Some(tool) = tool else {
        return Err(list.unknown(options.tool));
    };
    // The same rules as verify: only what the annotations say is safe, unless allowed.
    if let Some(why) = crate::verify::plan::refusal(&list, tool, &options.allow) {
        return Err(format!(
            "{} is not called: {why}",
            crate::untrusted::line(&tool.name, 80)
        ));
    }
    let schema = Some(tool.input_schema.value());
    let arguments = super::call::call_arguments(options.args, options.pairs, schema)?;
    if !options.allow_invalid {
        let input = Compiled::new(tool.input_schema.value());
        if let Ok(checked) = input.check(&arguments)
            && let Some(first) = checked.violations.first()
        {
            return Err(format!(
                "the arguments break the inputSchema {} (--allow-invalid sends them anyway)",
                first.brief()
            ));
        }
    }
    let output = tool.output_schema.as_deref().map(Judge::new);
    Ok((arguments, output))
}

/// The summary in words, with the histogram as bars.
fn tell(report: &Report, s: &LoadSummary) {
    report.line(&format!(
        "{} calls of {} by {} callers on {} in {:.2} s: {:.1} calls/s",
        s.calls,
        crate::untrusted::line(&s.tool, 80),
        s.concurrency,
        crate::plural::count(s.sessions, "session"),
        s.seconds,
        s.calls_per_second
    ));
    let ok = &s.success_latency_ms;
    report.line(&format!(
        "{} succeeded: {:.1}/s, latency p50 {:.2} ms  p90 {:.2} ms  p99 {:.2} ms  max {:.2} ms",
        s.succeeded, s.successes_per_second, ok.p50, ok.p90, ok.p99, ok.max
    ));
    let l = &s.latency_ms;
    report.line(&format!(
        "every call, failures too: latency p50 {:.2} ms  p90 {:.2} ms  p99 {:.2} ms  max {:.2} ms  mean {:.2} ms",
        l.p50,
        l.p90,
        l.p99,
        l.max,
        l.mean.unwrap_or(0.0)
    ));
    let e = &s.errors;
    report.line(&format!(
        "errors: {} server, {} timeouts, {} closed, {} other; {} tool errors (isError); {} verdict failures; {} not checked",
        e.server, e.timeout, e.closed, e.other, s.tool_errors, s.verdict_failures, s.not_checked
    ));
    let most = s
        .histogram
        .iter()
        .map(|r| r.count)
        .max()
        .unwrap_or(0)
        .max(1);
    for row in s.histogram.iter().filter(|r| r.count > 0) {
        let label = match row.le_ms {
            Some(b) => format!("≤ {b:>5} ms"),
            None => "  more     ".to_string(),
        };
        let bar = "█".repeat((row.count * 40).div_ceil(most));
        report.line(&format!("  {label} {bar} {}", row.count));
    }
    for (key, words) in &s.said {
        let kind = crate::verify::load::said_words(key);
        let first = format!("first {kind}: ");
        report.lines_under((&first, "  "), words, 8);
    }
    let (stray, late) = (s.stray_answers.unwrap_or(0), s.late_answers.unwrap_or(0));
    if stray + late > 0 {
        report.line(&format!(
            "answers nothing awaited: {stray} stray (a request answered twice, or an id never sent: a protocol error), {late} late (after a cancel)"
        ));
    }
    if let Some(n) = s.not_made.filter(|n| *n > 0) {
        report.line(&format!(
            "{} not made: the connection closed",
            crate::plural::count(n, "call")
        ));
    }
}
