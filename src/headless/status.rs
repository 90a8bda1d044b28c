//! The status line of a long headless command on a terminal (`verify`, `load`): what runs and
//! how far it got, redrawn each second (one call may take minutes) at the foot of stderr and
//! taken off when it ends (see `Report::status`; never in a pipe or a file).

use super::output::Report;
use crate::verify::load::Outcome;
use crate::verify::report::Failure;
use crate::verify::run::Progress;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Runs `run` with the status line `line()` (given the seconds since it began) shown and
/// redrawn each second; the line is taken off when the run ends.
pub async fn shown<T>(
    report: &Report,
    mut line: impl FnMut(u64) -> String,
    run: impl Future<Output = T>,
) -> T {
    let began = Instant::now();
    tokio::pin!(run);
    let mut every = tokio::time::interval(Duration::from_secs(1));
    let ended = loop {
        tokio::select! {
            ended = &mut run => break ended,
            _ = every.tick() => report.status(Some(&line(began.elapsed().as_secs()))),
        }
    };
    report.status(None);
    ended
}

/// A `verify` run's calls made and failures found so far: counted by the run, read by the
/// line.
#[derive(Clone, Default)]
pub struct Counts(Arc<[AtomicUsize; 2]>);

impl Progress for Counts {
    fn called(&mut self, calls: usize, failures: &[Failure]) {
        self.0[0].store(calls, Ordering::Relaxed);
        self.0[1].store(failures.len(), Ordering::Relaxed);
    }
}

impl Counts {
    /// `verify TOOL: 7 calls so far, 0 failures, 12 s`.
    pub fn line(&self, tool: &str, seconds: u64) -> String {
        let calls = self.0[0].load(Ordering::Relaxed);
        let failures = self.0[1].load(Ordering::Relaxed);
        format!(
            "verify {}: {} so far, {}, {seconds} s",
            crate::untrusted::line(tool, 40),
            crate::plural::count(calls, "call"),
            crate::plural::count(failures, "failure"),
        )
    }
}

/// A `load` run's calls as they end, taken each second for the line (so what waits stays a
/// second's worth): only on a terminal, where there is a line to draw.
#[derive(Default)]
pub struct Sampled {
    ended: Mutex<Vec<(Duration, Outcome)>>,
    /// Calls taken so far.
    calls: AtomicUsize,
    /// Those of them that failed.
    failed: AtomicUsize,
}

impl Sampled {
    /// Where `load`'s callers push each call, when stderr is a terminal.
    pub fn tap(&self) -> Option<&Mutex<Vec<(Duration, Outcome)>>> {
        std::io::stderr().is_terminal().then_some(&self.ended)
    }

    /// `load TOOL: 1234 calls (0 failed), 617/s, 2 s of 10`.
    pub fn line(&self, tool: &str, seconds: u64, of: Option<Duration>) -> String {
        let taken = std::mem::take(&mut *self.ended.lock().unwrap_or_else(|e| e.into_inner()));
        let failed = taken.iter().filter(|(_, o)| o.failed()).count();
        let calls = self.calls.fetch_add(taken.len(), Ordering::Relaxed) + taken.len();
        let failed = self.failed.fetch_add(failed, Ordering::Relaxed) + failed;
        let rate = calls as u64 / seconds.max(1);
        let of = of.map_or(String::new(), |d| format!(" of {}", d.as_secs()));
        format!(
            "load {}: {} ({} failed), {rate}/s, {seconds} s{of}",
            crate::untrusted::line(tool, 40),
            crate::plural::count(calls, "call"),
            failed,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tool's name is the server's: escaped in the line, however it is drawn.
    #[test]
    fn a_tool_name_is_escaped_in_the_line() {
        let name = "evil\u{1b}]0;pwned\u{7}\u{1b}[2J\u{202e}tool";
        let verify = Counts::default().line(name, 3);
        let load = Sampled::default().line(name, 3, Some(Duration::from_secs(10)));
        for line in [verify, load] {
            assert!(
                !line.chars().any(crate::untrusted::is_dangerous),
                "{line:?}"
            );
            assert!(line.contains("evil\\e]0;pwned"), "{line}");
        }
    }
}
