//! Tasks (2025-11-25, SEP-1686, where the server declares `tasks`): an unknown task id is
//! refused with -32602 by `tasks/get`, `tasks/result` and `tasks/cancel`; a tool that supports
//! tasks (one it may call) called as a task answers with a task that keeps the lifecycle's rules
//! (it begins `working`, each answer names `createdAt`, `lastUpdatedAt` and `ttl`, a terminal
//! status never changes), whose `tasks/result` carries the related-task `_meta`, which
//! `tasks/list` lists, and whose cancel once it ended is refused with -32602; a tool that
//! requires a task, called without one, is refused with -32601. The judges are pure.

use super::{Finding, Level, Selection, Status, finding};
use crate::mcp::{RequestError, Session};
use serde_json::{Value, json};
use std::time::Duration;

pub const IDS: [&str; 3] = [
    "tasks-unknown-id",
    "tasks-lifecycle",
    "tasks-required-refused",
];

const TASKS: &str = "basic/utilities/tasks (2025-11-25)";
/// A task id no server made.
const NO_SUCH_TASK: &str = "mcp-inspect-conform-no-such-task";
/// How long a task is polled at most before it is cancelled.
const POLL_FOR: Duration = Duration::from_secs(30);
/// The statuses a task may have, and those it never leaves.
const STATUSES: [&str; 5] = [
    "working",
    "input_required",
    "completed",
    "failed",
    "cancelled",
];
pub(super) const TERMINAL: [&str; 3] = ["completed", "failed", "cancelled"];
pub(super) const RELATED: &str = "io.modelcontextprotocol/related-task";

fn unknown_id() -> Finding {
    finding(
        "tasks-unknown-id",
        "tasks/get, tasks/result and tasks/cancel of a task id that does not exist are refused with -32602",
        Level::Must,
        TASKS,
    )
}

fn lifecycle() -> Finding {
    finding(
        "tasks-lifecycle",
        "a tool called as a task answers with a task that begins working, names createdAt, lastUpdatedAt and ttl, never leaves a terminal status, is listed, gives its result with the related-task _meta, and refuses a cancel once ended (-32602)",
        Level::Must,
        TASKS,
    )
}

fn required_refused() -> Finding {
    finding(
        "tasks-required-refused",
        "a tool whose execution.taskSupport is required, called without a task, is refused with -32601",
        Level::Must,
        TASKS,
    )
}

/// The checks here `selection` wants.
pub async fn run(session: &Session, selection: &Selection) -> Vec<Finding> {
    if !IDS.iter().any(|id| selection.wants(id)) {
        return Vec::new();
    }
    let checks = [unknown_id(), lifecycle(), required_refused()];
    if !session.server.declares("tasks") {
        return super::hygiene::not_run(checks, "`tasks` is not declared")
            .into_iter()
            .filter(|f| selection.wants(f.id))
            .collect();
    }
    let [unknown, lifecycle, required] = checks;
    let mut found = Vec::new();
    if selection.wants(unknown.id) {
        found.push(unknown_id_check(session, unknown).await);
    }
    let tools = match session.list_tools().await {
        Ok(list) => (list.tools.iter())
            .filter(|t| selection.may_call(&list, t))
            .filter_map(|t| {
                let support = t
                    .task_support()
                    .filter(|s| ["optional", "required"].contains(s))?;
                let arguments = crate::schema::generate::skeleton(&t.input_schema);
                Some((t.name.clone(), support.to_string(), arguments))
            })
            .collect(),
        Err(_) => Vec::new(),
    };
    if selection.wants(lifecycle.id) {
        found.push(lifecycle_check(session, &tools, lifecycle).await);
    }
    if selection.wants(required.id) {
        found.push(required_check(session, &tools, required).await);
    }
    found
}

/// A tool a check may call that supports tasks: its name, its `execution.taskSupport`
/// (`optional` or `required`), typical arguments.
type Callable = (String, String, Value);

