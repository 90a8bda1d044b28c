//! A tool's call panel: the argument draft checked live, the call in flight with its countdown,
//! results judged against the output schema, and their text and value views.

pub mod draft_lines;
pub mod query;
pub mod result_text;
pub mod state;
pub mod update;
