//! The server pane's actions: ping and its round trip, the log level asked of the server.

pub mod query;
pub mod update;
