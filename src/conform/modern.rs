//! The 2026-07-28 era's request rules, checked with requests no client library sends: every
//! request carries `_meta` with the protocol version and the client's capabilities (one
//! without is refused with -32602), and a version the server does not implement is refused
//! with an UnsupportedProtocolVersionError naming the versions it does (over HTTP, both with
//! 400). Over stdio on a fresh copy of the server (no handshake in this era), over Streamable
//! HTTP as stateless requests.

use super::http_raw::{HttpSent, Raw, json_headers};
use super::probe::{Probe, Reply};
use super::{Finding, Level, Status, finding};
use crate::config::target::Target;
use crate::schema::Era;
use serde_json::{Value, json};

const STATELESS: &str = "basic/lifecycle, 2026-07-28 (stateless requests, SEP-2575)";
const MODERN: &str = "2026-07-28";
/// A version no server implements.
const UNKNOWN_VERSION: &str = "v999.0.0";

/// The ids of the checks here, in the order they run.
pub const IDS: [&str; 2] = ["meta-required", "unsupported-version-refused"];

fn checks() -> [Finding; 2] {
    [
        finding(
            IDS[0],
            "a request without _meta, or whose _meta lacks the protocol version or the client's capabilities, is refused with -32602 (over HTTP, 400)",
            Level::Must,
            STATELESS,
        ),
        finding(
            IDS[1],
            "a request naming a protocol version the server does not implement is refused with an error whose data lists the versions it supports and echoes the one asked (over HTTP, 400)",
            Level::Must,
            STATELESS,
        ),
    ]
}

/// The `_meta` of a request of this era, less what `leave_out` names.
fn meta(version: &str, leave_out: Option<&str>) -> Value {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": {"name": "mcp-inspect conform", "version": env!("CARGO_PKG_VERSION")},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    if let (Some(key), Some(object)) = (leave_out, meta.as_object_mut()) {
        object.remove(key);
    }
    meta
}

