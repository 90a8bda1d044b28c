//! `http-resumption`: a Streamable HTTP server's event stream, cut and then resumed with a GET
//! naming its `Last-Event-ID`, replays only messages of the stream that was cut, under event
//! ids unique in the session (the spec's resumability rules: a server MAY replay, MUST NOT
//! replay another stream's messages, and an id identifies an event within the session). A
//! read-only tool is called in a session opened for it; its stream is cut at its first event
//! with an id (a 2025-11-25 server primes each stream with one); another request is answered
//! meanwhile, so a server that replays by time rather than by stream shows it.

use super::http_raw::{HttpSent, LAST_WITH_SESSIONS, Opened, Raw, json_headers};
use super::hygiene::ping;
use super::{Finding, Level, Selection, Status, finding};
use crate::config::target::Target;
use crate::mcp::Session;
use crate::schema::Era;
use serde_json::{Value, json};
use std::time::Duration;
use tokio::time::Instant;

pub const IDS: [&str; 1] = ["http-resumption"];

/// How long a stream is read at most (the call's up to its first event id, the resumed one
/// up to the call's answer).
const READ_FOR: Duration = Duration::from_secs(10);
/// The most of a stream read.
const READ_MAX: usize = 4 << 20;
/// Tools tried at most, looking for a stream with an event id before its answer.
const TOOLS_TRIED: usize = 2;
/// The id of the call whose stream is cut, and of the request answered meanwhile.
const CALL: &str = "conform-resumed-call";
const MEANWHILE: &str = "conform-meanwhile";

fn http_resumption() -> Finding {
    finding(
        "http-resumption",
        "a stream resumed with Last-Event-ID replays only its own messages, under event ids unique in the session",
        Level::Must,
        "basic/transports#resumability-and-redelivery",
    )
}

/// The check, when `selection` wants it.
pub async fn run(session: &Session, target: &Target, selection: &Selection) -> Vec<Finding> {
    if !IDS.iter().any(|id| selection.wants(id)) {
        return Vec::new();
    }
    let check = http_resumption();
    let Some(raw) = Raw::of(target) else {
        return vec![check.not_applicable("needs a Streamable HTTP server")];
    };
    let tools = super::in_flight::candidates(session, selection, false).await;
    if tools.is_empty() {
        let why = format!("no tool it may call ({})", super::NO_TOOL_ALLOWED);
        return vec![check.not_applicable(&why)];
    }
    // Streams are resumed within a session: the eras before 2026-07-28.
    let version = match session.server.era {
        Era::Modern => LAST_WITH_SESSIONS,
        Era::Legacy => session.server.protocol_version.as_str(),
    };
    let opened = match raw.open(version).await {
        Ok(opened) => opened,
        Err(why) => {
            return vec![check.not_applicable(&format!("an initialize of its own failed: {why}"))];
        }
    };
    let found = resumed(&raw, &opened, &tools, check).await;
    if let Some(id) = &opened.session {
        raw.end(id, &opened.version).await;
    }
    vec![found]
}

