//! `mcp-inspect tap --listen 127.0.0.1:PORT --url URL`: the tap for a Streamable HTTP server, a
//! local reverse proxy a host is pointed at instead of the server. Every request (POST, GET
//! streams, DELETE) goes to the server with the host's headers, and every answer comes back
//! with the server's status, headers and body as they stream (event streams chunk by chunk).
//! The JSON-RPC messages on the way are recorded like a stdio tap's (the bodies only: headers,
//! and so `Authorization` and cookies, never; their values are redacted wherever a server
//! echoes them). The proxy answers only this machine's pages: a foreign `Host` or `Origin` is
//! refused with 403 (DNS rebinding).

use super::sessions::{Sink, Tapped};
use crate::mcp::transport::record::Direction;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, StatusCode};
use axum::response::Response;
use futures::StreamExt;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A request body past which a lost connection is likely the server refusing its size.
const LARGE_BODY: usize = 1 << 20;
/// Header values registered as secrets at most (a host sends one token, or a few).
const MAX_SECRETS: usize = 64;
/// Headers that belong to one hop, not passed on either way.
const HOP: [&str; 8] = [
    "host",
    "connection",
    "keep-alive",
    "transfer-encoding",
    "te",
    "trailer",
    "upgrade",
    "content-length",
];
/// Headers whose values are secrets.
const SECRET: [&str; 4] = [
    "authorization",
    "cookie",
    "proxy-authorization",
    "x-api-key",
];

struct Proxy {
    upstream: String,
    client: reqwest::Client,
    recordings: Mutex<Recordings>,
    /// The address served, for the `Host` check.
    local: String,
    port: u16,
    secrets: Mutex<HashSet<String>>,
}

/// Serves the proxy until a signal ends it; an exit code.
pub async fn run(listen: &str, url: &str, keep: usize) -> i32 {
    let parsed = match reqwest::Url::parse(url) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => u,
        _ => {
            eprintln!("mcp-inspect tap: --url {url}: not an http(s) URL");
            return 2;
        }
    };
    let listener = match tokio::net::TcpListener::bind(listen).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("mcp-inspect tap: cannot listen on {listen}: {e}");
            return 1;
        }
    };
    let Ok(local) = listener.local_addr() else {
        return 1;
    };
    // Named by its host (`api.example.com` → `api_example_com`: dots end a name).
    let name = parsed.host_str().unwrap_or("server").replace('.', "_");
    let proxy = Arc::new(Proxy {
        upstream: url.to_string(),
        client: crate::mcp::transport::http::client_keeping(8),
        recordings: Mutex::new(Recordings::new(name, keep)),
        local: local.ip().to_string(),
        port: local.port(),
        secrets: Mutex::new(HashSet::new()),
    });
    eprintln!("mcp-inspect tap: http://{local}/mcp → {url} (point the host at the first)");
    let app = axum::Router::new()
        .fallback(forward)
        .with_state(Arc::clone(&proxy));
    // A signal ends it at once: a host's open event stream must not hold it.
    let stop = async {
        use tokio::signal::unix::{SignalKind, signal};
        match (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        ) {
            (Ok(mut int), Ok(mut term)) => {
                tokio::select! {
                    _ = int.recv() => {}
                    _ = term.recv() => {}
                }
            }
            _ => std::future::pending().await,
        }
    };
    let served = tokio::select! {
        served = axum::serve(listener, app).into_future() => served,
        () = stop => Ok(()),
    };
    let left = match proxy.recordings.lock() {
        Ok(mut recordings) => recordings.take_all(),
        Err(_) => Vec::new(),
    };
    for tapped in left {
        tapped.finish();
    }
    match served {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("mcp-inspect tap: {e}");
            1
        }
    }
}

