//! The legacy HTTP+SSE transport (removed from rmcp): GET the event stream, wait for its
//! `endpoint` event, then POST each message there; answers arrive as `message` events.

use crate::config::target::Header;
use crate::mcp::session::error::ConnectError;
use crate::mcp::session::events::{EventSink, ServerEvent};
use crate::mcp::transport::duplicate_keys;
use crate::mcp::transport::lines::{Line, MAX_MESSAGE_VALUES, count, read_line, too_costly};
use crate::mcp::transport::raw::{Pass, RawResponses};
use crate::mcp::transport::wire::HttpExchange;
use crate::untrusted;
use futures::TryStreamExt;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::service::RoleClient;
use rmcp::transport::Transport;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufRead, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Largest SSE event accepted; larger ones are dropped with a notice.
const MAX_EVENT_BYTES: usize = crate::mcp::transport::stdio::MAX_MESSAGE_BYTES;

#[derive(Debug, thiserror::Error)]
#[error("the SSE connection is closed")]
pub struct SseClosed;

pub struct SseTransport {
    outgoing: mpsc::Sender<ClientJsonRpcMessage>,
    incoming: mpsc::Receiver<ServerJsonRpcMessage>,
    tasks: Vec<JoinHandle<()>>,
}

/// One server-sent event.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Event {
    pub name: Option<String>,
    pub data: String,
    /// The event's `id`, for resuming a Streamable HTTP stream after it.
    pub id: Option<String>,
    /// The `retry` the server asks for, in milliseconds.
    pub retry: Option<u64>,
}

/// Opens the stream and waits for the endpoint, so failures surface as connection errors.
pub async fn connect(
    url: &str,
    headers: &[Header],
    timeout: Duration,
    events: &EventSink,
    raw: &RawResponses,
) -> Result<SseTransport, ConnectError> {
    let client = crate::mcp::transport::http::client();
    let base = reqwest::Url::parse(url).map_err(|e| ConnectError::Unreachable {
        url: url.into(),
        reason: e.to_string(),
    })?;
    let mut get = client
        .get(base.clone())
        .header("Accept", "text/event-stream");
    for h in headers {
        get = get.header(&h.name, &h.value);
    }
    let response = tokio::time::timeout(timeout, get.send())
        .await
        .map_err(|_| ConnectError::Timeout {
            timeout,
            stderr: Vec::new(),
        })?
        .map_err(|e| crate::mcp::transport::http::request_error(url, &e))?;
    let response = crate::mcp::transport::http::check_status(response, timeout).await?;
    let is_sse = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("text/event-stream"));
    if !is_sse {
        return Err(ConnectError::NotMcp(format!(
            "{url} did not answer with an event stream"
        )));
    }
    let stream = response.bytes_stream().map_err(std::io::Error::other);
    let mut reader = BufReader::new(tokio_util::io::StreamReader::new(stream));
    let endpoint = endpoint(&mut reader, &base, url, timeout).await?;
    let (in_tx, incoming) = mpsc::channel(256);
    let (outgoing, out_rx) = mpsc::channel(64);
    let reader_task = tokio::spawn(read_messages(
        reader,
        in_tx.clone(),
        events.clone(),
        raw.clone(),
    ));
    let writer_task = tokio::spawn(post_messages(
        client,
        endpoint,
        headers.to_vec(),
        raw.clone(),
        out_rx,
        in_tx,
        timeout,
    ));
    Ok(SseTransport {
        outgoing,
        incoming,
        tasks: vec![reader_task, writer_task],
    })
}

