//! What the drawing asks of the saved calls without changing them.

use crate::app::model::Model;
use crate::app::saved::state::key;
use serde_json::Value;

/// Whether the call of `tool` with `arguments` is in the server's test file.
pub fn is_kept(model: &Model, tool: &str, arguments: &Value) -> bool {
    // Drawn each frame: the arguments are put in key order only when something is kept.
    (model.saved.tests.as_ref())
        .is_some_and(|t| !t.cases.is_empty() && t.cases.contains(&key(tool, arguments)))
}
