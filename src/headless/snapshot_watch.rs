//! `snapshot --watch PATH...`: the server started again on every change to its files, and each
//! time the judged diff of its tools against the previous start printed (the snapshot file
//! rewritten with `-o`). Runs until interrupted; a start that fails is retried on the next change.

use super::drift::{show, surface};
use super::output::Report;
use crate::cli::{ConnectionArgs, DiffFormat, Format};
use crate::file_watch::Watcher;
use crate::headless::exit;
use crate::mcp::Session;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub async fn snapshots(connection: &ConnectionArgs, out: Option<&Path>, paths: &[PathBuf]) -> i32 {
    let report = Report {
        format: Format::Text,
    };
    let mut watcher = match Watcher::start(paths) {
        Ok(w) => w,
        Err(why) => return report.error(&why, exit::ERROR),
    };
    if let Some(problem) = &watcher.problem {
        report.warn(problem);
    }
    let mut signals = super::Signals::new();
    let mut last: Option<Value> = None;
    // The previous start's server, exiting while the next change is awaited; the next start
    // waits for it (two servers never run at once).
    let mut closing: Option<tokio::task::JoinHandle<()>> = None;
    loop {
        if let Some(closed) = closing.take() {
            let _ = closed.await;
        }
        let started = start(connection, &report, &mut signals).await;
        let session = match started {
            Err(130) => return 130,
            Err(_) => {
                report.note("the server did not start: the next change retries");
                None
            }
            Ok((session, Err(why))) => {
                report.error(&why, exit::ERROR);
                Some(session)
            }
            Ok((session, Ok(doc))) => {
                // Written before it is told: whoever reads the diff finds the file written.
                if let Some(path) = out
                    && let Err(e) = write(path, &doc)
                {
                    report.warn(&format!("cannot write {}: {e}", path.display()));
                }
                match &last {
                    None => report.line(&format!("started: {}", counts(&doc))),
                    Some(previous) => {
                        show(previous, &doc, DiffFormat::Text, &report, None);
                    }
                }
                last = Some(doc);
                Some(session)
            }
        };
        // Closed once told, beside the wait for the next change.
        closing = session.map(|s| tokio::spawn(s.shutdown()));
        tokio::select! {
            changes = watcher.next() => report.line(&format!("changed: {}", changes.describe())),
            signal = signals.next() => return report.error(&format!("interrupted by {signal}"), 130),
        }
    }
}

/// One start: connected, and the surface taken.
async fn start(
    connection: &ConnectionArgs,
    report: &Report,
    signals: &mut super::Signals,
) -> Result<(Session, Result<Value, String>), i32> {
    let (events, mut receiver) = crate::mcp::EventSink::new();
    let session = super::connect(connection, report, signals, &events, &mut receiver).await?;
    let doc = surface(&session).await;
    Ok((session, doc))
}

/// `3 tools, 2 resources, 1 prompt`.
fn counts(doc: &Value) -> String {
    let count = |key: &str, what: &str| {
        let n = doc.get(key).and_then(Value::as_array).map_or(0, Vec::len);
        crate::plural::count(n, what)
    };
    let mut parts = vec![count("tools", "tool")];
    for (key, what) in [
        ("resources", "resource"),
        ("resourceTemplates", "template"),
        ("prompts", "prompt"),
    ] {
        if doc.get(key).is_some() {
            parts.push(count(key, what));
        }
    }
    parts.join(", ")
}

/// The snapshot written whole or not at all (a reader never sees half of it).
fn write(path: &Path, doc: &Value) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(doc).unwrap_or_default() + "\n";
    crate::private_files::replace(path, &text)
}
