//! The raw-line checks of [`super::hygiene`] made over Streamable HTTP, where a POST body plays
//! the line: a protocol version from the future, a notification nobody defined, a string id
//! and an id past 2^53, a body that is not JSON. Each is a request of its own in a session
//! opened by hand (see [`super::over_http`]), judged by the same functions as over stdio where
//! the rule is the same.

use super::http_raw::{
    HttpSent, LAST_WITH_SESSIONS, Opened, Outcome, Raw, accepted_202, body_words, initialize,
    json_headers, sse_messages,
};
use super::hygiene::{self, BATCH, FROM_THE_FUTURE, LARGE_ID, STRING_ID};
use super::probe::{Reply, Waited};
use super::{Finding, Status};
use serde_json::{Value, json};

/// A body that is not JSON: a ping cut short.
const CUT: &str = r#"{"jsonrpc":"2.0","id":"cut","method":"ping""#;

/// `version-negotiation` on an initialize of its own (its session, if one is issued, ended).
pub async fn version_negotiation(raw: &Raw<'_>) -> Finding {
    let check = hygiene::version_negotiation();
    let sent = HttpSent {
        method: "POST",
        headers: json_headers(),
        body: Some(initialize(FROM_THE_FUTURE)),
        with_session: false,
    };
    let got = raw.send(&sent, None).await;
    if let Ok(got) = &got
        && let Some(session) = &got.session
    {
        raw.end(session, LAST_WITH_SESSIONS).await;
    }
    let verdict = match waited(&got, &json!(1)) {
        Ok(waited) => hygiene::negotiated(&waited.reply, FROM_THE_FUTURE),
        Err(said) => (Status::Fail, said),
    };
    check.judged_http(vec![sent], verdict)
}

/// The other five, in the session `opened`.
pub async fn in_session(raw: &Raw<'_>, opened: &Opened) -> [Finding; 5] {
    let unknown = post(
        opened,
        r#"{"jsonrpc":"2.0","method":"notifications/mcp-inspect-conform"}"#,
    );
    let got = raw.send(&unknown, opened.session.as_deref()).await;
    let notification =
        hygiene::notification_unanswered().judged_http(opened.sent(&[unknown]), accepted_202(&got));
    let string_id = echo(raw, opened, hygiene::string_id_echoed(), STRING_ID).await;
    let large_id = echo(raw, opened, hygiene::large_id_echoed(), LARGE_ID).await;
    let batch = batch(raw, opened).await;
    let cut = post(opened, CUT);
    let got = raw.send(&cut, opened.session.as_deref()).await;
    let parse =
        hygiene::parse_error().judged_http(opened.sent(&[cut]), refused_as_unreadable(&got));
    [notification, string_id, large_id, batch, parse]
}

async fn echo(raw: &Raw<'_>, opened: &Opened, check: Finding, id: &str) -> Finding {
    let id_value: Value = serde_json::from_str(id).unwrap_or_default();
    let ping = post(opened, &hygiene::ping(id));
    let got = raw.send(&ping, opened.session.as_deref()).await;
    let verdict = match waited(&got, &id_value) {
        Ok(waited) => hygiene::echo_judged(&waited, &id_value),
        Err(said) => (Status::Fail, said),
    };
    check.judged_http(opened.sent(&[ping]), verdict)
}

/// Two pings in one array: from 2025-06-18 a POST body is one message, so it is refused.
async fn batch(raw: &Raw<'_>, opened: &Opened) -> Finding {
    let check = hygiene::batch_refused();
    if opened.version.as_str() < "2025-06-18" {
        return check.not_applicable(&format!(
            "batches were allowed before 2025-06-18; the server speaks {}",
            opened.version
        ));
    }
    let sent = post(opened, BATCH);
    let got = raw.send(&sent, opened.session.as_deref()).await;
    check.judged_http(opened.sent(&[sent]), batch_refused_over_http(&got))
}

/// Passes on a 4xx; fails when the batch was served (a 2xx with answers) or on anything else.
pub fn batch_refused_over_http(got: &Outcome) -> (Status, String) {
    match got {
        Ok(g) if (400..500).contains(&g.status) => (
            Status::Pass,
            format!("HTTP {}{}", g.status, body_words(&g.body)),
        ),
        Ok(g) => (
            Status::Fail,
            format!(
                "HTTP {}{}: the batch was taken",
                g.status,
                body_words(&g.body)
            ),
        ),
        Err(why) => (Status::Fail, format!("no answer: {why}")),
    }
}

