//! A small timing harness for `cargo bench`: runs a closure until a time budget is spent and
//! reports the median, so benchmarks need no extra dependency.
#![allow(dead_code)]

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

/// Peak resident memory of this process so far, in KiB (Linux).
pub fn peak_rss_kib() -> u64 {
    status_kib("VmHWM:")
}

/// Resident memory of this process now, in KiB (Linux).
pub fn rss_kib() -> u64 {
    status_kib("VmRSS:")
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

/// Runs `f`; returns its result, the resident memory it added and kept, and the peak it
/// reached above where it started, in MiB. (The peak is reset through `/proc/self/clear_refs`.)
pub fn memory_of<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let before = rss_kib();
    let out = f();
    let kept = rss_kib().saturating_sub(before);
    let peak = status_kib("VmHWM:").saturating_sub(before);
    (out, kept as f64 / 1024.0, peak as f64 / 1024.0)
}
