//! The raw JSON of recent responses, keyed by request id, kept by the transports we own (stdio,
//! SSE, Streamable HTTP) so results are shown exactly as sent rather than as rmcp re-serialises
//! them, and parsed once: rmcp is handed a stub of an answer we read ourselves; the ids of
//! requests awaiting an answer, so an answer to nothing is caught before rmcp sees it (during
//! the handshake rmcp would give up on the connection); and the ids of cancelled requests, so a
//! late answer to one is noticed.

use crate::mcp::session::events::{EventSink, ServerEvent};
use crate::mcp::transport::wire::{Direction, HttpExchange, Tap};
pub use crate::schema::verdict::UNPARSED;
use rmcp::model::{ClientJsonRpcMessage, JsonRpcMessage};
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// What a message from the server is, as far as our requests go.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    /// Not a response (a request or a notification).
    NotAResponse,
    /// A response to a request awaiting it, kept for rmcp's typed reading too.
    Expected,
    /// A response to a request whose result we read only as sent: kept here whole, and rmcp
    /// (which would parse it again, twice: buffered, then typed) is handed this stub instead.
    Held(String),
    /// A response to a request that was cancelled: its id, for the log.
    Late(String),
    /// A response to an id no request of ours is waiting on: its id.
    Unknown(String),
}

/// Responses (and cancelled ids) kept while waiting to be claimed.
const KEPT: usize = 32;
/// Answers held whole for their request while it waits (see [`Answer::Held`]); past this many
/// unclaimed (requests given up on and answered later), the oldest is let go, and its request,
/// if it ever asks, hears that its answer was not kept.
const HELD: usize = 64;
/// The bytes (as sent) of the answers held unclaimed: past this, the oldest is let go too,
/// so requests given up on cannot hold 64 messages of 16 MiB (the one just held is kept).
const HELD_BYTES: usize = 64 << 20;

/// Requests whose results rmcp reads typed (the handshake, a modern subscription's
/// acknowledgement): their answers reach rmcp whole. Every other request is ours, read as sent.
const READ_TYPED: [&str; 3] = ["initialize", "server/discover", "subscriptions/listen"];

/// Requests of one method from the server that may wait for our answer at once (an
/// elicitation panel holds as many); more are refused at once (invariant 8).
pub const MAX_ASKED_IN_FLIGHT: usize = 16;
/// Refusals kept for a transport to write: a server that floods requests and never reads the
/// answers gets no more than this many waiting (the rest are only counted).
const MAX_REFUSALS_QUEUED: usize = 256;

/// How the stub of an answer held here begins and ends; its id (as JSON) goes between.
const STUB_HEAD: &str = r#"{"jsonrpc":"2.0","id":"#;
const STUB_TAIL: &str = r#","result":{}}"#;

/// The stub rmcp is handed for an answer held here (see [`Answer::Held`]).
pub fn held_stub(id_json: &str) -> String {
    format!("{STUB_HEAD}{id_json}{STUB_TAIL}")
}

/// The id (as JSON) of a line shaped as a held answer's stub, read off without parsing it.
pub fn held_stub_id(line: &[u8]) -> Option<&[u8]> {
    line.strip_prefix(STUB_HEAD.as_bytes())?
        .strip_suffix(STUB_TAIL.as_bytes())
}

/// What goes on to rmcp of a message from the server.
#[derive(Debug, PartialEq, Eq)]
pub enum Pass {
    /// Nothing.
    Drop,
    /// The message as sent.
    AsSent,
    /// This text instead (a stub of an answer held here).
    Instead(String),
}

/// An answer held for its request was let go before the request claimed it.
#[derive(Debug, PartialEq, Eq)]
pub struct NotKept;

#[derive(Clone, Default)]
pub struct RawResponses {
    kept: Arc<Mutex<VecDeque<(String, Value)>>>,
    held: Arc<Mutex<Held>>,
    cancelled: Arc<Mutex<VecDeque<String>>>,
    /// The ids of our requests awaiting an answer, and what awaits each.
    awaiting: Arc<Mutex<HashMap<String, Awaited>>>,
    /// The server's requests not yet answered, and those refused.
    asked: Arc<Mutex<Asked>>,
    /// Wakes the writer of [`take_refusals`](Self::take_refusals).
    refusals_ready: Arc<tokio::sync::Notify>,
    /// Every message both ways, to the recording and the protocol pane.
    tap: Tap,
    /// Whether rmcp reads `tools/list` answers too (see [`Self::tool_lists_read_typed`]).
    tool_lists_typed: bool,
    /// Answers nothing claimed, counted for `load`'s report.
    unclaimed: Arc<UnclaimedCounts>,
}

