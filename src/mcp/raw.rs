//! The raw JSON of recent responses, keyed by request id, kept by the transports we own (stdio,
//! SSE) so results are shown exactly as sent rather than as rmcp re-serialises them.

use serde_json::Value;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// Responses kept while waiting to be claimed.
const KEPT: usize = 32;

#[derive(Clone, Default)]
pub struct RawResponses(Arc<Mutex<VecDeque<(String, Value)>>>);

impl RawResponses {
    /// Records `message` if it is a response (has an id and a result or error).
    pub fn record(&self, message: &Value) {
        let Some(obj) = message.as_object() else {
            return;
        };
        let Some(id) = obj.get("id") else { return };
        if !obj.contains_key("result") && !obj.contains_key("error") {
            return;
        }
        if let Ok(mut kept) = self.0.lock() {
            if kept.len() >= KEPT {
                kept.pop_front();
            }
            kept.push_back((id.to_string(), message.clone()));
        }
    }

    /// Takes the raw response whose id serialises as `id_json`.
    pub fn take(&self, id_json: &str) -> Option<Value> {
        let mut kept = self.0.lock().ok()?;
        let i = kept.iter().position(|(id, _)| id == id_json)?;
        kept.remove(i).map(|(_, v)| v)
    }
}