/// The malformed requests: what is wrong with each, and its params.
fn without_meta() -> [(&'static str, Value); 3] {
    [
        ("no _meta", json!({})),
        (
            "_meta without the protocol version",
            json!({"_meta": meta(MODERN, Some("io.modelcontextprotocol/protocolVersion"))}),
        ),
        (
            "_meta without the client's capabilities",
            json!({"_meta": meta(MODERN, Some("io.modelcontextprotocol/clientCapabilities"))}),
        ),
    ]
}

/// What came back for one request: the HTTP status when over HTTP, and the JSON-RPC answer.
type Answer = (Option<u16>, Option<Value>);

/// The checks here `selection` wants, when the session speaks 2026-07-28.
pub async fn run(target: &Target, era: Era, selection: &super::Selection) -> Vec<Finding> {
    if !IDS.iter().any(|id| selection.wants(id)) {
        return Vec::new();
    }
    let [required, unsupported] = checks();
    let mut found = match era {
        Era::Legacy => [required, unsupported]
            .map(|c| {
                c.not_applicable(
                    "the rules came with 2026-07-28; the server speaks an earlier version",
                )
            })
            .into(),
        Era::Modern => every_check(target, required, unsupported).await,
    };
    found.retain(|f| selection.wants(f.id));
    found
}

async fn every_check(target: &Target, required: Finding, unsupported: Finding) -> Vec<Finding> {
    let mut asked = Vec::new();
    for (n, (_, params)) in without_meta().into_iter().enumerate() {
        asked.push((json!(101 + n), "server/discover", params, MODERN));
    }
    let version_params = json!({"_meta": meta(UNKNOWN_VERSION, None)});
    asked.push((
        json!(104),
        "server/discover",
        version_params,
        UNKNOWN_VERSION,
    ));
    let (answers, sent) = match ask(target, &asked).await {
        Ok(done) => done,
        Err(why) => {
            return [required, unsupported]
                .map(|c| c.not_applicable(&why))
                .into();
        }
    };
    let judge = |check: Finding, verdict| match &sent {
        Sent::Lines(lines) => check.judged_raw(lines, verdict),
        Sent::Http(requests) => check.judged_http(requests.clone(), verdict),
    };
    let whys = without_meta().map(|(why, _)| why);
    let refused = meta_judged(&answers[..3], &whys);
    let version = version_judged(&answers[3]);
    vec![judge(required, refused), judge(unsupported, version)]
}

/// What was sent, for a reproduce line.
enum Sent {
    Lines(Vec<String>),
    Http(Vec<HttpSent>),
}

/// Sends each request (id, method, params, the version its headers name) and reads its answer.
async fn ask(
    target: &Target,
    asked: &[(Value, &str, Value, &str)],
) -> Result<(Vec<Answer>, Sent), String> {
    let line = |(id, method, params, _): &(Value, &str, Value, &str)| {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
    };
    if let Some(raw) = Raw::of(target) {
        let (mut answers, mut sent) = (Vec::new(), Vec::new());
        for request in asked {
            let mut headers = json_headers();
            headers.push(("MCP-Protocol-Version".into(), request.3.into()));
            headers.push(("Mcp-Method".into(), request.1.into()));
            let http = HttpSent {
                method: "POST",
                headers,
                body: Some(line(request)),
                with_session: false,
            };
            let got = raw.send(&http, None).await;
            answers.push(match got {
                Ok(got) => (Some(got.status), super::http_raw::message_of(&got.body)),
                Err(_) => (None, None),
            });
            sent.push(http);
        }
        return Ok((answers, Sent::Http(sent)));
    }
    let mut probe = match Probe::start(target) {
        None => return Err("needs a stdio or Streamable HTTP server".into()),
        Some(Err(e)) => return Err(format!("could not start a second copy of the server: {e}")),
        Some(Ok(probe)) => probe,
    };
    let mut answers = Vec::new();
    for request in asked {
        let waited = probe.ask(&line(request), &request.0).await;
        answers.push(match waited.reply {
            Reply::Answer(answer) => (None, Some(answer)),
            Reply::Ended | Reply::Quiet => (None, None),
        });
    }
    let lines = probe.wrote.clone();
    probe.end().await;
    Ok((answers, Sent::Lines(lines)))
}

/// An answer in words.
fn said(answer: &Answer) -> String {
    let status = answer.0.map(|s| format!("HTTP {s}, ")).unwrap_or_default();
    match &answer.1 {
        Some(message) => format!(
            "{status}{}",
            super::cut(crate::untrusted::json(message, false))
        ),
        None => format!("{status}no JSON-RPC answer"),
    }
}

/// Passes when each answer is error -32602, and over HTTP status 400.
pub fn meta_judged(answers: &[Answer], whys: &[&str]) -> (Status, String) {
    for (answer, why) in answers.iter().zip(whys) {
        let code = answer
            .1
            .as_ref()
            .and_then(|m| m.pointer("/error/code")?.as_i64());
        let refused = code == Some(-32602) && answer.0.is_none_or(|s| s == 400);
        if !refused {
            return (Status::Fail, format!("{why}: {}", said(answer)));
        }
    }
    (
        Status::Pass,
        format!("-32602 for each of: {}", whys.join(", ")),
    )
}

/// Passes on an error whose data lists supported versions (strings, at least one) and echoes
/// the version asked for, and over HTTP status 400.
pub fn version_judged(answer: &Answer) -> (Status, String) {
    let data = answer.1.as_ref().and_then(|m| m.pointer("/error/data"));
    let supported = (data
        .and_then(|d| d.get("supported"))
        .and_then(Value::as_array))
    .filter(|v| !v.is_empty() && v.iter().all(Value::is_string));
    let why = if answer.1.as_ref().is_none_or(|m| m.get("error").is_none()) {
        "not an error"
    } else if supported.is_none() {
        "error.data.supported is not a list of the versions supported"
    } else if data.and_then(|d| d.get("requested")) != Some(&json!(UNKNOWN_VERSION)) {
        "error.data.requested does not echo the version asked for"
    } else if answer.0.is_some_and(|s| s != 400) {
        "not HTTP 400"
    } else {
        let versions: Vec<&str> = supported
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        return (
            Status::Pass,
            format!("refused; supported: {}", versions.join(", ")),
        );
    };
    (Status::Fail, format!("{why}: {}", said(answer)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(code: i64, data: Value) -> Option<Value> {
        Some(
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": "no", "data": data}}),
        )
    }

    #[test]
    fn a_request_without_its_meta_must_get_32602() {
        let whys = ["no _meta", "no version"];
        let refused = (Some(400), error(-32602, Value::Null));
        assert_eq!(
            meta_judged(&[refused.clone(), refused.clone()], &whys).0,
            Status::Pass
        );
        assert_eq!(
            meta_judged(&[(None, error(-32602, Value::Null))], &whys).0,
            Status::Pass
        );
        let served = (
            Some(200),
            Some(json!({"jsonrpc": "2.0", "id": 1, "result": {}})),
        );
        let (status, said) = meta_judged(&[refused.clone(), served], &whys);
        assert_eq!(status, Status::Fail);
        assert!(said.starts_with("no version"), "{said}");
        let wrong_status = (Some(200), error(-32602, Value::Null));
        assert_eq!(meta_judged(&[wrong_status], &whys).0, Status::Fail);
        assert_eq!(
            meta_judged(&[(None, error(-32600, Value::Null))], &whys).0,
            Status::Fail
        );
        assert_eq!(meta_judged(&[(None, None)], &whys).0, Status::Fail);
    }

    #[test]
    fn an_unknown_version_must_be_refused_with_the_supported_ones() {
        let data = json!({"supported": ["2026-07-28"], "requested": UNKNOWN_VERSION});
        assert_eq!(
            version_judged(&(Some(400), error(-32000, data.clone()))).0,
            Status::Pass
        );
        assert_eq!(
            version_judged(&(Some(200), error(-32000, data.clone()))).0,
            Status::Fail
        );
        let no_echo = json!({"supported": ["2026-07-28"]});
        assert_eq!(
            version_judged(&(None, error(-32000, no_echo))).0,
            Status::Fail
        );
        let empty = json!({"supported": [], "requested": UNKNOWN_VERSION});
        assert_eq!(
            version_judged(&(None, error(-32000, empty))).0,
            Status::Fail
        );
        let served = Some(json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
        assert_eq!(version_judged(&(Some(200), served)).0, Status::Fail);
    }
}
