//! A session opened by hand on a Streamable HTTP server, its messages read as one stream: each
//! line written is POSTed, and what every answer carries (a JSON body, or an event stream's
//! messages as they come) arrives in the order read. For the checks that watch calls in flight
//! (see [`super::in_flight`]); each answer read within a time and a byte bound.

use super::http_raw::{HttpSent, Opened, Raw, json_headers, sse_messages};
use super::probe::Next;
use serde_json::Value;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::Instant;

/// How long one answer is read at most (an event stream kept open is cut there).
const READ_FOR: Duration = Duration::from_secs(30);
/// The most of one answer read.
const READ_MAX: usize = 16 << 20;
/// How long a notification's 202 is waited for.
const ACCEPTED_WITHIN: Duration = Duration::from_secs(10);
/// Messages waiting to be taken (a flood waits for the reader, it is not kept).
const QUEUED: usize = 1024;

pub struct HttpStream<'a> {
    raw: Raw<'a>,
    opened: Opened,
    /// Every request written, for a reproduce line.
    pub sent: Vec<HttpSent>,
    messages: mpsc::Receiver<Value>,
    to_messages: mpsc::Sender<Value>,
    readers: JoinSet<()>,
}

impl<'a> HttpStream<'a> {
    pub fn new(raw: Raw<'a>, opened: Opened) -> HttpStream<'a> {
        let (to_messages, messages) = mpsc::channel(QUEUED);
        HttpStream {
            sent: opened.sent(&[]),
            raw,
            opened,
            messages,
            to_messages,
            readers: JoinSet::new(),
        }
    }

    /// POSTs one message; a request's answer is read beside the others. A notification's
    /// answer (202) is waited for here, so what is written next reaches the server after it
    /// was taken (a ping after a cancel then says the cancel was read).
    pub async fn write(&mut self, line: &str) {
        let mut headers = json_headers();
        headers.push(("MCP-Protocol-Version".into(), self.opened.version.clone()));
        let sent = HttpSent {
            method: "POST",
            headers,
            body: Some(line.to_string()),
            with_session: self.opened.session.is_some(),
        };
        let request = self.raw.request(&sent, self.opened.session.as_deref());
        self.sent.push(sent);
        let notification = serde_json::from_str::<Value>(line).is_ok_and(|m| m.get("id").is_none());
        if notification {
            let _ = tokio::time::timeout(ACCEPTED_WITHIN, request.send()).await;
            return;
        }
        let to_messages = self.to_messages.clone();
        self.readers.spawn(async move {
            let read = read_answer(request, &to_messages);
            let _ = tokio::time::timeout(READ_FOR, read).await;
        });
    }

    /// The next message any answer carried before `deadline`.
    pub async fn next_message(&mut self, deadline: Instant) -> Next {
        match tokio::time::timeout_at(deadline, self.messages.recv()).await {
            Ok(Some(message)) => Next::Message(message),
            // Never: the stream holds a sender itself.
            Ok(None) => Next::Ended,
            Err(_) => Next::Quiet,
        }
    }

    /// Stops reading and ends the session.
    pub async fn end(mut self) {
        self.readers.abort_all();
        if let Some(session) = &self.opened.session {
            self.raw.end(session, &self.opened.version).await;
        }
    }
}

/// Sends `request` and passes on each JSON-RPC message of its answer as it is read.
async fn read_answer(request: reqwest::RequestBuilder, to: &mpsc::Sender<Value>) {
    let Ok(mut response) = request.send().await else {
        return;
    };
    let stream = (response.headers().get("content-type"))
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/event-stream"));
    let mut pending: Vec<u8> = Vec::new();
    let mut read = 0;
    while let Ok(Some(chunk)) = response.chunk().await {
        read += chunk.len();
        if read > READ_MAX {
            return;
        }
        let before = pending.len();
        pending.extend_from_slice(&chunk);
        if !stream {
            continue;
        }
        // Whole lines only: a `data:` line may come in pieces. What was pending holds no line
        // end (it was kept past the last one): only the new piece is looked at.
        let Some(end) = chunk
            .iter()
            .rposition(|b| *b == b'\n')
            .map(|at| before + at)
        else {
            continue;
        };
        let lines: Vec<u8> = pending.drain(..=end).collect();
        for message in sse_messages(&String::from_utf8_lossy(&lines)) {
            if to.send(message).await.is_err() {
                return;
            }
        }
    }
    let rest = String::from_utf8_lossy(&pending);
    let messages = match stream {
        true => sse_messages(&rest),
        false => serde_json::from_str::<Value>(&rest).into_iter().collect(),
    };
    for message in messages {
        let _ = to.send(message).await;
    }
}
