//! Every JSON-RPC message of a session as it passes the transport, for the protocol pane and
//! `--record`: a [`Tap`] the transports call for each message both ways. Over stdio and SSE it
//! sees the messages as sent, over every transport.

pub use crate::mcp::transport::record::Direction;
use crate::mcp::transport::record::Recorder;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Messages waiting for the UI to take them; more are dropped (and counted) until it does.
pub const PENDING: usize = 100_000;
/// A message larger than this is kept as its size and kind only.
pub const KEPT_BYTES: usize = 1 << 20;
/// Bytes of messages waiting for the UI; beyond, messages wait as their size and kind only.
pub const PENDING_BYTES: usize = 64 << 20;
/// Room the next batch starts with, at most: messages, and bytes of their texts.
const ROOM_MESSAGES: usize = 4_096;
const ROOM_BYTES: usize = 1 << 20;

/// One message as the protocol pane lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct WireMessage {
    pub at: Instant,
    pub direction: Direction,
    /// `method` of a request or notification.
    pub method: Option<Cow<'static, str>>,
    /// The JSON-RPC id, as JSON text.
    pub id: Option<String>,
    /// `result` or `error` for an answer.
    pub answer: Option<&'static str>,
    /// Size of the message as JSON, in bytes.
    pub bytes: usize,
    /// The message's text as it passed, unless it was larger than [`KEPT_BYTES`].
    pub message: Option<Text>,
    /// Over Streamable HTTP: the exchange that carried it (a POST on the message it sent, the
    /// GET stream on each message that came on it).
    pub http: Option<Arc<HttpExchange>>,
}

/// One HTTP request and what came back, as the protocol pane shows it. Header values are
/// redacted of the user's secrets, and `authorization` is never shown.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HttpExchange {
    pub method: &'static str,
    /// `None` when no response came (`error` says why).
    pub status: Option<u16>,
    pub error: Option<String>,
    pub sent: Vec<(String, String)>,
    pub received: Vec<(String, String)>,
    /// The start of an error response's body, when it held no JSON-RPC message.
    pub body: Option<String>,
}

/// Header names whose values are never shown.
const HIDDEN: &[&str] = &[
    "authorization",
    "proxy-authorization",
    "cookie",
    "set-cookie",
];

impl HttpExchange {
    /// Headers as the pane shows them: escaped, bounded, secrets redacted.
    pub fn headers(headers: &reqwest::header::HeaderMap) -> Vec<(String, String)> {
        headers
            .iter()
            .take(64)
            .map(|(name, value)| {
                let shown = if HIDDEN.contains(&name.as_str()) {
                    crate::secrets::REDACTED.to_string()
                } else {
                    let text = String::from_utf8_lossy(value.as_bytes());
                    crate::untrusted::line(&crate::secrets::redact(&text), 300).into_owned()
                };
                (name.as_str().to_string(), shown)
            })
            .collect()
    }

    /// Whether the status is not a success (or no response came).
    pub fn failed(&self) -> bool {
        self.status.is_none_or(|s| !(200..300).contains(&s))
    }
}

/// A message's text as it passed. The texts the UI takes at once share one block: a flood
/// costs a copy into the block per message, not an allocation each.
#[derive(Clone, PartialEq)]
pub struct Text {
    block: Arc<String>,
    start: u32,
    end: u32,
}

impl Text {
    /// A text in a block of its own.
    pub fn new(text: &str) -> Text {
        let end = u32::try_from(text.len()).unwrap_or(u32::MAX);
        Text {
            block: Arc::new(text.to_string()),
            start: 0,
            end,
        }
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.block[self.start as usize..self.end as usize]
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

impl WireMessage {
    /// `message` parsed, and its `text` as it passed (kept rather than the parsed value: a
    /// copy of bytes is far cheaper than of a JSON tree, and it is what was sent).
    pub fn new(direction: Direction, message: &Value, text: &str, at: Instant) -> WireMessage {
        let mut wire = WireMessage::line(direction, message, text.len(), at);
        wire.message = (text.len() <= KEPT_BYTES).then(|| Text::new(text));
        wire
    }

    /// The message's line in the list (kind, method, id, size), without its text.
    fn line(direction: Direction, message: &Value, bytes: usize, at: Instant) -> WireMessage {
        let mut wire = WireMessage {
            at,
            direction,
            method: None,
            id: None,
            answer: None,
            bytes,
            message: None,
            http: None,
        };
        // One pass over the message's few top-level keys (a flood pays this per message).
        for (key, value) in message.as_object().into_iter().flatten() {
            match key.as_str() {
                "method" => wire.method = value.as_str().map(method_name),
                "id" => wire.id = Some(value.to_string()),
                "result" => wire.answer = Some("result"),
                "error" => wire.answer = Some("error"),
                _ => {}
            }
        }
        wire
    }
}

/// The methods a session sends most, kept without an allocation each.
const KNOWN_METHODS: &[&str] = &[
    "notifications/message",
    "notifications/progress",
    "notifications/cancelled",
    "notifications/initialized",
    "notifications/tools/list_changed",
    "notifications/resources/updated",
    "tools/call",
    "tools/list",
    "ping",
];

fn method_name(method: &str) -> Cow<'static, str> {
    match KNOWN_METHODS.iter().find(|known| **known == method) {
        Some(known) => Cow::Borrowed(known),
        None => Cow::Owned(method.to_string()),
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
    /// Where each message's text is in `texts` (when kept), in the same order.
    ranges: VecDeque<Option<(u32, u32)>>,
    /// The waiting messages' texts, one after another (a dropped message's stays: the bound
    /// is on this block's size).
    texts: String,
    dropped: u64,
}

impl std::fmt::Debug for WireLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WireLog")
    }
}

