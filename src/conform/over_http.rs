//! The checks only raw HTTP can make, on a Streamable HTTP server: DNS rebinding refused (a
//! foreign `Host` or `Origin` answered 403), the `MCP-Protocol-Version` header checked, sessions
//! issued, required and ended as the transport says, a notification accepted with 202, and a
//! GET answered with a stream or 405. Each request is made apart from the session the other
//! checks use (with the user's `--header`s), and each check is judged by a pure function of the
//! statuses that came back.

use super::{Finding, Level, Status, finding};
use crate::config::target::{Header, HttpTransport, Target};
use crate::schema::Era;
use serde::Serialize;
use serde_json::{Value, json};
use std::time::Duration;

const SECURITY: &str = "basic/transports#security-warning (DNS rebinding)";
const SESSIONS: &str = "basic/transports#session-management";
const VERSION_HEADER: &str = "basic/transports#protocol-version-header";
const SENDING: &str = "basic/transports#sending-messages-to-the-server";
const LISTENING: &str = "basic/transports#listening-for-messages-from-the-server";

/// How long one request may take, headers and the body we read.
const WAIT: Duration = Duration::from_secs(10);
/// The most of a body read (an initialize answer; the rest is not needed).
const BODY_MAX: usize = 1 << 20;
/// A host and an origin no local server serves.
const FOREIGN_HOST: &str = "evil.example.com";
const FOREIGN_ORIGIN: &str = "http://evil.example.com";
/// Header values no server supports: malformed, before any version, after any version.
const BAD_VERSIONS: [&str; 3] = ["invalid-protocol-version", "2000-01-01", "2099-01-01"];
/// The last protocol version with `initialize` and sessions.
pub(super) const LAST_WITH_SESSIONS: &str = "2025-11-25";
/// The first protocol version with the `MCP-Protocol-Version` header.
const FIRST_WITH_VERSION_HEADER: &str = "2025-06-18";
/// A session id no server issued.
const NO_SUCH_SESSION: &str = "mcp-inspect-conform-no-such-session";

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

/// The ids of the checks here, in the order they run.
pub const IDS: [&str; 8] = [
    "http-foreign-host-refused",
    "http-foreign-origin-refused",
    "http-notification-accepted",
    "http-protocol-version-checked",
    "http-session-required",
    "http-unknown-session-404",
    "http-get-stream-or-405",
    "http-terminated-session-404",
];

fn checks() -> [Finding; 8] {
    let rule = |i: usize, rule, level, spec| finding(IDS[i], rule, level, spec);
    [
        rule(
            0,
            "a request naming a foreign Host is refused with 403",
            Level::Must,
            SECURITY,
        ),
        rule(
            1,
            "a request from a foreign Origin is refused with 403",
            Level::Must,
            SECURITY,
        ),
        rule(
            2,
            "a notification POSTed is accepted with 202 and no body",
            Level::Must,
            SENDING,
        ),
        rule(
            3,
            "a request with an invalid or unsupported MCP-Protocol-Version is refused with 400",
            Level::Must,
            VERSION_HEADER,
        ),
        rule(
            4,
            "a request without the session id the server issued is refused with 400",
            Level::Should,
            SESSIONS,
        ),
        rule(
            5,
            "a session id the server never issued is answered 404",
            Level::Should,
            SESSIONS,
        ),
        rule(
            6,
            "a GET is answered with an event stream or 405",
            Level::Must,
            LISTENING,
        ),
        rule(
            7,
            "after DELETE ends a session, a request bearing its id is answered 404",
            Level::Must,
            SESSIONS,
        ),
    ]
}

/// The checks here `selection` wants, on `target` when it is a Streamable HTTP server (else
/// each not applicable); `version` is the one the session negotiated, `era` its era.
pub async fn run(
    target: &Target,
    version: &str,
    era: Era,
    selection: &super::Selection,
) -> Vec<Finding> {
    let mut found = every_check(target, version, era).await;
    found.retain(|f| selection.wants(f.id));
    found
}

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

