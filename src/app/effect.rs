//! What `update` asks the outside world to do, as data: the runtime carries each effect out and
//! answers with a message. Requests for the connection pass to its task unchanged. Pure.

use super::calls::OutputCheck;
use super::copy::Copy;
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// For the task that owns the connection.
    Session(SessionRequest),
    Copy(Copy),
    /// Suspend the UI and edit `text` in `$EDITOR`.
    EditExternally {
        tool: String,
        text: String,
    },
}

/// What the connection task is asked to do; answers come back as messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionRequest {
    ListTools,
    Reconnect,
    Call {
        tool: String,
        id: u64,
        arguments: serde_json::Value,
        /// What the result is judged against, by the connection task.
        output: Option<Arc<OutputCheck>>,
    },
    Cancel {
        id: u64,
    },
}