async fn forward(State(proxy): State<Arc<Proxy>>, request: Request) -> Response {
    if let Some(refused) = foreign(&proxy, request.headers()) {
        return refused;
    }
    let (parts, body) = request.into_parts();
    proxy.keep_secret(&parts.headers);
    let session = parts
        .headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(String::from);
    let Some(body) = Incoming::read(body).await else {
        return plain(
            StatusCode::BAD_REQUEST,
            "the request body could not be read",
        );
    };
    let whole = body.whole();
    let (sink, opening) = proxy.sink_for(session.as_deref(), whole.as_deref().unwrap_or_default());
    // A body longer than a recorded line is passed on, not recorded (as over stdio): never
    // held for a recording that would drop it.
    if let Some(whole) = whole.filter(|w| !w.is_empty()) {
        sink.offer(Direction::Out, whole.to_vec());
    }
    let sent = Arc::new(AtomicUsize::new(0));
    let mut upstream = proxy
        .client
        .request(parts.method.clone(), &proxy.upstream)
        .body(body.passed_on(Arc::clone(&sent)));
    for (name, value) in passed(&parts.headers) {
        upstream = upstream.header(name, value);
    }
    // The host's length goes with the body it frames (sent as it comes, it would otherwise
    // go chunked, which some servers do not read).
    if let Some(length) = parts.headers.get(axum::http::header::CONTENT_LENGTH) {
        upstream = upstream.header(axum::http::header::CONTENT_LENGTH, length);
    }
    let answer = match upstream.send().await {
        Ok(answer) => answer,
        Err(e) => return not_passed_on(&e, sent.load(Ordering::Relaxed)),
    };
    let mut response = Response::builder().status(answer.status().as_u16());
    for (name, value) in passed(answer.headers()) {
        response = response.header(name, value);
    }
    let issued = answer
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok());
    match (&session, issued, opening) {
        (None, Some(issued), Some(opening)) => proxy.session_issued(issued, opening),
        (Some(ended), ..)
            if parts.method == axum::http::Method::DELETE && answer.status().is_success() =>
        {
            proxy.session_ended(ended)
        }
        (_, _, Some(opening)) => proxy.opened_without_session(opening),
        _ => {}
    }
    let body = recorded(answer, sink);
    response.body(Body::from_stream(body)).unwrap_or_else(|_| {
        plain(
            StatusCode::BAD_GATEWAY,
            "the server's answer could not be passed on",
        )
    })
}

/// The server's answer as it streams on to the host, each JSON-RPC message in it handed to
/// `sink` as it is read (a JSON body's once it has ended: an empty last piece says when).
fn recorded(
    answer: reqwest::Response,
    sink: Sink,
) -> impl futures::Stream<Item = Result<Bytes, reqwest::Error>> {
    let stream = answer
        .headers()
        .get("content-type")
        .is_some_and(|t| t.to_str().is_ok_and(|t| t.starts_with("text/event-stream")));
    let reader = Arc::new(Mutex::new(Messages::new(stream)));
    let (streaming, ending, sink_at_end) = (Arc::clone(&reader), reader, sink.clone());
    let body = answer.bytes_stream().map(move |chunk| {
        if let (Ok(bytes), Ok(mut reader)) = (&chunk, streaming.lock()) {
            for message in reader.push(bytes) {
                sink.offer(Direction::In, message);
            }
        }
        chunk
    });
    let end = futures::stream::once(async move {
        if let Some(message) = ending.lock().ok().and_then(|mut r| r.ended()) {
            sink_at_end.offer(Direction::In, message);
        }
        Ok(Bytes::new())
    });
    body.chain(end)
}

/// The 502 for a request the server was not reached with, saying what is likely.
fn not_passed_on(e: &reqwest::Error, body: usize) -> Response {
    let said = crate::mcp::transport::http::describe(e);
    // A server that refuses a large body may close the connection before its refusal (413)
    // can be read back.
    let likely = match body > LARGE_BODY {
        true => format!(
            " (while sending a {:.1} MiB body: the server may have refused it as too large)",
            body as f64 / f64::from(1 << 20)
        ),
        false => String::new(),
    };
    plain(
        StatusCode::BAD_GATEWAY,
        &format!("the server: {said}{likely}"),
    )
}