async fn every_check(target: &Target, version: &str, era: Era) -> Vec<Finding> {
    let checks = checks();
    let Target::Http {
        url,
        transport: HttpTransport::Streamable,
        headers,
    } = target
    else {
        return not_run(checks, "needs a Streamable HTTP server");
    };
    let raw = Raw::new(url, headers);
    // `initialize` and sessions belong to the eras before 2026-07-28: a server of both eras
    // is asked in the last of them.
    let version = match era {
        Era::Modern => LAST_WITH_SESSIONS,
        Era::Legacy => version,
    };
    let [host, origin, rest @ ..] = checks;
    let local = is_local(url);
    let mut found = vec![
        match local {
            true => foreign(&raw, host, ("Host", FOREIGN_HOST), version).await,
            false => host.not_applicable(
                "the server is not on this machine (a public server names its own hosts)",
            ),
        },
        match local {
            true => foreign(&raw, origin, ("Origin", FOREIGN_ORIGIN), version).await,
            false => origin.not_applicable(
                "the server is not on this machine (it decides which browser origins are its own)",
            ),
        },
    ];
    found.push(super::http_lines::version_negotiation(&raw).await);
    found.extend(in_a_session(&raw, rest, version).await);
    found
}

/// The checks that need a session opened by hand: initialize, then `initialized`.
async fn in_a_session(raw: &Raw<'_>, checks: [Finding; 6], version: &str) -> Vec<Finding> {
    let [notification, header, required, unknown, get, terminated] = checks;
    let opened = match raw.open(version).await {
        Ok(opened) => opened,
        Err(why) => {
            let why = format!("an initialize of its own failed: {why}");
            let lines = [
                super::hygiene::notification_unanswered(),
                super::hygiene::string_id_echoed(),
                super::hygiene::large_id_echoed(),
                super::hygiene::batch_refused(),
                super::hygiene::parse_error(),
            ];
            let mut found = not_run(
                [notification, header, required, unknown, get, terminated],
                &why,
            );
            found.extend(not_run(lines, &why));
            return found;
        }
    };
    let notification =
        notification.judged_http(opened.sent(&[]), accepted_202(&opened.initialized));
    let header = version_header(raw, &opened, header).await;
    let (required, unknown) = match &opened.session {
        None => (
            required.not_applicable("the server issued no session id (it is stateless)"),
            unknown.not_applicable("the server issued no session id (it is stateless)"),
        ),
        Some(_) => {
            let named = ("MCP-Protocol-Version", opened.version.as_str());
            let without = tools_list(&[named], false);
            let got = raw.send(&without, None).await;
            let required = required.judged_http(opened.sent(&[without]), status_is(&got, 400));
            let stranger = tools_list(&[named, ("Mcp-Session-Id", NO_SUCH_SESSION)], false);
            let got = raw.send(&stranger, None).await;
            let unknown = unknown.judged_http(opened.sent(&[stranger]), status_is(&got, 404));
            (required, unknown)
        }
    };
    let get = stream_or_405_check(raw, &opened, get).await;
    let lines = super::http_lines::in_session(raw, &opened).await;
    let terminated = terminated_check(raw, &opened, terminated).await;
    let mut found = vec![notification, header, required, unknown, get, terminated];
    found.extend(lines);
    found
}

/// A request naming a foreign `Host` or `Origin`: an initialize, refused before it is read.
async fn foreign(raw: &Raw<'_>, check: Finding, header: (&str, &str), version: &str) -> Finding {
    let sent = HttpSent {
        method: "POST",
        headers: [json_headers(), vec![(header.0.into(), header.1.into())]].concat(),
        body: Some(initialize(version)),
        with_session: false,
    };
    let got = raw.send(&sent, None).await;
    if let Ok(Got {
        session: Some(id), ..
    }) = &got
    {
        raw.end(id, version).await;
    }
    check.judged_http(vec![sent], refused_403(&got))
}

async fn version_header(raw: &Raw<'_>, opened: &Opened, check: Finding) -> Finding {
    // Versions are dates: as text they sort in time.
    if opened.version.as_str() < FIRST_WITH_VERSION_HEADER {
        return check.not_applicable(&format!(
            "the header came with {FIRST_WITH_VERSION_HEADER}; the server speaks {}",
            opened.version
        ));
    }
    for bad in BAD_VERSIONS {
        let sent = tools_list(&[("MCP-Protocol-Version", bad)], opened.session.is_some());
        let got = raw.send(&sent, opened.session.as_deref()).await;
        let (status, said) = status_is(&got, 400);
        if status == Status::Fail {
            let said = format!("for `{bad}`, {said}");
            return check.judged_http(opened.sent(&[sent]), (status, said));
        }
    }
    let said = format!("400 for each of {}", BAD_VERSIONS.join(", "));
    check.judged_http(opened.sent(&[]), (Status::Pass, said))
}

async fn stream_or_405_check(raw: &Raw<'_>, opened: &Opened, check: Finding) -> Finding {
    let sent = HttpSent {
        method: "GET",
        headers: vec![
            ("Accept".into(), "text/event-stream".into()),
            ("MCP-Protocol-Version".into(), opened.version.clone()),
        ],
        body: None,
        with_session: opened.session.is_some(),
    };
    let got = raw.send_for_headers(&sent, opened.session.as_deref()).await;
    check.judged_http(opened.sent(&[sent]), stream_or_405(&got))
}

