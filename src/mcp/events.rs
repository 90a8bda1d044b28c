//! What a server does on its own (progress, logs, list changes, stderr, raw traffic notes) as
//! project events on a bounded channel: a flooding server loses events, never memory.

use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::mpsc;

/// Events buffered before new ones are dropped (and counted).
pub const EVENT_BUFFER: usize = 4_096;

#[derive(Debug, Clone, PartialEq)]
pub enum ServerEvent {
    /// `notifications/progress` for a request's progress token.
    Progress {
        token: String,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    },
    /// `notifications/message`.
    Log {
        level: String,
        logger: Option<String>,
        data: Value,
    },
    /// The tool list changed (legacy notification or modern subscription).
    ToolsChanged,
    /// A line the server wrote to stderr.
    Stderr(String),
    /// Something the connection noticed: a non-JSON line, an oversized message, a late response.
    Notice(String),
    /// The connection ended.
    Closed(String),
}

/// The sending side, cloned into every task that produces events.
#[derive(Clone, Debug)]
pub struct EventSink {
    tx: mpsc::Sender<ServerEvent>,
    dropped: Arc<AtomicU64>,
}

impl EventSink {
    pub fn new() -> (EventSink, mpsc::Receiver<ServerEvent>) {
        let (tx, rx) = mpsc::channel(EVENT_BUFFER);
        (
            EventSink {
                tx,
                dropped: Arc::new(AtomicU64::new(0)),
            },
            rx,
        )
    }

    /// Sends without waiting; a full buffer drops the event and counts it.
    pub fn send(&self, event: ServerEvent) {
        if self.tx.try_send(event).is_err() {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Events dropped so far because the receiver fell behind.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}
