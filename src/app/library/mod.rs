//! The library tabs: resources, templates and prompts listed, opened, saved and subscribed to.

pub mod query;
pub mod state;
pub mod update;