/// Cuts the first of `tools`' calls whose stream has an event id before its answer, answers
/// another request, resumes, and judges what the resumed stream brought.
async fn resumed(
    raw: &Raw<'_>,
    opened: &Opened,
    tools: &[(String, Value)],
    check: Finding,
) -> Finding {
    let session = opened.session.as_deref();
    let mut sent = opened.sent(&[]);
    let mut tried = Vec::new();
    let mut cut = None;
    for (tool, arguments) in tools.iter().take(TOOLS_TRIED) {
        let call = post(opened, &call_line(tool, arguments));
        sent.push(call.clone());
        match cut_at_first_id(raw, &call, session).await {
            Ok(Some(cut_here)) => {
                cut = Some(cut_here);
                break;
            }
            Ok(None) => tried.push(tool.as_str()),
            Err(why) => return check.not_applicable(&why),
        }
    }
    let Some((cut_at, mut ids)) = cut else {
        return check.not_applicable(&format!(
            "the calls' event streams had no event id before their answer ({}): there is nothing to resume",
            tried.join(", ")
        ));
    };
    let meanwhile = post(opened, &ping(&format!("\"{MEANWHILE}\"")));
    if let Ok(got) = raw.send(&meanwhile, session).await {
        ids.extend(events(got.body.as_bytes()).into_iter().filter_map(|e| e.id));
    }
    sent.push(meanwhile);
    let get = resume(opened, &cut_at);
    sent.push(get.clone());
    let response = match raw.request(&get, session).send().await {
        Ok(response) => response,
        Err(e) => {
            let said = crate::mcp::transport::http::describe(&e);
            return check.judged_http(
                sent,
                (
                    Status::NotApplicable,
                    format!("the GET was not answered: {said}"),
                ),
            );
        }
    };
    let status = response.status().as_u16();
    if !response.status().is_success() || !is_event_stream(&response) {
        let said = format!(
            "a GET with Last-Event-ID {} was answered {status}, not with an event stream: the server does not resume streams (it MAY not)",
            crate::untrusted::line(&cut_at, 200)
        );
        return check.judged_http(sent, (Status::NotApplicable, said));
    }
    let reading = Instant::now();
    let replayed = read_events(response, answers_call).await;
    let ended = reading.elapsed() < READ_FOR;
    check.judged_http(sent, resumption_judged(&cut_at, &ids, &replayed, ended))
}

/// The call's stream read up to its first event with an id, then dropped (the cut): that id
/// and every id seen, or `None` when the answer came first (or the stream was JSON).
async fn cut_at_first_id(
    raw: &Raw<'_>,
    call: &HttpSent,
    session: Option<&str>,
) -> Result<Option<(String, Vec<String>)>, String> {
    let response = (raw.request(call, session).send().await).map_err(|e| {
        format!(
            "the call was not answered: {}",
            crate::mcp::transport::http::describe(&e)
        )
    })?;
    if !is_event_stream(&response) {
        return Ok(None);
    }
    let before = read_events(response, |e| e.id.is_some() || answers_call(e)).await;
    let Some(last) = before.last().filter(|e| !answers_call(e)) else {
        return Ok(None);
    };
    // The id goes back in a header: only visible ASCII can (an id of other bytes is not cut at).
    let Some(cut_at) = (last.id.clone()).filter(|id| id.bytes().all(|b| b.is_ascii_graphic()))
    else {
        return Ok(None);
    };
    Ok(Some((
        cut_at,
        before.into_iter().filter_map(|e| e.id).collect(),
    )))
}

fn call_line(tool: &str, arguments: &Value) -> String {
    json!({"jsonrpc": "2.0", "id": CALL, "method": "tools/call", "params": {
        "name": tool, "arguments": arguments, "_meta": {"progressToken": CALL}}})
    .to_string()
}

fn post(opened: &Opened, body: &str) -> HttpSent {
    let mut headers = json_headers();
    headers.push(("MCP-Protocol-Version".into(), opened.version.clone()));
    HttpSent {
        method: "POST",
        headers,
        body: Some(body.into()),
        with_session: opened.session.is_some(),
    }
}

fn resume(opened: &Opened, cut_at: &str) -> HttpSent {
    HttpSent {
        method: "GET",
        headers: vec![
            ("Accept".into(), "text/event-stream".into()),
            ("MCP-Protocol-Version".into(), opened.version.clone()),
            ("Last-Event-ID".into(), cut_at.into()),
        ],
        body: None,
        with_session: opened.session.is_some(),
    }
}

fn is_event_stream(response: &reqwest::Response) -> bool {
    (response.headers().get("content-type"))
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/event-stream"))
}

/// Whether `event` carries the answer to the call.
fn answers_call(event: &SseEvent) -> bool {
    event
        .message()
        .is_some_and(|m| m["id"] == json!(CALL) && m.get("method").is_none())
}

