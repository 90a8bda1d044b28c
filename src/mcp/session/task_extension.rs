//! Tool calls under the tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`, 2026-07-28
//! era), where the server declares it: each call, and each request about its task, declares
//! the extension in its own `_meta` (SEP-2575), and the server decides which calls become
//! tasks. A task (a flat `CreateTaskResult`) is polled with `tasks/get` at its
//! `pollIntervalMs`, each change told as the call's progress; what it asks for
//! (`input_required`, its `inputRequests`) is answered as the server's own requests are and
//! sent with `tasks/update`, each question once; its end is inlined: a completed task's
//! `result` is the call's result, a failed one's `error` the call's error.

use crate::mcp::session::Session;
use crate::mcp::session::error::RequestError;
use crate::mcp::session::input_required;
use crate::mcp::session::tasks::{self, TaskState};
use rmcp::service::PeerRequestOptions;
use serde_json::{Map, Value, json};
use std::collections::HashSet;

/// The extension's identifier, under `capabilities.extensions` and in a request's
/// `_meta["io.modelcontextprotocol/clientCapabilities"].extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";

impl Session {
    /// Whether calls go under the tasks extension: the 2026 era, and the server declares it.
    pub fn tasks_extension(&self) -> bool {
        self.server.era == crate::schema::Era::Modern
            && (self.server.capabilities["extensions"].get(EXTENSION)).is_some_and(|e| !e.is_null())
    }

    /// `options` whose `_meta` declares, for this request alone, the client's capabilities
    /// and `extension` beside them (2026 era: capabilities travel with each request).
    pub(super) fn declaring(
        &self,
        options: PeerRequestOptions,
        extension: &str,
    ) -> PeerRequestOptions {
        let mut capabilities = self.service.service().client.capabilities();
        capabilities["extensions"][extension] = json!({});
        let mut meta = options.meta.clone().unwrap_or_default();
        meta.insert(
            "io.modelcontextprotocol/clientCapabilities".to_string(),
            capabilities,
        );
        options.with_meta(meta)
    }

    /// A request about a task (`tasks/get`, `tasks/update`, `tasks/cancel`): under the
    /// extension it declares it, as it must (or the server refuses it with -32021).
    pub(super) async fn task_request(
        &self,
        method: &str,
        params: Value,
    ) -> Result<Value, RequestError> {
        match self.tasks_extension() {
            true => (self.any_request_declaring(method, Some(params), EXTENSION)).await,
            false => self.request(method, Some(params)).await,
        }
    }

    /// Follows a task of the extension to its end (see the module's words), a poll at a time
    /// (`Session::poll_task`).
    pub(super) async fn follow_extension_task(
        &self,
        mut task: TaskState,
        token: &str,
    ) -> Result<Value, RequestError> {
        let mut teller = tasks::Teller::new(&self.service.service().events, token);
        teller.tell(&task);
        let mut changed = std::time::Instant::now();
        let mut asked = Asked::default();
        loop {
            let polled = (self.poll_task(&mut task, &mut teller, &mut changed)).await?;
            match task.status.as_str() {
                "completed" => {
                    return (polled.get("result").cloned()).ok_or_else(|| {
                        RequestError::Malformed("a completed task without its result".into())
                    });
                }
                "failed" => return Err(failure(&polled)),
                "cancelled" => return Err(RequestError::Cancelled),
                "input_required" => {
                    if let Some(ack) = self.answer_task(&task.id, &polled, &mut asked).await {
                        ack?;
                        changed = std::time::Instant::now();
                    }
                }
                _ => {}
            }
        }
    }
}

/// The questions a task asked so far: rounds answered, and the keys of its input requests.
#[derive(Default)]
pub struct Asked {
    rounds: usize,
    keys: HashSet<String>,
}

impl Asked {
    /// Rounds of questions answered.
    pub fn rounds(&self) -> usize {
        self.rounds
    }
}

impl Session {
    /// Answers what a task of the extension asks in `polled` (a `tasks/get` answer,
    /// `input_required`) that was not asked before, as the server's own requests are answered,
    /// and sends the answers with `tasks/update`: its acknowledgement as sent, or nothing when
    /// every question was answered already (the server has not taken the answers yet).
    pub async fn answer_task(
        &self,
        id: &str,
        polled: &Value,
        asked: &mut Asked,
    ) -> Option<Result<Value, RequestError>> {
        let fresh = unanswered(polled, &mut asked.keys);
        if fresh["inputRequests"].as_object().is_none_or(Map::is_empty) {
            return None;
        }
        asked.rounds += 1;
        let handler = self.service.service();
        let original = json!({"taskId": id});
        let round = asked.rounds;
        let update = input_required::next_round(handler, "tasks/update", &original, &fresh, round);
        Some(match update.await {
            Ok(update) => self.task_request("tasks/update", update).await,
            Err(e) => Err(e),
        })
    }
}

/// `polled` with only the input requests not answered before (their keys now noted): a task
/// still waiting while the server takes the answers is not asked twice.
fn unanswered(polled: &Value, answered: &mut HashSet<String>) -> Value {
    let requests = polled["inputRequests"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let fresh: Map<String, Value> = (requests.into_iter())
        .filter(|(key, _)| answered.insert(key.clone()))
        .collect();
    json!({"inputRequests": fresh})
}

/// A failed task's inlined `error` as the call's error.
fn failure(polled: &Value) -> RequestError {
    let error = &polled["error"];
    match (error["code"].as_i64(), error["message"].as_str()) {
        (Some(code), Some(message)) => RequestError::Server {
            code,
            message: message.to_string(),
            data: error.get("data").cloned(),
        },
        _ => RequestError::Malformed(
            "a failed task without an error holding a code and a message".into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_question_of_a_task_is_answered_once() {
        let mut answered = HashSet::new();
        let first = json!({"inputRequests": {"a": {"method": "elicitation/create"}}});
        assert_eq!(
            unanswered(&first, &mut answered)["inputRequests"]
                .as_object()
                .map(Map::len),
            Some(1)
        );
        let again = json!({"inputRequests": {"a": {}, "b": {"method": "roots/list"}}});
        let fresh = unanswered(&again, &mut answered);
        assert_eq!(
            fresh["inputRequests"]
                .as_object()
                .map(|r| r.keys().cloned().collect::<Vec<_>>()),
            Some(vec!["b".to_string()])
        );
    }

    #[test]
    fn a_failed_task_is_its_error_and_nothing_else() {
        let failed =
            json!({"status": "failed", "error": {"code": -32603, "message": "broke", "data": 1}});
        assert!(matches!(
            failure(&failed),
            RequestError::Server { code: -32603, .. }
        ));
        assert!(matches!(
            failure(&json!({"status": "failed"})),
            RequestError::Malformed(_)
        ));
    }
}
