//! One tool under load (`mcp-inspect load`, and `M` in the TUI): callers on one or more
//! sessions take the next call until all are made or the time is up; each call timed and its
//! result judged; the run summed up in percentiles, rates, failures by kind and a histogram.

use super::report::{Bucket, Errors, Latency, LoadSummary};
use crate::mcp::{RequestError, Session};
use crate::schema::Status;
use crate::schema::judge::Judge;
use serde_json::Value;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Histogram bucket bounds, in milliseconds.
pub const BUCKETS_MS: [f64; 12] = [
    1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0,
];

/// What one call gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
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

/// The calls' latencies in milliseconds, sorted.
pub fn sorted_ms(calls: &[(Duration, Outcome)]) -> Vec<f64> {
    let mut ms: Vec<f64> = calls.iter().map(|(d, _)| d.as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    ms
}

/// The `q` quantile of sorted values (nearest rank; 0 when there are none).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    let i = ((sorted.len() as f64 * q).ceil() as usize).saturating_sub(1);
    sorted
        .get(i.min(sorted.len().saturating_sub(1)))
        .copied()
        .unwrap_or(0.0)
}

impl Outcome {
    /// Whether the call failed: an error, a timeout, the connection closed, or a result that
    /// breaks its outputSchema (a tool error is the tool's answer; not checked is neither).
    pub fn failed(self) -> bool {
        !matches!(self, Outcome::Ok | Outcome::ToolError | Outcome::NotChecked)
    }

