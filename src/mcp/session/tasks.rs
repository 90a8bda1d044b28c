//! Tasks (2025-11-25, SEP-1686): a tool whose `execution.taskSupport` is `required` (or
//! `optional`, when asked) is called with `task: {}`. The server answers at once with a task,
//! whose status is polled with `tasks/get` at the server's `pollInterval` and told as the call's
//! progress. Once the task needs input or has ended, `tasks/result` gives the tool's result (a
//! request the server queued for the client, such as an elicitation, arrives while it waits and
//! is answered as any other). Cancelling the call sends `tasks/cancel`.

use crate::mcp::session::error::RequestError;
use crate::mcp::session::events::{EventSink, ServerEvent};
use crate::untrusted;
use serde_json::Value;
use std::time::Duration;

/// Polling bounds, whatever `pollInterval` a server asks for.
const FASTEST_POLL: Duration = Duration::from_millis(200);
const SLOWEST_POLL: Duration = Duration::from_secs(5);

/// A task as `tools/call` or `tasks/get` describes it.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskState {
    /// As the server wrote it (sent back as is; shown escaped).
    pub id: String,
    pub status: String,
    pub message: Option<String>,
    pub poll: Duration,
}

impl TaskState {
    /// The task in a `tools/call` result (`{"task": {...}}`), if the server made one.
    pub fn created(result: &Value) -> Option<TaskState> {
        // The tasks extension (SEP-2663): the result is the task itself.
        if result.get("resultType").and_then(Value::as_str) == Some("task") {
            return TaskState::from_task(result);
        }
        let task = result.get("task")?;
        if result.get("content").is_some() {
            return None;
        }
        TaskState::from_task(task)
    }

    /// A task object (`taskId`, `status`, `statusMessage`, `pollInterval`, or the extension's
    /// `pollIntervalMs`).
    pub fn from_task(task: &Value) -> Option<TaskState> {
        let id = task.get("taskId")?.as_str()?;
        let poll = (task
            .get("pollIntervalMs")
            .or_else(|| task.get("pollInterval")))
        .and_then(Value::as_u64)
        .map_or(Duration::from_secs(1), Duration::from_millis)
        .clamp(FASTEST_POLL, SLOWEST_POLL);
        Some(TaskState {
            id: id.to_string(),
            status: task
                .get("status")
                .and_then(Value::as_str)
                .map(|s| untrusted::line(s, 40).into_owned())
                .unwrap_or_else(|| "(no status)".into()),
            message: task
                .get("statusMessage")
                .and_then(Value::as_str)
                .map(|m| untrusted::line(m, 300).into_owned()),
            poll,
        })
    }

    /// Whether `tasks/result` answers now: the task ended, or it waits for our input (which
    /// `tasks/result` delivers).
    pub fn settled(&self) -> bool {
        matches!(
            self.status.as_str(),
            "completed" | "failed" | "cancelled" | "input_required"
        )
    }

    /// The status as the call's progress tells it.
    pub fn told(&self) -> String {
        match &self.message {
            Some(m) => format!("task {}: {m}", self.status),
            None => format!("task {}", self.status),
        }
    }
}

/// Tells a task's status as progress on the call's token (a new line only when it changes).
pub struct Teller<'a> {
    pub events: &'a EventSink,
    pub token: &'a str,
    told: Option<String>,
    steps: u32,
}

impl<'a> Teller<'a> {
    pub fn new(events: &'a EventSink, token: &'a str) -> Teller<'a> {
        Teller {
            events,
            token,
            told: None,
            steps: 0,
        }
    }

    pub fn tell(&mut self, state: &TaskState) {
        let told = state.told();
        if self.told.as_deref() == Some(told.as_str()) {
            return;
        }
        self.steps += 1;
        self.events.send(ServerEvent::Progress {
            token: self.token.to_string(),
            progress: f64::from(self.steps),
            total: None,
            message: Some(told.clone()),
        });
        self.told = Some(told);
    }
}

/// A `tasks/get` answer read as a task (the result is the task itself, or holds it).
pub fn polled(result: &Value) -> Result<TaskState, RequestError> {
    TaskState::from_task(result)
        .or_else(|| result.get("task").and_then(TaskState::from_task))
        .ok_or_else(|| RequestError::Malformed("tasks/get answered without a taskId".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_created_task_is_read_and_its_poll_interval_bounded() {
        let result = json!({"task": {"taskId": "t1", "status": "working", "pollInterval": 1,
            "statusMessage": "Gathering \u{1b}[2J sources"}});
        let task = TaskState::created(&result).expect("a task");
        assert_eq!(task.poll, FASTEST_POLL);
        assert!(!task.settled());
        assert!(!task.told().contains('\u{1b}'), "escaped: {}", task.told());
        let final_result = json!({"content": [], "task": {"taskId": "t1"}});
        assert_eq!(
            TaskState::created(&final_result),
            None,
            "a result, not a task"
        );
        let slow = json!({"taskId": "t2", "status": "input_required", "pollInterval": 600000});
        let task = polled(&slow).expect("polled");
        assert_eq!((task.poll, task.settled()), (SLOWEST_POLL, true));
        assert!(polled(&json!({"status": "working"})).is_err());
    }
}
