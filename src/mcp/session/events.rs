//! What a server does on its own (progress, logs, list changes, stderr, raw traffic notes) as
//! project events in two lanes. Telemetry is bounded in count and in bytes: a flooding server
//! loses events, never memory, whether or not anyone reads them. Control (a request the user
//! answers, an authorization step, the connection's end) is never dropped for telemetry's
//! sake and is read first; it is bounded in count, and a request that finds it full is
//! answered at once by its sender.

use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use tokio::sync::mpsc;

/// Events buffered before new ones are dropped (and counted).
pub const EVENT_BUFFER: usize = 4_096;
/// Bytes of events buffered before new ones are dropped (and counted).
pub const EVENT_BUFFER_BYTES: usize = 16 * 1024 * 1024;
/// Control events waiting before the next is refused (requests the user answers are capped
/// in flight well below this: see `raw::MAX_ASKED_IN_FLIGHT`).
pub const CONTROL_BUFFER: usize = 256;
/// Largest log `data` kept in an event; a bigger one is replaced by a note of its size.
pub const MAX_LOG_DATA_BYTES: usize = 256 * 1024;

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
    /// A resource subscribed to changed (`notifications/resources/updated`): its URI.
    ResourceUpdated(String),
    /// The resource or prompt list changed (`notifications/…/list_changed`).
    LibraryChanged,
    /// A line the server wrote to stderr.
    Stderr(String),
    /// Something the connection noticed: a non-JSON line, an oversized message, a late response.
    Notice(String),
    /// A request the server sent us, and the answer given, in words.
    Request(String),
    /// A request the server sent that the user answers (the TUI's panel); the answer goes back
    /// through [`crate::mcp::session::client_side::Asking`] under `id`.
    Asked {
        id: u64,
        method: String,
        params: Value,
    },
    /// A step of an OAuth authorization (never a token).
    Authorization(AuthStep),
    /// The connection ended.
    Closed(String),
}

/// Where an OAuth authorization is, for the user.
#[derive(Debug, Clone, PartialEq)]
pub enum AuthStep {
    /// What it is doing, in words.
    Said(String),
    /// The URL the user must open to authorize (the TUI shows it to copy or open).
    Open(String),
    /// It ended with a token: what was granted.
    Authorized(String),
    /// It ended without one: why.
    Failed(String),
}

impl ServerEvent {
    /// Whether the event travels in the control lane.
    fn is_control(&self) -> bool {
        matches!(
            self,
            ServerEvent::Asked { .. } | ServerEvent::Authorization(_) | ServerEvent::Closed(_)
        )
    }

    /// Roughly the heap bytes this event holds.
    fn cost(&self) -> usize {
        64 + match self {
            ServerEvent::Progress { token, message, .. } => {
                token.len() + message.as_ref().map_or(0, String::len)
            }
            ServerEvent::Log {
                level,
                logger,
                data,
            } => level.len() + logger.as_ref().map_or(0, String::len) + json_bytes(data),
            ServerEvent::ToolsChanged | ServerEvent::LibraryChanged => 0,
            ServerEvent::Asked { method, params, .. } => method.len() + json_bytes(params),
            ServerEvent::Stderr(text)
            | ServerEvent::Notice(text)
            | ServerEvent::Request(text)
            | ServerEvent::ResourceUpdated(text)
            | ServerEvent::Authorization(
                AuthStep::Said(text)
                | AuthStep::Open(text)
                | AuthStep::Authorized(text)
                | AuthStep::Failed(text),
            )
            | ServerEvent::Closed(text) => text.len(),
        }
    }
}

