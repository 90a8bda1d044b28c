//! The checks only raw lines can make, on fresh copies of a stdio server (see [`Probe`]): version
//! negotiation, exit on stdin close, ids echoed exactly, no answer to a notification, -32700
//! for a line that is not JSON, no requests before `initialized`. Each judged by a pure
//! function of what came back.

use super::probe::{Probe, Reply, Waited};
use super::{Finding, Level, Status, finding};
use crate::config::target::Target;
use serde_json::{Value, json};
use std::time::Duration;

const LIFECYCLE_VERSION: &str = "basic/lifecycle#version-negotiation";
const LIFECYCLE_SHUTDOWN: &str = "basic/lifecycle#shutdown (stdio)";
const LIFECYCLE_INIT: &str = "basic/lifecycle#initialization";
const RESPONSES: &str = "basic#responses (the same ID as the request) and JSON-RPC 2.0 §5";
const NOTIFICATIONS: &str = "basic#notifications and JSON-RPC 2.0 §4.1";
const BATCHES: &str = "2025-06-18 changelog (JSON-RPC batching removed); basic/transports (a POST body is one message)";
const PARSE_ERROR: &str = "JSON-RPC 2.0 §5.1 (-32700 parse error)";

/// A version no server supports: the answer must be one it does.
pub(super) const FROM_THE_FUTURE: &str = "2099-12-31";
/// The version the other checks speak (the last with `initialize`).
pub(super) const SPOKEN: &str = "2025-11-25";
/// How long a server gets to exit once its stdin is closed.
const EXIT_WITHIN: Duration = Duration::from_secs(2);
/// How long an answer to the line that is not JSON is waited for after the next ping's.
const OUT_OF_ORDER: Duration = Duration::from_millis(500);
/// An id a double cannot hold (2^53 + 1): a server that reads ids as doubles answers …992.
pub(super) const LARGE_ID: &str = "9007199254740993";
/// The first version without JSON-RPC batches.
const FIRST_WITHOUT_BATCHES: &str = "2025-06-18";
/// Two pings in one array.
pub(super) const BATCH: &str =
    r#"[{"jsonrpc":"2.0","id":901,"method":"ping"},{"jsonrpc":"2.0","id":902,"method":"ping"}]"#;
/// A string id with a quote, a backslash and a non-ASCII letter.
pub(super) const STRING_ID: &str = r#""conform \"ü\" \\ 1""#;

/// The checks here `selection` wants, on `target` when it is a stdio server (else each not
/// applicable); a copy of the server is started only for checks that are wanted.
pub async fn run(target: &Target, selection: &super::Selection) -> Vec<Finding> {
    let mut found = every_check(target, selection).await;
    found.retain(|f| selection.wants(f.id));
    found
}

/// The ids of the checks here, in the order they run.
pub const IDS: [&str; 8] = [
    "version-negotiation",
    "exits-on-stdin-close",
    "no-requests-before-initialized",
    "notification-unanswered",
    "string-id-echoed",
    "large-id-echoed",
    "batch-refused",
    "parse-error",
];

fn checks() -> [Finding; 8] {
    [
        version_negotiation(),
        exits_on_stdin_close(),
        no_requests_before_initialized(),
        notification_unanswered(),
        string_id_echoed(),
        large_id_echoed(),
        batch_refused(),
        parse_error(),
    ]
}

async fn every_check(target: &Target, selection: &super::Selection) -> Vec<Finding> {
    let checks = checks();
    if !checks.iter().any(|c| selection.wants(c.id)) {
        return Vec::new();
    }
    if super::http_raw::speaks_streamable_http(target) {
        // The others are made over HTTP (see `http_lines`).
        let why = "a stdio server's rule";
        let [_, exit, early, ..] = checks;
        return not_run([exit, early], why);
    }
    let first = match Probe::start(target) {
        None => {
            return not_run(
                checks,
                "needs a stdio server (over HTTP: `npx @modelcontextprotocol/conformance server --url`)",
            );
        }
        Some(Err(e)) => {
            return not_run(
                checks,
                &format!("could not start a second copy of the server: {e}"),
            );
        }
        Some(Ok(probe)) => probe,
    };
    let [
        version,
        exit,
        early,
        notification,
        string_id,
        large_id,
        batch,
        parse,
    ] = checks;
    let mut found = Vec::new();
    if selection.wants(version.id) || selection.wants(exit.id) {
        found.extend(first_copy(first, version, exit).await);
    } else {
        first.end().await;
    }
    let rest = [early, notification, string_id, large_id, batch, parse];
    if !rest.iter().any(|c| selection.wants(c.id)) {
        return found;
    }
    let mut probe = match Probe::start(target) {
        Some(Ok(probe)) => probe,
        _ => {
            found.extend(not_run(rest, "could not start the server again"));
            return found;
        }
    };
    let waited = probe.ask(&initialize(SPOKEN), &json!(1)).await;
    if let Some(why) = handshake_failed(&waited.reply) {
        found.extend(not_run(rest, &why));
        probe.end().await;
        return found;
    }
    probe.write(INITIALIZED).await;
    let version = match &waited.reply {
        Reply::Answer(answer) => answer.pointer("/result/protocolVersion").cloned(),
        _ => None,
    };
    let version = version.as_ref().and_then(Value::as_str).unwrap_or(SPOKEN);
    found.extend(after_handshake(&mut probe, rest, version).await);
    probe.end().await;
    found
}

