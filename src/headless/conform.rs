//! `conform`: the checks of [`crate::conform`] on one session, told as text (a line a check,
//! each failure with what came back and the command that reproduces it) or one JSON object.
//! Exit 1 when a MUST fails.

use super::output::Report;
use super::teller::Told;
use crate::cli::CheckFormat;
use crate::config::target::{Header, Target};
use crate::conform::{Finding, HttpSent, Level, Seen, Status};
use crate::headless::exit;
use crate::mcp::Session;
use serde_json::{Value, json};

/// What `conform` was asked to check: the connection as words (for reproduce lines) and as a
/// target (the raw checks start the server again).
pub struct Asked<'a> {
    pub words: &'a [String],
    pub target: Option<&'a Target>,
    pub selection: &'a crate::conform::Selection,
    pub format: CheckFormat,
}

pub async fn run(session: &Session, report: &Report, told: &Told, asked: Asked<'_>) -> i32 {
    let stdio = session.server.transport == "stdio";
    let seen = || {
        let (non_json_lines, first_non_json) = match told.lock() {
            Ok(teller) => teller.non_json.clone(),
            Err(_) => (0, None),
        };
        Seen {
            non_json_lines,
            first_non_json,
            stdio,
        }
    };
    let mut findings = crate::conform::run(session, asked.selection, seen).await;
    if let Some(target) = asked.target {
        findings.extend(crate::conform::run_raw(target, asked.selection).await);
        let server = &session.server;
        let version = &server.protocol_version;
        findings
            .extend(crate::conform::run_http(target, version, server.era, asked.selection).await);
    }
    let count = |status| findings.iter().filter(|f| f.status == status).count();
    let (passed, failed, not_applicable) = (
        count(Status::Pass),
        count(Status::Fail),
        count(Status::NotApplicable),
    );
    let must_failed = findings
        .iter()
        .filter(|f| f.status == Status::Fail && f.level == Level::Must)
        .count();
    match asked.format {
        CheckFormat::Sarif => report.json(&sarif(session, &findings, &asked)),
        CheckFormat::Json => {
            let checks: Vec<Value> = findings.iter().map(|f| as_json(f, &asked)).collect();
            report.json(&json!({
                "server": session.server.name,
                "protocolVersion": session.server.protocol_version,
                "checks": checks,
                "passed": passed,
                "failed": failed,
                "mustFailed": must_failed,
                "notApplicable": not_applicable,
            }));
        }
        CheckFormat::Text => {
            for finding in &findings {
                tell(report, finding, &asked);
            }
            report.line(&format!(
                "{passed} passed, {failed} failed ({must_failed} of a MUST), {not_applicable} not applicable"
            ));
        }
    }
    match must_failed {
        0 => exit::OK,
        _ => exit::ERROR,
    }
}

fn tell(report: &Report, finding: &Finding, asked: &Asked) {
    let status = match finding.status {
        Status::Pass => "pass",
        Status::Fail => "FAIL",
        Status::NotApplicable => "n/a ",
    };
    let level = match finding.level {
        Level::Must => "MUST  ",
        Level::Should => "SHOULD",
    };
    report.line(&format!(
        "{status} {level} {}: {}",
        finding.id, finding.rule
    ));
    match finding.status {
        Status::Pass => {}
        Status::NotApplicable => report.line(&format!("       {}", finding.said)),
        Status::Fail => {
            report.line(&format!(
                "       got: {}",
                crate::untrusted::line(&finding.said, 300)
            ));
            report.line(&format!("       spec: {}", finding.spec));
            if let Some(line) = reproduce(finding, asked) {
                report.line(&format!("       reproduce: {line}"));
            }
        }
    }
}

/// Each failure a SARIF result: `conform/<id>`, an error for a MUST, a warning for a SHOULD,
/// located at the server (logically: there is no file).
fn sarif(session: &Session, findings: &[Finding], asked: &Asked) -> Value {
    let rules: Vec<String> = findings
        .iter()
        .map(|f| format!("conform/{}", f.id))
        .collect();
    let results: Vec<crate::sarif::Finding> = findings
        .iter()
        .zip(&rules)
        .filter(|(f, _)| f.status == Status::Fail)
        .map(|(f, rule)| crate::sarif::Finding {
            rule,
            level: match f.level {
                Level::Must => "error",
                Level::Should => "warning",
            },
            tool: &session.server.name,
            kind: crate::drift::compare::Kind::Tool,
            pointer: "",
            message: format!(
                "{} ({:?}, {}): got {}{}",
                f.rule,
                f.level,
                f.spec,
                f.said,
                reproduce(f, asked)
                    .map(|line| format!("; reproduce: {line}"))
                    .unwrap_or_default()
            ),
        })
        .collect();
    crate::sarif::log(&results, None)
}

