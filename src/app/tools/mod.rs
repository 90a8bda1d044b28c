//! The tools list and a tool's pane: the entries as listed, the filter, the schema trees as one
//! outline, their keys, and the marks of drift against a baseline.

pub mod drift;
pub mod entry;
pub mod filter;
pub mod query;
pub mod tree_view;
pub mod update;