/// On the first copy: a version from the future asked for, then its stdin closed.
async fn first_copy(mut first: Probe, version: Finding, exit: Finding) -> [Finding; 2] {
    let asked = initialize(FROM_THE_FUTURE);
    let waited = first.ask(&asked, &json!(1)).await;
    let version = version.judged_raw(&first.wrote, negotiated(&waited.reply, FROM_THE_FUTURE));
    let exit = match waited.reply {
        Reply::Ended => exit.not_applicable("the server exited before its stdin was closed"),
        _ => {
            first.write(INITIALIZED).await;
            let exited = first.close_stdin(EXIT_WITHIN).await;
            exit.judged_raw(&first.wrote, exit_judged(exited))
        }
    };
    first.end().await;
    [version, exit]
}

/// The checks run in one session, in order; the one that may end the server last.
async fn after_handshake(probe: &mut Probe, checks: [Finding; 6], version: &str) -> Vec<Finding> {
    let [early, notification, string_id, large_id, batch, parse] = checks;
    probe
        .write(r#"{"jsonrpc":"2.0","method":"notifications/mcp-inspect-conform"}"#)
        .await;
    let waited = probe
        .ask(
            &ping("\"after-notification\""),
            &json!("after-notification"),
        )
        .await;
    let notification = notification.judged_raw(&probe.wrote, notification_judged(&waited));
    let early = early.judged_raw(&probe.wrote, early_judged(&probe.requests));
    let string_id = echo(probe, string_id, STRING_ID).await;
    let large_id = echo(probe, large_id, LARGE_ID).await;
    let batch = refused_batch(probe, batch, version).await;
    probe
        .write(r#"{"jsonrpc":"2.0","id":"cut","method":"ping""#)
        .await;
    let mut waited = probe.ask(&ping("\"after-cut\""), &json!("after-cut")).await;
    if matches!(waited.reply, Reply::Answer(_)) && !has_parse_error(&waited.others) {
        // Answers may come in any order: the -32700 may follow the ping's.
        let later = probe.responses_within(OUT_OF_ORDER).await;
        waited.others.extend(later);
    }
    let parse = parse.judged_raw(&probe.wrote, parse_error_judged(&waited));
    vec![early, notification, string_id, large_id, batch, parse]
}

/// Two pings in one JSON array, in a version without batches: refused (an error) or dropped,
/// never answered one by one; in an older version, not applicable.
async fn refused_batch(probe: &mut Probe, check: Finding, version: &str) -> Finding {
    if version < FIRST_WITHOUT_BATCHES {
        return check.not_applicable(&format!(
            "batches were allowed before {FIRST_WITHOUT_BATCHES}; the server speaks {version}"
        ));
    }
    probe.write(BATCH).await;
    let mut waited = probe
        .ask(&ping("\"after-batch\""), &json!("after-batch"))
        .await;
    if matches!(waited.reply, Reply::Answer(_)) && !waited.others.iter().any(is_error) {
        // An error may follow the ping's answer.
        waited
            .others
            .extend(probe.responses_within(OUT_OF_ORDER).await);
    }
    check.judged_raw(&probe.wrote, batch_judged(&waited))
}

fn is_error(response: &Value) -> bool {
    response.get("error").is_some()
}

/// Passes unless a ping of the batch was answered (an error, or silence, refuses it).
pub fn batch_judged(waited: &Waited) -> (Status, String) {
    let processed = waited
        .others
        .iter()
        .any(|o| matches!(o.get("id").and_then(Value::as_u64), Some(901 | 902)));
    if processed {
        return (
            Status::Fail,
            "the batch's pings were answered: a batch was served in a version without batches"
                .into(),
        );
    }
    match waited.others.iter().find(|o| is_error(o)) {
        Some(error) => (
            Status::Pass,
            format!(
                "refused: {}",
                super::cut(crate::untrusted::json(&error["error"], false))
            ),
        ),
        None => (Status::Pass, "dropped (no answer to it)".into()),
    }
}

/// A ping with `id`, then another: the second's answer says the server has read the first,
/// so a server that answers with another id (rounded) is judged at once, not after the wait.
async fn echo(probe: &mut Probe, check: Finding, id: &str) -> Finding {
    let id_value: Value = serde_json::from_str(id).unwrap_or_default();
    probe.write(&ping(id)).await;
    let mut waited = probe
        .ask(&ping("\"after-echo\""), &json!("after-echo"))
        .await;
    let next_answered = matches!(waited.reply, Reply::Answer(_));
    let at = |w: &Waited| w.others.iter().position(|o| o.get("id") == Some(&id_value));
    if next_answered && at(&waited).is_none() {
        // Answers may come in any order: this one's may follow the next ping's.
        waited
            .others
            .extend(probe.responses_within(OUT_OF_ORDER).await);
    }
    let judged = match (at(&waited), next_answered) {
        (Some(i), _) => {
            let reply = Reply::Answer(waited.others.remove(i));
            echo_judged(&Waited { reply, ..waited }, &id_value)
        }
        (None, true) if waited.others.is_empty() => (
            Status::Fail,
            format!("no answer with id {id_value} (the ping after it was answered)"),
        ),
        (None, _) => echo_judged(&waited_for_nothing(waited), &id_value),
    };
    check.judged_raw(&probe.wrote, judged)
}

/// What was read, as if the answer waited for never came (the next ping's answer left out).
fn waited_for_nothing(waited: Waited) -> Waited {
    let reply = match waited.reply {
        Reply::Answer(_) => Reply::Quiet,
        other => other,
    };
    Waited { reply, ..waited }
}

pub(super) const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

pub(super) fn initialize(version: &str) -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {},
        "clientInfo": {"name": "mcp-inspect conform", "version": env!("CARGO_PKG_VERSION")}}})
    .to_string()
}

