//! `mcp-inspect load` against an instant server: the client's own cost per call. The server is
//! this benchmark's own binary run with `--instant-server` (stdio, answers every request at
//! once with a canned result, no parsing beyond the id), so what is measured is the inspector:
//! sending, reading, matching answers, judging each result against the output schema. Calls per
//! second at 16 concurrent callers on one session, 20,000 calls; medians of 5 runs.

use std::io::{BufRead, Write};
use std::path::Path;
use std::process::Command;

const RUNS: usize = 5;

/// The id of a JSON-RPC message, as written (`"id":7` → `7`), without parsing the rest.
fn id_of(line: &str) -> Option<&str> {
    let start = line.find("\"id\":")? + 5;
    let rest = line[start..].trim_start();
    let end = rest.find([',', '}'])?;
    Some(rest[..end].trim())
}

/// A stdio MCP server that answers at once: `initialize`, `tools/list` (one tool with an
/// output schema) and `tools/call` (a result that conforms).
fn serve() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines().map_while(Result::ok) {
        let Some(id) = id_of(&line) else { continue };
        let result = if line.contains("\"initialize\"") {
            r#"{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"instant","version":"1"}}"#
        } else if line.contains("\"tools/list\"") {
            r#"{"tools":[{"name":"echo","annotations":{"readOnlyHint":true},"inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}}]}"#
        } else if line.contains("\"tools/call\"") {
            r#"{"content":[{"type":"text","text":"{\"ok\":true}"}],"structuredContent":{"ok":true}}"#
        } else if line.contains("\"method\"") && !line.contains("notifications/") {
            let _ = writeln!(
                out,
                r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32601,"message":"no"}}}}"#
            );
            let _ = out.flush();
            continue;
        } else {
            continue;
        };
        let _ = writeln!(out, r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#);
        let _ = out.flush();
    }
}

fn main() {
    if std::env::args().any(|a| a == "--instant-server") {
        return serve();
    }
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/mcp-inspect");
    assert!(
        bin.exists(),
        "build the release binary first (cargo build --release)"
    );
    let me = std::env::current_exe().expect("this benchmark's binary");
    let mut rates = Vec::new();
    let mut p99s = Vec::new();
    for _ in 0..RUNS {
        let out = Command::new(&bin)
            .args([
                "load", "echo", "-n", "20000", "-c", "16", "--format", "json", "--",
            ])
            .arg(&me)
            .arg("--instant-server")
            .output()
            .expect("mcp-inspect load");
        let report: serde_json::Value =
            serde_json::from_slice(&out.stdout).expect("load prints JSON");
        assert_eq!(report["failed"], 0, "{report}");
        rates.push(report["callsPerSecond"].as_f64().unwrap_or(0.0));
        p99s.push(report["latencyMs"]["p99"].as_f64().unwrap_or(0.0));
    }
    rates.sort_by(f64::total_cmp);
    p99s.sort_by(f64::total_cmp);
    let rate = rates[RUNS / 2];
    println!(
        "load: 20,000 calls, 16 callers, one stdio session, an instant server; median of {RUNS}"
    );
    println!(
        "  {rate:.0} calls/s ({:.1} µs a call); target ≥ 20,000 calls/s",
        1e6 / rate
    );
    println!("  p99 latency {:.2} ms", p99s[RUNS / 2]);
}