/// The `endpoint` event the stream must open with, resolved against the URL the user named
/// and refused when it leads to another origin.
async fn endpoint<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    base: &reqwest::Url,
    url: &str,
    timeout: Duration,
) -> Result<reqwest::Url, ConnectError> {
    let endpoint = tokio::time::timeout(timeout, async {
        loop {
            match next_event(reader).await {
                Some(Ok(e)) if e.name.as_deref() == Some("endpoint") => return Some(e.data),
                Some(_) => continue,
                None => return None,
            }
        }
    })
    .await
    .map_err(|_| {
        ConnectError::NotMcp(format!(
            "{url} sent no `endpoint` event within {}s",
            timeout.as_secs()
        ))
    })?
    .ok_or_else(|| {
        ConnectError::NotMcp(format!(
            "{url} closed the stream before sending an `endpoint` event"
        ))
    })?;
    let endpoint = base.join(endpoint.trim()).map_err(|e| {
        ConnectError::NotMcp(format!(
            "bad endpoint `{}`: {e}",
            untrusted::line(&endpoint, 200)
        ))
    })?;
    // As the official TypeScript SDK does: messages (and the user's headers) go only to the
    // origin the user named.
    if endpoint.origin() != base.origin() {
        return Err(ConnectError::CrossOriginEndpoint {
            url: url.into(),
            endpoint: untrusted::line(endpoint.as_str(), 300).into_owned(),
        });
    }
    Ok(endpoint)
}

/// Reads the next event; `Some(Err)` for an oversized one.
pub(super) async fn next_event<R: AsyncBufRead + Unpin>(
    reader: &mut R,
) -> Option<Result<Event, usize>> {
    let mut event = Event::default();
    let mut size = 0usize;
    let mut has_data = false;
    loop {
        let line = match read_line(reader, MAX_EVENT_BYTES).await.ok()? {
            Line::Eof => return None,
            Line::TooLong { total, .. } => {
                size += total;
                continue;
            }
            Line::Complete(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        };
        if line.is_empty() {
            if size > MAX_EVENT_BYTES {
                return Some(Err(size));
            }
            if has_data || event.name.is_some() || event.id.is_some() {
                return Some(Ok(event));
            }
            continue;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line.as_str(), ""),
        };
        match field {
            "event" => event.name = Some(value.to_string()),
            "id" if !value.contains('\0') => event.id = Some(value.to_string()),
            "retry" => event.retry = value.parse().ok().or(event.retry),
            "data" => {
                size += value.len();
                if size <= MAX_EVENT_BYTES {
                    if has_data {
                        event.data.push('\n');
                    }
                    event.data.push_str(value);
                }
                has_data = true;
            }
            _ => {}
        }
    }
}

async fn read_messages<R: AsyncBufRead + Unpin>(
    mut reader: R,
    tx: mpsc::Sender<ServerJsonRpcMessage>,
    events: EventSink,
    raw: RawResponses,
) {
    while let Some(event) = next_event(&mut reader).await {
        let event = match event {
            Ok(e) => e,
            Err(size) => {
                oversized(size, &events);
                continue;
            }
        };
        if !matches!(event.name.as_deref(), None | Some("message")) {
            continue;
        }
        let text = match admit(&event.data, &raw, &events, None) {
            Pass::Drop => continue,
            Pass::AsSent => event.data,
            Pass::Instead(stub) => stub,
        };
        // From the text, not from a `Value`: rmcp's message types buffer their fields, and a
        // number kept as written (beyond 64 bits) does not survive that from a `Value`.
        match serde_json::from_str::<ServerJsonRpcMessage>(&text) {
            Ok(m) => {
                if tx.send(m).await.is_err() {
                    return;
                }
            }
            Err(e) => events.send(ServerEvent::Notice(format!(
                "server sent an SSE message that is not JSON-RPC ({e}): {}",
                untrusted::line(&text, 200)
            ))),
        }
    }
    events.send(ServerEvent::Closed("the SSE stream ended".into()));
}

pub(super) fn oversized(size: usize, events: &EventSink) {
    events.send(ServerEvent::Notice(format!(
        "server sent a {size}-byte event, over the limit: dropped"
    )));
}

