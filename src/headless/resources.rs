//! `mcp-inspect resources`, `templates` and `read URI`: the server's resources and templates
//! across all pages, one line each or as JSON, and one resource's contents.

use super::output::Report;
use super::{declared, failed};
use crate::cli::Format;
use crate::mcp::Session;
use crate::mcp::error::exit;
use crate::untrusted;
use base64::Engine;
use serde_json::{Value, json};
use std::path::Path;

/// Lines of a text content printed before the rest is counted.
const TEXT_LINES: usize = 2_000;

/// `resources` (`templates` with `templates: true`).
pub async fn list(session: &Session, templates: bool, report: &Report) -> i32 {
    if let Some(code) = declared(session, "resources", report) {
        return code;
    }
    let (method, field) = if templates {
        ("resources/templates/list", "resourceTemplates")
    } else {
        ("resources/list", "resources")
    };
    let listing = match session.list_all(method, field).await {
        Ok(l) => l,
        Err(e) => return failed(method, e, report),
    };
    match report.format {
        Format::Json => report.json(&json!({ field: listing.items })),
        Format::Text => {
            for item in &listing.items {
                report.line(&resource_line(item, templates));
            }
        }
    }
    match listing.problem {
        Some(problem) => report.error(&problem, exit::ERROR),
        None => exit::OK,
    }
}

/// `URI  name (title)  mime  size  [annotations]  description`, escaped and bounded.
fn resource_line(item: &Value, template: bool) -> String {
    let text = |key: &str| item.get(key).and_then(Value::as_str);
    let uri = text(if template { "uriTemplate" } else { "uri" }).unwrap_or("(no uri)");
    let mut parts = vec![untrusted::line(uri, 300).into_owned()];
    let mut name = untrusted::line(text("name").unwrap_or("(no name)"), 100).into_owned();
    if let Some(title) = text("title").filter(|t| Some(*t) != text("name")) {
        name.push_str(&format!(" ({})", untrusted::line(title, 100)));
    }
    parts.push(name);
    if let Some(mime) = text("mimeType") {
        parts.push(untrusted::line(mime, 80).into_owned());
    }
    if let Some(size) = item.get("size").and_then(Value::as_u64) {
        parts.push(crate::plural::count(size as usize, "byte"));
    }
    if let Some(a) = item.get("annotations").and_then(Value::as_object) {
        let mut words = Vec::new();
        if let Some(audience) = a.get("audience").and_then(Value::as_array) {
            let who: Vec<&str> = audience.iter().filter_map(Value::as_str).collect();
            words.push(format!("for {}", who.join(", ")));
        }
        if let Some(p) = a.get("priority").filter(|p| p.is_number()) {
            words.push(format!("priority {p}"));
        }
        if let Some(t) = a.get("lastModified").and_then(Value::as_str) {
            words.push(format!("modified {t}"));
        }
        if !words.is_empty() {
            parts.push(format!("[{}]", untrusted::line(&words.join(", "), 200)));
        }
    }
    if let Some(first) = text("description").and_then(|d| d.lines().find(|l| !l.trim().is_empty()))
    {
        parts.push(untrusted::line(first.trim(), 160).into_owned());
    }
    parts.join("  ")
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
    let result = match session
        .request("resources/read", Some(json!({"uri": uri})))
        .await
    {
        Ok(r) => r,
        Err(e) => return failed("resources/read", e, report),
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
        let bytes = match content_bytes(first) {
            Ok(b) => b,
            Err(e) => return report.error(&e, exit::ERROR),
        };
        let written = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
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

/// A content's bytes: its text as UTF-8, or its blob decoded.
fn content_bytes(content: &Value) -> Result<Vec<u8>, String> {
    if let Some(text) = content.get("text").and_then(Value::as_str) {
        return Ok(text.as_bytes().to_vec());
    }
    let blob = content
        .get("blob")
        .and_then(Value::as_str)
        .ok_or("the content has neither `text` nor `blob`")?;
    base64::engine::general_purpose::STANDARD
        .decode(blob)
        .map_err(|e| format!("the blob is not valid base64: {e}"))
}

fn print_content(index: usize, content: &Value, report: &Report) {
    let text = |key: &str| content.get(key).and_then(Value::as_str);
    let mut head = format!(
        "contents[{index}]: {}",
        untrusted::line(text("uri").unwrap_or("(no uri)"), 300)
    );
    if let Some(mime) = text("mimeType") {
        head.push_str(&format!("  {}", untrusted::line(mime, 80)));
    }
    report.line(&head);
    match (text("text"), content_bytes(content)) {
        (Some(body), _) => {
            let (shown, more) = untrusted::first_lines(body, TEXT_LINES);
            for line in shown {
                report.line(&format!("  {line}"));
            }
            if more > 0 {
                report.line(&format!("  … {more} more lines (--format json shows all)"));
            }
        }
        (None, Ok(bytes)) => report.line(&format!(
            "  blob: {} (read URI --out FILE writes them)",
            crate::plural::count(bytes.len(), "byte")
        )),
        (None, Err(e)) => report.line(&format!("  {}", untrusted::line(&e, 200))),
    }
}
