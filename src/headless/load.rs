//! `mcp-inspect load TOOL`: one tool called by concurrent callers (on one session, or each on
//! its own with `--sessions`), until a number of calls or a duration: latency percentiles,
//! calls per second, errors and verdict failures under load, and a histogram. Exit 1 when a
//! call failed, 7 (unknown) when none did but results could not be judged.

use super::output::Report;
use crate::cli::{ConnectionArgs, Format};
use crate::mcp::session::error::exit;
use crate::mcp::{RequestError, Session};
use crate::schema::{Compiled, Status};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Histogram bucket bounds, in milliseconds.
const BUCKETS_MS: [f64; 12] = [
    1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0,
];

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
}

/// What one call gave.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Ok,
    ToolError,
    VerdictFailure,
    /// A result its outputSchema could not judge: neither a pass nor a failure.
    NotChecked,
    ServerError,
    Timeout,
    Closed,
    Other,
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
    let prepared = prepare(&sessions[0], &options).await;
    let (arguments, output) = match prepared {
        Ok(p) => p,
        Err(why) => return close_all(sessions, report.error(&why, exit::ERROR)).await,
    };
    let era = sessions[0].server.era;
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    let callers = (0..concurrency).map(|i| {
        let session = &sessions[i % sessions.len()];
        caller(
            session,
            &options,
            &arguments,
            output.as_ref(),
            era,
            &next,
            started,
        )
    });
    let work = futures::future::join_all(callers);
    let done: Vec<Done> = tokio::select! {
        done = work => done,
        signal = signals.next() => {
            let code = report.error(&format!("interrupted by {signal}"), 130);
            return close_all(sessions, code).await;
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let mut said = serde_json::Map::new();
    for (key, words) in done.iter().flat_map(|d| &d.said) {
        said.entry(*key).or_insert_with(|| json!(words));
    }
    let results: Vec<(Duration, Outcome)> = done.into_iter().flat_map(|d| d.calls).collect();
    let mut summary = summarize(&options, connections, &results, seconds);
    summary["said"] = Value::Object(said);
    match options.format {
        Format::Json => report.json(&summary),
        Format::Text => tell(&report, &summary),
    }
    let code = match (summary["failed"].as_u64(), summary["notChecked"].as_u64()) {
        (Some(0), Some(0)) => exit::OK,
        // Nothing failed, but some results could not be judged: unknown, never a pass.
        (Some(0), _) => exit::UNKNOWN,
        _ => exit::ERROR,
    };
    close_all(sessions, code).await
}

async fn close_all(sessions: Vec<Session>, code: i32) -> i32 {
    futures::future::join_all(sessions.into_iter().map(Session::shutdown)).await;
    code
}

/// The arguments, and the tool's output schema compiled once.
async fn prepare(
    session: &Session,
    options: &Options<'_>,
) -> Result<(Value, Option<(Value, Compiled)>), String> {
    let list = session
        .list_tools()
        .await
        .map_err(|e| format!("tools/list failed: {e}"))?;
    let tool = list.tools.iter().find(|t| t.name == options.tool);
    let Some(tool) = tool else {
        return Err(list.unknown(options.tool));
    };
    let schema = Some(tool.input_schema.value());
    let arguments = super::call::call_arguments(options.args, options.pairs, schema)?;
    let output = tool
        .output_schema
        .as_deref()
        .map(|s| (s.clone(), Compiled::new(s)));
    Ok((arguments, output))
}

impl Outcome {
    /// Its key in the report's `said` (the first words of each kind that is not a success).
    fn key(self) -> Option<&'static str> {
        Some(match self {
            Outcome::Ok | Outcome::ToolError => return None,
            Outcome::VerdictFailure => "verdictFailure",
            Outcome::NotChecked => "notChecked",
            Outcome::ServerError => "server",
            Outcome::Timeout => "timeout",
            Outcome::Closed => "closed",
            Outcome::Other => "other",
        })
    }
}

