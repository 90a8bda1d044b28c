//! `mcp-inspect call TOOL`: calls a tool and prints the full result with the verdict on it
//! (JSON), or the content, the natural value and the verdict in words (text).

use super::output::Report;
use crate::cli::Format;
use crate::headless::exit;
use crate::mcp::surface::result::{CallResult, Content, describe_block};
use crate::mcp::surface::tool::Tool;
use crate::mcp::{RequestError, Session, ToolList};
use crate::schema::verdict::Mirror;
use crate::schema::{Compiled, Status, Verdict};
use crate::untrusted;
use serde_json::{Value, json};

/// Exit code for `--strict` when the result breaks its outputSchema.
pub const STRICT_VIOLATION: i32 = exit::VIOLATION;

/// How the call is made and judged.
#[derive(Debug, Clone, Copy)]
pub struct How {
    /// Exit [`STRICT_VIOLATION`] when the result breaks its outputSchema.
    pub strict: bool,
    /// As a task, even when the tool does not require it.
    pub task: bool,
    /// Even a tool clients of this era must exclude.
    pub force: bool,
}

pub async fn run(
    session: &Session,
    name: &str,
    args: Option<&str>,
    pairs: &[String],
    how: How,
    report: &Report,
) -> i32 {
    let strict = how.strict;
    let list = match session.list_tools().await {
        Ok(l) => l,
        Err(e) => return report.error(&format!("tools/list failed: {e}"), exit::ERROR),
    };
    let tool = list.tools.iter().find(|t| t.name == name);
    if let Some(why) = tool.and_then(|t| t.excluded_in(session.server.era)) {
        let why = untrusted::line(&why, 300);
        if !how.force {
            let name = untrusted::line(name, 80);
            let said = format!("tool `{name}` is not called: {why} (--force calls it anyway)");
            return report.error(&said, exit::ERROR);
        }
        report.warn(&format!("called with --force although {why}"));
    }
    let arguments = match call_arguments(args, pairs, tool.map(|t| t.input_schema.value())) {
        Ok(a) => a,
        Err(e) => return report.error(&e, exit::ERROR),
    };
    let (argument_problems, unchecked) = match tool {
        Some(t) => {
            let (schema, args) = (t.input_schema.clone(), arguments.clone());
            off_thread(move || argument_violations(&schema, &args)).await
        }
        None => (Vec::new(), Vec::new()),
    };
    for problem in &argument_problems {
        report.warn(&format!("arguments: {problem} (sent anyway)"));
    }
    for why in &unchecked {
        report.warn(&format!("arguments: {why}"));
    }
    let as_task = as_task(tool, how.task, report);
    let result = match session.call_tool(name, arguments, as_task).await {
        Ok(r) => r,
        Err(e) => return call_failed(e, name, tool.is_none().then_some(&list), report),
    };
    let schema = tool.and_then(|t| t.output_schema.clone());
    let era = session.server.era;
    let (result, mut verdict) = off_thread(move || {
        let judge = schema.as_deref().map(crate::schema::judge::Judge::new);
        let verdict = result.verdict(judge.as_ref().map(|j| j.parts()), era);
        (result, verdict)
    })
    .await;
    if !argument_problems.is_empty() {
        let places = crate::plural::count(argument_problems.len(), "place");
        (verdict.notes).push(format!(
            "the arguments sent break the inputSchema in {places}"
        ));
    }
    if tool.is_none() {
        let name = untrusted::line(name, 80);
        verdict.notes.push(format!("`{name}` is not in tools/list"));
    }
    match report.format {
        Format::Json => report.json(&with_verdict(&result.raw, &verdict)),
        Format::Text => print_text(&result, &verdict, report),
    }
    if result.is_error {
        exit::TOOL_ERROR
    } else if strict
        && matches!(
            verdict.status,
            Status::Violations | Status::MissingStructuredContent
        )
    {
        STRICT_VIOLATION
    } else {
        exit::OK
    }
}

