//! What `mcp-inspect tap` costs a host, against the same server without it, in the same run:
//! - throughput: `mcp-inspect load` (10,000 calls, 16 callers) on an instant server, direct
//!   and through the tap, in turns; calls per second, medians of 15 runs (a run is a quarter
//!   of a second on this machine, and five left the median a few percent apart from one
//!   bench to the next; target: the tap keeps ≥ 95%); beside it, the CPU a call of the server
//!   and what stands between (this benchmark's binary in front of them with `--cpu-to`),
//!   steadier on a shared machine: its rise over direct is what stands between;
//! - latency: 2,000 requests one at a time from this benchmark as the host, each answered at
//!   once, direct and through the tap; the tap's share of one message is half the difference
//!   of the median round trips (a round trip crosses it twice; target ≤ 100 µs);
//! - memory: the tap's peak RSS while it forwards a 100 MB message, and a flood of a million
//!   notifications (target < 20 MiB each); the HTTP tap's while it forwards a 100 MB POST to a
//!   server that reads it whole (this benchmark's own listener).
//!
//! Beside the tap, a bare forwarder (this benchmark's own binary run with `--forward`: two
//! threads, each a read and a write of what came, nothing recorded or parsed): the floor any
//! process between a host and a server pays on this machine, so the tap's own cost is the
//! difference between the two.
//!
//! The instant server is this benchmark's own binary run with `--instant-server`.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

const RUNS: usize = 5;
/// Runs of the throughput comparison: each is short, so more of them.
const LOAD_RUNS: usize = 15;
const ROUND_TRIPS: usize = 2_000;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The tap's recordings go here, not into the user's state folder.
fn state() -> PathBuf {
    std::env::temp_dir().join(format!("mcpi-bench-tap-{}", std::process::id()))
}

/// What stands between the host and the server.
#[derive(Clone, Copy)]
enum Between {
    Nothing,
    Tap,
    /// This benchmark's bare forwarder.
    Forwarder,
}

/// `server` (a command and its arguments), through what is `between`.
fn command(bin: &Path, between: Between, server: &[&str]) -> Command {
    let mut command = match between {
        Between::Tap => {
            let mut c = Command::new(bin);
            c.args(["tap", "--"]).args(server);
            c
        }
        Between::Forwarder => {
            let mut c = Command::new(std::env::current_exe().expect("this benchmark"));
            c.args(["--forward", "--"]).args(server);
            c
        }
        Between::Nothing => {
            let mut c = Command::new(server[0]);
            c.args(&server[1..]);
            c
        }
    };
    command.env("XDG_STATE_HOME", state());
    command
}

