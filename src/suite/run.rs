//! Runs a test file's cases against one connected server in the file's order: each call,
//! prompt or read made as a user would, a call's result judged against its tool's
//! outputSchema (boxing unwrapped), and every result held against its case's expectations.

use super::expect::{Got, failures};
use super::file::{Action, Case};
use crate::mcp::session::requests::OpenRequest;
use crate::mcp::surface::result::CallResult;
use crate::mcp::{RequestError, Session, ToolList};
use crate::schema::judge::{Judge, Judges};
use crate::schema::{Status, Verdict};
use serde_json::Value;
use std::sync::Arc;
use std::time::Instant;

/// A case as it ran.
#[derive(Debug, Clone)]
pub struct Ran {
    /// What it gave, when the request got an answer.
    pub got: Option<Got>,
    /// Every expectation that failed, or why the case could not run.
    pub failures: Vec<String>,
    pub ms: u64,
}

impl Ran {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Runs `cases` one after the other; once the connection has closed, the rest fail with the
/// reason (the server's exit and last stderr lines) without being tried.
pub async fn run(session: &Session, tools: &ToolList, cases: &[&Case]) -> Vec<Ran> {
    let mut ran = Vec::with_capacity(cases.len());
    let mut closed: Option<String> = None;
    // Each tool's output schema compiled once for the whole file.
    let mut judges = Judges::default();
    for case in cases {
        if let Some(why) = &closed {
            ran.push(Ran {
                got: None,
                failures: vec![format!("not run: {why}")],
                ms: 0,
            });
            continue;
        }
        let started = Instant::now();
        let answer = answer(session, tools, &case.action, &mut judges).await;
        let ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let one = match answer {
            Ok(mut got) => {
                got.ms = ms;
                let mut failures = failures(&case.expect, &got);
                // A tool the server does not list fails, whatever it answered.
                if let Some(unknown) = unknown(tools, &case.action) {
                    failures.insert(0, unknown);
                }
                Ran {
                    got: Some(got),
                    failures,
                    ms,
                }
            }
            Err(Failed::Server(mut got)) => {
                got.ms = ms;
                let mut failures = failures(&case.expect, &got);
                if case.expect.is_error != Some(true) {
                    let said = match unknown(tools, &case.action) {
                        Some(unknown) => format!("{unknown}; "),
                        None => String::new(),
                    };
                    failures.insert(0, format!("{said}{}", got.text));
                }
                Ran {
                    got: Some(got),
                    failures,
                    ms,
                }
            }
            Err(Failed::Other(error)) => {
                if let RequestError::Closed(_) = &error {
                    closed = Some(format!("the connection closed earlier: {error}"));
                }
                Ran {
                    got: None,
                    failures: vec![format!("{} failed: {error}", method(&case.action))],
                    ms,
                }
            }
        };
        ran.push(one);
    }
    ran
}

/// Why a request gave no result: the server answered with an error (kept as what the case
/// got, for `is_error = true`), or anything else.
enum Failed {
    Server(Got),
    Other(RequestError),
}

async fn answer(
    session: &Session,
    tools: &ToolList,
    action: &Action,
    judges: &mut Judges,
) -> Result<Got, Failed> {
    let answered = match action {
        Action::Call { tool, args } => {
            let judge = (tools.tools.iter().find(|t| t.name == *tool))
                .and_then(|t| judges.of(tool, t.output_schema.as_deref()));
            return call(session, tools, tool, args.clone(), judge).await;
        }
        Action::Prompt { name, args } => {
            let request = OpenRequest::GetPrompt {
                name: name.clone(),
                arguments: args.clone(),
            };
            session.open(&request).await.map(|r| (r, "messages"))
        }
        Action::Read { uri } => {
            let request = OpenRequest::Read { uri: uri.clone() };
            session.open(&request).await.map(|r| (r, "contents"))
        }
    };
    let (result, field) = answered.map_err(server_error)?;
    let items = result.get(field).cloned();
    let mut texts = Vec::new();
    for item in items
        .iter()
        .flat_map(|v| v.as_array().into_iter().flatten())
    {
        // A prompt message holds its text under `content`; a resource's contents directly.
        let text = item.get("content").unwrap_or(item).get("text");
        if let Some(text) = text.and_then(Value::as_str) {
            texts.push(text);
        }
    }
    Ok(Got {
        is_error: false,
        verdict: None,
        why: Vec::new(),
        text: texts.join("\n"),
        value: items,
        ms: 0,
    })
}

async fn call(
    session: &Session,
    tools: &ToolList,
    name: &str,
    args: Value,
    judge: Option<Arc<Judge>>,
) -> Result<Got, Failed> {
    let tool = tools.tools.iter().find(|t| t.name == name);
    let as_task = tool.and_then(|t| t.task_support()) == Some("required");
    let result = session
        .call_tool(name, args, as_task)
        .await
        .map_err(server_error)?;
    let era = session.server.era;
    // Judged on a blocking thread: a hostile result may be large.
    let judged = tokio::task::spawn_blocking(move || {
        let verdict = result.verdict(judge.as_deref().map(Judge::parts), era);
        got(&result, &verdict, 0)
    })
    .await;
    judged.map_err(|e| Failed::Other(RequestError::Malformed(format!("judging failed: {e}"))))
}

/// What a judged call gave: its verdict's word, the natural (unboxed) value, its text blocks.
pub fn got(result: &CallResult, verdict: &Verdict, ms: u64) -> Got {
    Got {
        is_error: result.is_error,
        verdict: Some(word(verdict.status)),
        why: why(verdict),
        value: verdict.natural_value(result.structured.as_ref()).cloned(),
        text: result.texts().join("\n"),
        ms,
    }
}

/// Violations said at most when a verdict expectation fails (then how many more).
const WHY_SHOWN: usize = 5;

/// What made `verdict` what it is, in a few words each.
fn why(verdict: &Verdict) -> Vec<String> {
    let mut why: Vec<String> = verdict.reason.iter().cloned().collect();
    for v in verdict.violations.iter().take(WHY_SHOWN) {
        let at = if v.instance_path.is_empty() {
            "/"
        } else {
            &v.instance_path
        };
        why.push(format!("at {at}: {}", v.message));
    }
    let more = verdict.violations.len().saturating_sub(WHY_SHOWN) + verdict.more_violations;
    if more > 0 {
        why.push(format!("{more} more"));
    }
    why
}

/// A status as the file writes it.
pub fn word(status: Status) -> &'static str {
    match status {
        Status::Conforms => "conforms",
        Status::Violations => "violations",
        Status::NotChecked => "not_checked",
        Status::ToolError => "tool_error",
        Status::MissingStructuredContent => "missing_structured_content",
        Status::UnexpectedStructuredContent => "unexpected_structured_content",
    }
}

fn server_error(error: RequestError) -> Failed {
    match error {
        RequestError::Server { code, message, .. } => Failed::Server(Got {
            why: Vec::new(),
            is_error: true,
            verdict: None,
            value: None,
            text: format!("the server answered with error {code}: {message}"),
            ms: 0,
        }),
        other => Failed::Other(other),
    }
}

/// `unknown tool `x` (known: …)` when a call names a tool the server does not list.
fn unknown(tools: &ToolList, action: &Action) -> Option<String> {
    let Action::Call { tool, .. } = action else {
        return None;
    };
    if tools.tools.iter().any(|t| &t.name == tool) {
        return None;
    }
    Some(tools.unknown(tool))
}

fn method(action: &Action) -> &'static str {
    match action {
        Action::Call { .. } => "tools/call",
        Action::Prompt { .. } => "prompts/get",
        Action::Read { .. } => "resources/read",
    }
}
