//! `mcp-inspect prompts`, `prompt NAME` and `complete`: the server's prompts with their
//! arguments, one prompt's messages by role, and completions for an argument.

use super::output::Report;
use super::{declared, failed};
use crate::cli::Format;
use crate::headless::exit;
use crate::mcp::Session;
use crate::mcp::session::requests::{Completion, CompletionRef, LibraryList, OpenRequest};
use crate::mcp::surface::library;
use crate::untrusted;
use serde_json::{Map, Value, json};

/// `prompts`.
pub async fn list(session: &Session, report: &Report) -> i32 {
    if let Some(code) = declared(session, "prompts", report) {
        return code;
    }
    let listing = match session.list_library(LibraryList::Prompts).await {
        Ok(l) => l,
        Err(e) => return failed("prompts/list", e, report),
    };
    match report.format {
        Format::Json => report.json(&json!({ "prompts": listing.items })),
        Format::Text => {
            for prompt in &listing.items {
                report.line(&library::prompt_line(prompt));
            }
        }
    }
    match listing.problem {
        Some(problem) => report.error(&problem, exit::ERROR),
        None => exit::OK,
    }
}

/// `key=value` pairs as a JSON object of strings.
fn pairs(given: &[String], what: &str) -> Result<Map<String, Value>, String> {
    given
        .iter()
        .map(|pair| match pair.split_once('=') {
            Some((k, v)) => Ok((k.to_string(), Value::String(v.to_string()))),
            None => Err(format!("{what} `{pair}` is not key=value")),
        })
        .collect()
}

/// `prompt NAME [--arg k=v ...]`.
pub async fn get(session: &Session, name: &str, args: &[String], report: &Report) -> i32 {
    let arguments = match pairs(args, "--arg") {
        Ok(a) => a,
        Err(e) => return report.error(&e, exit::ERROR),
    };
    if let Some(code) = declared(session, "prompts", report) {
        return code;
    }
    let name = name.to_string();
    let request = OpenRequest::GetPrompt { name, arguments };
    let result = match session.open(&request).await {
        Ok(r) => r,
        Err(e) => return failed(request.method(), e, report),
    };
    match report.format {
        Format::Json => report.json(&result),
        Format::Text => {
            if let Some(d) = result.get("description").and_then(Value::as_str) {
                report.line(&untrusted::block(d));
            }
            let messages = result.get("messages").and_then(Value::as_array);
            for message in messages.into_iter().flatten() {
                let role = message.get("role").and_then(Value::as_str).unwrap_or("?");
                let content = message.get("content").unwrap_or(&Value::Null);
                report.line(&format!(
                    "{}: {}",
                    untrusted::line(role, 40),
                    library::describe_content(content)
                ));
            }
        }
    }
    exit::OK
}

/// What `complete` completes: a prompt's argument or a resource template's variable.
pub struct Completing<'a> {
    pub prompt: Option<&'a str>,
    pub template: Option<&'a str>,
    pub argument: &'a str,
    pub prefix: &'a str,
    pub context: &'a [String],
}

/// `complete (--prompt NAME | --template URI) ARG PREFIX [--context k=v ...]`.
pub async fn complete(session: &Session, what: Completing<'_>, report: &Report) -> i32 {
    let context = match pairs(what.context, "--context") {
        Ok(c) => c,
        Err(e) => return report.error(&e, exit::ERROR),
    };
    if let Some(code) = declared(session, "completions", report) {
        return code;
    }
    let reference = match (what.prompt, what.template) {
        (Some(name), _) => CompletionRef::Prompt(name.to_string()),
        (None, Some(uri)) => CompletionRef::Template(uri.to_string()),
        (None, None) => return report.error("give --prompt NAME or --template URI", exit::ERROR),
    };
    let completion = Completion {
        reference,
        argument: what.argument.to_string(),
        value: what.prefix.to_string(),
        context,
    };
    let result = match session.complete(&completion).await {
        Ok(r) => r,
        Err(e) => return failed("completion/complete", e, report),
    };
    match report.format {
        Format::Json => report.json(&result),
        Format::Text => {
            let completion = result.get("completion").unwrap_or(&Value::Null);
            let values = completion.get("values").and_then(Value::as_array);
            let mut shown = 0;
            for value in values.into_iter().flatten() {
                shown += 1;
                match value.as_str() {
                    Some(v) => report.line(&untrusted::line(v, 300)),
                    None => report.line(&untrusted::json(value, false)),
                }
            }
            let total = completion.get("total").and_then(Value::as_u64);
            let more = completion.get("hasMore") == Some(&Value::Bool(true));
            if total.is_some() || more {
                let of = total.map(|t| format!(" of {t}")).unwrap_or_default();
                let tail = if more { "; the server has more" } else { "" };
                report.note(&format!("{shown}{of} shown{tail}"));
            }
        }
    }
    exit::OK
}