async fn unknown_id_check(session: &Session, check: Finding) -> Finding {
    let params = json!({"taskId": NO_SUCH_TASK});
    let mut methods = vec!["tasks/get", "tasks/result"];
    if session
        .server
        .capabilities
        .pointer("/tasks/cancel")
        .is_some()
    {
        methods.push("tasks/cancel");
    }
    for method in methods {
        let outcome = session.any_request(method, Some(params.clone())).await;
        let (status, said) = super::expects_error(&outcome, -32602);
        if status == Status::Fail {
            return check.judged((method, params), (status, format!("{method}: {said}")));
        }
    }
    let said = "each refused with -32602".to_string();
    check.judged(("tasks/get", params), (Status::Pass, said))
}

async fn lifecycle_check(session: &Session, tools: &[Callable], check: Finding) -> Finding {
    if session
        .server
        .capabilities
        .pointer("/tasks/requests/tools/call")
        .is_none()
    {
        return check.not_applicable("`tasks.requests.tools.call` is not declared");
    }
    let Some((name, _, arguments)) = tools.first() else {
        return check.not_applicable(&format!(
            "no tool it may call supports tasks ({})",
            super::NO_TOOL_ALLOWED
        ));
    };
    let params = json!({"name": name, "arguments": arguments, "task": {"ttl": 60_000}});
    let sent = ("tools/call", params.clone());
    let created = match session.any_request("tools/call", Some(params)).await {
        Ok(created) => created,
        Err(e) => return check.judged(sent, (Status::Fail, format!("the call as a task: {e}"))),
    };
    let task = &created["task"];
    let mut problems = task_problems(task, None);
    if task["status"] != "working" {
        problems.push(format!("it began {}, not working", shown(&task["status"])));
    }
    let Some(id) = task["taskId"].as_str().map(String::from) else {
        return check.judged(sent, (Status::Fail, problems.join("; ")));
    };
    let seen = follow(session, &id, task).await;
    problems.extend(seen.problems);
    if let Some(status) = seen.last.filter(|s| TERMINAL.contains(&s.as_str())) {
        problems.extend(after_the_end(session, &id, &status).await);
    }
    problems.truncate(MAX_PROBLEMS);
    let course = format!("task {}: {}", shown(&json!(id)), seen.said);
    let verdict = match (problems.is_empty(), seen.unfinished) {
        (false, _) => (Status::Fail, super::cut(problems.join("; "))),
        // What was not seen is not checked: never a pass.
        (true, Some(why)) => (Status::NotApplicable, format!("{course}; {why}")),
        (true, None) => (Status::Pass, course),
    };
    check.judged(sent, verdict)
}

/// Problems kept at most (a task polled for [`POLL_FOR`] can give some at every answer).
const MAX_PROBLEMS: usize = 10;
/// Statuses of a task's course told at most.
const MAX_COURSE: usize = 20;

/// What polling a task saw: problems, its last status, its course in words, and why it was
/// not followed to its end, when it was not.
struct Followed {
    problems: Vec<String>,
    last: Option<String>,
    said: String,
    unfinished: Option<String>,
}

/// Polls `tasks/get` until the task ends (or needs input, or [`POLL_FOR`] passes: then it is
/// cancelled, when the server can, and the cancel's answer judged).
async fn follow(session: &Session, id: &str, created: &Value) -> Followed {
    let mut problems = Vec::new();
    let mut course = vec![status_of(created)];
    let mut unfinished = None;
    let poll = |task: &Value| {
        Duration::from_millis(task["pollInterval"].as_u64().unwrap_or(500))
            .clamp(Duration::from_millis(100), Duration::from_secs(2))
    };
    let mut wait = poll(created);
    let started = tokio::time::Instant::now();
    let params = json!({"taskId": id});
    loop {
        let last = course.last().cloned().unwrap_or_default();
        if TERMINAL.contains(&last.as_str()) {
            break;
        }
        if last == "input_required" {
            unfinished = Some(ASKS_FOR_INPUT.into());
            break;
        }
        if started.elapsed() > POLL_FOR {
            problems.extend(cancelled_while_working(session, id).await);
            unfinished = Some(format!(
                "still working after {} s: its end is not checked",
                POLL_FOR.as_secs()
            ));
            break;
        }
        tokio::time::sleep(wait).await;
        let task = match session.any_request("tasks/get", Some(params.clone())).await {
            Ok(task) => task,
            Err(e) => {
                problems.push(format!("tasks/get: {e}"));
                break;
            }
        };
        if problems.len() < MAX_PROBLEMS {
            problems.extend(task_problems(&task, Some(id)));
        }
        let status = status_of(&task);
        if let Some(wrong) = transition(&last, &status).filter(|_| problems.len() < MAX_PROBLEMS) {
            problems.push(wrong);
        }
        wait = poll(&task);
        if status != last {
            course.push(status);
        }
    }
    let last = course.last().cloned();
    if course.len() > MAX_COURSE {
        course.drain(1..course.len() - MAX_COURSE + 1);
        course.insert(1, "…".into());
    }
    Followed {
        problems,
        last,
        said: course.join(" → "),
        unfinished,
    }
}