/// A ping with `id` written as JSON text (so a large integer goes as written).
pub(super) fn ping(id: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#)
}

pub(super) fn not_run<const N: usize>(checks: [Finding; N], why: &str) -> Vec<Finding> {
    checks.into_iter().map(|c| c.not_applicable(why)).collect()
}

pub(super) fn version_negotiation() -> Finding {
    finding(
        "version-negotiation",
        "a protocol version the server does not support is answered with one it does",
        Level::Must,
        LIFECYCLE_VERSION,
    )
}

fn exits_on_stdin_close() -> Finding {
    finding(
        "exits-on-stdin-close",
        "a stdio server exits when its stdin is closed (within 2 s here)",
        Level::Should,
        LIFECYCLE_SHUTDOWN,
    )
}

fn no_requests_before_initialized() -> Finding {
    finding(
        "no-requests-before-initialized",
        "the server sends no requests but pings before `notifications/initialized`",
        Level::Should,
        LIFECYCLE_INIT,
    )
}

pub(super) fn notification_unanswered() -> Finding {
    finding(
        "notification-unanswered",
        "a notification, even one the server does not know, gets no answer",
        Level::Must,
        NOTIFICATIONS,
    )
}

pub(super) fn string_id_echoed() -> Finding {
    finding(
        "string-id-echoed",
        "a string id (with a quote, a backslash and ü) comes back exactly",
        Level::Must,
        RESPONSES,
    )
}

pub(super) fn large_id_echoed() -> Finding {
    finding(
        "large-id-echoed",
        "an integer id past 2^53 comes back exactly (a server reading ids as doubles rounds it)",
        Level::Should,
        RESPONSES,
    )
}

pub(super) fn batch_refused() -> Finding {
    finding(
        "batch-refused",
        "a JSON-RPC batch is not served from 2025-06-18 on (batches were removed)",
        Level::Must,
        BATCHES,
    )
}