/// A request body as it arrives: read whole when it fits a recorded line (so it is recorded,
/// and an `initialize` is told apart), else its head and the rest still streaming in, passed
/// on as it comes: the tap never holds more than a recorded line of it.
struct Incoming {
    head: Vec<Bytes>,
    rest: Option<axum::body::BodyDataStream>,
}

impl Incoming {
    /// Reads `body` to its end or past a recorded line; `None` when the host's body broke.
    async fn read(body: Body) -> Option<Incoming> {
        let mut stream = body.into_data_stream();
        let mut head = Vec::new();
        let mut read = 0;
        while let Some(piece) = stream.next().await {
            let piece = piece.ok()?;
            read += piece.len();
            head.push(piece);
            if read > super::sessions::MAX_LINE {
                return Some(Incoming {
                    head,
                    rest: Some(stream),
                });
            }
        }
        Some(Incoming { head, rest: None })
    }

    /// The whole body, when it was read to its end.
    fn whole(&self) -> Option<Bytes> {
        match (&self.rest, self.head.as_slice()) {
            (Some(_), _) => None,
            (None, [one]) => Some(one.clone()),
            (None, pieces) => Some(pieces.concat().into()),
        }
    }

    /// The body for the server, a piece at a time, counting in `sent` what was handed on: a
    /// server that refuses a large body answers (413) before reading it all, and the answer
    /// is read between pieces and passed on, where one write of the whole would fail on the
    /// closed connection.
    fn passed_on(self, sent: Arc<AtomicUsize>) -> reqwest::Body {
        const PIECE: usize = 64 << 10;
        let pieces: Vec<Bytes> = (self.head.into_iter())
            .flat_map(|piece| {
                (0..piece.len().max(1))
                    .step_by(PIECE)
                    .map(|at| piece.slice(at..(at + PIECE).min(piece.len())))
                    .collect::<Vec<_>>()
            })
            .filter(|piece| !piece.is_empty())
            .collect();
        let rest = futures::stream::iter(self.rest)
            .flatten()
            .map(|piece| piece.map_err(std::io::Error::other));
        let all = futures::stream::iter(pieces.into_iter().map(Ok))
            .chain(rest)
            .inspect(move |piece| {
                if let Ok(piece) = piece {
                    sent.fetch_add(piece.len(), Ordering::Relaxed);
                }
            });
        reqwest::Body::wrap_stream(all)
    }
}

/// The recordings: one per session the server issued (`Mcp-Session-Id`), and one for the
/// requests of no session (the 2026-07-28 era is stateless). Each `initialize` opens one of
/// its own, held by its request until the answer names the session: `initialize`s in flight
/// at once never share one.
struct Recordings {
    name: String,
    keep: usize,
    by_session: HashMap<String, Tapped>,
    stateless: Option<Tapped>,
}

/// Sessions recorded apart at most; past it, a session's messages go with the stateless ones.
const MAX_SESSIONS: usize = 256;

impl Recordings {
    fn new(name: String, keep: usize) -> Recordings {
        Recordings {
            name,
            keep,
            by_session: HashMap::new(),
            stateless: None,
        }
    }

    fn start(&self) -> Tapped {
        Tapped::start(std::slice::from_ref(&self.name), self.keep)
    }

    fn stateless(&mut self) -> Sink {
        let tapped = match self.stateless.take() {
            Some(tapped) => tapped,
            None => self.start(),
        };
        let sink = tapped.sink();
        self.stateless = Some(tapped);
        sink
    }

    fn take_all(&mut self) -> Vec<Tapped> {
        let mut all: Vec<Tapped> = self.by_session.drain().map(|(_, t)| t).collect();
        all.extend(self.stateless.take());
        all
    }
}

