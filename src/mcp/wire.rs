//! Every JSON-RPC message of a session as it passes the transport, for the protocol pane and
//! `--record`: a [`Tap`] the transports call for each message both ways. Over stdio and SSE it
//! sees the messages as sent, over every transport.

pub use super::record::Direction;
use super::record::Recorder;
use serde_json::Value;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Messages waiting for the UI to take them; more are dropped (and counted) until it does.
pub const PENDING: usize = 100_000;
/// A message larger than this is kept as its size and kind only.
pub const KEPT_BYTES: usize = 1 << 20;
/// Bytes of messages waiting for the UI; beyond, messages wait as their size and kind only.
pub const PENDING_BYTES: usize = 64 << 20;

/// One message as the protocol pane lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct WireMessage {
    pub at: Instant,
    pub direction: Direction,
    /// `method` of a request or notification.
    pub method: Option<String>,
    /// The JSON-RPC id, as JSON text.
    pub id: Option<String>,
    /// `result` or `error` for an answer.
    pub answer: Option<&'static str>,
    /// Size of the message as JSON, in bytes.
    pub bytes: usize,
    /// The message's text as it passed, unless it was larger than [`KEPT_BYTES`].
    pub message: Option<Arc<str>>,
}

impl WireMessage {
    /// `message` parsed, and its `text` as it passed (kept rather than the parsed value: a
    /// copy of bytes is far cheaper than of a JSON tree, and it is what was sent).
    pub fn new(direction: Direction, message: &Value, text: &str, at: Instant) -> WireMessage {
        let bytes = text.len();
        let answer = if message.get("result").is_some() {
            Some("result")
        } else if message.get("error").is_some() {
            Some("error")
        } else {
            None
        };
        WireMessage {
            at,
            direction,
            method: message
                .get("method")
                .and_then(Value::as_str)
                .map(str::to_string),
            id: message.get("id").map(Value::to_string),
            answer,
            bytes,
            message: (bytes <= KEPT_BYTES).then(|| Arc::from(text)),
        }
    }
}

/// Messages taken from the transports, waiting for the UI.
#[derive(Clone, Default)]
pub struct WireLog {
    pending: Arc<Mutex<Pending>>,
}

#[derive(Default)]
struct Pending {
    messages: VecDeque<WireMessage>,
    dropped: u64,
    /// Bytes of the messages kept whole.
    bytes: usize,
}

impl std::fmt::Debug for WireLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WireLog")
    }
}

impl WireLog {
    fn push(&self, mut message: WireMessage) {
        let Ok(mut pending) = self.pending.lock() else {
            return;
        };
        if pending.messages.len() >= PENDING
            && let Some(old) = pending.messages.pop_front()
        {
            pending.dropped += 1;
            if old.message.is_some() {
                pending.bytes -= old.bytes;
            }
        }
        if message.message.is_some() {
            if pending.bytes + message.bytes > PENDING_BYTES {
                message.message = None;
            } else {
                pending.bytes += message.bytes;
            }
        }
        pending.messages.push_back(message);
    }

    /// Everything waiting, oldest first, and how many were dropped since the last take.
    pub fn take(&self) -> (Vec<WireMessage>, u64) {
        match self.pending.lock() {
            Ok(mut pending) => {
                let taken = std::mem::take(&mut *pending);
                (taken.messages.into(), taken.dropped)
            }
            Err(_) => (Vec::new(), 0),
        }
    }
}

/// Where the transports report each message: the recording and the protocol pane's log.
#[derive(Clone, Default)]
pub struct Tap {
    pub recorder: Option<Arc<Recorder>>,
    pub log: Option<WireLog>,
}

impl Tap {
    pub fn note(&self, direction: Direction, message: &Value, text: &str) {
        if let Some(recorder) = &self.recorder {
            recorder.note(direction, message);
        }
        if let Some(log) = &self.log {
            log.push(WireMessage::new(direction, message, text, Instant::now()));
        }
    }

    pub fn is_on(&self) -> bool {
        self.recorder.is_some() || self.log.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_waiting_past_the_byte_budget_wait_as_their_line_only() {
        let log = WireLog::default();
        let count = (PENDING_BYTES >> 20) + 3;
        for _ in 0..count {
            let message = json!({"method": "x"});
            let mut m = WireMessage::new(Direction::In, &message, "{}", Instant::now());
            m.bytes = 1 << 20;
            log.push(m);
        }
        let (taken, dropped) = log.take();
        assert_eq!((taken.len(), dropped), (count, 0));
        let whole = taken.iter().filter(|m| m.message.is_some()).count();
        assert_eq!(whole, PENDING_BYTES >> 20);
        assert_eq!(log.take().0.len(), 0, "taken once");
    }
}