    /// Its key in the report's `said` (the first words of each kind that is not a success).
    pub fn key(self) -> Option<&'static str> {
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

/// A `said` key in words (`first other error: …`).
pub fn said_words(key: &str) -> &str {
    match key {
        "verdictFailure" => "verdict failure",
        "notChecked" => "not checked",
        "server" => "server error",
        "other" => "other error",
        k => k,
    }
}

/// What one caller's calls gave: each call's time and outcome, and the first words said for
/// each kind of outcome that is not a success (so "6 other" says what they were).
#[derive(Default)]
pub struct Done {
    pub calls: Vec<(Duration, Outcome)>,
    pub said: Vec<(&'static str, String)>,
}

/// What is called, how often and by how many.
pub struct Shape<'a> {
    pub tool: &'a str,
    pub arguments: &'a Value,
    /// The outputSchema results are judged against, compiled once.
    pub output: Option<&'a Judge>,
    pub era: crate::schema::Era,
    /// Calls in all, unless `duration` is given.
    pub calls: usize,
    pub duration: Option<Duration>,
    pub concurrency: usize,
    /// Turns true when the run is to stop: calls in flight are cancelled (the server told) and
    /// no more are made (the TUI's `x`).
    pub stop: Option<tokio::sync::watch::Receiver<bool>>,
}

/// Runs `shape.concurrency` callers over `sessions` (in turn), from `started`; each call's time
/// and outcome also pushed to `tap` when given (the TUI samples it as the run goes).
pub async fn callers(
    sessions: &[Session],
    shape: &Shape<'_>,
    started: Instant,
    tap: Option<&Mutex<Vec<(Duration, Outcome)>>>,
) -> Vec<Done> {
    let next = AtomicUsize::new(0);
    let all = (0..shape.concurrency.max(1)).map(|i| {
        let session = &sessions[i % sessions.len().max(1)];
        caller(session, shape, &next, started, tap)
    });
    futures::future::join_all(all).await
}

/// One call of the tool, cancelled (the server told) if the run stops meanwhile.
async fn call(
    session: &Session,
    shape: &Shape<'_>,
) -> Result<crate::mcp::surface::result::CallResult, RequestError> {
    let Some(stop) = &shape.stop else {
        return session
            .call_tool(shape.tool, shape.arguments.clone(), false)
            .await;
    };
    let mut stop = stop.clone();
    let stopped = async move {
        // A stop that can no longer come never cancels.
        if stop.wait_for(|stopped| *stopped).await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    match session
        .start_call(shape.tool, shape.arguments.clone(), false)
        .await
    {
        Ok(pending) => pending.result_or_cancel(stopped).await,
        Err(e) => Err(e),
    }
}

/// One caller: takes the next call until all are taken or the time is up.
async fn caller(
    session: &Session,
    shape: &Shape<'_>,
    next: &AtomicUsize,
    started: Instant,
    tap: Option<&Mutex<Vec<(Duration, Outcome)>>>,
) -> Done {
    let mut done = Done::default();
    loop {
        match shape.duration {
            Some(limit) if started.elapsed() >= limit => break,
            None if next.fetch_add(1, Ordering::Relaxed) >= shape.calls => break,
            _ => {}
        }
        let sent = Instant::now();
        if shape.stop.as_ref().is_some_and(|s| *s.borrow()) {
            break;
        }
        let answer = call(session, shape).await;
        let took = sent.elapsed();
        let (outcome, words) = judged(answer, shape.output, shape.era);
        done.calls.push((took, outcome));
        if let Some(tap) = tap
            && let Ok(mut tap) = tap.lock()
        {
            tap.push((took, outcome));
        }
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
pub fn judged(
    answer: Result<crate::mcp::surface::result::CallResult, RequestError>,
    output: Option<&Judge>,
    era: crate::schema::Era,
) -> (Outcome, String) {
    let result = match answer {
        Ok(result) => result,
        Err(e) => {
            if let Some(why) = e.needs_a_person() {
                return (Outcome::NotChecked, why.to_string());
            }
            let outcome = match e {
                RequestError::Server { .. } => Outcome::ServerError,
                RequestError::Timeout(_) | RequestError::TooLong(_) => Outcome::Timeout,
                RequestError::Closed(_) => Outcome::Closed,
                _ => Outcome::Other,
            };
            return (outcome, e.to_string());
        }
    };
    let verdict = result.verdict(output.map(Judge::parts), era);
    match verdict.status {
        Status::ToolError => (Outcome::ToolError, String::new()),
        Status::Violations | Status::MissingStructuredContent => {
            let first = (verdict.violations.first())
                .map_or(String::new(), |v| format!(", the first {}", v.brief()));
            (Outcome::VerdictFailure, verdict.headline() + &first)
        }
        _ => match verdict.unjudged() {
            Some(why) => (Outcome::NotChecked, why.to_string()),
            None => (Outcome::Ok, String::new()),
        },
    }
}

/// The run in numbers: latency percentiles (of every call), rates, failures by kind, histogram,
/// and the first words said of each kind of failure.
pub fn summarize(shape: &Shape<'_>, sessions: usize, done: Vec<Done>, seconds: f64) -> LoadSummary {
    let mut said: Vec<(String, String)> = Vec::new();
    for (key, words) in done.iter().flat_map(|d| &d.said) {
        if !said.iter().any(|(k, _)| k == key) {
            said.push((key.to_string(), words.clone()));
        }
    }
    let results: Vec<(Duration, Outcome)> = done.into_iter().flat_map(|d| d.calls).collect();
    let results = &results[..];
    let ms = sorted_ms(results);
    let count = |o: Outcome| results.iter().filter(|(_, x)| *x == o).count();
    let mut histogram = Vec::new();
    let mut below = 0;
    for bound in BUCKETS_MS {
        let n = ms.iter().filter(|m| **m <= bound).count();
        histogram.push(Bucket {
            le_ms: Some(bound),
            count: n - below,
        });
        below = n;
    }
    histogram.push(Bucket {
        le_ms: None,
        count: ms.len() - below,
    });
    // Successes measured apart: a server failing fast is not a fast server, and a call not
    // checked (waiting on a person) is neither.
    let succeeded: Vec<(Duration, Outcome)> = results
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Ok | Outcome::ToolError))
        .copied()
        .collect();
    let mean = if ms.is_empty() {
        0.0
    } else {
        ms.iter().sum::<f64>() / ms.len() as f64
    };
    let per_second = |n: usize| {
        if seconds > 0.0 {
            n as f64 / seconds
        } else {
            0.0
        }
    };
    LoadSummary {
        tool: shape.tool.to_string(),
        calls: results.len(),
        not_made: shape
            .duration
            .is_none()
            .then(|| shape.calls.saturating_sub(results.len())),
        concurrency: shape.concurrency.max(1),
        sessions,
        seconds,
        calls_per_second: per_second(results.len()),
        latency_ms: Latency {
            mean: Some(mean),
            ..latency(&ms)
        },
        succeeded: succeeded.len(),
        successes_per_second: per_second(succeeded.len()),
        success_latency_ms: latency(&sorted_ms(&succeeded)),
        errors: Errors {
            server: count(Outcome::ServerError),
            timeout: count(Outcome::Timeout),
            closed: count(Outcome::Closed),
            other: count(Outcome::Other),
        },
        tool_errors: count(Outcome::ToolError),
        verdict_failures: count(Outcome::VerdictFailure),
        not_checked: count(Outcome::NotChecked),
        failed: results.iter().filter(|(_, o)| o.failed()).count(),
        histogram,
        said,
        ..LoadSummary::default()
    }
}

/// The percentiles of sorted latencies.
fn latency(ms: &[f64]) -> Latency {
    Latency {
        p50: quantile(ms, 0.5),
        p90: quantile(ms, 0.9),
        p99: quantile(ms, 0.99),
        max: quantile(ms, 1.0),
        mean: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Era;

    fn error(code: i64) -> Result<crate::mcp::surface::result::CallResult, RequestError> {
        Err(RequestError::Server {
            code,
            message: "no".into(),
            data: None,
        })
    }

    /// A URL elicitation to complete (-32042) waits on a person: not checked, never a server
    /// error; any other error code is one.
    #[test]
    fn a_call_that_waits_on_a_person_is_not_checked_not_failed() {
        let (outcome, said) = judged(error(-32042), None, Era::Legacy);
        assert_eq!(outcome, Outcome::NotChecked);
        assert!(said.contains("URL elicitation"), "{said}");
        assert!(!outcome.failed());
        let (outcome, _) = judged(error(-32603), None, Era::Legacy);
        assert_eq!(outcome, Outcome::ServerError);
        assert!(outcome.failed());
    }
}