/// Whether the call goes as a task: asked (`--task`, warned about when the tool does not
/// support it) or required by the tool.
fn as_task(tool: Option<&Tool>, asked: bool, report: &Report) -> bool {
    let support = tool.and_then(|t| t.task_support());
    if asked && !matches!(support, Some("required" | "optional")) {
        let support = support.map_or("absent (forbidden)".into(), |s| {
            format!("`{}`", untrusted::line(s, 40))
        });
        report.warn(&format!(
            "the tool's execution.taskSupport is {support}: called as a task anyway"
        ));
    }
    asked || support == Some("required")
}

/// A call that got no result: a server error exits 5 (naming the tools listed when the tool
/// is unknown, `unlisted`), anything else 1.
fn call_failed(
    error: RequestError,
    name: &str,
    unlisted: Option<&ToolList>,
    report: &Report,
) -> i32 {
    match (error, unlisted) {
        (RequestError::Server { code, message, .. }, Some(list)) => {
            let known = list.unknown(name);
            let said = format!("{known}; the server said {code}: {message}");
            report.error(&said, exit::TOOL_ERROR)
        }
        (e @ RequestError::Server { .. }, None) => report.error(&e.to_string(), exit::TOOL_ERROR),
        (e, _) => report.error(&format!("tools/call failed: {e}"), exit::ERROR),
    }
}

/// Runs schema work on a blocking thread, so that Ctrl-C, SIGTERM and SIGHUP (handled on this
/// task) are never held up by it. A validator that panicked is a bug: it stays a panic.
async fn off_thread<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    match tokio::task::spawn_blocking(work).await {
        Ok(value) => value,
        Err(e) => std::panic::resume_unwind(e.into_panic()),
    }
}

/// Where the arguments break the input schema, checked by the same machinery as results.
/// The arguments' violations of the inputSchema, and what could not be checked (said, not
/// counted as a violation).
fn argument_violations(input_schema: &Value, arguments: &Value) -> (Vec<String>, Vec<String>) {
    match Compiled::new(input_schema).check(arguments) {
        Ok(checked) => {
            let violations = checked.violations.iter().map(|v| v.brief());
            let unchecked = checked.unchecked.into_iter().chain(checked.incomplete);
            (violations.collect(), unchecked.collect())
        }
        Err(unusable) => (
            Vec::new(),
            vec![format!("not checked: {}", unusable.describe())],
        ),
    }
}

/// The raw result object with `verdict` added at its top level (so `jq .content` still works).
fn with_verdict(raw: &Value, verdict: &Verdict) -> Value {
    let mut out = match raw {
        Value::Object(map) => Value::Object(map.clone()),
        other => json!({ "result": other }),
    };
    let mut judged = serde_json::to_value(verdict).unwrap_or(Value::Null);
    if let (Value::Object(v), Some(natural)) = (
        &mut judged,
        verdict.natural_value(raw.get("structuredContent")),
    ) {
        v.insert("value".into(), natural.clone());
    }
    out["verdict"] = judged;
    out
}

