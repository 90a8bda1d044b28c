//! Schema drift: a server's surface kept as a snapshot, and two snapshots compared so that each
//! change is judged for the clients it can break (`snapshot`, `diff`). Pure.

pub mod compare;
pub mod library;
pub mod report;
pub mod schema_diff;
pub mod snapshot;