impl Proxy {
    /// Where a request's messages are recorded: its session's recording (made when the
    /// proxy had not seen the session), a new one for an `initialize` (handed back, for the
    /// request to hold until its answer names the session), else the stateless one.
    fn sink_for(&self, session: Option<&str>, body: &[u8]) -> (Sink, Option<Tapped>) {
        let Ok(mut recordings) = self.recordings.lock() else {
            return (Sink::none(), None);
        };
        if let Some(id) = session {
            if !recordings.by_session.contains_key(id) && recordings.by_session.len() < MAX_SESSIONS
            {
                let tapped = recordings.start();
                recordings.by_session.insert(id.to_string(), tapped);
            }
            let sink = match recordings.by_session.get(id) {
                Some(tapped) => tapped.sink(),
                None => recordings.stateless(),
            };
            return (sink, None);
        }
        let initialize = serde_json::from_slice::<serde_json::Value>(body)
            .is_ok_and(|m| m["method"] == "initialize");
        if !initialize {
            return (recordings.stateless(), None);
        }
        let tapped = recordings.start();
        (tapped.sink(), Some(tapped))
    }

    /// The answer to an `initialize` named its session: its recording is that session's.
    fn session_issued(&self, id: &str, opening: Tapped) {
        let Ok(mut recordings) = self.recordings.lock() else {
            return;
        };
        match recordings.by_session.len() < MAX_SESSIONS {
            true => drop(recordings.by_session.insert(id.to_string(), opening)),
            false => drop(recordings),
        }
    }

    /// An `initialize` answered without a session (a stateless server, or an error): its
    /// recording is the stateless one when there is none yet, else it ends here (what its
    /// answer still streams is written all the same).
    fn opened_without_session(&self, opening: Tapped) {
        let Ok(mut recordings) = self.recordings.lock() else {
            return;
        };
        match recordings.stateless.is_none() {
            true => recordings.stateless = Some(opening),
            false => {
                drop(recordings);
                std::thread::spawn(move || opening.finish());
            }
        }
    }

    /// A session ended (DELETE answered): its recording is finished.
    fn session_ended(&self, id: &str) {
        let ended = match self.recordings.lock() {
            Ok(mut recordings) => recordings.by_session.remove(id),
            Err(_) => None,
        };
        if let Some(tapped) = ended {
            // Finishing waits for the recording to catch up: not on the proxy's thread.
            std::thread::spawn(move || tapped.finish());
        }
    }

    /// The host's secret header values, redacted wherever they appear in what is recorded.
    fn keep_secret(&self, headers: &HeaderMap) {
        let Ok(mut kept) = self.secrets.lock() else {
            return;
        };
        for name in SECRET {
            for value in headers.get_all(name) {
                let Ok(value) = value.to_str() else { continue };
                if kept.len() < MAX_SECRETS && kept.insert(value.to_string()) {
                    crate::secrets::register(value);
                }
            }
        }
    }
}

/// 403 for a page of another site (DNS rebinding): a `Host` that is not the address served,
/// or an `Origin` that is not this machine's.
fn foreign(proxy: &Proxy, headers: &HeaderMap) -> Option<Response> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let local_names = ["localhost", "127.0.0.1", "[::1]", proxy.local.as_str()];
    let ours = |host: &str| {
        let (name, port) = host.rsplit_once(':').unwrap_or((host, ""));
        local_names.contains(&name) && (port.is_empty() || port == proxy.port.to_string())
    };
    let host_ok = header("host").is_none_or(ours);
    let origin_ok = header("origin").is_none_or(|origin| {
        reqwest::Url::parse(origin).is_ok_and(|u| {
            u.host_str()
                .is_some_and(|h| local_names.contains(&h) || h == "::1")
        })
    });
    (!host_ok || !origin_ok).then(|| {
        plain(
            StatusCode::FORBIDDEN,
            "not this machine's page (Host or Origin)",
        )
    })
}

/// The headers passed on: all but the hop-by-hop ones.
fn passed(headers: &HeaderMap) -> Vec<(HeaderName, axum::http::HeaderValue)> {
    (headers.iter())
        .filter(|(name, _)| !HOP.contains(&name.as_str()))
        .map(|(n, v)| (n.clone(), v.clone()))
        .collect()
}