/// The events of a stream as they come, until `enough` holds for one (then dropped: the
/// connection is closed), [`READ_FOR`] passed or [`READ_MAX`] bytes were read.
async fn read_events(
    mut response: reqwest::Response,
    mut enough: impl FnMut(&SseEvent) -> bool,
) -> Vec<SseEvent> {
    let deadline = Instant::now() + READ_FOR;
    let mut reader = Events::default();
    let mut got = Vec::new();
    let mut read = 0;
    while read < READ_MAX {
        let Ok(Ok(Some(chunk))) = tokio::time::timeout_at(deadline, response.chunk()).await else {
            break;
        };
        read += chunk.len();
        for event in reader.push(&chunk) {
            let done = enough(&event);
            got.push(event);
            if done {
                return got;
            }
        }
    }
    got
}

/// One server-sent event: its `id` field, when it had one, and its data.
#[derive(Debug, Clone, PartialEq)]
pub struct SseEvent {
    pub id: Option<String>,
    pub data: String,
}

impl SseEvent {
    /// The JSON-RPC message the event carries, if any.
    fn message(&self) -> Option<Value> {
        serde_json::from_str::<Value>(&self.data)
            .ok()
            .filter(|m| m.get("jsonrpc").is_some())
    }
}

/// An event stream read in pieces split anywhere: each event once its blank line came. Each
/// byte is looked at once, however the stream is cut (a hostile one sends a byte at a time).
#[derive(Default)]
struct Events {
    pending: Vec<u8>,
    /// Bytes at the start of `pending` known to hold no line end.
    scanned: usize,
    id: Option<String>,
    data: Vec<String>,
}

impl Events {
    fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        self.pending.extend_from_slice(chunk);
        let mut done = Vec::new();
        let mut start = 0;
        let mut from = self.scanned;
        while let Some(at) = self.pending[from..].iter().position(|b| *b == b'\n') {
            let end = from + at;
            let line = String::from_utf8_lossy(&self.pending[start..end]).into_owned();
            self.line(line.trim_end_matches('\r'), &mut done);
            start = end + 1;
            from = start;
        }
        self.pending.drain(..start);
        self.scanned = self.pending.len();
        done
    }

    /// One line of the stream: a field of the event being read, or the blank line that ends it.
    fn line(&mut self, line: &str, done: &mut Vec<SseEvent>) {
        if line.is_empty() {
            if self.id.is_some() || !self.data.is_empty() {
                done.push(SseEvent {
                    id: self.id.take(),
                    data: std::mem::take(&mut self.data).join("\n"),
                });
            }
            return;
        }
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "id" => self.id = Some(value.to_string()),
            "data" => self.data.push(value.to_string()),
            _ => {}
        }
    }
}

/// Every event of a whole body.
fn events(body: &[u8]) -> Vec<SseEvent> {
    let mut reader = Events::default();
    let mut all = reader.push(body);
    all.extend(reader.push(b"\n\n"));
    all
}