#[derive(Default)]
struct UnclaimedCounts {
    stray: std::sync::atomic::AtomicU64,
    late: std::sync::atomic::AtomicU64,
}

/// Answers nothing claimed so far: `stray` ones to an id nothing awaits (a second answer to
/// one request, or an id never sent), `late` ones to a request cancelled before.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Unclaimed {
    pub stray: u64,
    pub late: u64,
}

/// A request of ours awaiting its answer.
#[derive(Default)]
struct Awaited {
    method: String,
    /// Whether rmcp reads the answer typed (see [`READ_TYPED`]).
    typed: bool,
}

/// Answers held whole for their requests, oldest first, and the ids of those let go unclaimed.
#[derive(Default)]
struct Held {
    /// Each answer's id, message and size as sent.
    answers: VecDeque<(String, Value, usize)>,
    bytes: usize,
    let_go: VecDeque<String>,
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

    /// The same, handing `tools/list` answers to rmcp whole: over Streamable HTTP its worker
    /// learns each tool's `x-mcp-header` parameters from them (2026-07-28 era).
    pub fn tool_lists_read_typed(mut self) -> RawResponses {
        self.tool_lists_typed = true;
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

    /// Notes a line the client writes, as [`sent`](Self::sent) does (rmcp's messages are
    /// noted from their type instead: see [`sending`](Self::sending)).
    pub fn sent_line(&self, line: &[u8]) {
        if let Ok(message) = serde_json::from_slice::<Value>(line) {
            self.sent(&message, String::from_utf8_lossy(line).trim_end());
        }
    }

    /// A request's id now awaits an answer (the message is tapped by the caller); an answer
    /// of ours ends a server request's time in flight.
    pub fn expect(&self, message: &Value) {
        if let Some(id) = message.get("id") {
            let method = message
                .get("method")
                .map(|m| m.as_str().unwrap_or_default());
            self.awaits_id(id.to_string(), method);
        }
    }

    /// Notes a message rmcp is about to write, read off its type: nothing to parse.
    pub fn sending(&self, message: &ClientJsonRpcMessage) {
        let (id, method) = match message {
            JsonRpcMessage::Request(r) => (Some(&r.id), Some(r.request.method())),
            JsonRpcMessage::Response(r) => (Some(&r.id), None),
            JsonRpcMessage::Error(e) => (e.id.as_ref(), None),
            JsonRpcMessage::Notification(_) => (None, None),
        };
        // An id as JSON, as `Value::to_string` writes it: the key answers are found by.
        if let Some(id) = id.and_then(|id| serde_json::to_string(id).ok()) {
            self.awaits_id(id, method);
        }
    }

    /// The message noted by [`sending`](Self::sending), as written, to the tap if it is on.
    pub fn tap_sent(&self, line: &[u8]) {
        if self.tap.is_on()
            && let Ok(message) = serde_json::from_slice::<Value>(line)
        {
            let text = String::from_utf8_lossy(line);
            self.tap.note(Direction::Out, &message, text.trim_end());
        }
    }

    /// A request of ours (`id`, as JSON) awaits an answer; without a method, the message is
    /// our answer, which ends the server's request's time in flight.
    fn awaits_id(&self, id: String, method: Option<&str>) {
        match method {
            Some(method) => {
                let typed = READ_TYPED.contains(&method)
                    || (self.tool_lists_typed && method == "tools/list");
                let method = method.to_string();
                if let Ok(mut awaiting) = self.awaiting.lock() {
                    awaiting.insert(id, Awaited { method, typed });
                }
            }
            None => {
                if let Ok(mut asked) = self.asked.lock() {
                    asked.in_flight.remove(&id);
                }
            }
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

    /// Queues an answer of ours to something the server sent, for the transport to write
    /// with the refusals (at most as many wait).
    pub fn answer_server(&self, line: Vec<u8>) {
        if let Ok(mut asked) = self.asked.lock()
            && asked.refusals.len() < MAX_REFUSALS_QUEUED
        {
            asked.refusals.push_back(line);
            self.refusals_ready.notify_one();
        }
    }

    /// Waits until a refusal is queued.
    pub async fn refusals_queued(&self) {
        self.refusals_ready.notified().await;
    }

    /// Sorts a message from the server (`bytes` long as sent), keeping it if it is an
    /// expected response.
    pub fn record(&self, message: Value, bytes: usize) -> Answer {
        let id_json = match message.as_object() {
            Some(obj) if obj.contains_key("result") || obj.contains_key("error") => {
                match obj.get("id") {
                    Some(id) => id.to_string(),
                    None => return Answer::NotAResponse,
                }
            }
            _ => return Answer::NotAResponse,
        };
        let awaited = match self.claim(&id_json) {
            Ok(awaited) => awaited,
            Err(answer) => return answer,
        };
        // An error is small and rmcp must see its code: it goes whole.
        if !awaited.typed && message.get("result").is_some() {
            return self.hold(id_json, message, bytes);
        }
        self.keep(id_json, message);
        Answer::Expected
    }

    /// The answer to our request `id_json` is here: what awaited it, or why nothing does.
    fn claim(&self, id_json: &str) -> Result<Awaited, Answer> {
        let awaited = self.awaiting.lock().map(|mut a| a.remove(id_json));
        if let Ok(mut cancelled) = self.cancelled.lock()
            && let Some(i) = cancelled.iter().position(|c| c == id_json)
        {
            cancelled.remove(i);
            return Err(Answer::Late(id_json.to_string()));
        }
        match awaited {
            Ok(Some(awaited)) => Ok(awaited),
            Ok(None) => Err(Answer::Unknown(id_json.to_string())),
            Err(_) => Ok(Awaited::default()),
        }
    }

    /// Keeps an answer rmcp reads too.
    fn keep(&self, id_json: String, message: Value) {
        if let Ok(mut kept) = self.kept.lock() {
            if kept.len() >= KEPT {
                kept.pop_front();
            }
            kept.push_back((id_json, message));
        }
    }

    /// Holds an answer read only as sent; rmcp gets the stub returned.
    fn hold(&self, id_json: String, message: Value, bytes: usize) -> Answer {
        let stub = held_stub(&id_json);
        if let Ok(mut held) = self.held.lock() {
            while !held.answers.is_empty()
                && (held.answers.len() >= HELD || held.bytes + bytes > HELD_BYTES)
                && let Some((id, _, size)) = held.answers.pop_front()
            {
                held.bytes -= size;
                if held.let_go.len() >= HELD {
                    held.let_go.pop_front();
                }
                held.let_go.push_back(id);
            }
            held.bytes += bytes;
            held.answers.push_back((id_json, message, bytes));
        }
        Answer::Held(stub)
    }

    /// A message too costly to parse (`why`, see [`crate::mcp::transport::lines::too_costly`]), `text` as
    /// sent, said in the log: when it answers a request of ours, what rmcp gets instead. A tool
    /// call's answer becomes a result holding the message as text, marked [`UNPARSED`] (so it
    /// is shown, and said not checked); any other request is answered with an error saying
    /// why. `None` for anything else, which is dropped.
    pub fn unparsed(
        &self,
        (head, tail): (&[u8], &[u8]),
        text: &str,
        why: &str,
        events: &EventSink,
    ) -> Option<String> {
        let why = format!("the server sent a message of {why}");
        let claimed = crate::mcp::transport::salvage::response_id(head, tail)
            .map(|id| (self.claim(&id.to_string()), id));
        let (awaited, id) = match claimed {
            Some((Ok(awaited), id)) => (awaited, id),
            _ => {
                events.send(ServerEvent::Notice(format!("{why}: dropped")));
                return None;
            }
        };
        if awaited.method == "tools/call" && !awaited.typed {
            events.send(ServerEvent::Notice(format!(
                "{why}: not parsed, the call's result is shown as the text it was sent as"
            )));
            let message = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {
                "content": [{"type": "text", "text": text}],
                "_meta": {UNPARSED: why},
            }});
            return match self.hold(id.to_string(), message, text.len()) {
                Answer::Held(stub) => Some(stub),
                _ => None,
            };
        }
        events.send(ServerEvent::Notice(format!("{why}: its request fails")));
        let error = crate::mcp::transport::salvage::error_line(&id, &why);
        if let Ok(message) = serde_json::from_slice(&error) {
            self.keep(id.to_string(), message);
        }
        Some(String::from_utf8_lossy(&error).trim_end().to_string())
    }

    /// Sorts a message from the server as [`record`](Self::record) does, notes a late or
    /// unknown answer in the log, and says what goes on to rmcp: nothing for an answer to
    /// nothing (during the handshake rmcp would give up on the connection) or a refused
    /// request, a stub for an answer held here, else the message as sent.
    pub fn screen(&self, message: Value, text: &str, events: &EventSink) -> Pass {
        self.screen_http(message, text, events, None)
    }

    /// [`screen`](Self::screen) for a message that came on an HTTP exchange.
    pub fn screen_http(
        &self,
        message: Value,
        text: &str,
        events: &EventSink,
        http: Option<Arc<HttpExchange>>,
    ) -> Pass {
        self.tap.note_http(
            Direction::In,
            &message,
            text,
            std::time::Instant::now(),
            http,
        );
        if message.get("method").is_some() {
            return match self.admit(&message, events) {
                true => Pass::AsSent,
                false => Pass::Drop,
            };
        }
        let untypable = untypable_error(&message);
        let count = |counter: &std::sync::atomic::AtomicU64| {
            counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        };
        match self.record(message, text.len()) {
            Answer::Late(id) => {
                count(&self.unclaimed.late);
                events.send(ServerEvent::Notice(format!(
                    "a response to cancelled request {id} arrived late: ignored"
                )))
            }
            Answer::Unknown(id) => {
                count(&self.unclaimed.stray);
                events.send(ServerEvent::Notice(format!(
                    "the server answered request {}, which nothing is waiting for: ignored",
                    crate::untrusted::line(&id, 80)
                )));
                return Pass::Drop;
            }
            Answer::Held(stub) => return Pass::Instead(stub),
            Answer::Expected | Answer::NotAResponse => {}
        }
        match untypable {
            Some(line) => Pass::Instead(line),
            None => Pass::AsSent,
        }
    }

    /// The answers nothing claimed so far.
    pub fn unclaimed(&self) -> Unclaimed {
        let read = |c: &std::sync::atomic::AtomicU64| c.load(std::sync::atomic::Ordering::Relaxed);
        Unclaimed {
            stray: read(&self.unclaimed.stray),
            late: read(&self.unclaimed.late),
        }
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

    /// Takes the raw response whose id serialises as `id_json`: `Err` when it was held for
    /// its request and let go unclaimed (rmcp has only its stub).
    pub fn take(&self, id_json: &str) -> Result<Option<Value>, NotKept> {
        if let Ok(mut held) = self.held.lock() {
            if let Some(i) = held.answers.iter().position(|(id, ..)| id == id_json) {
                let answer = held.answers.remove(i);
                held.bytes -= answer.as_ref().map_or(0, |(_, _, size)| *size);
                return Ok(answer.map(|(_, message, _)| message));
            }
            if let Some(i) = held.let_go.iter().position(|id| id == id_json) {
                held.let_go.remove(i);
                return Err(NotKept);
            }
        }
        let Ok(mut kept) = self.kept.lock() else {
            return Ok(None);
        };
        let i = kept.iter().position(|(id, _)| id == id_json);
        Ok(i.and_then(|i| kept.remove(i)).map(|(_, v)| v))
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

/// An error response whose `code` is not the 32-bit integer JSON-RPC's typed readers take
/// (`2^70`, `1.5`, `"x"`): rmcp would drop it and its request wait for the timeout. Its request
/// is answered instead with an error that quotes the server's error object as sent.
fn untypable_error(message: &Value) -> Option<String> {
    let error = message.get("error")?;
    let code = error.get("code");
    let typable = code
        .and_then(Value::as_i64)
        .is_some_and(|c| i32::try_from(c).is_ok());
    if typable {
        return None;
    }
    let id = message.get("id")?;
    let sent = crate::untrusted::json(error, false);
    let why = format!(
        "the server answered with an error whose code is not a 32-bit integer, as sent: {}",
        crate::untrusted::line(&sent, 2_000)
    );
    let line = crate::mcp::transport::salvage::error_line(id, &why);
    Some(String::from_utf8_lossy(&line).trim_end().to_string())
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
        let answer = |id: Value| json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}});
        assert_eq!(
            raw.record(answer(json!(1)), 100),
            Answer::Held(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into()),
            "rmcp is handed a stub of an answer read as sent"
        );
        assert_eq!(raw.take("1"), Ok(Some(answer(json!(1)))));
        assert_eq!(
            raw.record(answer(json!(1)), 100),
            Answer::Unknown("1".into()),
            "answered twice"
        );
        assert_eq!(raw.record(answer(json!(2)), 100), Answer::Late("2".into()));
        assert_eq!(
            raw.record(answer(json!("x")), 100),
            Answer::Unknown("\"x\"".into())
        );
        assert_eq!(
            raw.record(json!({"jsonrpc": "2.0", "id": 9, "method": "ping"}), 100),
            Answer::NotAResponse
        );
    }

