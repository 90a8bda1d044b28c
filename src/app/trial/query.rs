//! What the trial pane and the log say of a run, in words. Pure.

use super::state::{Body, Trial};
use serde_json::Value;

/// The verify run's findings (failures) so far; none for a load run.
pub fn findings(trial: &Trial) -> &[Value] {
    match trial.run.as_ref().map(|r| &r.body) {
        Some(Body::Verify { failures, .. }) => failures,
        _ => &[],
    }
}

/// A verify result in one line: `FAIL: 2 failures in 100 calls`, `ok: …`, `NOT CHECKED: …`.
pub fn verdict_line(result: &Value) -> String {
    let failures = result["failures"].as_array().map_or(0, Vec::len);
    let head = match result["status"].as_str() {
        Some("ok") => "ok",
        Some("not_checked") => "NOT CHECKED",
        _ => "FAIL",
    };
    // How many calls failed, not only how many distinct failures: half the calls breaking
    // the schema is not "1 failure".
    let hit: u64 = (result["failures"].as_array().into_iter().flatten())
        .filter_map(|f| f["hits"].as_u64())
        .sum::<u64>()
        + result["unkeptFailures"].as_u64().unwrap_or(0);
    let failed = match hit {
        0 => String::new(),
        n => format!(" ({n} failed)"),
    };
    let mut line = format!(
        "{head}: {} in {}{failed}, {} (isError)",
        crate::plural::count(failures, "failure"),
        crate::plural::count(result["calls"].as_u64().unwrap_or(0) as usize, "call"),
        crate::plural::count(
            result["toolErrors"].as_u64().unwrap_or(0) as usize,
            "tool error"
        ),
    );
    if let Some(n) = result["notChecked"].as_u64().filter(|n| *n > 0) {
        line.push_str(&format!(", {n} not checked"));
    }
    if let Some(note) = result["note"].as_str() {
        line.push_str("; ");
        line.push_str(&crate::untrusted::line(note, 200));
    }
    line
}

/// A load summary in one line: rate, latency, failures.
pub fn load_line(summary: &Value) -> String {
    let f = |v: &Value| v.as_f64().unwrap_or(0.0);
    let l = &summary["latencyMs"];
    format!(
        "{} calls, {:.1} calls/s, p50 {:.2} ms, p99 {:.2} ms, {} failed, {} not checked",
        summary["calls"],
        f(&summary["callsPerSecond"]),
        f(&l["p50"]),
        f(&l["p99"]),
        summary["failed"],
        summary["notChecked"]
    )
}

/// A finding's kind in words.
pub fn kind_words(kind: &str) -> &'static str {
    match kind {
        "breaks_output_schema" => "breaks its outputSchema",
        "missing_structured_content" => "leaves out structuredContent",
        "server_error" => "JSON-RPC error to a valid input",
        "timeout" => "timeout",
        "crash" => "crash",
        "malformed_answer" => "malformed answer",
        "accepted_invalid_input" => "accepted an invalid input",
        _ => "failure",
    }
}
