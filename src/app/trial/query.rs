//! What the trial pane and the log say of a run, in words. Pure.

use super::state::{Body, Trial};
use crate::verify::report::{Failure, LoadSummary, ToolReport};

/// The verify run's findings (failures) so far; none for a load run.
pub fn findings(trial: &Trial) -> &[Failure] {
    match trial.run.as_ref().map(|r| &r.body) {
        Some(Body::Verify { failures, .. }) => failures,
        _ => &[],
    }
}

/// A verify result in one line: `FAIL: 2 failures in 100 calls`, `ok: …`, `NOT CHECKED: …`.
pub fn verdict_line(result: &ToolReport) -> String {
    let failed = match result.failed_calls() {
        0 => String::new(),
        n => format!(" ({n} failed)"),
    };
    let head = result.status.head();
    let mut line = format!(
        "{head}: {} in {}{failed}, {} (isError)",
        crate::plural::count(result.failures.len(), "failure"),
        crate::plural::count(result.calls, "call"),
        crate::plural::count(result.tool_errors, "tool error"),
    );
    if result.not_checked > 0 {
        line.push_str(&format!(", {} not checked", result.not_checked));
    }
    if let Some(note) = &result.note {
        line.push_str("; ");
        line.push_str(&crate::untrusted::line(note, 200));
    }
    line
}

/// A load summary in one line: rate, latency, failures.
pub fn load_line(summary: &LoadSummary) -> String {
    let l = &summary.latency_ms;
    format!(
        "{} calls, {:.1} calls/s, p50 {:.2} ms, p99 {:.2} ms, {} failed, {} not checked",
        summary.calls, summary.calls_per_second, l.p50, l.p99, summary.failed, summary.not_checked
    )
}