fn as_json(finding: &Finding, asked: &Asked) -> Value {
    let mut value = serde_json::to_value(finding).unwrap_or(Value::Null);
    if let (Some(object), Some(line)) = (value.as_object_mut(), reproduce(finding, asked)) {
        object.insert("reproduce".into(), Value::String(line));
    }
    value
}

/// `mcp-inspect request METHOD [--params '…'] <connection>`, or for a check that spoke raw
/// lines, `printf '%s\n' LINE… | COMMAND`; quoted for a shell.
fn reproduce(finding: &Finding, asked: &Asked) -> Option<String> {
    let quote = crate::app::copy::shell_quote;
    if !finding.http.is_empty() {
        let Some(Target::Http { url, headers, .. }) = asked.target else {
            return None;
        };
        return Some(curl_lines(url, headers, &finding.http));
    }
    if !finding.wrote.is_empty() {
        let Some(Target::Stdio { command, args, .. }) = asked.target else {
            return None;
        };
        let lines: Vec<String> = finding.wrote.iter().map(|l| quote(l)).collect();
        let command: Vec<String> = std::iter::once(command)
            .chain(args)
            .map(|w| quote(w))
            .collect();
        return Some(format!(
            "printf '%s\\n' {} | {}",
            lines.join(" "),
            command.join(" ")
        ));
    }
    let (method, params) = finding.sent.as_ref()?;
    let mut line = format!("mcp-inspect request {}", quote(method));
    if !params.is_null() {
        line.push_str(&format!(" --params {}", quote(&params.to_string())));
    }
    for word in asked.words {
        line.push(' ');
        line.push_str(&quote(word));
    }
    Some(line)
}

/// The bash that sends `sent` again with curl: the first request's session id kept in `$s` when
/// a later one carries it; the user's `--header`s named by shell variables, never their values.
fn curl_lines(url: &str, headers: &[Header], sent: &[HttpSent]) -> String {
    let quote = crate::app::copy::shell_quote;
    let keeps_session = sent.iter().skip(1).any(|s| s.with_session);
    let lines: Vec<String> = sent
        .iter()
        .enumerate()
        .map(|(i, request)| {
            let mut words = vec![format!("curl -sS --max-time 10 -X {}", request.method)];
            words.push(quote(url));
            for header in headers {
                let variable: String = header
                    .name
                    .chars()
                    .map(|c| match c.is_ascii_alphanumeric() {
                        true => c.to_ascii_uppercase(),
                        false => '_',
                    })
                    .collect();
                words.push(format!("-H {}\"${{{variable}:?}}\"", quote(&format!("{}: ", header.name))));
            }
            for (name, value) in &request.headers {
                words.push(format!("-H {}", quote(&format!("{name}: {value}"))));
            }
            if request.with_session {
                words.push("-H \"Mcp-Session-Id: $s\"".into());
            }
            if let Some(body) = &request.body {
                words.push(format!("--data-binary {}", quote(body)));
            }
            match i == 0 && keeps_session {
                true => format!(
                    "s=$({} -D - -o /dev/null | awk 'tolower($1)==\"mcp-session-id:\"{{print $2}}' | tr -d '\\r')",
                    words.join(" ")
                ),
                false => format!("{} -i", words.join(" ")),
            }
        })
        .collect();
    lines.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A user's header (a secret with quotes in it) is named by a shell variable, never
    /// written; the session id the first request gets is kept for the ones that carry it; the
    /// whole is one line bash can parse.
    #[test]
    fn a_curl_line_names_the_users_headers_by_variable_never_by_value() {
        let headers = vec![Header {
            name: "Authorization".into(),
            value: "Bearer S3CR3T'q\"u\\ote".into(),
        }];
        let sent = vec![
            HttpSent {
                method: "POST",
                headers: vec![("Content-Type".into(), "application/json".into())],
                body: Some(r#"{"a":"it's $HOME"}"#.into()),
                with_session: false,
            },
            HttpSent {
                method: "DELETE",
                headers: vec![],
                body: None,
                with_session: true,
            },
        ];
        let line = curl_lines("http://localhost:1/mcp", &headers, &sent);
        assert!(!line.contains("S3CR3T"), "{line}");
        assert!(
            line.contains("'Authorization: '\"${AUTHORIZATION:?}\""),
            "{line}"
        );
        assert!(line.starts_with("s=$(curl "), "{line}");
        assert!(line.contains("-H \"Mcp-Session-Id: $s\""), "{line}");
        let parsed = std::process::Command::new("bash")
            .args(["-n", "-c", &line])
            .status()
            .expect("bash");
        assert!(parsed.success(), "{line}");
    }
}
