//! `verify`'s status line on a terminal while a tool runs: the tool, its calls and failures so
//! far and how long it has run, redrawn each second (one call may take minutes) and taken off
//! before the tool's result is printed.

use super::output::Report;
use crate::plural::count;
use crate::verify::report::Failure;
use crate::verify::run::Progress;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Calls made and failures found so far: counted by the run, read by the line.
#[derive(Clone, Default)]
pub struct Counts(Arc<[AtomicUsize; 2]>);

impl Progress for Counts {
    fn called(&mut self, calls: usize, failures: &[Failure]) {
        self.0[0].store(calls, Ordering::Relaxed);
        self.0[1].store(failures.len(), Ordering::Relaxed);
    }
}

/// Runs `run`, one tool's verification counting into `counts`, with its status line shown
/// and redrawn each second; the line is taken off when the run ends.
pub async fn shown<T>(
    report: &Report,
    tool: &str,
    counts: &Counts,
    run: impl Future<Output = T>,
) -> T {
    let began = Instant::now();
    let name = crate::untrusted::line(tool, 40);
    let draw = || {
        let calls = counts.0[0].load(Ordering::Relaxed);
        let failures = counts.0[1].load(Ordering::Relaxed);
        let line = format!(
            "verify {name}: {} so far, {}, {} s",
            count(calls, "call"),
            count(failures, "failure"),
            began.elapsed().as_secs()
        );
        report.status(Some(&line));
    };
    tokio::pin!(run);
    let mut every = tokio::time::interval(Duration::from_secs(1));
    let ended = loop {
        tokio::select! {
            ended = &mut run => break ended,
            _ = every.tick() => draw(),
        }
    };
    report.status(None);
    ended
}