pub(super) fn parse_error() -> Finding {
    finding(
        "parse-error",
        "a line that is not JSON is answered with -32700, and the server goes on serving",
        Level::Should,
        PARSE_ERROR,
    )
}

impl Finding {
    /// Judged on raw lines: `wrote` is what reproduces it.
    pub(super) fn judged_raw(mut self, wrote: &[String], verdict: (Status, String)) -> Finding {
        self.wrote = wrote.to_vec();
        (self.status, self.said) = verdict;
        self
    }
}

/// What a reply was, in words.
fn said(reply: &Reply) -> String {
    match reply {
        Reply::Answer(answer) => super::cut(crate::untrusted::json(answer, false)),
        Reply::Ended => "the server exited (its stdout ended)".into(),
        Reply::Quiet => format!("no answer within {} s", super::probe::WAIT.as_secs()),
    }
}

/// Passes on a result naming a version other than `asked`.
pub fn negotiated(reply: &Reply, asked: &str) -> (Status, String) {
    let Reply::Answer(answer) = reply else {
        return (Status::Fail, said(reply));
    };
    match answer
        .pointer("/result/protocolVersion")
        .and_then(Value::as_str)
    {
        Some(v) if v == asked => (
            Status::Fail,
            format!("answered with the version asked for ({asked}), which no server supports"),
        ),
        Some(v) => (
            Status::Pass,
            format!("answered {}", crate::untrusted::line(v, 40)),
        ),
        None => (Status::Fail, said(reply)),
    }
}

fn exit_judged(exited: bool) -> (Status, String) {
    match exited {
        true => (Status::Pass, "exited".into()),
        false => (
            Status::Fail,
            format!(
                "still running {} s after its stdin closed (a host then has to kill it)",
                EXIT_WITHIN.as_secs()
            ),
        ),
    }
}

/// Why the handshake the later checks need failed, if it did.
pub(super) fn handshake_failed(reply: &Reply) -> Option<String> {
    match reply {
        Reply::Answer(answer) if answer.get("result").is_some() => None,
        _ => Some(format!("the handshake failed: {}", said(reply))),
    }
}

/// Passes when no request but a ping came before `initialized` was written.
pub fn early_judged(requests: &[(String, bool)]) -> (Status, String) {
    let early: Vec<&str> = requests
        .iter()
        .filter(|(method, after)| !after && method != "ping")
        .map(|(method, _)| method.as_str())
        .collect();
    match early.first() {
        None => (Status::Pass, "none seen".into()),
        Some(first) => (
            Status::Fail,
            format!(
                "{} before `initialized`, the first {}",
                crate::plural::count(early.len(), "request"),
                crate::untrusted::line(first, 80)
            ),
        ),
    }
}

/// Passes when the ping after the notification was answered and nothing else was.
pub fn notification_judged(waited: &Waited) -> (Status, String) {
    // An answer to a notification can only carry a null id, or none: answers to other ids
    // are strays of another kind.
    let to_it = waited
        .others
        .iter()
        .find(|o| o.get("id").is_none_or(Value::is_null));
    match (&waited.reply, to_it) {
        (Reply::Answer(_), None) => (Status::Pass, "no answer to it".into()),
        (_, Some(other)) => (
            Status::Fail,
            format!(
                "answered it: {}",
                super::cut(crate::untrusted::json(other, false))
            ),
        ),
        (reply, None) => (Status::Fail, format!("the ping after it: {}", said(reply))),
    }
}

/// Passes when the answer carries `id` exactly; fails naming the id that came instead.
pub fn echo_judged(waited: &Waited, id: &Value) -> (Status, String) {
    // The last answer read is the likeliest to be this one's, echoed wrong.
    let instead = waited.others.iter().rev().find_map(|o| o.get("id"));
    match (&waited.reply, instead) {
        (Reply::Answer(_), _) => (Status::Pass, format!("answered with id {id}")),
        (_, Some(other)) => (
            Status::Fail,
            format!(
                "answered with id {} instead of {id}",
                crate::untrusted::line(&other.to_string(), 80)
            ),
        ),
        (reply, None) => (
            Status::Fail,
            format!("no answer with id {id}: {}", said(reply)),
        ),
    }
}

fn has_parse_error(responses: &[Value]) -> bool {
    responses
        .iter()
        .any(|o| o.pointer("/error/code").and_then(Value::as_i64) == Some(-32700))
}

