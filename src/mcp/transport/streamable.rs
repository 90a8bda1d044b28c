//! Our HTTP client under rmcp's Streamable HTTP worker: it makes the POSTs itself, so every
//! message the server sends is seen as sent (JSON body or SSE event) before rmcp parses it. The
//! protocol pane, `--record`, the Raw view and `--format json` then show the server's own
//! bytes: fields rmcp's types do not know, key order, numbers as written, and tools rmcp's
//! worker would drop (an invalid `x-mcp-header`). The worker keeps what it does well: sessions,
//! protocol headers, resumption, the GET stream.

use crate::mcp::oauth::{AuthFailure, Authorizer};
use crate::mcp::session::events::{EventSink, ServerEvent};
use crate::mcp::transport::raw::{Pass, RawResponses};
use crate::mcp::transport::sse::{self, Event};
use crate::mcp::transport::wire::{Direction, HttpExchange};
use futures::StreamExt;
use futures::stream::BoxStream;
use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ErrorData, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_client::{
    AuthRequiredError, HttpStatusError, InsufficientScopeError, SseError, StreamableHttpClient,
    StreamableHttpError, StreamableHttpPostResponse,
};
use serde_json::Value;
use sse_stream::Sse;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::io::BufReader;

const SESSION_ID: &str = "mcp-session-id";
const EVENT_STREAM: &str = "text/event-stream";
const JSON: &str = "application/json";
/// Most of an HTTP error body kept for the message.
const ERROR_BODY: usize = 8 * 1024;

type Error = StreamableHttpError<reqwest::Error>;
type Events = BoxStream<'static, Result<Sse, SseError>>;

/// rmcp's Streamable HTTP client, on our reqwest client, with every server message screened
/// and tapped as it arrived.
#[derive(Clone)]
pub struct WireClient {
    http: reqwest::Client,
    raw: RawResponses,
    events: EventSink,
    /// OAuth: the token for each request, and the flow a 401 or 403 `insufficient_scope` runs.
    auth: Option<Arc<Authorizer>>,
    /// Where and how the last message was posted: the server's refused requests are answered
    /// the same way.
    last_post: Arc<Mutex<Option<PostedTo>>>,
    /// Ends the writer of refusals when rmcp lets go of the last copy of this client.
    _refusals: Option<Arc<AbortOnDrop>>,
    /// A response just gave a DPoP nonce (see [`WireClient::nonce_noted`]).
    nonce_seen: Arc<std::sync::atomic::AtomicBool>,
}

/// The URL, session and headers of a POST.
#[derive(Clone)]
struct PostedTo {
    uri: Arc<str>,
    session_id: Option<Arc<str>>,
    auth_token: Option<String>,
    headers: HashMap<HeaderName, HeaderValue>,
}

impl WireClient {
    /// A client whose refusals of the server's requests (over the cap in flight, see
    /// [`RawResponses`]) are posted to the server as soon as they are queued, one at a time.
    pub fn new(
        http: reqwest::Client,
        raw: RawResponses,
        events: EventSink,
        auth: Option<Arc<Authorizer>>,
    ) -> WireClient {
        let writer = WireClient {
            http,
            raw,
            events,
            auth,
            last_post: Arc::default(),
            _refusals: None,
            nonce_seen: Arc::default(),
        };
        let task = tokio::spawn(writer.clone().write_refusals());
        WireClient {
            _refusals: Some(Arc::new(AbortOnDrop(task.abort_handle()))),
            ..writer
        }
    }

    /// Posts each refusal queued, where the last message went (a server that reads none of
    /// them holds this writer, and the queue stays bounded: see [`RawResponses`]).
    async fn write_refusals(self) {
        loop {
            self.raw.refusals_queued().await;
            for refusal in self.raw.take_refusals() {
                let posted = self.last_post.lock().ok().and_then(|p| p.clone());
                let (Some(to), Ok(message)) = (posted, serde_json::from_slice(&refusal)) else {
                    continue;
                };
                let token = self.token_or(to.auth_token).await;
                let sent = self.post_once(to.uri, &message, to.session_id, token, to.headers);
                let _ = sent.await;
            }
        }
    }
}

