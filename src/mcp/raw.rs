//! The raw JSON of recent responses, keyed by request id, kept by the transports we own (stdio,
//! SSE) so results are shown exactly as sent rather than as rmcp re-serialises them; the ids of
//! requests awaiting an answer, so an answer to nothing is caught before rmcp sees it (during
//! the handshake rmcp would give up on the connection); and the ids of cancelled requests, so a
//! late answer to one is noticed.

use super::events::{EventSink, ServerEvent};
use super::wire::{Direction, HttpExchange, Tap};
use serde_json::Value;
use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};

/// What a message from the server is, as far as our requests go.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    /// Not a response (a request or a notification).
    NotAResponse,
    /// A response to a request awaiting it.
    Expected,
    /// A response to a request that was cancelled: its id, for the log.
    Late(String),
    /// A response to an id no request of ours is waiting on: its id.
    Unknown(String),
}

/// Responses (and cancelled ids) kept while waiting to be claimed.
const KEPT: usize = 32;

/// Requests of one method from the server that may wait for our answer at once (an
/// elicitation panel holds as many); more are refused at once (invariant 8).
pub const MAX_ASKED_IN_FLIGHT: usize = 16;
/// Refusals kept for a transport to write: a server that floods requests and never reads the
/// answers gets no more than this many waiting (the rest are only counted).
const MAX_REFUSALS_QUEUED: usize = 256;

#[derive(Clone, Default)]
pub struct RawResponses {
    kept: Arc<Mutex<VecDeque<(String, Value)>>>,
    cancelled: Arc<Mutex<VecDeque<String>>>,
    awaiting: Arc<Mutex<HashSet<String>>>,
    /// The server's requests not yet answered, and those refused.
    asked: Arc<Mutex<Asked>>,
    /// Wakes the writer of [`take_refusals`](Self::take_refusals).
    refusals_ready: Arc<tokio::sync::Notify>,
    /// Every message both ways, to the recording and the protocol pane.
    tap: Tap,
}

/// The server's requests in flight (by id, with their method) and those refused for a cap.
#[derive(Default)]
struct Asked {
    in_flight: std::collections::HashMap<String, String>,
    refused: std::collections::HashMap<String, u64>,
    /// Error answers to refused requests, for the transport to write.
    refusals: VecDeque<Vec<u8>>,
}

impl RawResponses {
    /// The same, reporting every message to `tap`.
    pub fn tapped(mut self, tap: Tap) -> RawResponses {
        self.tap = tap;
        self
    }

    /// Where messages are reported.
    pub fn tap(&self) -> &Tap {
        &self.tap
    }

    /// Notes a message the client sends: a request's id now awaits an answer.
    pub fn sent(&self, message: &Value, text: &str) {
        self.tap.note(Direction::Out, message, text);
        self.expect(message);
    }

    /// A request's id now awaits an answer (the message is tapped by the caller); an answer
    /// of ours ends a server request's time in flight.
    pub fn expect(&self, message: &Value) {
        match (message.get("id"), message.get("method")) {
            (Some(id), Some(_)) => {
                if let Ok(mut awaiting) = self.awaiting.lock() {
                    awaiting.insert(id.to_string());
                }
            }
            (Some(id), None) => {
                if let Ok(mut asked) = self.asked.lock() {
                    asked.in_flight.remove(&id.to_string());
                }
            }
            _ => {}
        }
    }

    /// Lets a server's request through while fewer than [`MAX_ASKED_IN_FLIGHT`] of its method
    /// wait for an answer; refuses it otherwise: an error answer queued for the transport (see
    /// [`take_refusals`](Self::take_refusals)), counted, told at the 1st, 10th, 100th… refusal.
    fn admit(&self, message: &Value, events: &EventSink) -> bool {
        let (Some(id), Some(method)) = (
            message.get("id"),
            message.get("method").and_then(Value::as_str),
        ) else {
            return true;
        };
        let Ok(mut asked) = self.asked.lock() else {
            return true;
        };
        let id = id.to_string();
        let waiting = asked.in_flight.values().filter(|m| *m == method).count();
        if waiting < MAX_ASKED_IN_FLIGHT && !asked.in_flight.contains_key(&id) {
            asked.in_flight.insert(id, method.to_string());
            return true;
        }
        let method = crate::untrusted::line(method, 60).into_owned();
        let refused = asked.refused.entry(method.clone()).or_default();
        *refused += 1;
        let count = *refused;
        let reason = format!(
            "{MAX_ASKED_IN_FLIGHT} {method} requests of the server's are already waiting for an answer"
        );
        if asked.refusals.len() < MAX_REFUSALS_QUEUED {
            let error = serde_json::json!({"jsonrpc": "2.0", "id": serde_json::from_str::<Value>(&id).unwrap_or(Value::Null), "error": {"code": -32000, "message": reason}});
            asked.refusals.push_back(format!("{error}\n").into_bytes());
            self.refusals_ready.notify_one();
        }
        drop(asked);
        let told_at = std::iter::successors(Some(1u64), |n| n.checked_mul(10));
        if told_at.take_while(|n| *n <= count).any(|n| n == count) {
            events.send(ServerEvent::Notice(format!(
                "{reason}: more are refused at once ({count} so far)"
            )));
        }
        false
    }

