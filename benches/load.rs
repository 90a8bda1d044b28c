//! `mcp-inspect load` against an instant server: the client's own cost per call. The server is
//! this benchmark's own binary run with `--instant-server` (stdio, answers every request at
//! once with a canned result, no parsing beyond the id), so what is measured is the inspector:
//! sending, reading, matching answers, judging each result against the output schema. Calls per
//! second at 16 concurrent callers on one session, 20,000 calls; medians of 5 runs. Beside it,
//! CPU per call: the client's own (everything the command and its guard spent, less what the
//! server says it spent) and the server's.

mod support;

use nix::sys::resource::UsageWho;
use std::path::Path;
use std::process::Command;

const RUNS: usize = 5;

/// Where the instant server writes the CPU it spent (µs).
const SERVER_CPU: &str = "MCPI_BENCH_SERVER_CPU";

fn main() {
    if std::env::args().any(|a| a == "--instant-server") {
        return support::instant_server(|| {
            // The server's own CPU, for the client's share to be told apart from it.
            if let Some(path) = std::env::var_os(SERVER_CPU) {
                let _ = std::fs::write(path, support::cpu_us(UsageWho::RUSAGE_SELF).to_string());
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
    for _ in 0..RUNS {
        let before = support::cpu_us(UsageWho::RUSAGE_CHILDREN);
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
        let all = support::cpu_us(UsageWho::RUSAGE_CHILDREN) - before;
        let server: f64 = (std::fs::read_to_string(&server_cpu).ok())
            .and_then(|t| t.parse().ok())
            .unwrap_or(0.0);
        let _ = std::fs::remove_file(&server_cpu);
        clients.push((all - server) / 20_000.0);
        servers.push(server / 20_000.0);
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