/// A POST in the session `opened`, naming its version.
fn post(opened: &Opened, body: &str) -> HttpSent {
    HttpSent {
        method: "POST",
        headers: [
            json_headers(),
            vec![("MCP-Protocol-Version".into(), opened.version.clone())],
        ]
        .concat(),
        body: Some(body.into()),
        with_session: opened.session.is_some(),
    }
}

/// The answer with `id` among the messages a response carried (a JSON body, one or a batch,
/// or an event stream), the others beside it; or, when the response was an HTTP error or no
/// answer at all, what it was in words.
fn waited(got: &Outcome, id: &Value) -> Result<Waited, String> {
    let got = got.as_ref().map_err(|why| format!("no answer: {why}"))?;
    if !(200..300).contains(&got.status) {
        return Err(format!(
            "HTTP {} ({})",
            got.status,
            crate::untrusted::line(got.body.trim(), 200)
        ));
    }
    let messages = match serde_json::from_str::<Value>(&got.body) {
        Ok(Value::Array(batch)) => batch,
        Ok(one) => vec![one],
        Err(_) => sse_messages(&got.body),
    };
    let (mine, others): (Vec<Value>, Vec<Value>) =
        messages.into_iter().partition(|m| m.get("id") == Some(id));
    Ok(Waited {
        reply: mine.into_iter().next().map_or(Reply::Quiet, Reply::Answer),
        others,
    })
}

/// Passes on an HTTP error status (Streamable HTTP: input the server cannot accept MUST get
/// one), saying whether its body held -32700.
pub fn refused_as_unreadable(got: &Outcome) -> (Status, String) {
    let Ok(got) = got else {
        return (Status::Fail, "no answer".into());
    };
    let parse_error = serde_json::from_str::<Value>(&got.body)
        .is_ok_and(|b| b.pointer("/error/code").and_then(Value::as_i64) == Some(-32700));
    match (got.status, parse_error) {
        (400..=499, true) => (Status::Pass, format!("HTTP {} with -32700", got.status)),
        (400..=499, false) => (
            Status::Pass,
            format!("HTTP {} (no -32700 in the body)", got.status),
        ),
        (status, _) => (
            Status::Fail,
            format!(
                "HTTP {status}{}: the body was taken",
                match got.body.trim() {
                    "" => String::new(),
                    body => format!(" ({})", crate::untrusted::line(body, 200)),
                }
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::http_raw::answered_with as got;
    use super::*;

    #[test]
    fn a_batch_is_refused_with_a_4xx() {
        assert_eq!(batch_refused_over_http(&got(400, "{}")).0, Status::Pass);
        let served =
            r#"[{"jsonrpc":"2.0","id":901,"result":{}},{"jsonrpc":"2.0","id":902,"result":{}}]"#;
        assert_eq!(batch_refused_over_http(&got(200, served)).0, Status::Fail);
        assert_eq!(batch_refused_over_http(&got(202, "")).0, Status::Fail);
    }

    #[test]
    fn a_body_that_is_not_json_must_get_an_http_error() {
        let with_code =
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
        assert_eq!(refused_as_unreadable(&got(400, with_code)).0, Status::Pass);
        assert_eq!(refused_as_unreadable(&got(400, "")).0, Status::Pass);
        assert_eq!(refused_as_unreadable(&got(200, with_code)).0, Status::Fail);
        assert_eq!(refused_as_unreadable(&got(202, "")).0, Status::Fail);
        assert_eq!(
            refused_as_unreadable(&Err("timed out".into())).0,
            Status::Fail
        );
    }

    /// The answer is found by its id in a JSON body, a batch or an event stream; an HTTP
    /// error is said as one, not as silence.
    #[test]
    fn answers_are_found_by_id_in_any_body() {
        let id = json!("a");
        let one = waited(&got(200, r#"{"jsonrpc":"2.0","id":"a","result":{}}"#), &id).expect("ok");
        assert!(matches!(one.reply, Reply::Answer(_)));
        let stream = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"b\",\"result\":{}}\n\n";
        let rounded = waited(&got(200, stream), &id).expect("ok");
        assert!(matches!(rounded.reply, Reply::Quiet));
        assert_eq!(rounded.others.len(), 1);
        assert_eq!(hygiene::echo_judged(&rounded, &id).0, Status::Fail);
        let refused = waited(&got(400, "bad id"), &id).expect_err("an error");
        assert!(refused.contains("HTTP 400"), "{refused}");
    }
}
