//! The TUI's pure core: the model, messages and `update`, the keymap, the filter, call panels
//! and copies. No IO, no awaits, no clock: effects are data the runtime carries out, and the
//! time comes in from the runtime. One folder per feature (`state`, `update`, `query`); the
//! drawing in `ui` reads a feature's state and its `query`, never its `update`.

pub mod asked;
pub mod authorize;
pub mod call;
pub mod command;
pub mod copy;
pub mod effect;
pub mod keymap;
pub mod library;
pub mod model;
pub mod mouse;
pub mod outline;
pub mod picker;
pub mod protocol;
pub mod saved;
pub mod server;
pub mod tabs;
pub mod theme;
pub mod tools;
pub mod update;
pub mod value_tree;