/// What one caller's calls gave: each call's time and outcome, and the first words said for
/// each kind of outcome that is not a success (so "6 other" says what they were).
#[derive(Default)]
struct Done {
    calls: Vec<(Duration, Outcome)>,
    said: Vec<(&'static str, String)>,
}

/// One caller: takes the next call until all are taken or the time is up.
async fn caller(
    session: &Session,
    options: &Options<'_>,
    arguments: &Value,
    output: Option<&(Value, Compiled)>,
    era: crate::schema::Era,
    next: &AtomicUsize,
    started: Instant,
) -> Done {
    let mut done = Done::default();
    loop {
        match options.duration {
            Some(limit) if started.elapsed() >= limit => break,
            None if next.fetch_add(1, Ordering::Relaxed) >= options.calls => break,
            _ => {}
        }
        let sent = Instant::now();
        let answer = session
            .call_tool(options.tool, arguments.clone(), false)
            .await;
        let took = sent.elapsed();
        let (outcome, words) = judged(answer, output, era);
        done.calls.push((took, outcome));
        if let Some(key) = outcome.key()
            && !done.said.iter().any(|(k, _)| *k == key)
        {
            done.said.push((key, words));
        }
        if outcome == Outcome::Closed {
            break;
        }
    }
    done
}

/// A call's outcome, and what was wrong in words (empty for a success).
fn judged(
    answer: Result<crate::mcp::surface::result::CallResult, RequestError>,
    output: Option<&(Value, Compiled)>,
    era: crate::schema::Era,
) -> (Outcome, String) {
    let result = match answer {
        Ok(result) => result,
        Err(e) => {
            let outcome = match e {
                RequestError::Server { .. } => Outcome::ServerError,
                RequestError::Timeout(_) | RequestError::TooLong(_) => Outcome::Timeout,
                RequestError::Closed(_) => Outcome::Closed,
                _ => Outcome::Other,
            };
            return (outcome, e.to_string());
        }
    };
    let verdict = result.verdict(output.map(|(s, c)| (s, c)), era);
    match verdict.status {
        Status::ToolError => (Outcome::ToolError, String::new()),
        Status::Violations | Status::MissingStructuredContent => {
            let first = verdict.violations.first().map_or(String::new(), |v| {
                let at = if v.instance_path.is_empty() {
                    "/"
                } else {
                    &v.instance_path
                };
                format!(", the first at {at} ({}): {}", v.keyword, v.message)
            });
            (Outcome::VerdictFailure, verdict.headline() + &first)
        }
        _ => match verdict.unjudged() {
            Some(why) => (Outcome::NotChecked, why.to_string()),
            None => (Outcome::Ok, String::new()),
        },
    }
}

/// The run in numbers: latency percentiles (of every call), rates, failures by kind, histogram.
fn summarize(
    options: &Options<'_>,
    sessions: usize,
    results: &[(Duration, Outcome)],
    seconds: f64,
) -> Value {
    let mut ms: Vec<f64> = results.iter().map(|(d, _)| d.as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let i = ((ms.len() as f64 * q).ceil() as usize).saturating_sub(1);
        ms.get(i.min(ms.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0.0)
    };
    let count = |o: Outcome| results.iter().filter(|(_, x)| *x == o).count();
    let mut histogram = Vec::new();
    let mut below = 0;
    for bound in BUCKETS_MS {
        let n = ms.iter().filter(|m| **m <= bound).count();
        histogram.push(json!({"le_ms": bound, "count": n - below}));
        below = n;
    }
    histogram.push(json!({"le_ms": null, "count": ms.len() - below}));
    let errors = count(Outcome::ServerError)
        + count(Outcome::Timeout)
        + count(Outcome::Closed)
        + count(Outcome::Other);
    let mean = if ms.is_empty() {
        0.0
    } else {
        ms.iter().sum::<f64>() / ms.len() as f64
    };
    json!({
        "tool": options.tool,
        "calls": results.len(),
        // Calls asked for but never sent (the server closed the connection).
        "notMade": options.duration.is_none().then(|| options.calls.saturating_sub(results.len())),
        "concurrency": options.concurrency.max(1),
        "sessions": sessions,
        "seconds": seconds,
        "callsPerSecond": if seconds > 0.0 { results.len() as f64 / seconds } else { 0.0 },
        "latencyMs": {"p50": at(0.5), "p90": at(0.9), "p99": at(0.99), "max": at(1.0), "mean": mean},
        "errors": {
            "server": count(Outcome::ServerError),
            "timeout": count(Outcome::Timeout),
            "closed": count(Outcome::Closed),
            "other": count(Outcome::Other),
        },
        "toolErrors": count(Outcome::ToolError),
        "verdictFailures": count(Outcome::VerdictFailure),
        "notChecked": count(Outcome::NotChecked),
        "failed": errors + count(Outcome::VerdictFailure),
        "histogram": histogram,
    })
}

/// The summary in words, with the histogram as bars.
fn tell(report: &Report, s: &Value) {
    let f = |v: &Value| v.as_f64().unwrap_or(0.0);
    report.line(&format!(
        "{} calls of {} by {} callers on {} in {:.2} s: {:.1} calls/s",
        s["calls"],
        crate::untrusted::line(s["tool"].as_str().unwrap_or_default(), 80),
        s["concurrency"],
        crate::plural::count(s["sessions"].as_u64().unwrap_or(1) as usize, "session"),
        f(&s["seconds"]),
        f(&s["callsPerSecond"])
    ));
    let l = &s["latencyMs"];
    report.line(&format!(
        "latency p50 {:.2} ms  p90 {:.2} ms  p99 {:.2} ms  max {:.2} ms  mean {:.2} ms",
        f(&l["p50"]),
        f(&l["p90"]),
        f(&l["p99"]),
        f(&l["max"]),
        f(&l["mean"])
    ));
    let e = &s["errors"];
    report.line(&format!(
        "errors: {} server, {} timeouts, {} closed, {} other; {} tool errors (isError); {} verdict failures; {} not checked",
        e["server"], e["timeout"], e["closed"], e["other"], s["toolErrors"], s["verdictFailures"], s["notChecked"]
    ));
    let rows = s["histogram"].as_array().map_or(&[][..], Vec::as_slice);
    let most = rows
        .iter()
        .filter_map(|r| r["count"].as_u64())
        .max()
        .unwrap_or(0)
        .max(1);
    for row in rows {
        let n = row["count"].as_u64().unwrap_or(0);
        if n == 0 {
            continue;
        }
        let label = match row["le_ms"].as_f64() {
            Some(b) => format!("≤ {b:>5} ms"),
            None => "  more     ".to_string(),
        };
        let bar = "█".repeat(((n * 40).div_ceil(most)) as usize);
        report.line(&format!("  {label} {bar} {n}"));
    }
    for (key, words) in s["said"].as_object().into_iter().flatten() {
        let words = crate::untrusted::line(words.as_str().unwrap_or_default(), 300);
        let kind = match key.as_str() {
            "verdictFailure" => "verdict failure",
            "notChecked" => "not checked",
            "server" => "server error",
            "other" => "other error",
            k => k,
        };
        report.line(&format!("first {kind}: {words}"));
    }
    if let Some(n) = s["notMade"].as_u64().filter(|n| *n > 0) {
        report.line(&format!(
            "{} not made: the connection closed",
            crate::plural::count(n as usize, "call")
        ));
    }
}