/// A task's status as the server wrote it, escaped and bounded (a spec status is unchanged).
pub(super) fn status_of(task: &Value) -> String {
    match task["status"].as_str() {
        Some(status) => crate::untrusted::line(status, 40).into_owned(),
        None => "?".into(),
    }
}

/// A task still working after [`POLL_FOR`] is cancelled, when the server can: the answer must
/// say `cancelled`.
async fn cancelled_while_working(session: &Session, id: &str) -> Vec<String> {
    if session
        .server
        .capabilities
        .pointer("/tasks/cancel")
        .is_none()
    {
        // Left running: the caller says it was not followed to its end.
        return Vec::new();
    }
    match session
        .any_request("tasks/cancel", Some(json!({"taskId": id})))
        .await
    {
        Ok(task) if task["status"] == "cancelled" => Vec::new(),
        Ok(task) => vec![format!(
            "tasks/cancel answered status {}, not cancelled",
            shown(&task["status"])
        )],
        Err(e) => vec![format!("tasks/cancel of a working task: {e}")],
    }
}

/// Once the task ended: its result with the related-task `_meta`, its place in `tasks/list`,
/// and a cancel refused.
async fn after_the_end(session: &Session, id: &str, status: &str) -> Vec<String> {
    let params = json!({"taskId": id});
    let mut problems = Vec::new();
    // Asked once more, it is still where it ended.
    if let Ok(task) = session.any_request("tasks/get", Some(params.clone())).await {
        problems.extend(transition(status, &status_of(&task)));
    }
    match session
        .any_request("tasks/result", Some(params.clone()))
        .await
    {
        Ok(result)
            if result.pointer(&format!("/_meta/{}/taskId", RELATED.replace('/', "~1")))
                != Some(&json!(id)) =>
        {
            problems.push(format!("tasks/result lacks _meta.\"{RELATED}\".taskId"));
        }
        Ok(_) => {}
        // A failed or cancelled task's result may be the error the call would have had.
        Err(RequestError::Server { .. }) if status != "completed" => {}
        Err(e) => problems.push(format!("tasks/result of a {status} task: {e}")),
    }
    if session.server.capabilities.pointer("/tasks/list").is_some() && !listed(session, id).await {
        problems.push("tasks/list does not list it".into());
    }
    if session
        .server
        .capabilities
        .pointer("/tasks/cancel")
        .is_some()
    {
        let outcome = session.any_request("tasks/cancel", Some(params)).await;
        if super::expects_error(&outcome, -32602).0 == Status::Fail {
            problems.push(format!(
                "tasks/cancel of a {status} task: {}",
                super::answered(&outcome)
            ));
        }
    }
    problems
}

/// Whether `tasks/list` (its first ten pages) lists the task `id`.
async fn listed(session: &Session, id: &str) -> bool {
    let mut cursor: Option<String> = None;
    for _ in 0..10 {
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        let Ok(page) = session.any_request("tasks/list", Some(params)).await else {
            return false;
        };
        let tasks = page["tasks"].as_array().into_iter().flatten();
        if tasks.into_iter().any(|t| t["taskId"] == json!(id)) {
            return true;
        }
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_string()),
            None => return false,
        }
    }
    false
}