/// The size of a value written as JSON (an upper bound on what it costs to keep as text).
pub fn json_bytes(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// The sending side, cloned into every task that produces events.
#[derive(Clone, Debug)]
pub struct EventSink {
    /// When each call in flight last reported progress (see `call_clock`).
    pub clocks: Arc<crate::mcp::session::call_clock::CallClocks>,
    tx: mpsc::Sender<ServerEvent>,
    control: mpsc::Sender<ServerEvent>,
    dropped: Arc<AtomicU64>,
    /// Bytes sent and not yet received.
    queued: Arc<AtomicUsize>,
}

/// The receiving side: gives back each event's bytes to the budget as it is taken.
#[derive(Debug)]
pub struct EventReceiver {
    rx: mpsc::Receiver<ServerEvent>,
    control: mpsc::Receiver<ServerEvent>,
    queued: Arc<AtomicUsize>,
}

impl EventReceiver {
    /// The next event, a control one first.
    pub async fn recv(&mut self) -> Option<ServerEvent> {
        tokio::select! {
            biased;
            Some(event) = self.control.recv() => Some(event),
            event = self.rx.recv() => {
                let event = event?;
                self.queued.fetch_sub(event.cost(), Ordering::Relaxed);
                Some(event)
            }
        }
    }

    /// The next event if one is waiting, a control one first.
    pub fn try_recv(&mut self) -> Option<ServerEvent> {
        if let Ok(event) = self.control.try_recv() {
            return Some(event);
        }
        let event = self.rx.try_recv().ok()?;
        self.queued.fetch_sub(event.cost(), Ordering::Relaxed);
        Some(event)
    }
}

impl EventSink {
    pub fn new() -> (EventSink, EventReceiver) {
        let (tx, rx) = mpsc::channel(EVENT_BUFFER);
        let (control_tx, control) = mpsc::channel(CONTROL_BUFFER);
        let queued = Arc::new(AtomicUsize::new(0));
        (
            EventSink {
                clocks: Arc::default(),
                tx,
                control: control_tx,
                dropped: Arc::new(AtomicU64::new(0)),
                queued: queued.clone(),
            },
            EventReceiver {
                rx,
                control,
                queued,
            },
        )
    }

    /// Sends a control event without waiting; false when [`CONTROL_BUFFER`] wait already
    /// (the sender answers for it: a request is refused at once).
    pub fn send_control(&self, event: ServerEvent) -> bool {
        let sent = self.control.try_send(event).is_ok();
        if !sent {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
        sent
    }

    /// Sends without waiting, a control event in its own lane (see [`Self::send_control`]).
    /// A full telemetry buffer (in count or bytes) drops the event and counts it. A log whose
    /// data is over [`MAX_LOG_DATA_BYTES`] is kept as a note of its size.
    pub fn send(&self, mut event: ServerEvent) {
        if let ServerEvent::Progress { token, .. } = &event {
            self.clocks.touch(token);
        }
        if event.is_control() {
            self.send_control(event);
            return;
        }
        if let ServerEvent::Log { data, .. } = &mut event {
            let size = json_bytes(data);
            if size > MAX_LOG_DATA_BYTES {
                *data = Value::String(format!(
                    "[a {size}-byte log message, over the {} KiB kept: not shown]",
                    MAX_LOG_DATA_BYTES >> 10
                ));
            }
        }
        let cost = event.cost();
        let before = self.queued.fetch_add(cost, Ordering::Relaxed);
        if before + cost > EVENT_BUFFER_BYTES || self.tx.try_send(event).is_err() {
            self.queued.fetch_sub(cost, Ordering::Relaxed);
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Events dropped so far because the receiver fell behind.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_queue_is_bounded_in_bytes_and_gives_them_back_when_read() {
        let (sink, mut rx) = EventSink::new();
        let big = "x".repeat(1024 * 1024);
        for _ in 0..40 {
            sink.send(ServerEvent::Stderr(big.clone()));
        }
        // 16 MiB of room: 15 one-MiB events fit (each costs a little more than a MiB).
        assert_eq!(sink.dropped(), 25);
        for _ in 0..15 {
            assert!(rx.recv().await.is_some());
        }
        sink.send(ServerEvent::Stderr(big));
        assert_eq!(sink.dropped(), 25, "read events give their bytes back");
    }

    #[tokio::test]
    async fn a_huge_log_is_kept_as_a_note_of_its_size() {
        let (sink, mut rx) = EventSink::new();
        sink.send(ServerEvent::Log {
            level: "info".into(),
            logger: None,
            data: Value::String("y".repeat(1 << 20)),
        });
        let Some(ServerEvent::Log { data, .. }) = rx.recv().await else {
            panic!("a log event");
        };
        assert!(
            data.as_str()
                .is_some_and(|t| t.contains("1048578-byte log message"))
        );
    }

    #[tokio::test]
    async fn a_log_flood_never_delays_or_drops_what_the_user_must_answer() {
        let (sink, mut rx) = EventSink::new();
        let log = |i: usize| ServerEvent::Log {
            level: "info".into(),
            logger: None,
            data: Value::from(i),
        };
        for i in 0..EVENT_BUFFER * 3 {
            sink.send(log(i));
        }
        assert!(sink.dropped() > 0, "the telemetry lane is full");
        let asked = ServerEvent::Asked {
            id: 1,
            method: "elicitation/create".into(),
            params: Value::Null,
        };
        assert!(sink.send_control(asked.clone()));
        assert_eq!(rx.recv().await, Some(asked), "read before the queued logs");
        assert_eq!(rx.recv().await, Some(log(0)));
        for id in 0..CONTROL_BUFFER as u64 {
            let closed = ServerEvent::Closed(format!("{id}"));
            assert!(sink.send_control(closed));
        }
        let refused = ServerEvent::Asked {
            id: 2,
            method: "sampling/createMessage".into(),
            params: Value::Null,
        };
        assert!(
            !sink.send_control(refused),
            "full: its sender answers for it"
        );
    }
}