impl StreamableHttpClient for WireClient {
    type Error = reqwest::Error;

    /// Posts `message`; with OAuth, a 401 mid-session authorizes again once and a 403
    /// `insufficient_scope` asks for more scope (bounded by the authorizer), then the same
    /// message goes again with the new token.
    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Error> {
        let Some(auth) = &self.auth else {
            let headers = custom_headers;
            return self
                .post_once(uri, &message, session_id, auth_token, headers)
                .await;
        };
        let (mut authorized_again, mut nonce_given_once) = (false, false);
        loop {
            let (token, generation) = auth.token().await;
            let headers = custom_headers.clone();
            let sent = self.post_once(uri.clone(), &message, session_id.clone(), token, headers);
            let outcome = match sent.await {
                // A DPoP nonce asked for and given (RFC 9449 §9): the same request once more.
                Err(Error::AuthRequired(e))
                    if !nonce_given_once
                        && crate::mcp::oauth::dpop::wants_nonce(&e.www_authenticate_header)
                        && self
                            .nonce_seen
                            .swap(false, std::sync::atomic::Ordering::SeqCst) =>
                {
                    nonce_given_once = true;
                    continue;
                }
                Err(Error::AuthRequired(e)) if !authorized_again => {
                    authorized_again = true;
                    let challenge = e.www_authenticate_header.clone();
                    (
                        auth.unauthorized(&challenge, generation).await,
                        Error::AuthRequired(e),
                    )
                }
                Err(Error::InsufficientScope(e)) => {
                    let challenge = e.www_authenticate_header.clone();
                    (
                        auth.forbidden(&challenge, generation).await,
                        Error::InsufficientScope(e),
                    )
                }
                other => {
                    if other.is_ok() {
                        auth.succeeded();
                    }
                    return other;
                }
            };
            match outcome {
                (Ok(()), _) => continue,
                (Err(AuthFailure::NeedsUser | AuthFailure::NoOAuth), error) => return Err(error),
                (Err(AuthFailure::Failed(why)), _) => {
                    self.events
                        .send(ServerEvent::Notice(format!("authorization failed: {why}")));
                    return Err(Error::UnexpectedServerResponse(Cow::Owned(format!(
                        "authorization failed: {why}"
                    ))));
                }
            }
        }
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Error> {
        let token = self.token_or(auth_token).await;
        let request = self.http.delete(uri.as_ref());
        let request = self.with_session(
            request,
            ("DELETE", &uri),
            Some(session_id),
            token,
            custom_headers,
        );
        let response = request.send().await.map_err(Error::Client)?;
        // A server that does not end sessions on request says 405: nothing more to do.
        if response.status().as_u16() == 405 {
            return Ok(());
        }
        response
            .error_for_status()
            .map(|_| ())
            .map_err(Error::Client)
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<Events, Error> {
        let auth_token = self.token_or(auth_token).await;
        let mut request = self.http.get(uri.as_ref()).header("accept", EVENT_STREAM);
        if let Some(id) = last_event_id {
            request = request.header("last-event-id", id);
        }
        let request = self
            .with_session(
                request,
                ("GET", &uri),
                session_id,
                auth_token,
                custom_headers,
            )
            .build()
            .map_err(Error::Client)?;
        let sent = HttpExchange::headers(request.headers());
        let response = self.http.execute(request).await.map_err(Error::Client)?;
        self.nonce_noted(&uri, &response);
        if response.status().as_u16() == 405 {
            return Err(Error::ServerDoesNotSupportSse);
        }
        challenge(&response)?;
        if let Some(error) = status_error(&response) {
            return Err(error.into());
        }
        let response = response.error_for_status().map_err(Error::Client)?;
        match header(&response, "content-type") {
            Some(c) if c.to_ascii_lowercase().starts_with(EVENT_STREAM) => {
                let exchange = HttpExchange {
                    method: "GET",
                    status: Some(response.status().as_u16()),
                    sent,
                    received: HttpExchange::headers(response.headers()),
                    ..HttpExchange::default()
                };
                Ok(self.event_stream(response, Some(Arc::new(exchange))))
            }
            other => Err(Error::UnexpectedContentType(other.map(str::to_string))),
        }
    }
}

impl WireClient {
    /// What every request of the session carries: its id, the token (with OAuth presented as
    /// the authorizer says: `Bearer`, or `DPoP` with a proof for `method` on `uri`), the
    /// worker's headers (protocol version, `Mcp-Method` …) and the user's.
    fn with_session(
        &self,
        mut request: reqwest::RequestBuilder,
        (method, uri): (&str, &str),
        session_id: Option<Arc<str>>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> reqwest::RequestBuilder {
        if let Some(id) = session_id {
            request = request.header(SESSION_ID, id.as_ref());
        }
        match (&self.auth, auth_token) {
            (Some(auth), Some(token)) => {
                for (name, value) in auth.present(&token, method, uri) {
                    request = request.header(name, value);
                }
            }
            (None, Some(token)) => request = request.bearer_auth(token),
            (_, None) => {}
        }
        for (name, value) in custom_headers {
            request = request.header(name, value);
        }
        request
    }

    /// A `DPoP-Nonce` the response carried is kept (and `nonce_seen` set: a `use_dpop_nonce`
    /// refusal is then worth one more try with it).
    fn nonce_noted(&self, uri: &str, response: &reqwest::Response) {
        let given = self
            .auth
            .as_ref()
            .is_some_and(|auth| auth.noted(uri, response.headers()));
        if given {
            self.nonce_seen
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }

    /// The OAuth token when there is an authorizer, else the one rmcp passes.
    async fn token_or(&self, given: Option<String>) -> Option<String> {
        match &self.auth {
            Some(auth) => auth.token().await.0,
            None => given,
        }
    }

    /// One POST of `message`: its answer as rmcp expects it, every message on the way tapped.
    async fn post_once(
        &self,
        uri: Arc<str>,
        message: &ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Error> {
        let posted = PostedTo {
            uri: uri.clone(),
            session_id,
            auth_token,
            headers: custom_headers,
        };
        if let Ok(mut last) = self.last_post.lock() {
            *last = Some(posted.clone());
        }
        let body = serde_json::to_string(message).map_err(Error::Deserialize)?;
        let sent: Option<Value> = serde_json::from_str(&body).ok();
        if let Some(sent) = &sent {
            self.raw.expect(sent);
        }
        let session_was_attached = posted.session_id.is_some();
        let request = self.post_request(posted, body.clone())?;
        let mut exchange = HttpExchange {
            method: "POST",
            sent: HttpExchange::headers(request.headers()),
            ..HttpExchange::default()
        };
        // The message is tapped once its exchange is known (its time is when it went), and
        // before anything that came back is.
        let at = Instant::now();
        let note = |exchange: HttpExchange| {
            if let Some(sent) = &sent {
                let tap = self.raw.tap();
                tap.note_http(Direction::Out, sent, &body, at, Some(Arc::new(exchange)));
            }
        };
        let response = match self.http.execute(request).await {
            Ok(response) => response,
            Err(e) => {
                exchange.error = Some(self.unreachable(&uri, &e));
                note(exchange);
                return Err(Error::Client(e));
            }
        };
        let status = response.status();
        exchange.status = Some(status.as_u16());
        exchange.received = HttpExchange::headers(response.headers());
        self.nonce_noted(&uri, &response);
        if let Err(e) = challenge(&response) {
            note(exchange);
            return Err(e);
        }
        if matches!(status.as_u16(), 202 | 204) {
            note(exchange);
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if status.as_u16() == 404 && session_was_attached {
            note(exchange);
            self.session_lost("HTTP 404");
            return Err(Error::SessionExpired);
        }
        let session = header(&response, SESSION_ID).map(str::to_string);
        let content_type = header(&response, "content-type").map(str::to_ascii_lowercase);
        // Notifications and answers to the server's requests await nothing: whatever a
        // server sends back for them (an empty 200, some JSON) is as good as 202.
        let awaits_nothing = !matches!(message, ClientJsonRpcMessage::Request(_));
        if !status.is_success() {
            let refused = Refused {
                message,
                session_was_attached,
                status,
            };
            return self.refused(response, refused, exchange, &note).await;
        }
        note(exchange);
        self.accepted(response, awaits_nothing, session, content_type)
            .await
    }

    /// The POST of `body` with the session's, the credential's and the user's headers.
    fn post_request(&self, to: PostedTo, body: String) -> Result<reqwest::Request, Error> {
        let request = self
            .http
            .post(to.uri.as_ref())
            .header("accept", format!("{EVENT_STREAM}, {JSON}"))
            .header("content-type", JSON);
        let uri = to.uri.clone();
        self.with_session(
            request,
            ("POST", &uri),
            to.session_id,
            to.auth_token,
            to.headers,
        )
        .body(body)
        .build()
        .map_err(Error::Client)
    }

    /// A POST that reached no server: said in the log (rmcp ends the session on this; the log
    /// says why, "connection refused"), with the URL without its query, which may carry a
    /// credential. Returns why, for the protocol pane.
    fn unreachable(&self, uri: &str, e: &reqwest::Error) -> String {
        let why = crate::mcp::transport::http::describe(e);
        let url = reqwest::Url::parse(uri).map(|mut url| {
            url.set_query(None);
            url.to_string()
        });
        self.events.send(ServerEvent::Notice(format!(
            "POST to {} failed: {why}",
            crate::untrusted::line(url.as_deref().unwrap_or("the server"), 200)
        )));
        why
    }

    /// An HTTP error status: a session the server forgot, a JSON-RPC error for the request
    /// it came back on, or the failure in words.
    async fn refused(
        &self,
        response: reqwest::Response,
        refused: Refused<'_>,
        mut exchange: HttpExchange,
        note: &(dyn Fn(HttpExchange) + Sync),
    ) -> Result<StreamableHttpPostResponse, Error> {
        let Refused {
            message,
            session_was_attached,
            status,
        } = refused;
        let retry_after = header(&response, "retry-after").map(str::to_string);
        let (text, _) = read_body(response, ERROR_BODY).await;
        let error = serde_json::from_str::<ServerJsonRpcMessage>(&text)
            .ok()
            .filter(|m| matches!(m, ServerJsonRpcMessage::Error(_)));
        if error.is_none() {
            exchange.body = Some(crate::untrusted::line(&text, 300).into_owned());
        }
        note(exchange);
        // A restarted server answers a session it forgot with 400 rather than the 404
        // the spec asks for (the TypeScript SDK: "No valid session ID provided"): the
        // same loss, so the same recovery.
        if session_was_attached
            && status.as_u16() == 400
            && text.to_ascii_lowercase().contains("session")
        {
            self.session_lost(&format!("HTTP 400: {}", crate::untrusted::line(&text, 120)));
            return Err(Error::SessionExpired);
        }
        // An HTTP error whose JSON-RPC error names no id (servers send `"id": null` for
        // a request they refused before reading it) answers the request it came back on:
        // the caller hears it now rather than at its timeout.
        let error = match (error, message) {
            (Some(ServerJsonRpcMessage::Error(e)), ClientJsonRpcMessage::Request(request))
                if e.id.is_none() =>
            {
                let answer = ServerJsonRpcMessage::error(e.error, Some(request.id.clone()));
                // Tapped as sent; sorted as the answer it now is.
                if let Ok(sent) = serde_json::from_str::<Value>(&text) {
                    self.raw.tap().note(Direction::In, &sent, &text);
                }
                if let Ok(value) = serde_json::to_value(&answer) {
                    self.raw.record(value, text.len());
                }
                return Ok(StreamableHttpPostResponse::Json(answer, None));
            }
            (error, _) => error,
        };
        if error.is_some() {
            sse::admit(&text, &self.raw, &self.events, None);
        }
        failed(
            message,
            session_was_attached,
            status,
            retry_after,
            error,
            text,
        )
    }

    /// A success status: an event stream, JSON, or nothing awaited.
    async fn accepted(
        &self,
        response: reqwest::Response,
        awaits_nothing: bool,
        session: Option<String>,
        content_type: Option<String>,
    ) -> Result<StreamableHttpPostResponse, Error> {
        let is = |kind: &str| content_type.as_deref().is_some_and(|c| c.starts_with(kind));
        if is(EVENT_STREAM) {
            return Ok(StreamableHttpPostResponse::Sse(
                self.event_stream(response, None),
                session,
            ));
        }
        if !is(JSON) {
            return match awaits_nothing {
                true => Ok(StreamableHttpPostResponse::Accepted),
                false => Err(Error::UnexpectedContentType(content_type)),
            };
        }
        let (text, cut) =
            read_body(response, crate::mcp::transport::stdio::MAX_MESSAGE_BYTES).await;
        if cut {
            return Err(Error::ResponseBodyTooLarge {
                max_size: crate::mcp::transport::stdio::MAX_MESSAGE_BYTES,
            });
        }
        if text.trim().is_empty() && awaits_nothing {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        let text = match sse::admit(&text, &self.raw, &self.events, None) {
            Pass::Drop => return Ok(StreamableHttpPostResponse::Accepted),
            Pass::AsSent => text,
            Pass::Instead(stub) => stub,
        };
        match serde_json::from_str::<ServerJsonRpcMessage>(&text) {
            Ok(parsed) => Ok(StreamableHttpPostResponse::Json(parsed, session)),
            Err(_) if awaits_nothing => Ok(StreamableHttpPostResponse::Accepted),
            Err(e) => Err(Error::UnexpectedServerResponse(Cow::Owned(format!(
                "the server answered with JSON that is not JSON-RPC: {e}"
            )))),
        }
    }

    /// Says that the server forgot our HTTP session; rmcp's worker then makes a new one (a new
    /// handshake) and sends the request again, once.
    fn session_lost(&self, why: &str) {
        self.events.send(ServerEvent::Notice(format!(
            "the server no longer knows this HTTP session ({why}): a new handshake opens another"
        )));
    }

    /// The response's events, each message screened and tapped; oversized or unusable ones
    /// are dropped with a notice (as on the legacy SSE transport).
    /// `exchange`: the GET that opened the stream, shown with each message on it (a POST's
    /// exchange is shown with the message that was posted).
    fn event_stream(
        &self,
        response: reqwest::Response,
        exchange: Option<Arc<HttpExchange>>,
    ) -> Events {
        let bytes = response
            .bytes_stream()
            .map(|r| r.map_err(std::io::Error::other));
        let reader = BufReader::new(tokio_util::io::StreamReader::new(bytes));
        let (raw, events) = (self.raw.clone(), self.events.clone());
        futures::stream::unfold(reader, move |mut reader| {
            let (raw, events, exchange) = (raw.clone(), events.clone(), exchange.clone());
            async move {
                loop {
                    let event = match sse::next_event(&mut reader).await? {
                        Ok(event) => event,
                        Err(size) => {
                            sse::oversized(size, &events);
                            continue;
                        }
                    };
                    let mut event = event;
                    let is_message = matches!(event.name.as_deref(), None | Some("message"));
                    if is_message && !event.data.is_empty() {
                        match sse::admit(&event.data, &raw, &events, exchange.clone()) {
                            Pass::Drop => continue,
                            Pass::AsSent => {}
                            Pass::Instead(stub) => event.data = stub,
                        }
                    }
                    return Some((Ok(to_sse(event)), reader));
                }
            }
        })
        .boxed()
    }
}

/// A POST answered with an error status: the server's JSON-RPC error when the body is one,
/// else the status (rate limits and server errors as rmcp's retryable kind).
fn failed(
    message: &ClientJsonRpcMessage,
    session_was_attached: bool,
    status: reqwest::StatusCode,
    retry_after: Option<String>,
    error: Option<ServerJsonRpcMessage>,
    body: String,
) -> Result<StreamableHttpPostResponse, Error> {
    // A legacy server rejects `server/discover` with a 4xx of its own making, often
    // without our id (the Python SDK sends "server-error"): answered as an error to the
    // probe, so the handshake falls back to `initialize` instead of failing.
    if let ClientJsonRpcMessage::Request(request) = message
        && matches!(request.request, ClientRequest::DiscoverRequest(_))
        && !session_was_attached
        && status.is_client_error()
        && !matches!(status.as_u16(), 401 | 403)
    {
        let data = match &error {
            Some(ServerJsonRpcMessage::Error(e)) => e.error.clone(),
            _ => ErrorData::invalid_request(
                format!(
                    "server/discover rejected with HTTP {status}: {}",
                    crate::untrusted::line(&body, 300)
                ),
                None,
            ),
        };
        return Ok(StreamableHttpPostResponse::Json(
            ServerJsonRpcMessage::error(data, Some(request.id.clone())),
            None,
        ));
    }
    if let Some(error) = error {
        return Ok(StreamableHttpPostResponse::Json(error, None));
    }
    if status.as_u16() == 429 || status.is_server_error() {
        return Err(HttpStatusError::new(status.as_u16(), retry_after).into());
    }
    Err(Error::UnexpectedServerResponse(Cow::Owned(format!(
        "HTTP {status}: {}",
        crate::mcp::transport::http::body_in_words(&body)
    ))))
}

/// A 401 or 403 with a challenge, as rmcp's errors (the challenge is kept for the message).
fn challenge(response: &reqwest::Response) -> Result<(), Error> {
    let Some(value) = header(response, "www-authenticate") else {
        return Ok(());
    };
    match response.status().as_u16() {
        401 => Err(Error::AuthRequired(AuthRequiredError::new(value.into()))),
        403 => {
            let scope = value
                .split(',')
                .find_map(|part| part.trim().strip_prefix("scope="))
                .map(|s| s.trim_matches('"').to_string());
            Err(Error::InsufficientScope(InsufficientScopeError::new(
                value.into(),
                scope,
            )))
        }
        _ => Ok(()),
    }
}

/// A rate limit or server error, which rmcp may retry after the server's `Retry-After`.
fn status_error(response: &reqwest::Response) -> Option<HttpStatusError> {
    let status = response.status();
    (status.as_u16() == 429 || status.is_server_error()).then(|| {
        HttpStatusError::new(
            status.as_u16(),
            header(response, "retry-after").map(str::to_string),
        )
    })
}

fn header<'r>(response: &'r reqwest::Response, name: &str) -> Option<&'r str> {
    response.headers().get(name).and_then(|v| v.to_str().ok())
}

/// At most `max` bytes of the body (read no further), and whether there was more.
async fn read_body(mut response: reqwest::Response, max: usize) -> (String, bool) {
    let mut body = Vec::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        let room = max - body.len();
        body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if chunk.len() > room {
            return (String::from_utf8_lossy(&body).into_owned(), true);
        }
    }
    (String::from_utf8_lossy(&body).into_owned(), false)
}

fn to_sse(event: Event) -> Sse {
    Sse {
        event: event.name,
        data: (!event.data.is_empty()).then_some(event.data),
        id: event.id,
        retry: event.retry,
    }
}

/// Aborts a task when dropped.
struct AbortOnDrop(tokio::task::AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// What a refused POST was and how it went out.
struct Refused<'a> {
    message: &'a ClientJsonRpcMessage,
    session_was_attached: bool,
    status: reqwest::StatusCode,
}
