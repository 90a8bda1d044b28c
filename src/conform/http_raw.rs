//! Raw HTTP to a Streamable HTTP server, for the checks no client library can make: requests
//! sent as written (with the user's `--header`s), answers read bounded in bytes and time (an
//! event stream up to its first answer), a session opened by hand; and the judgements on
//! statuses more than one group of checks uses.

use super::{Finding, Status};
use crate::config::target::{Header, HttpTransport, Target};
use serde::Serialize;
use serde_json::{Value, json};
use std::time::Duration;

/// How long one request may take, headers and the body we read.
const WAIT: Duration = Duration::from_secs(10);
/// The most of a body read (an initialize answer; the rest is not needed).
const BODY_MAX: usize = 1 << 20;
/// The last protocol version with `initialize` and sessions.
pub const LAST_WITH_SESSIONS: &str = "2025-11-25";
/// One HTTP request a check sent, as a reproduce line needs it (the user's `--header`s are
/// added to each, never kept here).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HttpSent {
    pub method: &'static str,
    pub headers: Vec<(String, String)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// Carries the session id the first request of the check was given.
    pub with_session: bool,
}

/// What came back: the status, the content type, whether a body came, and the session id.
#[derive(Debug, Clone, PartialEq)]
pub struct Got {
    pub status: u16,
    pub content_type: String,
    pub body: String,
    pub session: Option<String>,
}

/// The outcome of one request: what came back, or why nothing did (in words).
pub type Outcome = Result<Got, String>;

/// Whether `target` is a Streamable HTTP server (the checks here apply).
pub fn speaks_streamable_http(target: &Target) -> bool {
    matches!(
        target,
        Target::Http {
            transport: HttpTransport::Streamable,
            ..
        }
    )
}

/// A session opened by hand: the id issued (if any), the version to name in headers, the
/// answer to `initialized`, and the two requests that opened it.
pub struct Opened {
    pub session: Option<String>,
    pub version: String,
    pub initialized: Outcome,
    opening: Vec<HttpSent>,
}

impl Opened {
    /// The requests a reproduce line needs: the opening two, then `then`.
    pub fn sent(&self, then: &[HttpSent]) -> Vec<HttpSent> {
        self.opening.iter().chain(then).cloned().collect()
    }
}

/// Raw requests to one URL with the user's headers.
pub struct Raw<'a> {
    client: reqwest::Client,
    url: &'a str,
    headers: &'a [Header],
}

impl<'a> Raw<'a> {
    /// Raw requests to `target`, when it is a Streamable HTTP server.
    pub fn of(target: &'a Target) -> Option<Raw<'a>> {
        match target {
            Target::Http {
                url,
                transport: HttpTransport::Streamable,
                headers,
            } => Some(Raw::new(url, headers)),
            _ => None,
        }
    }

    pub fn new(url: &'a str, headers: &'a [Header]) -> Raw<'a> {
        Raw {
            client: crate::mcp::transport::http::client_keeping(0),
            url,
            headers,
        }
    }

    /// Initialize (asking for `version`), then `initialized` on the session issued.
    pub async fn open(&self, version: &str) -> Result<Opened, String> {
        let init = HttpSent {
            method: "POST",
            headers: json_headers(),
            body: Some(initialize(version)),
            with_session: false,
        };
        let got = self.send(&init, None).await?;
        if !(200..300).contains(&got.status) {
            return Err(format!(
                "initialize answered {}{}",
                got.status,
                body_words(&got.body)
            ));
        }
        let version = negotiated(&got.body).unwrap_or_else(|| version.to_string());
        let session = got.session;
        let initialized = HttpSent {
            method: "POST",
            headers: [
                json_headers(),
                vec![("MCP-Protocol-Version".into(), version.clone())],
            ]
            .concat(),
            body: Some(INITIALIZED.into()),
            with_session: session.is_some(),
        };
        let answer = self.send(&initialized, session.as_deref()).await;
        Ok(Opened {
            session,
            version,
            initialized: answer,
            opening: vec![init, initialized],
        })
    }

    /// Ends a session a check opened by accident (best effort).
    pub async fn end(&self, session: &str, version: &str) {
        let delete = HttpSent {
            method: "DELETE",
            headers: vec![("MCP-Protocol-Version".into(), version.into())],
            body: None,
            with_session: true,
        };
        let _ = self.send(&delete, Some(session)).await;
    }

    pub fn request(&self, sent: &HttpSent, session: Option<&str>) -> reqwest::RequestBuilder {
        let method = reqwest::Method::from_bytes(sent.method.as_bytes()).unwrap_or_default();
        let mut request = self.client.request(method, self.url).timeout(WAIT);
        for header in self.headers {
            request = request.header(&header.name, &header.value);
        }
        for (name, value) in &sent.headers {
            request = request.header(name, value);
        }
        if let Some(session) = session {
            request = request.header("Mcp-Session-Id", session);
        }
        if let Some(body) = &sent.body {
            request = request.body(body.clone());
        }
        request
    }

