//! `mcp-inspect check`: lints every tool; exit 1 when any finding is an error.

use super::output::Report;
use crate::cli::{CheckFormat, Format};
use crate::headless::exit;
use crate::mcp::Session;
use crate::schema::lint::{Severity, lint};
use crate::untrusted;
use serde_json::json;

pub async fn run(session: &Session, report: &Report, format: CheckFormat) -> i32 {
    let list = match session.list_tools().await {
        Ok(l) => l,
        Err(e) => return report.error(&format!("tools/list failed: {e}"), exit::ERROR),
    };
    let schemas: Vec<_> = list.tools.iter().map(|t| t.schemas()).collect();
    let mut findings = lint(&schemas, session.server.era);
    for r in &list.rejected {
        findings.insert(
            0,
            crate::schema::lint::Finding {
                tool: r.name.clone().unwrap_or_else(|| format!("#{}", r.index)),
                severity: Severity::Error,
                pointer: String::new(),
                message: format!("rejected from tools/list: {}", r.reason),
            },
        );
    }
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    match (format, report.format) {
        (CheckFormat::Sarif, _) => {
            let sarif: Vec<crate::sarif::Finding> = findings
                .iter()
                .map(|f| crate::sarif::Finding {
                    rule: match f.severity {
                        Severity::Error => "lint/error",
                        _ => "lint/warning",
                    },
                    level: match f.severity {
                        Severity::Error => "error",
                        _ => "warning",
                    },
                    tool: &f.tool,
                    kind: crate::drift::compare::Kind::Tool,
                    pointer: &f.pointer,
                    message: f.message.clone(),
                })
                .collect();
            report.json(&crate::sarif::log(&sarif, None));
        }
        (_, Format::Json) => report.json(&json!({
            "tools": list.tools.len(), "errors": errors, "warnings": warnings, "findings": findings,
        })),
        (_, Format::Text) => {
            for f in &findings {
                let severity = f.severity.word();
                report.line(&format!(
                    "{severity:<7} {}  {}  {}",
                    untrusted::line(&f.tool, 80),
                    if f.pointer.is_empty() {
                        "-".into()
                    } else {
                        untrusted::line(&f.pointer, 120)
                    },
                    untrusted::line(&f.message, 300)
                ));
            }
            report.line(&format!(
                "{}: {}, {}",
                crate::plural::count(list.tools.len(), "tool"),
                crate::plural::count(errors, "error"),
                crate::plural::count(warnings, "warning")
            ));
        }
    }
    if errors > 0 || list.problem.is_some() {
        exit::ERROR
    } else {
        exit::OK
    }
}