/// Calls per second of one `load` run, and the CPU a call of the server and what stands
/// between it and `load` (µs): measured by this benchmark's own binary run in front of them
/// with `--cpu-to FILE`, which waits for them and writes what they used.
fn load_rate(bin: &Path, server: &[&str], between: Between) -> (f64, f64) {
    let mut run = Command::new(bin);
    run.args([
        "load", "echo", "-n", "10000", "-c", "16", "--format", "json", "--",
    ]);
    let used = state().join(format!("cpu-{}", RUN.fetch_add(1, Ordering::Relaxed)));
    run.arg(std::env::current_exe().expect("this benchmark"))
        .arg("--cpu-to")
        .arg(&used)
        .arg("--");
    let target = command(bin, between, server);
    run.arg(target.get_program()).args(target.get_args());
    run.env("XDG_STATE_HOME", state());
    let out = run.output().expect("mcp-inspect load");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("load's JSON");
    assert_eq!(report["failed"], 0, "{report}");
    // Written once they have ended, which may be after `load` has.
    let deadline = Instant::now() + std::time::Duration::from_secs(10);
    let cpu_us = loop {
        if let Some(us) = std::fs::read_to_string(&used)
            .ok()
            .and_then(|text| text.trim().parse::<f64>().ok())
        {
            break us;
        }
        assert!(
            Instant::now() < deadline,
            "no CPU figure in {}",
            used.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let calls = report["calls"].as_f64().unwrap_or(1.0);
    (
        report["callsPerSecond"].as_f64().unwrap_or(0.0),
        cpu_us / calls,
    )
}

/// Numbers each run's CPU file.
static RUN: AtomicUsize = AtomicUsize::new(0);

/// `--cpu-to FILE -- COMMAND…`: runs the command on this process's standard streams, waits for
/// it, and writes to FILE the CPU (user and system, µs) it and every process it waited for used.
fn cpu_to(file: &str, command: &[String]) -> i32 {
    let status = Command::new(&command[0])
        .args(&command[1..])
        .status()
        .expect("the command");
    let used = support::cpu_us(nix::sys::resource::UsageWho::RUSAGE_CHILDREN);
    // Written whole, then renamed: the reader never sees half a number.
    let part = format!("{file}.part");
    std::fs::write(&part, used.to_string()).expect("the CPU file");
    std::fs::rename(&part, file).expect("the CPU file");
    status.code().unwrap_or(1)
}

fn spawn(mut command: Command) -> Child {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn")
}

/// The median round trip, in µs, of requests sent one at a time after a handshake.
fn round_trip_us(bin: &Path, server: &[&str], between: Between) -> f64 {
    let mut child = spawn(command(bin, between, server));
    let mut to = child.stdin.take().expect("stdin");
    let mut from = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    let mut ask = |id: usize, method: &str| {
        let t = Instant::now();
        writeln!(to, r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#).expect("write");
        line.clear();
        from.read_line(&mut line).expect("answer");
        assert!(line.contains(&format!("\"id\":{id}")), "{line}");
        t.elapsed()
    };
    ask(0, "initialize");
    let times: Vec<f64> = (1..=ROUND_TRIPS)
        .map(|id| ask(id, "ping").as_secs_f64() * 1e6)
        .collect();
    drop(to);
    let _ = child.wait();
    median(times)
}

/// The tap's peak RSS (MiB) while `server` writes `bytes` and the host reads them all (the
/// server then waits for stdin to close, so the tap is still there to be measured).
fn peak_rss_mib(bin: &Path, server: &str, bytes: usize) -> f64 {
    let mut child = spawn(command(bin, Between::Tap, &["sh", "-c", server]));
    let mut from = child.stdout.take().expect("stdout");
    let mut sink = [0u8; 1 << 16];
    let mut read = 0usize;
    while read < bytes {
        match from.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => read += n,
        }
    }
    // Read before the tap exits: its high-water mark so far is the whole run's.
    let peak = high_water_mib(child.id());
    drop(child.stdin.take());
    let _ = child.wait();
    assert_eq!(read, bytes, "what came through");
    peak
}

/// The high-water mark of a running process's resident memory, in MiB.
fn high_water_mib(pid: u32) -> f64 {
    let kib = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
            line.split_whitespace().nth(1)?.parse::<f64>().ok()
        })
        .unwrap_or(0.0);
    kib / 1024.0
}

/// The HTTP tap's peak RSS (MiB) while a host POSTs a 100 MB message through it to a server
/// that reads it all and answers.
fn http_peak_rss_mib(bin: &Path) -> f64 {
    use std::net::{TcpListener, TcpStream};
    const MESSAGE: usize = 100_000_000;
    let server = TcpListener::bind("127.0.0.1:0").expect("bind");
    let server_port = server.local_addr().expect("port").port();
    let received = std::thread::spawn(move || {
        let (stream, _) = server.accept().expect("accept");
        let mut from = BufReader::new(stream.try_clone().expect("clone"));
        let mut length = 0;
        let mut line = String::new();
        while from.read_line(&mut line).is_ok_and(|n| n > 2) {
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
            line.clear();
        }
        let got = std::io::copy(&mut from.take(length), &mut std::io::sink()).unwrap_or(0);
        let answer = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#;
        let mut to = stream;
        let _ = write!(
            to,
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
            answer.len()
        );
        got
    });
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut tap = Command::new(bin);
    tap.args(["tap", "--listen", &format!("127.0.0.1:{port}"), "--url"])
        .arg(format!("http://127.0.0.1:{server_port}/mcp"))
        .env("XDG_STATE_HOME", state())
        .stderr(Stdio::null());
    let mut tap = tap.spawn().expect("the tap");
    let mut host = loop {
        match TcpStream::connect(("127.0.0.1", port)) {
            Ok(stream) => break stream,
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
        }
    };
    let head = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":""#;
    let tail = r#""}}}"#;
    write!(
        host,
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{head}",
        MESSAGE
    )
    .expect("write");
    let piece = vec![b'a'; 1 << 16];
    let mut left = MESSAGE - head.len() - tail.len();
    while left > 0 {
        let n = left.min(piece.len());
        host.write_all(&piece[..n]).expect("write");
        left -= n;
    }
    host.write_all(tail.as_bytes()).expect("write");
    let mut answer = String::new();
    let _ = host.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert_eq!(received.join().expect("the server"), MESSAGE as u64);
    let peak = high_water_mib(tap.id());
    let _ = tap.kill();
    let _ = tap.wait();
    peak
}

