//! The shapes of the tasks extension (SEP-2663) on the wire, judged: a `CreateTaskResult`, a
//! `tasks/get` answer (a detailed task), an acknowledgement. Pure: each returns the problems
//! it found, with what the server sent escaped and bounded.

use super::super::tasks::{RELATED, shown, unknown_status};
use crate::mcp::RequestError;
use serde_json::Value;

/// Fields of a task that an acknowledgement (`tasks/cancel`, `tasks/update`) must not carry.
const ENVELOPE: [&str; 5] = ["taskId", "status", "result", "error", "inputRequests"];

/// What a `CreateTaskResult` breaks: flat (no `task` wrapper), `resultType: "task"`, the task's
/// fields, and nothing that belongs on `tasks/get`.
pub(super) fn created_problems(created: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if created.get("task").is_some() {
        problems.push("a nested `task` (a CreateTaskResult is flat)".to_string());
    }
    if created["resultType"] != "task" {
        problems.push(format!(
            "resultType {}, not \"task\"",
            shown(&created["resultType"])
        ));
    }
    for key in ["result", "error", "inputRequests"] {
        if created.get(key).is_some() {
            problems.push(format!("`{key}` (it belongs on tasks/get)"));
        }
    }
    problems.extend(task_fields(created));
    problems
}

/// What a `tasks/get` answer for task `id` breaks: the task's fields, and what its status
/// says must (or must not) be inlined.
pub(super) fn detailed_problems(task: &Value, id: &str) -> Vec<String> {
    let mut problems = task_fields(task);
    if task["taskId"].as_str().is_some_and(|got| got != id) {
        problems.push(format!("tasks/get named task {}", shown(&task["taskId"])));
    }
    if task["resultType"] != "complete" {
        problems.push(format!(
            "tasks/get's resultType {}, not \"complete\"",
            shown(&task["resultType"])
        ));
    }
    let status = task["status"].as_str().unwrap_or_default();
    let result = task.get("result");
    match status {
        "completed" if !result.is_some_and(|r| r["content"].is_array()) => {
            problems.push("completed without an inlined `result` holding `content`".into());
        }
        "completed" if result.and_then(|r| r["_meta"].get(RELATED)).is_some() => {
            problems.push(format!(
                "the inlined result carries the v1 `{}` _meta",
                RELATED
            ));
        }
        "failed" if !(task["error"]["code"].is_i64() && task["error"]["message"].is_string()) => {
            problems.push("failed without an inlined `error` holding a code and a message".into());
        }
        "input_required"
            if task["inputRequests"]
                .as_object()
                .is_none_or(serde_json::Map::is_empty) =>
        {
            problems.push("input_required without `inputRequests`".into());
        }
        _ => {}
    }
    if status != "completed" && result.is_some() {
        problems.push(format!("{} with a `result`", shown(&task["status"])));
    }
    problems
}

/// What breaks the fields every task has: a string `taskId`, a spec status, ISO-8601
/// `createdAt` and `lastUpdatedAt`, `ttlMs` (a positive integer or null), `pollIntervalMs` a
/// positive integer when present, none of the v1 names, no `requestState`.
fn task_fields(task: &Value) -> Vec<String> {
    if !task.is_object() {
        return vec![format!("not a task object: {}", shown(task))];
    }
    let mut problems = Vec::new();
    if !task["taskId"].is_string() {
        problems.push("no string taskId".to_string());
    }
    problems.extend(unknown_status(task));
    for key in ["createdAt", "lastUpdatedAt"] {
        if !task[key].as_str().is_some_and(is_iso_time) {
            problems.push(format!("{key} {} is no ISO 8601 time", shown(&task[key])));
        }
    }
    let positive = |v: &Value| v.as_u64().is_some_and(|n| n > 0);
    match task.get("ttlMs") {
        None => problems.push("no ttlMs".into()),
        Some(ttl) if !(ttl.is_null() || positive(ttl)) => {
            problems.push(format!(
                "ttlMs {} (a positive integer, or null)",
                shown(ttl)
            ));
        }
        Some(_) => {}
    }
    if task.get("pollIntervalMs").is_some_and(|v| !positive(v)) {
        problems.push(format!("pollIntervalMs {}", shown(&task["pollIntervalMs"])));
    }
    for (v1, now) in [("ttl", "ttlMs"), ("pollInterval", "pollIntervalMs")] {
        if task.get(v1).is_some() {
            problems.push(format!("the v1 `{v1}` (now `{now}`)"));
        }
    }
    if task.get("requestState").is_some() {
        problems.push("`requestState` (not a task's)".into());
    }
    problems
}

