//! The tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`, 2026-07-28 era), where the
//! server declares it: no v1 `capabilities.tasks` beside it; the task methods refused
//! (-32021) to a request that does not declare the extension; unknown ids refused (-32602) and
//! the removed `tasks/result` and `tasks/list` unknown (-32601); a tool it may call, called
//! declaring the extension, that the server makes a task of: a flat `CreateTaskResult`
//! (`ttlMs`, `pollIntervalMs`, no v1 keys), `tasks/get` answering at once and until the end
//! with the result or error inlined, a terminal status that never changes, an empty
//! acknowledgement for a cancel (of an ended task too); the same tool cancelled at once ends;
//! and, called without the extension, answered at once (or refused -32021), never as a task.
//! The judges are pure; a request declares the extension for itself alone (SEP-2575).

mod shapes;

use super::tasks::{TERMINAL, shown, transition};
use super::{Finding, Level, Selection, Status, finding};
use crate::mcp::session::task_extension::EXTENSION;
use crate::mcp::{RequestError, Session};
use serde_json::{Value, json};
use shapes::{ack_problems, created_problems, detailed_problems};
use std::time::Duration;

pub const IDS: [&str; 6] = [
    "tasks-extension-declared",
    "tasks-extension-gated",
    "tasks-extension-methods",
    "tasks-extension-lifecycle",
    "tasks-extension-cancel",
    "tasks-extension-sync-without",
];

const SEP: &str = "extensions/tasks (SEP-2663, 2026-07-28)";
/// A task id no server made.
const NO_SUCH_TASK: &str = "mcp-inspect-conform-no-such-task";
/// SEP-2575's Missing Required Client Capability.
const MISSING_CAPABILITY: i64 = -32021;
/// How long a task is polled at most.
const POLL_FOR: Duration = Duration::from_secs(30);
/// Tools called (declaring the extension) at most while looking for one made a task, and how
/// long each call is waited for.
const TRIED_AT_MOST: usize = 4;
const CALL_WAIT: Duration = Duration::from_secs(10);
fn checks() -> [Finding; 6] {
    let rule = |id, rule| finding(id, rule, Level::Must, SEP);
    [
        rule(
            IDS[0],
            "a server declaring the tasks extension does not also declare the v1 `capabilities.tasks`",
        ),
        rule(
            IDS[1],
            "tasks/get, tasks/update and tasks/cancel in a request that does not declare the tasks extension are refused with -32021",
        ),
        rule(
            IDS[2],
            "tasks/get and tasks/cancel of an unknown task id are refused with -32602; tasks/result and tasks/list (removed) with -32601",
        ),
        rule(
            IDS[3],
            "a call made a task answers a flat CreateTaskResult (ttlMs, no v1 keys); tasks/get answers at once, inlines the result or error at the end, keeps a terminal status, and a cancel once ended is an empty acknowledgement",
        ),
        rule(
            IDS[4],
            "a task cancelled at once is acknowledged with an empty result and ends",
        ),
        rule(
            IDS[5],
            "a tool made a task, called without declaring the extension, is answered at once (or refused with -32021), never with a task",
        ),
    ]
}

/// The checks here `selection` wants.
pub async fn run(session: &Session, selection: &Selection) -> Vec<Finding> {
    let wanted = |f: &Finding| selection.wants(f.id);
    if !IDS.iter().any(|id| selection.wants(id)) {
        return Vec::new();
    }
    let capabilities = &session.server.capabilities;
    let why = if session.server.era != crate::schema::Era::Modern {
        "the tasks extension (SEP-2663) is checked in the 2026-07-28 era"
    } else if !session.tasks_extension() {
        "`io.modelcontextprotocol/tasks` is not declared"
    } else {
        ""
    };
    if !why.is_empty() {
        return super::hygiene::not_run(checks(), why)
            .into_iter()
            .filter(wanted)
            .collect();
    }
    let [declared, gated, methods, lifecycle, cancel, sync] = checks();
    let mut found = vec![declared.concluded(if session.server.declares("tasks") {
        let v1 = shown(&capabilities["tasks"]);
        (Status::Fail, format!("capabilities.tasks is {v1}"))
    } else {
        (Status::Pass, "only under capabilities.extensions".into())
    })];
    found.push(gated_check(session, gated).await);
    found.push(methods_check(session, methods).await);
    found.retain(wanted);
    if [&lifecycle, &cancel, &sync].iter().any(|f| wanted(f)) {
        found.extend(with_a_task(session, selection, [lifecycle, cancel, sync]).await);
    }
    found.retain(wanted);
    found
}