async fn required_check(session: &Session, tools: &[Callable], check: Finding) -> Finding {
    let Some((name, _, arguments)) = tools.iter().find(|t| t.1 == "required") else {
        return check.not_applicable(&format!(
            "no tool it may call requires a task ({})",
            super::NO_TOOL_ALLOWED
        ));
    };
    let params = json!({"name": name, "arguments": arguments});
    let outcome = session
        .any_request("tools/call", Some(params.clone()))
        .await;
    check.judged(
        ("tools/call", params),
        super::expects_error(&outcome, -32601),
    )
}

/// What a task object (a `tools/call`'s `task`, or a `tasks/get` answer) lacks or breaks:
/// a string id (the one asked for), a known status, `createdAt` and `lastUpdatedAt`, `ttl`.
pub fn task_problems(task: &Value, id: Option<&str>) -> Vec<String> {
    let mut problems = Vec::new();
    if !task.is_object() {
        return vec![format!("not a task object: {}", shown(task))];
    }
    match (task["taskId"].as_str(), id) {
        (None, _) => problems.push("no string taskId".into()),
        (Some(got), Some(asked)) if got != asked => {
            problems.push(format!("tasks/get named task {}", shown(&json!(got))));
        }
        _ => {}
    }
    problems.extend(unknown_status(task));
    for key in ["createdAt", "lastUpdatedAt"] {
        if !task[key].is_string() {
            problems.push(format!("no {key}"));
        }
    }
    // `ttl` is a duration or null (unlimited), but present.
    if !(task["ttl"].is_number() || task.get("ttl").is_some_and(Value::is_null)) {
        problems.push("no ttl (a number, or null for unlimited)".into());
    }
    problems
}

/// A task's status when it is none of the spec's, said (both task eras share the statuses).
pub(super) fn unknown_status(task: &Value) -> Option<String> {
    let known = task["status"]
        .as_str()
        .is_some_and(|s| STATUSES.contains(&s));
    (!known).then(|| format!("status {} is none of the spec's", shown(&task["status"])))
}

/// Why a task's end is not checked when it asks for input.
const ASKS_FOR_INPUT: &str =
    "it asks for input, which conform does not give: its end is not checked";

/// What is wrong with a task going from status `from` to `to`, if anything: a terminal
/// status never changes; nothing goes back to `working` but `input_required`.
pub fn transition(from: &str, to: &str) -> Option<String> {
    let wrong = match from {
        _ if from == to => false,
        f if TERMINAL.contains(&f) => true,
        _ => to == "working" && from != "input_required",
    };
    wrong.then(|| format!("went from {from} to {to}"))
}

/// A value the server sent, escaped and bounded.
pub(super) fn shown(value: &Value) -> String {
    crate::untrusted::line(&crate::untrusted::json(value, false), 120).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_names_its_times_and_ttl_and_a_known_status() {
        let good = json!({"taskId": "t1", "status": "working", "createdAt": "2025-11-25T10:30:00Z",
            "lastUpdatedAt": "2025-11-25T10:30:00Z", "ttl": null});
        assert!(task_problems(&good, Some("t1")).is_empty());
        let bad = json!({"taskId": "t2", "status": "done", "createdAt": "x"});
        let problems = task_problems(&bad, Some("t1"));
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert!(problems[0].contains("named task \"t2\""), "{problems:?}");
        assert!(task_problems(&json!("t1"), None)[0].contains("not a task object"));
    }

    #[test]
    fn a_status_is_shown_escaped_and_bounded() {
        assert_eq!(status_of(&json!({"status": "working"})), "working");
        let hostile = status_of(&json!({"status": format!("working\u{1b}[2J{}", "x".repeat(500))}));
        assert!(
            !hostile.contains('\u{1b}') && hostile.chars().count() < 100,
            "{hostile}"
        );
        assert_eq!(status_of(&json!({})), "?");
    }

    #[test]
    fn a_terminal_status_never_changes() {
        assert_eq!(transition("working", "completed"), None);
        assert_eq!(transition("working", "input_required"), None);
        assert_eq!(transition("input_required", "working"), None);
        assert_eq!(transition("completed", "completed"), None);
        assert!(transition("completed", "working").is_some());
        assert!(transition("cancelled", "completed").is_some());
        assert!(transition("failed", "input_required").is_some());
    }
}
