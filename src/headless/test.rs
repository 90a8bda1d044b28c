//! `mcp-inspect test FILE`: runs a test file's cases against the server and reports each in
//! text, JSON or JUnit XML; exit 0 when every expectation holds, 1 when any fails. With
//! `--update`, writes what each case gives into the file as its expectations instead.

use super::output::Report;
use crate::cli::TestFormat;
use crate::headless::exit;
use crate::mcp::{Session, ToolList};
use crate::suite::file::{Action, Case};
use crate::suite::{report, run, update};
use std::path::Path;

/// A test file read before connecting, and what to do with it.
pub struct Suite<'a> {
    pub file: &'a Path,
    /// The cases chosen (all, or those `--filter` matched), in the file's order.
    pub cases: Vec<Case>,
    pub update: bool,
    pub format: TestFormat,
}

/// Reads the file and picks the cases `filter` matches; says what is wrong otherwise.
pub fn read(file: &Path, filter: Option<&str>) -> Result<Vec<Case>, String> {
    let mut cases = crate::suite::file::read(file)?;
    if cases.is_empty() {
        return Err(format!(
            "{}: no [[call]], [[prompt]] or [[read]] entries",
            file.display()
        ));
    }
    if let Some(filter) = filter {
        cases.retain(|c| c.label.contains(filter));
        if cases.is_empty() {
            return Err(format!("no case's label contains `{filter}`"));
        }
    }
    Ok(cases)
}

pub async fn run(session: &Session, suite: Suite<'_>, report: &Report) -> i32 {
    let wants_tools = (suite.cases.iter()).any(|c| matches!(c.action, Action::Call { .. }));
    let tools = if wants_tools {
        match session.list_tools().await {
            Ok(list) => list,
            Err(e) => return report.error(&format!("tools/list failed: {e}"), exit::ERROR),
        }
    } else {
        ToolList::default()
    };
    let cases: Vec<&Case> = suite.cases.iter().collect();
    let started = std::time::Instant::now();
    let ran = run::run(session, &tools, &cases).await;
    let seconds = started.elapsed().as_secs_f64();
    if suite.update {
        let listed = |name: &str| tools.tools.iter().any(|t| t.name == name);
        return write_back(suite.file, &cases, &ran, &listed, report);
    }
    let name = suite.file.file_name().unwrap_or_default().to_string_lossy();
    match suite.format {
        TestFormat::Text => {
            for line in report::text(&cases, &ran, seconds) {
                report.line(&line);
            }
        }
        TestFormat::Json => report.json(&report::json(&cases, &ran, seconds)),
        TestFormat::Junit => {
            let file = suite.file.to_string_lossy();
            let run = report::Run {
                suite: &name,
                file: &file,
                seconds,
            };
            report.line(&report::junit(&run, &cases, &ran))
        }
    }
    if ran.iter().all(run::Ran::passed) {
        exit::OK
    } else {
        exit::ERROR
    }
}

/// `--update`: the file rewritten with each answer as its case's expectations (the file as
/// it is now, read again: it may have been edited while the cases ran).
fn write_back(
    file: &Path,
    cases: &[&Case],
    ran: &[run::Ran],
    listed: &dyn Fn(&str) -> bool,
    report: &Report,
) -> i32 {
    let shown = file.display();
    let result = crate::private_files::read_named(file, crate::suite::file::MAX_FILE_BYTES)
        .map_err(|e| format!("{shown}: {e}"))
        .and_then(|text| {
            if !unchanged(&text, cases) {
                return Err(format!(
                    "{shown} changed while its cases ran: not updated (run --update again)"
                ));
            }
            update::updated(&text, cases, ran, listed).map_err(|e| format!("{shown}: {e}"))
        })
        .and_then(|(text, notes)| {
            crate::private_files::replace(file, &text)
                .map_err(|e| format!("cannot write {shown}: {e}"))?;
            Ok(notes)
        });
    let notes = match result {
        Ok(notes) => notes,
        Err(e) => return report.error(&e, exit::ERROR),
    };
    for note in &notes {
        report.warn(note);
    }
    let kept = ran.iter().filter(|r| r.got.is_some()).count();
    report.line(&format!(
        "updated {shown}: the expectations of {}",
        crate::plural::count(kept, "case")
    ));
    if kept == ran.len() {
        exit::OK
    } else {
        exit::ERROR
    }
}

/// Whether `text` still holds each of `cases` at its place.
fn unchanged(text: &str, cases: &[&Case]) -> bool {
    let Ok(now) = crate::suite::file::parse(text) else {
        return false;
    };
    cases.iter().all(|case| {
        now.iter().any(|c| {
            c.action.table() == case.action.table()
                && c.index == case.index
                && c.action == case.action
        })
    })
}