fn plain(status: StatusCode, said: &str) -> Response {
    Response::builder()
        .status(status)
        .header("content-type", "text/plain")
        .body(Body::from(said.to_string()))
        .unwrap_or_default()
}

/// The JSON-RPC messages in a response body as it streams: each event's `data` in an event
/// stream, else the whole body (bounded like a recorded line).
struct Messages {
    stream: bool,
    lines: super::sessions::Lines,
    data: Vec<u8>,
    /// The event being read went past the cap: its data is skipped to its end.
    overlong: bool,
    whole: Vec<u8>,
}

impl Messages {
    fn new(stream: bool) -> Messages {
        Messages {
            stream,
            lines: super::sessions::Lines::default(),
            data: Vec::new(),
            overlong: false,
            whole: Vec::new(),
        }
    }

    /// At the body's end: a JSON body, when it is one whole message read (parsed once).
    fn ended(&mut self) -> Option<Vec<u8>> {
        let whole = std::mem::take(&mut self.whole);
        let parses = serde_json::from_slice::<serde::de::IgnoredAny>(&whole).is_ok();
        (!self.stream && !self.overlong && parses).then_some(whole)
    }

    /// The messages `chunk` completes (of a JSON body, none: it is whole at [`Self::ended`]).
    fn push(&mut self, chunk: &[u8]) -> Vec<Vec<u8>> {
        if !self.stream {
            if self.overlong || self.whole.len() + chunk.len() > super::sessions::MAX_LINE {
                // Too long to record; forwarded all the same.
                self.whole = Vec::new();
                self.overlong = true;
            } else {
                self.whole.extend_from_slice(chunk);
            }
            return Vec::new();
        }
        let mut done = Vec::new();
        for line in self.lines.push(chunk) {
            let line = line.strip_suffix(b"\r").unwrap_or(&line);
            if line.is_empty() {
                if !self.data.is_empty() {
                    done.push(std::mem::take(&mut self.data));
                }
                self.overlong = false;
            } else if let Some(data) = line.strip_prefix(b"data:") {
                let data = data.strip_prefix(b" ").unwrap_or(data);
                // An event without end (data lines and never a blank one) is not kept whole:
                // past the recording's cap it is dropped, forwarded all the same.
                if self.data.len() + data.len() + 1 > super::sessions::MAX_LINE {
                    self.data = Vec::new();
                    self.overlong = true;
                    continue;
                }
                if self.overlong {
                    continue;
                }
                if !self.data.is_empty() {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(data);
            }
        }
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_read_from_a_stream_split_anywhere_and_from_a_json_body() {
        let mut stream = Messages::new(true);
        let text = b"event: message\r\nid: 1\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\r\n\r\ndata: {\"a\":1}\n\n: ping\n\n";
        let mut got = Vec::new();
        for piece in text.chunks(5) {
            got.extend(stream.push(piece));
        }
        assert_eq!(
            got,
            [
                b"{\"jsonrpc\":\"2.0\",\"id\":1,".to_vec(),
                b"{\"a\":1}".to_vec()
            ]
        );
        // An event that never ends keeps no more than the cap.
        let mut endless = Messages::new(true);
        let line = format!("data: {}\n", "x".repeat(1 << 20));
        for _ in 0..40 {
            assert!(endless.push(line.as_bytes()).is_empty());
        }
        assert!(endless.data.len() <= super::super::sessions::MAX_LINE);
        assert!(
            endless
                .push(b"\ndata: {}\n\n")
                .iter()
                .eq([b"{}".to_vec()].iter())
        );
        let mut json = Messages::new(false);
        assert!(json.push(b"{\"jsonrpc\":").is_empty());
        assert!(json.push(b"\"2.0\"}").is_empty());
        assert_eq!(json.ended(), Some(b"{\"jsonrpc\":\"2.0\"}".to_vec()));
        // A body past a recorded line is not kept, nor its tail.
        let mut long = Messages::new(false);
        long.push(&vec![b' '; super::super::sessions::MAX_LINE]);
        long.push(b"{}");
        assert_eq!(long.ended(), None);
    }
}
