//! `mcp-inspect load` against an instant server: the client's own cost per call. The server is
//! this benchmark's own binary run with `--instant-server` (stdio, answers every request at
//! once with a canned result, no parsing beyond the id), so what is measured is the inspector:
//! sending, reading, matching answers, judging each result against the output schema. Calls per
//! second at 16 concurrent callers on one session, 20,000 calls; medians of 5 runs. Beside it,
//! CPU per call: the client's own (everything the command and its guard spent, less what the
//! server says it spent) and the server's.

mod support;

use std::path::Path;
use std::process::Command;

const RUNS: usize = 5;

/// Where the instant server writes the CPU it spent (clock ticks).
const SERVER_CPU: &str = "MCPI_BENCH_SERVER_CPU";

/// User plus system CPU in `/proc/<who>/stat`, fields `user` and `user + 1` as proc(5) numbers
/// them (14: the process's own; 16: its waited-for children's), in clock ticks.
fn cpu_ticks(who: &str, user: usize) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{who}/stat")).ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    // `rest` starts at field 3 (state): field n is fields[n - 3].
    let in_user: u64 = fields.get(user - 3)?.parse().ok()?;
    let in_system: u64 = fields.get(user - 2)?.parse().ok()?;
    Some(in_user + in_system)
}

/// Clock ticks a second (`getconf CLK_TCK`; 100 on Linux).
fn ticks_per_second() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(100.0)
}

fn main() {
    if std::env::args().any(|a| a == "--instant-server") {
        return support::instant_server(|| {
            // The server's own CPU, for the client's share to be told apart from it.
            if let (Some(path), Some(ticks)) = (std::env::var_os(SERVER_CPU), cpu_ticks("self", 14))
            {
                let _ = std::fs::write(path, ticks.to_string());
            }
        });
    }
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/mcp-inspect");
    assert!(
        bin.exists(),
        "build the release binary first (cargo build --release)"
    );
    let me = std::env::current_exe().expect("this benchmark's binary");
    let mut rates = Vec::new();
    let mut p99s = Vec::new();
    let (mut clients, mut servers) = (Vec::new(), Vec::new());
    let server_cpu = std::env::temp_dir().join(format!("mcpi-bench-cpu-{}", std::process::id()));
    let tick_us = 1e6 / ticks_per_second();
    for _ in 0..RUNS {
        let before = cpu_ticks("self", 16).unwrap_or(0);
        let out = Command::new(&bin)
            .env(SERVER_CPU, &server_cpu)
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
        // Every process of the run was waited for (the guard waits the server, the command
        // the guard): their CPU is in this process's children's.
        let all = cpu_ticks("self", 16).unwrap_or(0).saturating_sub(before);
        let server: u64 = (std::fs::read_to_string(&server_cpu).ok())
            .and_then(|t| t.parse().ok())
            .unwrap_or(0);
        let _ = std::fs::remove_file(&server_cpu);
        clients.push(all.saturating_sub(server) as f64 * tick_us / 20_000.0);
        servers.push(server as f64 * tick_us / 20_000.0);
        rates.push(report["callsPerSecond"].as_f64().unwrap_or(0.0));
        p99s.push(report["latencyMs"]["p99"].as_f64().unwrap_or(0.0));
    }
    for v in [&mut rates, &mut p99s, &mut clients, &mut servers] {
        v.sort_by(f64::total_cmp);
    }
    let rate = rates[RUNS / 2];
    println!(
        "load: 20,000 calls, 16 callers, one stdio session, an instant server; median of {RUNS}"
    );
    println!(
        "  {rate:.0} calls/s ({:.1} µs a call); target ≥ 20,000 calls/s",
        1e6 / rate
    );
    println!("  p99 latency {:.2} ms", p99s[RUNS / 2]);
    println!(
        "  CPU a call: the client {:.1} µs (target ≤ 30 µs), the server {:.1} µs",
        clients[RUNS / 2],
        servers[RUNS / 2]
    );
}