impl WireLog {
    /// Keeps `message` (its line) and its `text`, unless the waiting texts already fill
    /// [`PENDING_BYTES`].
    fn push(&self, message: WireMessage, text: &str) {
        let Ok(mut pending) = self.pending.lock() else {
            return;
        };
        if pending.messages.len() >= PENDING && pending.messages.pop_front().is_some() {
            pending.ranges.pop_front();
            pending.dropped += 1;
        }
        let start = pending.texts.len();
        let kept = text.len() <= KEPT_BYTES && start + text.len() <= PENDING_BYTES;
        let range = kept.then(|| {
            pending.texts.push_str(text);
            (start as u32, pending.texts.len() as u32)
        });
        pending.messages.push_back(message);
        pending.ranges.push_back(range);
    }

    /// Everything waiting, oldest first, and how many were dropped since the last take.
    pub fn take(&self) -> (Vec<WireMessage>, u64) {
        let Ok(mut pending) = self.pending.lock() else {
            return (Vec::new(), 0);
        };
        // The next batch starts with room for one like this (bounded): under a flood the
        // queues and the text block do not grow again from nothing, copy by copy.
        let (count, bytes) = (
            pending.messages.len().min(ROOM_MESSAGES),
            pending.texts.len().min(ROOM_BYTES),
        );
        let taken = std::mem::replace(
            &mut *pending,
            Pending {
                messages: VecDeque::with_capacity(count),
                ranges: VecDeque::with_capacity(count),
                texts: String::with_capacity(bytes),
                dropped: 0,
            },
        );
        drop(pending);
        let mut texts = taken.texts;
        if texts.capacity() > 2 * texts.len() + ROOM_BYTES {
            texts.shrink_to_fit();
        }
        let block = Arc::new(texts);
        // The queue's buffer becomes the batch as it is (no copy unless it wrapped around).
        let mut messages = Vec::from(taken.messages);
        for (message, range) in messages.iter_mut().zip(taken.ranges) {
            message.message = range.map(|(start, end)| Text {
                block: block.clone(),
                start,
                end,
            });
        }
        (messages, taken.dropped)
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
        self.note_http(direction, message, text, Instant::now(), None);
    }

    /// Notes a message that went or came over HTTP, `at` the time it went.
    pub fn note_http(
        &self,
        direction: Direction,
        message: &Value,
        text: &str,
        at: Instant,
        http: Option<Arc<HttpExchange>>,
    ) {
        if let Some(recorder) = &self.recorder {
            recorder.note(direction, message, text);
        }
        if let Some(log) = &self.log {
            let mut wire = WireMessage::line(direction, message, text.len(), at);
            wire.http = http;
            log.push(wire, text);
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

    /// A tap that feeds only the protocol pane's log.
    fn tapped() -> (WireLog, Tap) {
        let log = WireLog::default();
        let tap = Tap {
            recorder: None,
            log: Some(log.clone()),
        };
        (log, tap)
    }

    #[test]
    fn messages_waiting_past_the_byte_budget_wait_as_their_line_only() {
        let (log, tap) = tapped();
        let count = (PENDING_BYTES >> 20) + 3;
        let message = json!({"method": "x"});
        let mut text = r#"{"method":"x"}"#.to_string();
        text.push_str(&" ".repeat((1 << 20) - text.len()));
        for _ in 0..count {
            tap.note(Direction::In, &message, &text);
        }
        let (taken, dropped) = log.take();
        assert_eq!((taken.len(), dropped), (count, 0));
        let whole = taken.iter().filter(|m| m.message.is_some()).count();
        assert_eq!(whole, PENDING_BYTES >> 20);
        assert!(taken.iter().all(|m| m.method.as_deref() == Some("x")));
        assert_eq!(taken[0].message.as_deref(), Some(text.as_str()));
        assert_eq!(log.take().0.len(), 0, "taken once");
    }

    #[test]
    fn a_stalled_ui_bounds_the_waiting_texts_not_only_the_count() {
        let (log, tap) = tapped();
        let message = json!({"method": "notifications/message"});
        let text = "x".repeat(1000);
        for _ in 0..PENDING + (PENDING_BYTES / 1000) {
            tap.note(Direction::In, &message, &text);
        }
        let (taken, dropped) = log.take();
        assert_eq!(taken.len(), PENDING);
        assert_eq!(dropped as usize, PENDING_BYTES / 1000);
        // The texts kept went with the oldest lines; the block they filled still bounds the
        // rest, which wait as lines only.
        assert!(taken.iter().all(|m| m.message.is_none()));
    }
}
