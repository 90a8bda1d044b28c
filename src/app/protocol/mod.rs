//! The protocol pane: every JSON-RPC message of the session, filtered, with each one readable as
//! it was written.

pub mod state;
pub mod written_json;
