//! `V` and `M` from the TUI run here, on the connection task's session: a verify run told
//! after each call (its findings as they are found), a load run sampled twice a second; each
//! ends with the same report the headless commands give, or at `x` (the run's future dropped).

use crate::app::trial::state::Sample;
use crate::app::trial::update::Update;
use crate::app::update::Msg;
use crate::mcp::Session;
use crate::mcp::surface::tool::Tool;
use crate::schema::judge::Judge;
use crate::verify::calls::Live;
use crate::verify::load::{Outcome, Shape, callers, quantile, sorted_ms, summarize};
use crate::verify::report::Failure;
use crate::verify::run::{Progress, Settings, verify_tool};
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// How often a load run is sampled.
const SAMPLE_EVERY: Duration = Duration::from_millis(500);

/// Tells the UI how a verify run goes; lossy (the last word is the run's result).
struct Told {
    to_ui: mpsc::Sender<Msg>,
    run: u64,
    seed: u64,
}

impl Progress for Told {
    fn called(&mut self, calls: usize, failures: &[Failure]) {
        let _ = self.to_ui.try_send(Msg::Trial(Update::Verifying {
            run: self.run,
            seed: self.seed,
            calls,
            failures: failures.to_vec(),
        }));
    }
}

/// A verify run of `tool` from a fresh seed, until it ends or `stop` fires; its results judged
/// by `output` when the call panel had it compiled.
pub async fn verify(
    (run_id, session): (u64, &Session),
    (tool, output): (&Tool, Option<Arc<Judge>>),
    settings: Settings,
    to_ui: mpsc::Sender<Msg>,
    stop: oneshot::Receiver<()>,
) -> Msg {
    let seed = crate::schema::generate::rng::fresh_seed();
    let mut told = Told {
        to_ui,
        run: run_id,
        seed,
    };
    told.called(0, &[]);
    let (stopping, stop_seen) = tokio::sync::watch::channel(false);
    let mut link = Live {
        session,
        stop: stop_seen,
    };
    let run = verify_tool(
        &mut link,
        (tool, output),
        &settings,
        (seed, Instant::now()),
        &mut told,
    );
    tokio::pin!(run);
    tokio::select! {
        verified = &mut run => Msg::Trial(Update::Verified { run: run_id, result: verified.result }),
        _ = stop => {
            // The call in flight is cancelled (the server told), and the run ends at its next.
            let _ = stopping.send(true);
            let _ = run.await;
            Msg::Trial(Update::Ended { run: run_id, why: "stopped".into() })
        }
    }
}

/// A load run: `callers` at once for `duration`, sampled as it goes.
pub async fn load(
    (run_id, session): (u64, &Session),
    (tool, output): (&Tool, Option<Arc<Judge>>),
    (arguments, callers_at_once, duration): (Value, usize, Duration),
    to_ui: mpsc::Sender<Msg>,
    stop: oneshot::Receiver<()>,
) -> Msg {
    let output =
        output.or_else(|| (tool.output_schema.as_deref()).map(|s| Arc::new(Judge::new(s))));
    let (stopping, stop_seen) = tokio::sync::watch::channel(false);
    let shape = Shape {
        tool: &tool.name,
        arguments: &arguments,
        output: output.as_deref(),
        era: session.server.era,
        calls: usize::MAX,
        duration: Some(duration),
        concurrency: callers_at_once,
        stop: Some(stop_seen),
    };
    let tap = Mutex::new(Vec::new());
    let started = Instant::now();
    let run = callers(std::slice::from_ref(session), &shape, started, Some(&tap));
    tokio::pin!(run);
    tokio::pin!(stop);
    let mut every = tokio::time::interval(SAMPLE_EVERY);
    every.tick().await;
    let mut last = started;
    loop {
        tokio::select! {
            done = &mut run => {
                let seconds = started.elapsed().as_secs_f64();
                let summary = Box::new(summarize(&shape, 1, done, seconds));
                return Msg::Trial(Update::Loaded { run: run_id, summary });
            }
            _ = &mut stop => {
                // The calls in flight are cancelled (the server told); the callers end.
                let _ = stopping.send(true);
                let _ = run.await;
                return Msg::Trial(Update::Ended { run: run_id, why: "stopped".into() });
            }
            _ = every.tick() => {
                let now = Instant::now();
                let calls = tap.lock().map(|mut t| std::mem::take(&mut *t)).unwrap_or_default();
                let sample = sample(&calls, now - started, now - last);
                last = now;
                let _ = to_ui.try_send(Msg::Trial(Update::Sampled { run: run_id, sample }));
            }
        }
    }
}

/// One interval's calls in numbers.
fn sample(calls: &[(Duration, Outcome)], at: Duration, interval: Duration) -> Sample {
    let ms = sorted_ms(calls);
    let failed = calls.iter().filter(|(_, o)| o.failed()).count();
    Sample {
        at: at.as_secs_f64(),
        calls_per_second: calls.len() as f64 / interval.as_secs_f64().max(1e-3),
        p50_ms: quantile(&ms, 0.5),
        p99_ms: quantile(&ms, 0.99),
        failed: failed as u64,
    }
}
