//! `conform`: the checks of [`crate::conform`] on one session, told as text (a line a check,
//! each failure with what came back and the command that reproduces it) or one JSON object.
//! Exit 1 when a MUST fails.

use super::output::Report;
use super::teller::Told;
use crate::cli::CheckFormat;
use crate::config::target::Target;
use crate::conform::{Finding, Level, Seen, Status};
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
    /// The copy of the server the calls in flight are watched on, when started already.
    pub early: crate::conform::Early,
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
    let found =
        crate::conform::run_all(session, asked.target, asked.selection, seen, asked.early).await;
    let findings = crate::conform::with_reproduce(found, asked.words, asked.target);
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
        CheckFormat::Sarif => report.json(&sarif(session, &findings)),
        CheckFormat::Json => {
            let checks: Vec<Value> = findings
                .iter()
                .map(|f| serde_json::to_value(f).unwrap_or(Value::Null))
                .collect();
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
                tell(report, finding);
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

fn tell(report: &Report, finding: &Finding) {
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
            if let Some(line) = &finding.reproduce {
                report.line(&format!("       reproduce: {line}"));
            }
        }
    }
}

/// Each failure a SARIF result: `conform/<id>`, an error for a MUST, a warning for a SHOULD,
/// located at the server (logically: there is no file).
fn sarif(session: &Session, findings: &[Finding]) -> Value {
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
                f.reproduce
                    .as_ref()
                    .map(|line| format!("; reproduce: {line}"))
                    .unwrap_or_default()
            ),
        })
        .collect();
    crate::sarif::log(&results, None)
}
