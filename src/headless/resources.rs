//! `mcp-inspect resources`, `templates` and `read URI`: the server's resources and templates
//! across all pages, one line each or as JSON, and one resource's contents.

use super::output::Report;
use super::{declared, failed};
use crate::cli::Format;
use crate::headless::exit;
use crate::mcp::Session;
use crate::mcp::session::requests::{LibraryList, OpenRequest};
use crate::mcp::surface::library;
use serde_json::{Value, json};
use std::path::Path;

/// Lines of a text content printed before the rest is counted.
const TEXT_LINES: usize = 2_000;

/// `resources` (`templates` with `templates: true`).
pub async fn list(session: &Session, templates: bool, report: &Report) -> i32 {
    if let Some(code) = declared(session, "resources", report) {
        return code;
    }
    let list = match templates {
        true => LibraryList::Templates,
        false => LibraryList::Resources,
    };
    let field = list.field();
    let listing = match session.list_library(list).await {
        Ok(l) => l,
        Err(e) => return failed(list.method(), e, report),
    };
    match report.format {
        Format::Json => report.json(&json!({ field: listing.items })),
        Format::Text => {
            for item in &listing.items {
                report.line(&library::resource_line(item, templates));
            }
        }
    }
    match listing.problem {
        Some(problem) => report.error(&problem, exit::ERROR),
        None => exit::OK,
    }
}

/// `read URI [--out FILE]`.
pub async fn read(session: &Session, uri: &str, out: Option<&Path>, report: &Report) -> i32 {
    if let Some(code) = declared(session, "resources", report) {
        return code;
    }
    // Checked before asking: a file is never overwritten, whatever the server answers.
    if let Some(path) = out
        && path.exists()
    {
        return report.error(
            &format!("{} exists: not overwritten", path.display()),
            exit::ERROR,
        );
    }
    let request = OpenRequest::Read {
        uri: uri.to_string(),
    };
    let result = match session.open(&request).await {
        Ok(r) => r,
        Err(e) => return failed(request.method(), e, report),
    };
    let contents: &[Value] = result
        .get("contents")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    if let Some(path) = out {
        let Some(first) = contents.first() else {
            return report.error("the resource has no contents to write", exit::ERROR);
        };
        let bytes = match library::content_bytes(first) {
            Ok(b) => b,
            Err(e) => return report.error(&e, exit::ERROR),
        };
        let written = crate::private_files::new_private(path)
            .and_then(|mut f| std::io::Write::write_all(&mut f, &bytes));
        if let Err(e) = written {
            return report.error(
                &format!("cannot write {}: {e}", path.display()),
                exit::ERROR,
            );
        }
        report.note(&format!(
            "wrote {} to {}",
            crate::plural::count(bytes.len(), "byte"),
            path.display()
        ));
        if contents.len() > 1 {
            report.warn(&format!(
                "{} more not written (only the first is)",
                crate::plural::count(contents.len() - 1, "content")
            ));
        }
        return exit::OK;
    }
    match report.format {
        Format::Json => report.json(&result),
        Format::Text => {
            for (i, content) in contents.iter().enumerate() {
                print_content(i, content, report);
            }
        }
    }
    exit::OK
}

fn print_content(index: usize, content: &Value, report: &Report) {
    for line in library::content_lines(index, content, TEXT_LINES) {
        report.line(&line);
    }
}
