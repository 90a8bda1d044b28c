//! Every JSON-RPC message of a session as it passes the transport, for the protocol pane and
//! `--record`: a [`Tap`] the transports call for each message both ways. Over stdio and SSE it
//! sees the messages as sent; over Streamable HTTP as rmcp parsed them.

pub use super::record::Direction;
use super::record::Recorder;
use rmcp::RoleClient;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Messages waiting for the UI to take them; more are dropped (and counted) until it does.
pub const PENDING: usize = 100_000;
/// A message larger than this is kept as its size and kind only.
pub const KEPT_BYTES: usize = 1 << 20;

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
    /// The message itself, unless it was larger than [`KEPT_BYTES`].
    pub message: Option<Arc<Value>>,
}

impl WireMessage {
    pub fn new(direction: Direction, message: &Value, at: Instant) -> WireMessage {
        let bytes = super::events::json_bytes(message);
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
            message: (bytes <= KEPT_BYTES).then(|| Arc::new(message.clone())),
        }
    }
}

/// Messages taken from the transports, waiting for the UI.
#[derive(Clone, Default)]
pub struct WireLog {
    pending: Arc<Mutex<(VecDeque<WireMessage>, u64)>>,
}

impl std::fmt::Debug for WireLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WireLog")
    }
}

impl WireLog {
    fn push(&self, message: WireMessage) {
        if let Ok(mut pending) = self.pending.lock() {
            if pending.0.len() >= PENDING {
                pending.0.pop_front();
                pending.1 += 1;
            }
            pending.0.push_back(message);
        }
    }

    /// Everything waiting, oldest first, and how many were dropped since the last take.
    pub fn take(&self) -> (Vec<WireMessage>, u64) {
        match self.pending.lock() {
            Ok(mut pending) => {
                let dropped = std::mem::take(&mut pending.1);
                (pending.0.drain(..).collect(), dropped)
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
    pub fn note(&self, direction: Direction, message: &Value) {
        if let Some(recorder) = &self.recorder {
            recorder.note(direction, message);
        }
        if let Some(log) = &self.log {
            log.push(WireMessage::new(direction, message, Instant::now()));
        }
    }

    pub fn is_on(&self) -> bool {
        self.recorder.is_some() || self.log.is_some()
    }
}

/// A transport whose messages are tapped as rmcp parsed them (Streamable HTTP, where the
/// bytes stay inside rmcp's HTTP client).
pub struct Tapped<T> {
    pub inner: T,
    pub tap: Tap,
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Tapped<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), T::Error>> + Send + 'static {
        if self.tap.is_on()
            && let Ok(message) = serde_json::to_value(&item)
        {
            self.tap.note(Direction::Out, &message);
        }
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<ServerJsonRpcMessage> {
        let item = self.inner.receive().await?;
        if self.tap.is_on()
            && let Ok(message) = serde_json::to_value(&item)
        {
            self.tap.note(Direction::In, &message);
        }
        Some(item)
    }

    async fn close(&mut self) -> Result<(), T::Error> {
        self.inner.close().await
    }
}
