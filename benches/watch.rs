//! `--watch`: the time from a settled change to the server's refreshed listing, against the
//! server's own start-up. `mcp-inspect snapshot --watch` runs on a copy of a Python server (the
//! official SDK); each round adds a tool to the file. Its stdout says `changed: …` once the
//! change has settled (the debounce is over) and prints the judged diff once the server was
//! started again and listed: the gap between the two is the restart. The server alone is timed
//! from spawn to its `initialize` answer. Medians; the overhead is the difference. Edits are a
//! second apart, as an author's are (the previous server's exit, awaited before the next start,
//! is over by then).
//!
//! Needs `scripts/setup-peers.sh` (the venv with the `mcp` package).

mod support;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const ROUNDS: usize = 10;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1e3)
}

/// Waits for a line of `lines` containing `needle`; the time it arrived.
fn arrival(lines: &mpsc::Receiver<(Instant, String)>, needle: &str) -> Instant {
    loop {
        let (at, line) = lines
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("no `{needle}`"));
        if line.contains(needle) {
            return at;
        }
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join(".peers/venv/bin/python");
    if !python.exists() {
        println!("skipped: run scripts/setup-peers.sh first");
        return;
    }
    let python = python.to_string_lossy().into_owned();
    let bin = root.join("target/release/mcp-inspect");
    assert!(
        bin.exists(),
        "build the release binary first (cargo build --release)"
    );
    let dir = std::env::temp_dir().join(format!("mcp-inspect-bench-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let mut source =
        std::fs::read_to_string(root.join("tests/peers/author_server.py")).expect("server");
    let script = dir.join("server.py");
    std::fs::write(&script, &source).expect("write");
    let alone: Vec<Duration> = (0..ROUNDS)
        .map(|_| support::server_startup(Command::new(&python).arg(&script)))
        .collect();
    let mut child = Command::new(&bin)
        .arg("snapshot")
        .arg("--watch")
        .arg(&script)
        .arg("--")
        .arg(&python)
        .arg(&script)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("mcp-inspect");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send((Instant::now(), line)).is_err() {
                return;
            }
        }
    });
    arrival(&lines, "started:");
    let (mut restarts, mut settles) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        // An author's edits come seconds apart: the previous server has exited by then.
        std::thread::sleep(Duration::from_secs(1));
        let tool =
            format!("@mcp.tool()\ndef tool_{round}(x: int) -> int:\n    return x\n\n\n# EDIT-HERE");
        source = source.replace("# EDIT-HERE", &tool);
        let written = Instant::now();
        std::fs::write(&script, &source).expect("edit");
        let settled = arrival(&lines, "changed:");
        let listed = arrival(&lines, "1 compatible");
        settles.push(settled - written);
        restarts.push(listed - settled);
    }
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    let (alone, restart, settle) = (median(alone), median(restarts), median(settles));
    println!("watch: Python server (mcp 2), {ROUNDS} edits, medians");
    println!(
        "  server start-up alone (spawn to initialize answer): {}",
        ms(alone)
    );
    println!(
        "  change settled → refreshed list (restart):          {}",
        ms(restart)
    );
    println!(
        "  overhead beyond the server's start-up:             {} (target ≤ 100 ms)",
        ms(restart.saturating_sub(alone))
    );
    println!(
        "  edit → change settled (detection + debounce):      {}",
        ms(settle)
    );
}