/// The bare forwarder: starts the command after `--forward --` and copies bytes both ways
/// until the server's output ends; its exit code.
fn forward() -> i32 {
    let command: Vec<String> = std::env::args().skip_while(|a| a != "--").skip(1).collect();
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server");
    fn copy(mut from: impl Read, mut to: impl Write) {
        let mut buffer = vec![0u8; 64 * 1024];
        while let Ok(n) = from.read(&mut buffer) {
            if n == 0
                || to
                    .write_all(&buffer[..n])
                    .and_then(|()| to.flush())
                    .is_err()
            {
                break;
            }
        }
    }
    let to_server = child.stdin.take().expect("stdin");
    let from_server = child.stdout.take().expect("stdout");
    std::thread::spawn(move || copy(std::io::stdin(), to_server));
    let answers = std::thread::spawn(move || copy(from_server, std::io::stdout()));
    let status = child.wait().expect("wait");
    let _ = answers.join();
    status.code().unwrap_or(1)
}

fn main() {
    // The forwarder's own arguments end in the server's (`--instant-server` among them).
    match std::env::args().nth(1).as_deref() {
        Some("--forward") => std::process::exit(forward()),
        Some("--instant-server") => return support::instant_server(|| {}),
        Some("--cpu-to") => {
            let args: Vec<String> = std::env::args().collect();
            std::process::exit(cpu_to(&args[2], &args[4..]));
        }
        _ => {}
    }
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/mcp-inspect");
    assert!(
        bin.exists(),
        "build the release binary first (cargo build --release)"
    );
    let me = std::env::current_exe().expect("this benchmark's binary");
    let me = me.to_string_lossy();
    let server = [&*me, "--instant-server"];
    std::fs::create_dir_all(state()).expect("the benchmark's state folder");
    let runs: [Vec<(f64, f64)>; 3] = std::array::from_fn(|_| Vec::new());
    let [mut direct, mut tapped, mut bare] = runs;
    for _ in 0..LOAD_RUNS {
        direct.push(load_rate(&bin, &server, Between::Nothing));
        tapped.push(load_rate(&bin, &server, Between::Tap));
        bare.push(load_rate(&bin, &server, Between::Forwarder));
    }
    let rate = |runs: &[(f64, f64)]| median(runs.iter().map(|r| r.0).collect());
    let cpu = |runs: &[(f64, f64)]| median(runs.iter().map(|r| r.1).collect());
    println!("tap: load, 10,000 calls, 16 callers, an instant server; median of {LOAD_RUNS}");
    let (rates, cpus) = (
        [&direct, &tapped, &bare].map(|r| rate(r)),
        [&direct, &tapped, &bare].map(|r| cpu(r)),
    );
    println!(
        "  direct {:.0} calls/s, through the tap {:.0} calls/s: {:.1}% kept (target ≥ 95%); \
         through a bare forwarder {:.0} calls/s: {:.1}% kept",
        rates[0],
        rates[1],
        rates[1] / rates[0] * 100.0,
        rates[2],
        rates[2] / rates[0] * 100.0
    );
    // Steadier than calls per second on a shared machine: what each call cost the server and
    // what stands between; the difference from direct is what stands between.
    println!(
        "  CPU a call, the server and what stands between: direct {:.1} µs, through the tap {:.1} µs \
         (+{:.1}), through a bare forwarder {:.1} µs (+{:.1})",
        cpus[0],
        cpus[1],
        cpus[1] - cpus[0],
        cpus[2],
        cpus[2] - cpus[0]
    );
    let (mut direct, mut tapped, mut bare) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RUNS {
        direct.push(round_trip_us(&bin, &server, Between::Nothing));
        tapped.push(round_trip_us(&bin, &server, Between::Tap));
        bare.push(round_trip_us(&bin, &server, Between::Forwarder));
    }
    let (direct, tapped, bare) = (median(direct), median(tapped), median(bare));
    println!("tap: {ROUND_TRIPS} requests one at a time; median round trip, median of {RUNS}");
    println!(
        "  direct {direct:.0} µs, through the tap {tapped:.0} µs: {:.0} µs a message (target ≤ 100 µs); \
         through a bare forwarder {bare:.0} µs: {:.0} µs a message",
        (tapped - direct) / 2.0,
        (bare - direct) / 2.0
    );
    let big = "head -c 100000000 /dev/zero | tr '\\0' a; echo; cat > /dev/null";
    let note = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#;
    let flood = format!("yes '{note}' | head -n 1000000; cat > /dev/null");
    println!(
        "tap: peak RSS forwarding a 100 MB message {:.1} MiB, a flood of 1,000,000 notifications {:.1} MiB (target < 20 MiB)",
        peak_rss_mib(&bin, big, 100_000_001),
        peak_rss_mib(&bin, &flood, 1_000_000 * (note.len() + 1))
    );
    println!(
        "tap --listen: peak RSS forwarding a 100 MB POST {:.1} MiB (target < 20 MiB)",
        http_peak_rss_mib(&bin)
    );
    let _ = std::fs::remove_dir_all(state());
}
