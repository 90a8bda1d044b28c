//! The hostile server over Streamable HTTP (`hostile-server --http PORT`): the same hostile
//! JSON-RPC as over stdio (with `garbage`'s answers: a version from the future echoed, an id
//! past 2^53 rounded, a batch served), behind an endpoint that breaks every rule of the
//! transport once: any `Host` and `Origin` served, a session id issued and then never asked
//! for nor checked, `MCP-Protocol-Version` and the 2026 request headers ignored, a
//! notification answered 200 with a body, a body that is not JSON answered 200, GET answered
//! with a web page, DELETE "ending" a session that goes on, a space in the session id, a call
//! with a progress token answered as an event stream whose resumption (a GET with
//! `Last-Event-ID`) replays another request's answer under an id already used. Each of
//! `conform`'s HTTP checks fails on it.

use super::{Attack, Options};
use axum::body::Bytes;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use std::sync::Arc;

/// The one session id handed out, with a space a session id must not hold.
const SESSION: &str = "hostile session";

/// Serves HTTP on 127.0.0.1:`port` until killed; an exit code.
pub fn run(options: &Options, port: u16) -> i32 {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("hostile: {e}");
            return 1;
        }
    };
    let mut options = options.clone();
    options.attacks.push(Attack::Garbage);
    // A flood needs a stream to flood; each answer here is a body of its own.
    options.attacks.retain(|a| *a != Attack::Flood);
    let options = Arc::new(options);
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(("127.0.0.1", port)).await {
            Ok(listener) => listener,
            Err(e) => {
                eprintln!("hostile: cannot listen on 127.0.0.1:{port}: {e}");
                return 1;
            }
        };
        eprintln!("hostile: ready on http://127.0.0.1:{port}/mcp");
        let app =
            axum::Router::new().fallback(move |method: Method, headers: HeaderMap, body: Bytes| {
                let options = Arc::clone(&options);
                // Its tools block (hang, sleep, stream): each request on a thread of its own.
                async move {
                    tokio::task::spawn_blocking(move || answer(&options, &method, &headers, &body))
                        .await
                        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
                }
            });
        match axum::serve(listener, app).await {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("hostile: {e}");
                1
            }
        }
    })
}

/// The id of every event it sends, and the answer it replays on resuming any stream.
const EVENT_ID: &str = "hostile-1";
const FOREIGN: &str = r#"{"jsonrpc":"2.0","id":"someone-else","result":{}}"#;

/// One request's answer, whatever its headers say (but `Last-Event-ID`).
fn answer(options: &Options, method: &Method, headers: &HeaderMap, body: &[u8]) -> Response {
    match *method {
        Method::GET if headers.contains_key("last-event-id") => {
            event_stream(format!("id: {EVENT_ID}\ndata: {FOREIGN}\n\n"))
        }
        Method::GET => (
            [(header::CONTENT_TYPE, "text/html")],
            "<html><body>not an event stream</body></html>",
        )
            .into_response(),
        // "Ended", and served on all the same.
        Method::DELETE => StatusCode::OK.into_response(),
        Method::POST => posted(options, body),
        _ => StatusCode::OK.into_response(),
    }
}

/// A POST: its message answered as over stdio (a batch served whole), a notification and a
/// body that is not JSON answered 200 with a body.
fn posted(options: &Options, body: &[u8]) -> Response {
    let Ok(message) = serde_json::from_slice::<Value>(body) else {
        return json("{}".into(), false);
    };
    let is_initialize = message["method"] == "initialize";
    let answers: Vec<Value> = match &message {
        Value::Array(items) => (items.iter())
            .filter_map(|m| answered(options, m))
            .collect(),
        one if one.get("id").is_none() => return json("{}".into(), false),
        one => answered(options, one).into_iter().collect(),
    };
    let text = match (&message, answers.as_slice()) {
        (Value::Array(_), _) => Value::Array(answers.clone()).to_string(),
        (_, [one]) => one.to_string(),
        _ => "{}".into(),
    };
    // A call that asks for progress gets a stream, primed with an event id it uses again.
    if message.pointer("/params/_meta/progressToken").is_some() {
        return event_stream(format!(
            "id: {EVENT_ID}\ndata:\n\nid: {EVENT_ID}\ndata: {text}\n\n"
        ));
    }
    json(text, is_initialize)
}

fn event_stream(body: String) -> Response {
    ([(header::CONTENT_TYPE, "text/event-stream")], body).into_response()
}

/// The stdio server's answer to `message`: the last whole message it wrote with an id (the
/// garbage it writes first left out).
fn answered(options: &Options, message: &Value) -> Option<Value> {
    let (wire, written) = super::wire::Wire::buffer();
    let catalog = super::tools::Catalog::new(options);
    super::answer(&wire, options, &catalog, message);
    let bytes = written.take();
    (bytes.split(|b| *b == b'\n'))
        .rev()
        .filter_map(|line| serde_json::from_slice::<Value>(line).ok())
        .find(|m| m.get("id").is_some() && (m.get("result").is_some() || m.get("error").is_some()))
}

fn json(text: String, with_session: bool) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    if with_session {
        headers.insert("mcp-session-id", header::HeaderValue::from_static(SESSION));
    }
    (headers, text).into_response()
}