/// Screens one message's text from the server (over either HTTP transport) before rmcp reads
/// it: too many values, not JSON or an answer to nothing are dropped with a notice; repeated
/// keys are named; what passes is tapped and, if an awaited answer, kept as sent (rmcp then
/// reads a stub of it, see [`Pass`]).
pub(super) fn admit(
    text: &str,
    raw: &RawResponses,
    events: &EventSink,
    http: Option<Arc<HttpExchange>>,
) -> Pass {
    let counts = count(text.as_bytes(), MAX_MESSAGE_VALUES);
    if let Some(why) = too_costly(text.len(), counts) {
        let tail = &text.as_bytes()[text
            .len()
            .saturating_sub(crate::mcp::transport::lines::TAIL_BYTES)..];
        return match raw.unparsed((text.as_bytes(), tail), text, &why, events) {
            Some(line) => Pass::Instead(line),
            None => Pass::Drop,
        };
    }
    match serde_json::from_str::<Value>(text) {
        Ok(v) => {
            if counts.keys > duplicate_keys::keys_in(&v) {
                events.send(ServerEvent::Notice(duplicate_keys::notice(text.as_bytes())));
            }
            raw.screen_http(v, text, events, http)
        }
        Err(e) => {
            events.send(ServerEvent::Notice(format!(
                "server sent a message that is not JSON ({e}): {}",
                untrusted::line(text, 200)
            )));
            Pass::Drop
        }
    }
}

/// POSTs each outgoing message; a failed POST of a request is answered locally with a JSON-RPC
/// error, so the caller sees the HTTP failure instead of waiting for a timeout.
async fn post_messages(
    client: reqwest::Client,
    endpoint: reqwest::Url,
    headers: Vec<Header>,
    raw: RawResponses,
    mut rx: mpsc::Receiver<ClientJsonRpcMessage>,
    tx: mpsc::Sender<ServerJsonRpcMessage>,
    timeout: Duration,
) {
    let post = |body: &Value| {
        raw.sent(body, &body.to_string());
        // Bounded: a POST that never completes would hold back every later message.
        let mut post = client.post(endpoint.clone()).timeout(timeout).json(body);
        for h in &headers {
            post = post.header(&h.name, &h.value);
        }
        post.send()
    };
    loop {
        // The server's requests refused for the cap in flight are answered as soon as queued,
        // in among ours.
        let body = tokio::select! {
            message = rx.recv() => match message.map(|m| serde_json::to_value(&m)) {
                Some(Ok(body)) => body,
                Some(Err(_)) => continue,
                None => return,
            },
            () = raw.refusals_queued() => {
                for refusal in raw.take_refusals() {
                    let Ok(body) = serde_json::from_slice::<Value>(&refusal) else {
                        continue;
                    };
                    let _ = post(&body).await;
                }
                continue;
            }
        };
        let failure = match post(&body).await {
            Ok(r) if r.status().is_success() => None,
            Ok(r) => Some(format!(
                "HTTP {} from the message endpoint",
                r.status().as_u16()
            )),
            Err(e) => Some(format!(
                "POST to the message endpoint failed: {}",
                crate::mcp::transport::http::describe(&e)
            )),
        };
        if let (Some(reason), Some(id)) = (
            failure,
            body.get("id").filter(|_| body.get("method").is_some()),
        ) {
            let answer =
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": reason}});
            if let Ok(m) = serde_json::from_value(answer)
                && tx.send(m).await.is_err()
            {
                return;
            }
        }
    }
}

impl Transport<RoleClient> for SseTransport {
    type Error = SseClosed;

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), SseClosed>> + Send + 'static {
        let tx = self.outgoing.clone();
        async move { tx.send(item).await.map_err(|_| SseClosed) }
    }

    async fn receive(&mut self) -> Option<ServerJsonRpcMessage> {
        self.incoming.recv().await
    }

    async fn close(&mut self) -> Result<(), SseClosed> {
        for task in &self.tasks {
            task.abort();
        }
        Ok(())
    }
}

impl Drop for SseTransport {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn parses_events_with_multi_line_data_and_comments() {
        let text = b": comment\nevent: endpoint\ndata: /message?sessionId=1\n\ndata: {\"a\":\ndata: 1}\n\n".to_vec();
        let mut r = BufReader::new(&text[..]);
        assert_eq!(
            next_event(&mut r).await,
            Some(Ok(Event {
                name: Some("endpoint".into()),
                data: "/message?sessionId=1".into(),
                ..Event::default()
            }))
        );
        assert_eq!(
            next_event(&mut r).await,
            Some(Ok(Event {
                data: "{\"a\":\n1}".into(),
                ..Event::default()
            }))
        );
        assert_eq!(next_event(&mut r).await, None);
    }
}