/// `request` of `method` declaring the extension for itself.
async fn declaring(session: &Session, method: &str, params: &Value) -> Result<Value, RequestError> {
    (session.any_request_declaring(method, Some(params.clone()), EXTENSION)).await
}

async fn gated_check(session: &Session, check: Finding) -> Finding {
    for (method, params) in [
        ("tasks/get", json!({"taskId": NO_SUCH_TASK})),
        (
            "tasks/update",
            json!({"taskId": NO_SUCH_TASK, "inputResponses": {}}),
        ),
        ("tasks/cancel", json!({"taskId": NO_SUCH_TASK})),
    ] {
        let outcome = session.any_request(method, Some(params.clone())).await;
        let (status, said) = super::expects_error(&outcome, MISSING_CAPABILITY);
        if status == Status::Fail {
            return check.judged((method, params), (status, format!("{method}: {said}")));
        }
    }
    check.concluded((Status::Pass, "each refused with -32021".into()))
}

async fn methods_check(session: &Session, check: Finding) -> Finding {
    let unknown = json!({"taskId": NO_SUCH_TASK});
    for (method, code) in [
        ("tasks/get", -32602),
        ("tasks/cancel", -32602),
        ("tasks/result", -32601),
        ("tasks/list", -32601),
    ] {
        let params = if method == "tasks/list" {
            json!({})
        } else {
            unknown.clone()
        };
        let outcome = declaring(session, method, &params).await;
        let (status, said) = super::expects_error(&outcome, code);
        if status == Status::Fail {
            let said = format!("{method} (declaring the extension): {said}");
            return check.concluded((status, said));
        }
    }
    let said = "unknown ids refused with -32602, tasks/result and tasks/list with -32601";
    check.concluded((Status::Pass, said.into()))
}

/// A tool call the server made a task of: the tool, its arguments, the `CreateTaskResult`.
struct Made {
    name: String,
    arguments: Value,
    created: Value,
}

/// Finds a tool the server makes a task of, then runs the three checks that need one.
async fn with_a_task(
    session: &Session,
    selection: &Selection,
    checks: [Finding; 3],
) -> Vec<Finding> {
    let [lifecycle, cancel, sync] = checks;
    let (made, tried) = first_task(session, selection).await;
    let Some(made) = made else {
        let why = match tried {
            Err(problem) => {
                return vec![
                    lifecycle.concluded((Status::Fail, problem)),
                    cancel.not_applicable("no task was made"),
                    sync.not_applicable("no task was made"),
                ];
            }
            Ok(tried) if tried.is_empty() => {
                format!("no tool it may call ({})", super::NO_TOOL_ALLOWED)
            }
            Ok(tried) => format!("no call was made a task (tried {})", tried.join(", ")),
        };
        return super::hygiene::not_run([lifecycle, cancel, sync], &why);
    };
    vec![
        lifecycle_check(session, &made, lifecycle).await,
        cancel_check(session, &made, cancel).await,
        sync_check(session, &made, sync).await,
    ]
}

/// The first of the tools it may call (at most [`TRIED_AT_MOST`], those that name an
/// `execution.taskSupport` other than forbidden first) that, called declaring the
/// extension, the server made a task of; else the tools tried, or what was wrong with an
/// answer given at once.
async fn first_task(
    session: &Session,
    selection: &Selection,
) -> (Option<Made>, Result<Vec<String>, String>) {
    let Ok(list) = session.list_tools().await else {
        return (None, Ok(Vec::new()));
    };
    let mut tried = Vec::new();
    let mut callable: Vec<_> = (list.tools.iter())
        .filter(|t| selection.may_call(&list, t))
        .collect();
    // A tool that still says it supports tasks the 2025-11-25 way is tried first.
    callable.sort_by_key(|t| t.task_support().is_none_or(|s| s == "forbidden"));
    for tool in callable.into_iter().take(TRIED_AT_MOST) {
        let arguments = crate::schema::generate::skeleton(&tool.input_schema);
        let params = json!({"name": tool.name, "arguments": arguments});
        tried.push(crate::untrusted::line(&tool.name, 60).into_owned());
        // A tool that does not answer in time is passed over (it is not this check's finding).
        let asked = declaring(session, "tools/call", &params);
        let Ok(Ok(answer)) = tokio::time::timeout(CALL_WAIT, asked).await else {
            continue;
        };
        if is_task(&answer) {
            let made = Made {
                name: tool.name.clone(),
                arguments,
                created: answer,
            };
            return (Some(made), Ok(tried));
        }
        // Answered at once: complete, or asking for input first (SEP-2322), both allowed.
        let kind = answer.get("resultType");
        if let Some(kind) = kind
            .filter(|k| !["complete", "input_required"].contains(&k.as_str().unwrap_or_default()))
        {
            let said = format!(
                "{} answered at once with resultType {}",
                tried.last().map_or("", String::as_str),
                shown(kind)
            );
            return (None, Err(said));
        }
    }
    (None, Ok(tried))
}