    /// Sends and reads the answer (its body up to [`BODY_MAX`], an event stream up to the
    /// first message).
    pub async fn send(&self, sent: &HttpSent, session: Option<&str>) -> Outcome {
        let response = self
            .request(sent, session)
            .send()
            .await
            .map_err(|e| crate::mcp::transport::http::describe(&e))?;
        let mut got = heads(&response);
        got.body = first_message(response).await;
        Ok(got)
    }

    /// Sends and reads only the status and headers (a GET's stream may never end).
    pub async fn send_for_headers(&self, sent: &HttpSent, session: Option<&str>) -> Outcome {
        let response = self
            .request(sent, session)
            .send()
            .await
            .map_err(|e| crate::mcp::transport::http::describe(&e))?;
        Ok(heads(&response))
    }
}

fn heads(response: &reqwest::Response) -> Got {
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    Got {
        status: response.status().as_u16(),
        content_type: header("content-type").unwrap_or_default(),
        body: String::new(),
        // Kept whatever its bytes, for the check that they are visible ASCII.
        session: (response.headers().get("mcp-session-id"))
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned()),
    }
}

/// The body, or of an event stream the text up to its first answer (a result or an error): a
/// stream kept open after its answer must not hold the check for [`WAIT`].
async fn first_message(mut response: reqwest::Response) -> String {
    let stream = heads(&response)
        .content_type
        .starts_with("text/event-stream");
    let mut body = Vec::new();
    let deadline = tokio::time::Instant::now() + WAIT;
    while body.len() < BODY_MAX {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Ok(Ok(Some(chunk))) => body.extend_from_slice(&chunk),
            _ => break,
        }
        let answered = |text: &str| {
            sse_messages(text)
                .iter()
                .any(|m| m.get("result").is_some() || m.get("error").is_some())
        };
        if stream && answered(&String::from_utf8_lossy(&body)) {
            break;
        }
    }
    body.truncate(BODY_MAX);
    String::from_utf8_lossy(&body).into_owned()
}

/// The JSON-RPC messages of an event stream's `data:` lines.
pub fn sse_messages(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .filter(|message| message.get("jsonrpc").is_some())
        .collect()
}

/// The first JSON-RPC message of an event stream.
fn sse_message(text: &str) -> Option<Value> {
    sse_messages(text).into_iter().next()
}

/// The JSON-RPC message of a body: JSON, or an event stream's first message.
pub fn message_of(body: &str) -> Option<Value> {
    serde_json::from_str::<Value>(body)
        .ok()
        .or_else(|| sse_message(body))
}

/// The protocol version an initialize answer (JSON or an event stream) names.
fn negotiated(body: &str) -> Option<String> {
    let message = message_of(body)?;
    let version = message.pointer("/result/protocolVersion")?.as_str()?;
    // The version goes into a header: a hostile one must not break the request.
    (version.len() <= 32 && version.bytes().all(|b| b.is_ascii_graphic())).then(|| version.into())
}

const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

pub fn initialize(version: &str) -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {},
        "clientInfo": {"name": "mcp-inspect conform", "version": env!("CARGO_PKG_VERSION")}}})
    .to_string()
}

pub fn json_headers() -> Vec<(String, String)> {
    vec![
        ("Content-Type".into(), "application/json".into()),
        (
            "Accept".into(),
            "application/json, text/event-stream".into(),
        ),
    ]
}

impl Finding {
    /// Judged on raw HTTP requests: `sent` is what reproduces it.
    pub fn judged_http(mut self, sent: Vec<HttpSent>, verdict: (Status, String)) -> Finding {
        self.http = sent;
        (self.status, self.said) = verdict;
        self
    }
}

/// A status in words, with what the body said when it was short.
pub fn answered(got: &Outcome) -> String {
    match got {
        Ok(got) => format!("HTTP {}{}", got.status, body_words(&got.body)),
        Err(why) => format!("no answer: {why}"),
    }
}

pub fn body_words(body: &str) -> String {
    match body.trim() {
        "" => String::new(),
        text => format!(" ({})", crate::untrusted::line(text, 200)),
    }
}

/// Passes on 202 with no body.
pub fn accepted_202(got: &Outcome) -> (Status, String) {
    match got {
        Ok(g) if g.status == 202 && g.body.trim().is_empty() => (Status::Pass, "HTTP 202".into()),
        Ok(g) if g.status == 202 => (Status::Fail, format!("{}: 202 with a body", answered(got))),
        _ => (Status::Fail, answered(got)),
    }
}

/// A JSON answer with `status` and `body`, for the judgements' tests.
#[cfg(test)]
pub fn answered_with(status: u16, body: &str) -> Outcome {
    Ok(Got {
        status,
        content_type: "application/json".into(),
        body: body.into(),
        session: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The version an initialize answer names goes into later headers: a hostile one is not
    /// taken.
    #[test]
    fn the_negotiated_version_is_read_from_json_or_a_stream_and_only_when_safe() {
        let json = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}}"#;
        assert_eq!(negotiated(json).as_deref(), Some("2025-06-18"));
        let stream = format!("event: message\nid: 0\ndata: {json}\n\n");
        assert_eq!(negotiated(&stream).as_deref(), Some("2025-06-18"));
        let hostile = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025\r\nX: y"}}"#;
        assert_eq!(negotiated(hostile), None);
        assert_eq!(negotiated("not json"), None);
    }
}