/// Passes when -32700 came (before the next ping's answer or soon after), and that ping was
/// answered.
pub fn parse_error_judged(waited: &Waited) -> (Status, String) {
    match (&waited.reply, has_parse_error(&waited.others)) {
        (Reply::Answer(_), true) => (Status::Pass, "-32700, and the next ping answered".into()),
        (Reply::Answer(_), false) => (
            Status::Fail,
            "no -32700 (the line was passed over in silence); the next ping answered".into(),
        ),
        (reply, _) => (
            Status::Fail,
            format!("after the line, a ping: {}", said(reply)),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(message: Value) -> Waited {
        Waited {
            reply: Reply::Answer(message),
            others: Vec::new(),
        }
    }

    fn with_others(mut waited: Waited, others: Vec<Value>) -> Waited {
        waited.others = others;
        waited
    }

    #[test]
    fn every_check_here_is_listed_for_only_and_skip() {
        assert!(checks().iter().zip(IDS).all(|(check, id)| check.id == id));
    }

    #[test]
    fn a_batch_fails_only_when_it_was_served() {
        let pong = || answer(json!({"id": "after-batch", "result": {}}));
        let refused = json!({"id": null, "error": {"code": -32600, "message": "Invalid request"}});
        assert_eq!(
            batch_judged(&with_others(pong(), vec![refused])).0,
            Status::Pass
        );
        assert_eq!(batch_judged(&pong()).0, Status::Pass, "dropped");
        let served = vec![
            json!({"id": 901, "result": {}}),
            json!({"id": 902, "result": {}}),
        ];
        assert_eq!(batch_judged(&with_others(pong(), served)).0, Status::Fail);
    }

    #[test]
    fn each_judgement_fails_on_what_its_rule_forbids() {
        let ok = |v: &str| answer(json!({"id": 1, "result": {"protocolVersion": v}}));
        assert_eq!(
            negotiated(&ok("2025-11-25").reply, FROM_THE_FUTURE).0,
            Status::Pass
        );
        assert_eq!(
            negotiated(&ok(FROM_THE_FUTURE).reply, FROM_THE_FUTURE).0,
            Status::Fail
        );
        let error = answer(json!({"id": 1, "error": {"code": -32602, "message": "no"}}));
        assert_eq!(negotiated(&error.reply, FROM_THE_FUTURE).0, Status::Fail);
        assert_eq!(negotiated(&Reply::Quiet, FROM_THE_FUTURE).0, Status::Fail);
        assert_eq!(exit_judged(true).0, Status::Pass);
        assert_eq!(exit_judged(false).0, Status::Fail);

        let pong = || answer(json!({"id": "x", "result": {}}));
        assert_eq!(notification_judged(&pong()).0, Status::Pass);
        let stray = json!({"id": 987, "result": {}});
        assert_eq!(
            notification_judged(&with_others(pong(), vec![stray.clone()])).0,
            Status::Pass
        );
        let to_it = json!({"id": null, "result": {}});
        let (status, said) = notification_judged(&with_others(pong(), vec![to_it]));
        assert_eq!((status, said.contains("answered it")), (Status::Fail, true));

        let id: Value = serde_json::from_str(LARGE_ID).expect("json");
        assert_eq!(echo_judged(&pong(), &id).0, Status::Pass);
        let rounded: Value = serde_json::from_str("9007199254740992").expect("json");
        let quiet = Waited {
            reply: Reply::Quiet,
            others: vec![stray, json!({"id": rounded, "result": {}})],
        };
        let (status, said) = echo_judged(&quiet, &id);
        assert_eq!(status, Status::Fail);
        assert!(
            said.contains("9007199254740992 instead of 9007199254740993"),
            "{said}"
        );

        let parse = json!({"id": null, "error": {"code": -32700, "message": "bad"}});
        assert_eq!(
            parse_error_judged(&with_others(pong(), vec![parse])).0,
            Status::Pass
        );
        assert_eq!(parse_error_judged(&pong()).0, Status::Fail);
        let ended = Waited {
            reply: Reply::Ended,
            others: Vec::new(),
        };
        assert_eq!(parse_error_judged(&ended).0, Status::Fail);

        assert_eq!(early_judged(&[("ping".into(), false)]).0, Status::Pass);
        assert_eq!(early_judged(&[("roots/list".into(), true)]).0, Status::Pass);
        assert_eq!(
            early_judged(&[("roots/list".into(), false)]).0,
            Status::Fail
        );
    }
}
