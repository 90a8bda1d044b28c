//! What the server asks of the user (sampling, elicitation, roots) and the forms the TUI opens
//! itself (a prompt's arguments, a template's variables), with completions while typing.

pub mod completions;
pub mod state;
pub mod update;