/// Whether an answer to `tools/call` is a task (flat, or wrapped as in 2025-11-25).
fn is_task(answer: &Value) -> bool {
    answer.get("resultType") == Some(&json!("task"))
        || answer.get("taskId").is_some()
        || answer.get("task").is_some_and(Value::is_object)
}

async fn lifecycle_check(session: &Session, made: &Made, check: Finding) -> Finding {
    let mut problems = created_problems(&made.created);
    let Some(id) = made.created["taskId"]
        .as_str()
        .filter(|_| problems.is_empty())
    else {
        let said = format!("{}'s task: {}", made.name, problems.join("; "));
        return check.concluded((Status::Fail, super::cut(said)));
    };
    let seen = follow(session, id).await;
    problems.extend(seen.problems);
    if problems.is_empty() && TERMINAL.contains(&seen.last.as_str()) {
        problems.extend(after_the_end(session, id, &seen.last).await);
    }
    let mut course = format!(
        "{}'s task {}: {}",
        made.name,
        shown(&json!(id)),
        seen.course.join(" → ")
    );
    if seen.rounds > 0 {
        let rounds = crate::plural::count(seen.rounds, "round");
        course.push_str(&format!(
            " (its questions answered with tasks/update: {rounds})"
        ));
    }
    check.concluded(match (problems.is_empty(), seen.unfinished) {
        (false, _) => (
            Status::Fail,
            super::cut(format!("{course}: {}", problems.join("; "))),
        ),
        // What was not seen is not checked: never a pass.
        (true, Some(why)) => (Status::NotApplicable, format!("{course}; {why}")),
        (true, None) => (Status::Pass, course),
    })
}

/// What polling a task saw.
struct Followed {
    problems: Vec<String>,
    course: Vec<String>,
    last: String,
    unfinished: Option<String>,
    /// Rounds of questions it asked, answered with `tasks/update`.
    rounds: usize,
}

/// Polls `tasks/get` from at once until the task ends, breaks a rule, or [`POLL_FOR`] passes
/// (then it is cancelled and left); what it asks is answered as the session answers requests.
async fn follow(session: &Session, id: &str) -> Followed {
    let params = json!({"taskId": id});
    let started = tokio::time::Instant::now();
    let (mut course, mut problems, mut unfinished) = (Vec::<String>::new(), Vec::new(), None);
    let mut last = String::new();
    let mut asked = crate::mcp::session::task_extension::Asked::default();
    loop {
        let task = match declaring(session, "tasks/get", &params).await {
            Ok(task) => task,
            Err(e) => {
                problems.push(format!("tasks/get: {}", super::cut(e.to_string())));
                break;
            }
        };
        problems.extend(detailed_problems(&task, id));
        let status = super::tasks::status_of(&task);
        problems.extend(transition(&last, &status).filter(|_| !last.is_empty()));
        if course.last() != Some(&status) && course.len() < 20 {
            course.push(status.clone());
        }
        last = status;
        if !problems.is_empty() || TERMINAL.contains(&last.as_str()) {
            break;
        }
        if last == "input_required" {
            // Answered as the session answers any request (declined, unless told otherwise):
            // the acknowledgement is judged, and the task must go on.
            match session.answer_task(id, &task, &mut asked).await {
                Some(Ok(ack)) => problems.extend(
                    (ack_problems(&Ok(ack)).into_iter()).map(|p| format!("tasks/update: {p}")),
                ),
                Some(Err(e)) => {
                    let why = super::cut(e.to_string());
                    unfinished = Some(format!(
                        "its questions were not answered ({why}): its end is not checked"
                    ));
                    break;
                }
                None => {}
            }
            if !problems.is_empty() {
                break;
            }
        }
        if started.elapsed() > POLL_FOR {
            let _ = declaring(session, "tasks/cancel", &params).await;
            unfinished = Some(format!(
                "still working after {} s (cancelled): its end is not checked",
                POLL_FOR.as_secs()
            ));
            break;
        }
        tokio::time::sleep(poll_interval(&task)).await;
    }
    Followed {
        problems,
        course,
        last,
        unfinished,
        rounds: asked.rounds(),
    }
}

