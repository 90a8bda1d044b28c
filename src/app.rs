//! The TUI's pure core: the model, messages and `update`, the keymap, the filter, call panels
//! and copies. No IO, no awaits, no clock: effects are data the runtime carries out, and the
//! time comes in from the runtime. One folder per feature (`state`, `update`, `query`); the
//! drawing in `ui` reads a feature's state and its `query`, never its `update`.

/// What the server asks of the user (sampling, elicitation, roots) and the forms the TUI opens
/// itself (a prompt's arguments, a template's variables), with completions while typing.
pub mod asked {
    pub mod completions;
    pub mod state;
    pub mod update;
}
/// An OAuth authorization under way: its panel, the URL to open and the redirect pasted back.
pub mod authorize {
    pub mod state;
    pub mod update;
}
/// A tool's call panel: the argument draft checked live, the call in flight with its countdown,
/// results judged against the output schema, and their text and value views.
pub mod call {
    pub mod draft_lines;
    pub mod query;
    pub mod result_text;
    pub mod state;
    pub mod update;
}
pub mod command;
pub mod copy;
pub mod effect;
/// Forms built from schemas: one row per property, typed inputs checked live, and the same
/// value as JSON text a key away.
pub mod form {
    pub mod draft;
    pub mod fields;
    pub mod state;
    #[cfg(test)]
    mod tests;
    pub mod update;
}
pub mod keymap;
/// The library tabs: resources, templates and prompts listed, opened, saved and subscribed to.
pub mod library {
    pub mod query;
    pub mod state;
    pub mod update;
}
pub mod model;
pub mod mouse;
pub mod outline;
/// The panes as a whole: focus, overlays, zoom, the filter line, motions to the focused pane.
pub mod panes {
    pub mod filter;
    pub mod update;
}
pub mod picker;
/// The protocol pane: every JSON-RPC message of the session, filtered, with each one readable as
/// it was written.
pub mod protocol {
    pub mod state;
    pub mod update;
    pub mod written_json;
}
/// Call panels kept between sessions with the same server: what is saved, and restoring it once
/// the tools are listed.
pub mod saved {
    pub mod kept_tests;
    pub mod query;
    pub mod state;
    pub mod update;
}
/// The session and the server pane: the connection's state, ping and its round trip, the log level.
pub mod server {
    pub mod query;
    pub mod reconnect;
    pub mod roots;
    pub mod state;
    pub mod update;
    pub mod watch;
}
pub mod tabs;
pub mod theme;
/// `verify` and `load` on the selected tool (`V`, `M`): the run, its progress and findings.
pub mod trial {
    pub mod query;
    pub mod settings;
    pub mod state;
    pub mod update;
}
/// The tools list and a tool's pane: the entries as listed, the filter, the schema trees as one
/// outline, their keys, and the marks of drift against a baseline.
pub mod tools {
    pub mod drift;
    pub mod entry;
    pub mod filter;
    pub mod query;
    pub mod state;
    pub mod tree_view;
    pub mod update;
}
pub mod update;
pub mod value_tree;