    /// The error answers to refused requests, for a transport that writes to the server.
    pub fn take_refusals(&self) -> Vec<Vec<u8>> {
        self.asked
            .lock()
            .map(|mut a| a.refusals.drain(..).collect())
            .unwrap_or_default()
    }

    /// Waits until a refusal is queued.
    pub async fn refusals_queued(&self) {
        self.refusals_ready.notified().await;
    }

    /// Sorts a message from the server, keeping it if it is an expected response.
    pub fn record(&self, message: &Value) -> Answer {
        let Some(obj) = message.as_object() else {
            return Answer::NotAResponse;
        };
        let Some(id) = obj.get("id") else {
            return Answer::NotAResponse;
        };
        if !obj.contains_key("result") && !obj.contains_key("error") {
            return Answer::NotAResponse;
        }
        let id_json = id.to_string();
        let was_awaited = self
            .awaiting
            .lock()
            .map(|mut a| a.remove(&id_json))
            .unwrap_or(true);
        if let Ok(mut cancelled) = self.cancelled.lock()
            && let Some(i) = cancelled.iter().position(|c| *c == id_json)
        {
            cancelled.remove(i);
            return Answer::Late(id_json);
        }
        if !was_awaited {
            return Answer::Unknown(id_json);
        }
        if let Ok(mut kept) = self.kept.lock() {
            if kept.len() >= KEPT {
                kept.pop_front();
            }
            kept.push_back((id_json, message.clone()));
        }
        Answer::Expected
    }

    /// Sorts a message from the server as [`record`](Self::record) does, notes a late or
    /// unknown answer in the log, and says whether the message goes on to rmcp (an answer to
    /// nothing does not: during the handshake rmcp would give up on the connection).
    pub fn screen(&self, message: &Value, text: &str, events: &EventSink) -> bool {
        self.screen_http(message, text, events, None)
    }

    /// [`screen`](Self::screen) for a message that came on an HTTP exchange.
    pub fn screen_http(
        &self,
        message: &Value,
        text: &str,
        events: &EventSink,
        http: Option<Arc<HttpExchange>>,
    ) -> bool {
        self.tap.note_http(
            Direction::In,
            message,
            text,
            std::time::Instant::now(),
            http,
        );
        match self.record(message) {
            Answer::Late(id) => events.send(ServerEvent::Notice(format!(
                "a response to cancelled request {id} arrived late: ignored"
            ))),
            Answer::Unknown(id) => {
                events.send(ServerEvent::Notice(format!(
                    "the server answered request {}, which nothing is waiting for: ignored",
                    crate::untrusted::line(&id, 80)
                )));
                return false;
            }
            Answer::Expected => {}
            Answer::NotAResponse => return self.admit(message, events),
        }
        true
    }

    /// The handshake's result as the server sent it (`initialize`, or the 2026 era's
    /// `server/discover`): the newest kept result that names `serverInfo` and `capabilities`.
    pub fn handshake_result(&self) -> Option<Value> {
        let kept = self.kept.lock().ok()?;
        kept.iter().rev().find_map(|(_, response)| {
            let result = response.get("result")?;
            (result.get("serverInfo").is_some() && result.get("capabilities").is_some())
                .then(|| result.clone())
        })
    }

    /// Takes the raw response whose id serialises as `id_json`.
    pub fn take(&self, id_json: &str) -> Option<Value> {
        let mut kept = self.kept.lock().ok()?;
        let i = kept.iter().position(|(id, _)| id == id_json)?;
        kept.remove(i).map(|(_, v)| v)
    }

    /// Notes that the request with this id (as JSON) was cancelled.
    pub fn mark_cancelled(&self, id_json: &str) {
        if let Ok(mut cancelled) = self.cancelled.lock() {
            if cancelled.len() >= KEPT {
                cancelled.pop_front();
            }
            cancelled.push_back(id_json.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_are_sorted_by_what_awaits_them() {
        let raw = RawResponses::default();
        for sent in [
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call"}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        ] {
            raw.sent(&sent, &sent.to_string());
        }
        raw.mark_cancelled("2");
        let answer = |id: Value| json!({"jsonrpc": "2.0", "id": id, "result": {}});
        assert_eq!(raw.record(&answer(json!(1))), Answer::Expected);
        assert!(raw.take("1").is_some());
        assert_eq!(
            raw.record(&answer(json!(1))),
            Answer::Unknown("1".into()),
            "answered twice"
        );
        assert_eq!(raw.record(&answer(json!(2))), Answer::Late("2".into()));
        assert_eq!(
            raw.record(&answer(json!("x"))),
            Answer::Unknown("\"x\"".into())
        );
        assert_eq!(
            raw.record(&json!({"jsonrpc": "2.0", "id": 9, "method": "ping"})),
            Answer::NotAResponse
        );
    }
}