/// What an acknowledgement (`tasks/cancel`) breaks: an empty result of `resultType: "complete"`.
pub(super) fn ack_problems(outcome: &Result<Value, RequestError>) -> Vec<String> {
    let Ok(ack) = outcome else {
        return vec![super::super::answered(outcome)];
    };
    let mut problems = Vec::new();
    if ack["resultType"] != "complete" {
        problems.push(format!(
            "resultType {}, not \"complete\"",
            shown(&ack["resultType"])
        ));
    }
    let carried: Vec<&str> = ENVELOPE
        .into_iter()
        .filter(|k| ack.get(k).is_some())
        .collect();
    if !carried.is_empty() {
        problems.push(format!(
            "carries {} (an acknowledgement is empty)",
            carried.join(", ")
        ));
    }
    problems
}

/// Whether `text` begins as an ISO 8601 date and time does (`2026-07-28T10:30:00`).
fn is_iso_time(text: &str) -> bool {
    let b = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        b.get(range)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    b.len() >= 19
        && digits(0..4)
        && digits(5..7)
        && digits(8..10)
        && digits(11..13)
        && digits(14..16)
        && digits(17..19)
        && (b[4], b[7], b[10], b[13], b[16]) == (b'-', b'-', b'T', b':', b':')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn task(status: &str) -> Value {
        json!({"taskId": "t1", "status": status, "createdAt": "2026-07-28T10:30:00Z",
            "lastUpdatedAt": "2026-07-28T10:30:01.5+00:00", "ttlMs": 60000, "pollIntervalMs": 500})
    }

    #[test]
    fn a_created_task_is_flat_and_uses_the_new_names() {
        let mut good = task("working");
        good["resultType"] = json!("task");
        assert!(
            created_problems(&good).is_empty(),
            "{:?}",
            created_problems(&good)
        );
        let v1 = json!({"task": {"taskId": "t1"}, "taskId": "t1", "status": "done", "ttl": 1,
            "createdAt": "yesterday", "result": {}, "requestState": "x", "pollIntervalMs": 0.5});
        let problems = created_problems(&v1).join("; ");
        for expected in [
            "nested `task`",
            "resultType null",
            "`result`",
            "status \"done\"",
            "createdAt \"yesterday\"",
            "lastUpdatedAt null",
            "no ttlMs",
            "pollIntervalMs 0.5",
            "v1 `ttl`",
            "`requestState`",
        ] {
            assert!(problems.contains(expected), "{expected} in {problems}");
        }
    }

    #[test]
    fn a_detailed_task_inlines_what_its_status_says() {
        let mut completed = task("completed");
        completed["resultType"] = json!("complete");
        completed["result"] = json!({"content": [{"type": "text", "text": "ok"}], "isError": true});
        assert!(detailed_problems(&completed, "t1").is_empty());
        completed["result"]["_meta"] = json!({super::RELATED: {"taskId": "t1"}});
        assert!(detailed_problems(&completed, "t1")[0].contains("related-task"));
        let mut failed = task("failed");
        failed["resultType"] = json!("complete");
        failed["result"] = json!({"content": []});
        let problems = detailed_problems(&failed, "t2").join("; ");
        for expected in [
            "named task \"t1\"",
            "without an inlined `error`",
            "\"failed\" with a `result`",
        ] {
            assert!(problems.contains(expected), "{expected} in {problems}");
        }
        failed["error"] = json!({"code": -32603, "message": "broke"});
        failed.as_object_mut().map(|f| f.remove("result"));
        assert!(detailed_problems(&failed, "t1").is_empty());
    }

    #[test]
    fn an_acknowledgement_is_empty() {
        assert!(ack_problems(&Ok(json!({"resultType": "complete"}))).is_empty());
        let problems = ack_problems(&Ok(json!({"taskId": "t1", "status": "cancelled"}))).join("; ");
        assert!(
            problems.contains("resultType null") && problems.contains("taskId, status"),
            "{problems}"
        );
    }

    #[test]
    fn iso_times_are_told_from_other_text() {
        assert!(is_iso_time("2026-07-28T10:30:00Z"));
        assert!(is_iso_time("2026-07-28T10:30:00.123456+00:00"));
        assert!(!is_iso_time("2026-07-28 10:30:00"));
        assert!(!is_iso_time("1785230000"));
        assert!(!is_iso_time("2026-07-28T10:30"));
    }
}
