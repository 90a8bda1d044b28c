//! The raw JSON of recent responses, keyed by request id, kept by the transports we own (stdio,
//! SSE) so results are shown exactly as sent rather than as rmcp re-serialises them; and the ids
//! of cancelled requests, so a late answer to one is noticed.

use serde_json::Value;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// Responses (and cancelled ids) kept while waiting to be claimed.
const KEPT: usize = 32;

#[derive(Clone, Default)]
pub struct RawResponses {
    kept: Arc<Mutex<VecDeque<(String, Value)>>>,
    cancelled: Arc<Mutex<VecDeque<String>>>,
}

impl RawResponses {
    /// Records `message` if it is a response (has an id and a result or error). Returns the id
    /// when it answers a request that was cancelled: a late answer, for the log.
    pub fn record(&self, message: &Value) -> Option<String> {
        let obj = message.as_object()?;
        let id = obj.get("id")?;
        if !obj.contains_key("result") && !obj.contains_key("error") {
            return None;
        }
        let id_json = id.to_string();
        if let Ok(mut cancelled) = self.cancelled.lock()
            && let Some(i) = cancelled.iter().position(|c| *c == id_json)
        {
            cancelled.remove(i);
            return Some(id_json);
        }
        if let Ok(mut kept) = self.kept.lock() {
            if kept.len() >= KEPT {
                kept.pop_front();
            }
            kept.push_back((id_json, message.clone()));
        }
        None
    }

    /// Takes the raw response whose id serialises as `id_json`.
    pub fn take(&self, id_json: &str) -> Option<Value> {
        let mut kept = self.kept.lock().ok()?;
        let i = kept.iter().position(|(id, _)| id == id_json)?;
        kept.remove(i).map(|(_, v)| v)
    }

    /// Notes that the request with this id (as JSON) was cancelled.
    pub fn mark_cancelled(&self, id_json: &str) {
        if let Ok(mut cancelled) = self.cancelled.lock() {
            if cancelled.len() >= KEPT {
                cancelled.pop_front();
            }
            cancelled.push_back(id_json.to_string());
        }
    }
}