fn print_text(result: &CallResult, verdict: &Verdict, report: &Report) {
    for (i, block) in result.content.iter().enumerate() {
        report.line(&format!(
            "content[{i}]: {}",
            untrusted::line(&describe_block(block), 300)
        ));
        if let Content::Text(text) = block {
            for line in untrusted::lines(text) {
                report.line(&format!("  {line}"));
            }
        }
    }
    if result.content.is_empty() {
        report.line("content: (none)");
    }
    match (
        &result.structured,
        verdict.natural_value(result.structured.as_ref()),
    ) {
        (None, _) => report.line("structuredContent: (absent)"),
        (Some(_), Some(value)) => {
            let label = match &verdict.boxing {
                Some(b) => format!("value ({}):", b.describe()),
                None => "structuredContent:".into(),
            };
            report.line(&label);
            let pretty = crate::untrusted::json(value, true);
            for line in pretty.lines() {
                report.line(&format!("  {line}"));
            }
        }
        (Some(_), None) => {}
    }
    report.line(&format!("verdict: {}", verdict.headline()));
    for v in &verdict.violations {
        report.line(&format!(
            "  at {} ({}{}, schema {}): {}",
            if v.instance_path.is_empty() {
                "/"
            } else {
                &v.instance_path
            },
            v.keyword,
            if v.format { ", format" } else { "" },
            v.schema_path,
            v.message
        ));
    }
    if verdict.more_violations > 0 {
        report.line(&format!("  … and {} more", verdict.more_violations));
    }
    if !verdict.format_findings.is_empty() {
        report.line(crate::schema::verdict::FORMAT_FINDINGS);
        for v in &verdict.format_findings {
            let at = if v.instance_path.is_empty() {
                "/"
            } else {
                &v.instance_path
            };
            report.line(&format!(
                "  at {at} (schema {}): {}",
                v.schema_path, v.message
            ));
        }
    }
    match verdict.text_mirror {
        Some(Mirror::Matches) => report.line("text mirror: matches structuredContent"),
        Some(Mirror::MatchesUnboxed) => report.line("text mirror: matches the unboxed value"),
        Some(Mirror::Differs) => {
            report.line("text mirror: JSON text differs from structuredContent (information)")
        }
        Some(Mirror::NoJsonText) | None => {}
    }
    for note in &verdict.notes {
        report.line(&format!("note: {}", untrusted::line(note, 400)));
    }
}

/// Arguments for `call` from `--args` or repeated `--arg key=value`. A value is read as JSON
/// when it parses, unless the input schema says the property is a string (so `kind=false` or
/// `id=007` stay strings where strings are expected).
pub(super) fn call_arguments(
    args: Option<&str>,
    pairs: &[String],
    input_schema: Option<&serde_json::Value>,
) -> Result<serde_json::Value, String> {
    if let Some(text) = args {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("--args is not JSON: {e}"))?;
        if !value.is_object() {
            return Err("--args must be a JSON object".into());
        }
        return Ok(value);
    }
    let mut map = serde_json::Map::new();
    for pair in pairs {
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| format!("--arg `{pair}` is not KEY=VALUE"))?;
        let as_string = input_schema
            .and_then(|s| s.get("properties"))
            .and_then(|p| p.get(k))
            .is_some_and(expects_string);
        let value = match serde_json::from_str(v) {
            Ok(parsed) if !as_string => parsed,
            _ => serde_json::Value::String(v.to_string()),
        };
        map.insert(k.to_string(), value);
    }
    Ok(serde_json::Value::Object(map))
}

/// Whether a property schema only accepts strings (`type: string`, or string enum/const).
fn expects_string(schema: &serde_json::Value) -> bool {
    if let Some(t) = schema.get("type") {
        return t == "string";
    }
    let all_strings = |v: &serde_json::Value| {
        v.as_array()
            .is_some_and(|a| !a.is_empty() && a.iter().all(serde_json::Value::is_string))
    };
    schema.get("enum").is_some_and(all_strings)
        || schema
            .get("const")
            .is_some_and(serde_json::Value::is_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn arguments_are_json_unless_the_schema_wants_a_string() {
        let pairs = ["a=2".to_string(), "b=x".to_string()];
        assert_eq!(
            call_arguments(None, &pairs, None),
            Ok(json!({"a": 2, "b": "x"}))
        );
        let schema = json!({"properties": {"kind": {"enum": ["zero", "false"]}, "id": {"type": "string"}, "n": {"type": "integer"}}});
        let pairs = [
            "kind=false".to_string(),
            "id=007".to_string(),
            "n=7".to_string(),
        ];
        assert_eq!(
            call_arguments(None, &pairs, Some(&schema)),
            Ok(json!({"kind": "false", "id": "007", "n": 7}))
        );
        assert_eq!(
            call_arguments(Some("[1]"), &[], None),
            Err("--args must be a JSON object".into())
        );
        assert!(call_arguments(None, &["novalue".to_string()], None).is_err());
    }
}