    #[test]
    fn a_message_noted_from_its_type_awaits_what_its_json_would() {
        let messages = [
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t"}}),
            json!({"jsonrpc": "2.0", "id": "a\"b\u{e9}", "method": "tools/list"}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "c", "version": "1"}}}),
            json!({"jsonrpc": "2.0", "id": 3, "method": "x/custom", "params": {}}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        ];
        for message in messages {
            let typed: ClientJsonRpcMessage =
                serde_json::from_value(message.clone()).expect("rmcp reads it");
            let by_type = RawResponses::default();
            by_type.sending(&typed);
            let whole = RawResponses::default();
            whole.expect(&serde_json::to_value(&typed).expect("written"));
            for id in [json!(1), json!("a\"b\u{e9}"), json!(2), json!(3)] {
                let answer = json!({"jsonrpc": "2.0", "id": id, "result": {}});
                assert_eq!(
                    by_type.record(answer.clone(), 10),
                    whole.record(answer, 10),
                    "{message} answered by {id}"
                );
            }
        }
        // Our answer to a server's request ends its time in flight, as its JSON did.
        let raw = RawResponses::default();
        let (events, _received) = EventSink::new();
        let asked = json!({"jsonrpc": "2.0", "id": 9, "method": "ping"});
        assert!(raw.admit(&asked, &events));
        assert_eq!(raw.asked.lock().expect("lock").in_flight.len(), 1);
        let answer = json!({"jsonrpc": "2.0", "id": 9, "result": {}});
        raw.sending(&serde_json::from_value(answer).expect("rmcp reads it"));
        assert!(raw.asked.lock().expect("lock").in_flight.is_empty());
    }

    #[test]
    fn the_handshake_goes_to_rmcp_whole_and_an_answer_let_go_unclaimed_is_said() {
        let raw = RawResponses::default();
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize"});
        raw.sent(&init, &init.to_string());
        let answer = |id: usize| json!({"jsonrpc": "2.0", "id": id, "result": {"x": id}});
        assert_eq!(raw.record(answer(0), 100), Answer::Expected);
        for id in 1..=HELD + 1 {
            let sent = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call"});
            raw.sent(&sent, &sent.to_string());
            assert!(matches!(raw.record(answer(id), 100), Answer::Held(_)));
        }
        assert_eq!(raw.take("1"), Err(NotKept), "the oldest was let go");
        assert_eq!(raw.take("2"), Ok(Some(answer(2))));
        assert_eq!(raw.take("0"), Ok(Some(answer(0))));
        // Bounded in bytes too: two answers of over half the budget do not both stay.
        for id in [100, 101] {
            let sent = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call"});
            raw.sent(&sent, &sent.to_string());
            raw.record(answer(id), HELD_BYTES / 2 + 1);
        }
        assert_eq!(raw.take("100"), Err(NotKept));
        assert_eq!(raw.take("101"), Ok(Some(answer(101))));
    }
}
