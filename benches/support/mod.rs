//! A small timing harness for `cargo bench`: runs a closure until a time budget is spent and
//! reports the median, so benchmarks need no extra dependency.
#![allow(dead_code)]

use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

pub struct Measured {
    pub name: String,
    pub median: Duration,
    pub runs: usize,
}

/// Runs `f` at least 5 times and for about `budget`, returning the median duration.
pub fn measure<T>(name: &str, budget: Duration, mut f: impl FnMut() -> T) -> Measured {
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 5 || (start.elapsed() < budget && times.len() < 10_000) {
        let t = Instant::now();
        let out = std::hint::black_box(f());
        times.push(t.elapsed());
        // What the closure returns is dropped outside the timing.
        drop(out);
    }
    Measured::report(name, times)
}

impl Measured {
    /// The median of `times`, printed.
    fn report(name: &str, mut times: Vec<Duration>) -> Measured {
        times.sort();
        let m = Measured {
            name: name.to_string(),
            median: times[times.len() / 2],
            runs: times.len(),
        };
        println!(
            "{:<60} median {:>10.3} ms  ({} runs)",
            m.name,
            m.median.as_secs_f64() * 1e3,
            m.runs
        );
        m
    }
}

/// Two closures measured in turns (a, b, b, a, …), so drift in the machine (caches, the
/// allocator's state, frequency) falls on both alike: for a ratio between them.
pub fn measure_pair<A, B>(
    names: [&str; 2],
    budget: Duration,
    mut a: impl FnMut() -> A,
    mut b: impl FnMut() -> B,
) -> [Measured; 2] {
    let mut times = [Vec::new(), Vec::new()];
    let start = Instant::now();
    let mut round = 0usize;
    while round < 6 || (start.elapsed() < budget * 2 && round < 10_000) {
        for which in [round % 2, 1 - round % 2] {
            let t = Instant::now();
            if which == 0 {
                let out = std::hint::black_box(a());
                times[0].push(t.elapsed());
                drop(out);
            } else {
                let out = std::hint::black_box(b());
                times[1].push(t.elapsed());
                drop(out);
            }
        }
        round += 1;
    }
    let [ta, tb] = times;
    [
        Measured::report(names[0], ta),
        Measured::report(names[1], tb),
    ]
}

/// CPU (user and system) in µs: this process's own (`RUSAGE_SELF`), or that of every child it
/// waited for, with theirs in turn (`RUSAGE_CHILDREN`).
pub fn cpu_us(who: nix::sys::resource::UsageWho) -> f64 {
    let usage = nix::sys::resource::getrusage(who).expect("getrusage");
    let us = |t: nix::sys::time::TimeVal| t.tv_sec() as f64 * 1e6 + t.tv_usec() as f64;
    us(usage.user_time()) + us(usage.system_time())
}

/// Peak resident memory of this process so far, in KiB (Linux).
pub fn peak_rss_kib() -> u64 {
    status_kib("VmHWM:")
}

fn status_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Counts live and peak heap bytes; each bench binary installs it with
/// `#[global_allocator] static HEAP: support::Counting = support::Counting;`.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call goes unchanged to the system allocator; only counters are added.
#[allow(unsafe_code)]
unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(live, Relaxed);
        // SAFETY: the caller's layout contract is passed on as is.
        unsafe { std::alloc::System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
}

/// Runs `f`; returns its result, the heap it added and kept, and the peak heap above where it
/// started, in MiB (exact with [`Counting`] installed; zero without).
pub fn memory_of<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let out = f();
    let mib = |bytes: usize| bytes as f64 / (1024.0 * 1024.0);
    (
        out,
        mib(LIVE.load(Relaxed).saturating_sub(before)),
        mib(PEAK.load(Relaxed).saturating_sub(before)),
    )
}

/// Spawn to the `initialize` answer of a stdio server started by `command`: the server's own
/// start-up, the baseline of the benchmarks that start one.
pub fn server_startup(command: &mut std::process::Command) -> Duration {
    use std::io::{BufRead, Write};
    use std::process::Stdio;
    let start = Instant::now();
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("server");
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"bench","version":"0"}}}}}}"#).expect("write");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("read");
    let took = start.elapsed();
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    took
}

/// The id of a JSON-RPC message, as written (`"id":7` → `7`), without parsing the rest.
fn id_of(line: &str) -> Option<&str> {
    let start = line.find("\"id\":")? + 5;
    let rest = line[start..].trim_start();
    let end = rest.find([',', '}'])?;
    Some(rest[..end].trim())
}

/// A stdio MCP server that answers at once: `initialize`, `tools/list` (one tool with an
/// output schema) and `tools/call` (a result that conforms), any other request -32601; `at_end`
/// runs once stdin closes.
pub fn instant_server(at_end: impl FnOnce()) {
    use std::io::{BufRead, Write};
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
    at_end();
}