/// The wait before the next `tasks/get`: the server's `pollIntervalMs`, kept within 100 ms-2 s.
fn poll_interval(task: &Value) -> Duration {
    Duration::from_millis(task["pollIntervalMs"].as_u64().unwrap_or(500))
        .clamp(Duration::from_millis(100), Duration::from_secs(2))
}

/// Once the task ended: asked again it is where it ended, and a cancel is still an empty
/// acknowledgement (cancelling is idempotent; -32602 is for unknown ids only).
async fn after_the_end(session: &Session, id: &str, status: &str) -> Vec<String> {
    let params = json!({"taskId": id});
    let mut problems = Vec::new();
    if let Ok(task) = declaring(session, "tasks/get", &params).await {
        problems.extend(transition(status, &super::tasks::status_of(&task)));
    }
    let outcome = declaring(session, "tasks/cancel", &params).await;
    problems.extend(
        ack_problems(&outcome)
            .into_iter()
            .map(|p| format!("tasks/cancel of a {status} task: {p}")),
    );
    problems
}

async fn cancel_check(session: &Session, made: &Made, check: Finding) -> Finding {
    let params = json!({"name": made.name, "arguments": made.arguments});
    let created = match declaring(session, "tools/call", &params).await {
        Ok(created) if is_task(&created) => created,
        Ok(_) => {
            return check.not_applicable(&format!(
                "{} was answered at once the second time: nothing to cancel",
                made.name
            ));
        }
        Err(e) => {
            return check.concluded((
                Status::Fail,
                format!("{} called again: {}", made.name, super::cut(e.to_string())),
            ));
        }
    };
    let Some(id) = created["taskId"].as_str() else {
        return check.concluded((Status::Fail, "the task has no string taskId".into()));
    };
    let task = json!({"taskId": id});
    let problems = ack_problems(&declaring(session, "tasks/cancel", &task).await);
    if !problems.is_empty() {
        return check.concluded((
            Status::Fail,
            format!("tasks/cancel: {}", problems.join("; ")),
        ));
    }
    let started = tokio::time::Instant::now();
    while started.elapsed() < POLL_FOR {
        match declaring(session, "tasks/get", &task).await {
            Ok(got) if TERMINAL.contains(&got["status"].as_str().unwrap_or_default()) => {
                let said = format!(
                    "acknowledged; the task ended {}",
                    super::tasks::status_of(&got)
                );
                return check.concluded((Status::Pass, said));
            }
            Ok(_) => tokio::time::sleep(Duration::from_millis(200)).await,
            Err(e) => {
                return check.concluded((
                    Status::Fail,
                    format!("tasks/get after the cancel: {}", super::cut(e.to_string())),
                ));
            }
        }
    }
    let said = format!(
        "still not ended {} s after its cancel was acknowledged",
        POLL_FOR.as_secs()
    );
    check.concluded((Status::Fail, said))
}

async fn sync_check(session: &Session, made: &Made, check: Finding) -> Finding {
    let params = json!({"name": made.name, "arguments": made.arguments});
    let outcome = session
        .any_request("tools/call", Some(params.clone()))
        .await;
    let verdict = match &outcome {
        Ok(answer) if is_task(answer) => (
            Status::Fail,
            format!("answered with a task: {}", super::answered(&outcome)),
        ),
        Ok(answer) if answer["content"].is_array() => (Status::Pass, "answered at once".into()),
        Err(RequestError::Server {
            code: MISSING_CAPABILITY,
            ..
        }) => (Status::Pass, "refused with -32021: it needs a task".into()),
        _ => (Status::Fail, super::answered(&outcome)),
    };
    check.judged(("tools/call", params), verdict)
}