/// The verdict on a stream resumed after the event `cut_at`, `seen` the ids of the session's
/// events before it: fails on an id seen again or an answer to another request; passes when
/// the call's answer came; else (the stream `ended`, or was read for [`READ_FOR`]) does not
/// apply: a server MAY not replay.
pub fn resumption_judged(
    cut_at: &str,
    seen: &[String],
    replayed: &[SseEvent],
    ended: bool,
) -> (Status, String) {
    let mut ids: std::collections::HashSet<&str> = seen.iter().map(String::as_str).collect();
    let (mut messages, mut answered) = (0, false);
    for event in replayed {
        if let Some(id) = &event.id
            && !ids.insert(id.as_str())
        {
            let shown = crate::untrusted::line(id, 200);
            let said = format!(
                "the resumed stream reused the event id {shown} (ids identify one event in a session)"
            );
            return (Status::Fail, said);
        }
        let Some(message) = event.message() else {
            continue;
        };
        messages += 1;
        match message
            .get("id")
            .filter(|_| message.get("method").is_none())
        {
            Some(id) if *id == json!(CALL) => answered = true,
            Some(other) => {
                let shown = crate::untrusted::json(other, false);
                return (
                    Status::Fail,
                    format!(
                        "the resumed stream replayed the answer to request {shown}, a message of another stream"
                    ),
                );
            }
            None => {}
        }
    }
    match answered {
        true => (
            Status::Pass,
            format!(
                "resumed after event {}: {messages} messages replayed, the call's answer among them, none of another stream",
                crate::untrusted::line(cut_at, 200)
            ),
        ),
        false => {
            let when = match ended {
                true => "the stream ended without it".to_string(),
                false => format!("it did not come within {} s", READ_FOR.as_secs()),
            };
            let said = format!(
                "resumed after event {}, but the call's answer was not replayed ({when}): a server MAY not replay",
                crate::untrusted::line(cut_at, 200)
            );
            (Status::NotApplicable, said)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(id: Option<&str>, data: &str) -> SseEvent {
        SseEvent {
            id: id.map(String::from),
            data: data.into(),
        }
    }

    #[test]
    fn events_are_read_from_pieces_split_anywhere() {
        let text = b"id: a1\r\ndata:\r\n\r\n: comment\n\nevent: message\nid: a2\ndata: {\"jsonrpc\":\"2.0\",\ndata: \"id\":1}\n\n";
        let mut reader = Events::default();
        let mut got = Vec::new();
        for piece in text.chunks(3) {
            got.extend(reader.push(piece));
        }
        let mut bytewise = Events::default();
        let one_at_a_time: Vec<SseEvent> = text.chunks(1).flat_map(|b| bytewise.push(b)).collect();
        assert_eq!(one_at_a_time, got);
        assert_eq!(
            got,
            [
                event(Some("a1"), ""),
                event(Some("a2"), "{\"jsonrpc\":\"2.0\",\n\"id\":1}")
            ]
        );
        assert_eq!(events(b"id: x\ndata: 1"), [event(Some("x"), "1")]);
    }

    #[test]
    fn a_resumed_stream_is_judged_by_what_it_replayed() {
        let answer = format!(r#"{{"jsonrpc":"2.0","id":"{CALL}","result":{{"content":[]}}}}"#);
        let progress = format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"{CALL}","progress":1}}}}"#
        );
        let seen = vec!["p0".to_string()];
        let good = [event(Some("p1"), &progress), event(Some("p2"), &answer)];
        assert_eq!(resumption_judged("p0", &seen, &good, true).0, Status::Pass);
        // An id of the session used again.
        let reused = [event(Some("p0"), &answer)];
        let (status, said) = resumption_judged("p0", &seen, &reused, true);
        assert_eq!(status, Status::Fail, "{said}");
        assert!(said.contains("reused the event id p0"), "{said}");
        // Another stream's answer replayed (ids fine).
        let foreign = r#"{"jsonrpc":"2.0","id":"conform-meanwhile","result":{}}"#;
        let (status, said) = resumption_judged(
            "p0",
            &seen,
            &[event(Some("q1"), foreign), event(Some("q2"), &answer)],
            true,
        );
        assert_eq!(status, Status::Fail, "{said}");
        assert!(said.contains("\"conform-meanwhile\""), "{said}");
        // Nothing replayed: a server MAY not.
        let (status, said) = resumption_judged("p0", &seen, &[], true);
        assert_eq!(status, Status::NotApplicable);
        assert!(said.contains("the stream ended without it"), "{said}");
        let (_, said) = resumption_judged("p0", &seen, &[], false);
        assert!(said.contains("within 10 s"), "{said}");
        // Server-sent requests and notifications are not answers of another stream.
        let note = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#;
        assert_eq!(
            resumption_judged(
                "p0",
                &seen,
                &[event(None, note), event(Some("p3"), &answer)],
                true,
            )
            .0,
            Status::Pass
        );
    }
}