async fn terminated_check(raw: &Raw<'_>, opened: &Opened, check: Finding) -> Finding {
    let Some(session) = &opened.session else {
        return check.not_applicable("the server issued no session id (it is stateless)");
    };
    let delete = HttpSent {
        method: "DELETE",
        headers: vec![("MCP-Protocol-Version".into(), opened.version.clone())],
        body: None,
        with_session: true,
    };
    let deleted = raw.send(&delete, Some(session)).await;
    let after = tools_list(&[("MCP-Protocol-Version", &opened.version)], true);
    let got = match &deleted {
        Ok(got) if got.status == 405 => {
            return check.not_applicable(
                "DELETE answered 405: the server does not end sessions on request, as it may",
            );
        }
        Ok(got) if (200..300).contains(&got.status) || got.status == 404 => {
            raw.send(&after, Some(session)).await
        }
        Ok(got) => {
            return check.not_applicable(&format!(
                "DELETE answered {} (not 2xx, 404 or 405): the session may not have ended",
                got.status
            ));
        }
        Err(why) => return check.not_applicable(&format!("DELETE got no answer: {why}")),
    };
    check.judged_http(opened.sent(&[delete, after]), status_is(&got, 404))
}

/// A session opened by hand: the id issued (if any), the version to name in headers, the
/// answer to `initialized`, and the two requests that opened it.
pub(super) struct Opened {
    pub session: Option<String>,
    pub version: String,
    initialized: Outcome,
    opening: Vec<HttpSent>,
}

impl Opened {
    /// The requests a reproduce line needs: the opening two, then `then`.
    pub fn sent(&self, then: &[HttpSent]) -> Vec<HttpSent> {
        self.opening.iter().chain(then).cloned().collect()
    }
}

/// Raw requests to one URL with the user's headers.
pub(super) struct Raw<'a> {
    client: reqwest::Client,
    url: &'a str,
    headers: &'a [Header],
}

impl<'a> Raw<'a> {
    fn new(url: &'a str, headers: &'a [Header]) -> Raw<'a> {
        Raw {
            client: crate::mcp::transport::http::client_keeping(0),
            url,
            headers,
        }
    }

    /// Initialize (asking for `version`), then `initialized` on the session issued.
    async fn open(&self, version: &str) -> Result<Opened, String> {
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

    fn request(&self, sent: &HttpSent, session: Option<&str>) -> reqwest::RequestBuilder {
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
    async fn send_for_headers(&self, sent: &HttpSent, session: Option<&str>) -> Outcome {
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
        session: header("mcp-session-id"),
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
pub(super) fn sse_messages(text: &str) -> Vec<Value> {
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

/// The protocol version an initialize answer (JSON or an event stream) names.
fn negotiated(body: &str) -> Option<String> {
    let message = serde_json::from_str::<Value>(body)
        .ok()
        .or_else(|| sse_message(body))?;
    let version = message.pointer("/result/protocolVersion")?.as_str()?;
    // The version goes into a header: a hostile one must not break the request.
    (version.len() <= 32 && version.bytes().all(|b| b.is_ascii_graphic())).then(|| version.into())
}

const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

pub(super) fn initialize(version: &str) -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {},
        "clientInfo": {"name": "mcp-inspect conform", "version": env!("CARGO_PKG_VERSION")}}})
    .to_string()
}

pub(super) fn json_headers() -> Vec<(String, String)> {
    vec![
        ("Content-Type".into(), "application/json".into()),
        (
            "Accept".into(),
            "application/json, text/event-stream".into(),
        ),
    ]
}

