//! The checks only raw HTTP can make, on a Streamable HTTP server: DNS rebinding refused (a
//! foreign `Host` or `Origin` answered 403), the `MCP-Protocol-Version` header checked, sessions
//! issued, required and ended as the transport says, a notification accepted with 202, and a
//! GET answered with a stream or 405. Each request is made apart from the session the other
//! checks use (with the user's `--header`s), and each check is judged by a pure function of the
//! statuses that came back.

use super::http_raw::{
    Got, HttpSent, LAST_WITH_SESSIONS, Opened, Outcome, Raw, accepted_202, answered, initialize,
    json_headers,
};
use super::{Finding, Level, Status, finding};
use crate::config::target::{HttpTransport, Target};
use crate::schema::Era;

const SECURITY: &str = "basic/transports#security-warning (DNS rebinding)";
const SESSIONS: &str = "basic/transports#session-management";
const VERSION_HEADER: &str = "basic/transports#protocol-version-header";
const SENDING: &str = "basic/transports#sending-messages-to-the-server";
const LISTENING: &str = "basic/transports#listening-for-messages-from-the-server";

/// A host and an origin no local server serves.
const FOREIGN_HOST: &str = "evil.example.com";
const FOREIGN_ORIGIN: &str = "http://evil.example.com";
/// Header values no server supports: malformed, before any version, after any version.
const BAD_VERSIONS: [&str; 3] = ["invalid-protocol-version", "2000-01-01", "2099-01-01"];
/// The first protocol version with the `MCP-Protocol-Version` header.
const FIRST_WITH_VERSION_HEADER: &str = "2025-06-18";
/// A session id no server issued.
const NO_SUCH_SESSION: &str = "mcp-inspect-conform-no-such-session";

/// The ids of the checks here, in the order they run.
pub const IDS: [&str; 9] = [
    "http-foreign-host-refused",
    "http-foreign-origin-refused",
    "http-notification-accepted",
    "http-protocol-version-checked",
    "http-session-required",
    "http-unknown-session-404",
    "http-get-stream-or-405",
    "http-terminated-session-404",
    "http-session-id-visible",
];

fn checks() -> [Finding; 9] {
    let rule = |i: usize, rule, level, spec| finding(IDS[i], rule, level, spec);
    [
        rule(
            0,
            "a request naming a foreign Host is refused (a 4xx: 403, or 421 Misdirected Request)",
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
        rule(
            8,
            "a session id holds only visible ASCII (0x21 to 0x7E)",
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
async fn in_a_session(raw: &Raw<'_>, checks: [Finding; 7], version: &str) -> Vec<Finding> {
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
            let mut found = not_run(checks, &why);
            found.extend(not_run(lines, &why));
            return found;
        }
    };
    let [
        notification,
        header,
        required,
        unknown,
        get,
        terminated,
        visible,
    ] = checks;
    let notification =
        notification.judged_http(opened.sent(&[]), accepted_202(&opened.initialized));
    let visible = match &opened.session {
        None => visible.not_applicable("the server issued no session id (it is stateless)"),
        Some(id) => visible.judged_http(opened.sent(&[]), visible_session_id(id)),
    };
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
    let mut found = vec![
        notification,
        header,
        required,
        unknown,
        get,
        terminated,
        visible,
    ];
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
    // The spec names 403 for a foreign Origin; for a foreign Host it names no status, and
    // 421 (Misdirected Request, RFC 9110) is HTTP's own word for it.
    let verdict = match header.0 {
        "Host" => refused_4xx(&got),
        _ => refused_403(&got),
    };
    check.judged_http(vec![sent], verdict)
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

/// Passes on a session id of visible ASCII only (a byte past it was read as U+FFFD).
pub fn visible_session_id(id: &str) -> (Status, String) {
    match id.chars().find(|c| !('\u{21}'..='\u{7e}').contains(c)) {
        None => (
            Status::Pass,
            format!("{} characters, all visible ASCII", id.len()),
        ),
        Some(c) => (
            Status::Fail,
            format!(
                "{:?} in the session id {}",
                c,
                crate::untrusted::line(id, 80)
            ),
        ),
    }
}

/// Passes on any 4xx (said); fails on anything else.
pub fn refused_4xx(got: &Outcome) -> (Status, String) {
    match got {
        Ok(g) if (400..500).contains(&g.status) => (Status::Pass, format!("HTTP {}", g.status)),
        _ => refused_403(got),
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
        assert_eq!(refused_4xx(&got(421, "", "")).0, Status::Pass);
        assert_eq!(refused_4xx(&got(200, "", "")).0, Status::Fail);
        assert_eq!(refused_4xx(&got(500, "", "")).0, Status::Fail);
        assert_eq!(refused_4xx(&silent).0, Status::Fail);
        assert_eq!(visible_session_id("a-Z_0~!").0, Status::Pass);
        for bad in ["with space", "tab\t", "\u{fffd}", "é", "del\u{7f}"] {
            assert_eq!(visible_session_id(bad).0, Status::Fail, "{bad:?}");
        }
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
        assert!(checks().iter().zip(IDS).all(|(check, id)| check.id == id));
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
