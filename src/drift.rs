//! Schema drift: a server's surface kept as a snapshot, and two snapshots compared so that each
//! change is judged for the clients it can break (`snapshot`, `diff`). Pure.

pub mod compare;
pub mod library;
pub mod report;
pub mod schema_diff;
pub mod snapshot;

/// Every change from the `old` snapshot to the `new` one: tools, then prompts, resources and
/// templates.
pub fn changes(old: &serde_json::Value, new: &serde_json::Value) -> Vec<compare::Change> {
    let mut out = compare::tools(old, new);
    out.extend(library::changes(old, new));
    out
}