fn tools_list(extra: &[(&str, &str)], with_session: bool) -> HttpSent {
    let extra = extra.iter().map(|(n, v)| (n.to_string(), v.to_string()));
    HttpSent {
        method: "POST",
        headers: json_headers().into_iter().chain(extra).collect(),
        body: Some(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#.into()),
        with_session,
    }
}

fn is_local(url: &str) -> bool {
    reqwest::Url::parse(url).is_ok_and(|url| {
        matches!(
            url.host_str(),
            Some("localhost" | "127.0.0.1" | "[::1]" | "::1")
        )
    })
}

fn not_run<const N: usize>(checks: [Finding; N], why: &str) -> Vec<Finding> {
    checks.into_iter().map(|c| c.not_applicable(why)).collect()
}

impl Finding {
    /// Judged on raw HTTP requests: `sent` is what reproduces it.
    pub(super) fn judged_http(mut self, sent: Vec<HttpSent>, verdict: (Status, String)) -> Finding {
        self.http = sent;
        (self.status, self.said) = verdict;
        self
    }
}

/// A status in words, with what the body said when it was short.
fn answered(got: &Outcome) -> String {
    match got {
        Ok(got) => format!("HTTP {}{}", got.status, body_words(&got.body)),
        Err(why) => format!("no answer: {why}"),
    }
}

pub(super) fn body_words(body: &str) -> String {
    match body.trim() {
        "" => String::new(),
        text => format!(" ({})", crate::untrusted::line(text, 200)),
    }
}

/// Passes on exactly `status`.
pub fn status_is(got: &Outcome, status: u16) -> (Status, String) {
    match got {
        Ok(got) if got.status == status => (Status::Pass, format!("HTTP {status}")),
        _ => (Status::Fail, answered(got)),
    }
}

/// Passes on 403 (the request refused before it was served).
pub fn refused_403(got: &Outcome) -> (Status, String) {
    match got {
        Ok(g) if g.status == 403 => (Status::Pass, "HTTP 403".into()),
        Ok(g) if (200..300).contains(&g.status) => (
            Status::Fail,
            format!(
                "HTTP {}: served as if it came from the server's own",
                g.status
            ),
        ),
        _ => (Status::Fail, answered(got)),
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

/// Passes on 405, or on a 2xx event stream.
pub fn stream_or_405(got: &Outcome) -> (Status, String) {
    match got {
        Ok(g) if g.status == 405 => (Status::Pass, "HTTP 405".into()),
        Ok(g)
            if (200..300).contains(&g.status)
                && g.content_type.starts_with("text/event-stream") =>
        {
            (Status::Pass, format!("HTTP {}, an event stream", g.status))
        }
        Ok(g) => (
            Status::Fail,
            format!(
                "HTTP {} with content type `{}`",
                g.status,
                crate::untrusted::line(&g.content_type, 80)
            ),
        ),
        Err(why) => (Status::Fail, format!("no answer: {why}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn got(status: u16, content_type: &str, body: &str) -> Outcome {
        Ok(Got {
            status,
            content_type: content_type.into(),
            body: body.into(),
            session: None,
        })
    }

    /// Each judgement fails on what its rule forbids: the wrong status, a body where none
    /// belongs, a plain answer to a GET, no answer at all.
    #[test]
    fn every_judgement_passes_only_on_what_the_rule_asks() {
        let silent: Outcome = Err("timed out".into());
        assert_eq!(refused_403(&got(403, "", "")).0, Status::Pass);
        assert_eq!(
            refused_403(&got(200, "text/event-stream", "data: {}")).0,
            Status::Fail
        );
        assert_eq!(refused_403(&got(400, "", "")).0, Status::Fail);
        assert_eq!(refused_403(&silent).0, Status::Fail);
        assert_eq!(accepted_202(&got(202, "", "")).0, Status::Pass);
        assert_eq!(
            accepted_202(&got(202, "application/json", "{}")).0,
            Status::Fail
        );
        assert_eq!(accepted_202(&got(200, "", "")).0, Status::Fail);
        assert_eq!(stream_or_405(&got(405, "", "")).0, Status::Pass);
        assert_eq!(
            stream_or_405(&got(200, "text/event-stream", "")).0,
            Status::Pass
        );
        assert_eq!(
            stream_or_405(&got(200, "application/json", "{}")).0,
            Status::Fail
        );
        assert_eq!(
            stream_or_405(&got(404, "text/event-stream", "")).0,
            Status::Fail
        );
        assert_eq!(stream_or_405(&silent).0, Status::Fail);
        assert_eq!(status_is(&got(404, "", ""), 404).0, Status::Pass);
        assert_eq!(status_is(&got(400, "", "no"), 404).0, Status::Fail);
        assert_eq!(status_is(&silent, 400).0, Status::Fail);
    }

    #[test]
    fn every_check_here_is_listed_for_only_and_skip() {
        assert!(IDS.iter().all(|id| super::super::CHECKS.contains(id)));
        assert!(checks().iter().zip(IDS).all(|(check, id)| check.id == id));
    }

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

    #[test]
    fn only_loopback_urls_are_local() {
        assert!(is_local("http://localhost:3000/mcp"));
        assert!(is_local("http://127.0.0.1/mcp"));
        assert!(is_local("http://[::1]:8080/mcp"));
        assert!(!is_local("https://example.com/mcp"));
        assert!(!is_local("http://127.0.0.1.evil.example/mcp"));
    }
}
