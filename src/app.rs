//! The TUI's pure core: the model, messages and `update`, the keymap, the filter, call panels
//! and copies. No IO, no awaits, no clock: effects are data the runtime carries out, and the
//! time comes in from the runtime.

pub mod asked;
pub mod authorize;
pub mod calls;
pub mod command;
pub mod copy;
pub mod draft_lines;
pub mod effect;
pub mod filter;
pub mod keymap;
pub mod library;
pub mod model;
pub mod mouse;
pub mod outline;
pub mod picker;
pub mod protocol;
pub mod result_text;
pub mod saved;
pub mod tabs;
pub mod theme;
pub mod tool_entry;
pub mod tree_view;
pub mod update;
pub mod update_authorize;
pub mod update_call;
pub mod update_completions;
pub mod update_drift;
pub mod update_library;
pub mod update_saved;
pub mod update_server;
pub mod update_tool;
pub mod value_tree;
pub mod written_json;
