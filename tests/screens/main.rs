//! Tier 2, rendered screens: the TUI driven by keys and messages on a `TestBackend`, with
//! snapshots; and the real event loop and connection task against the built-in hostile server.

mod tui_calls;
mod tui_drift;
mod tui_forms;
mod tui_hostile;
mod tui_oauth;
mod tui_picker;
mod tui_screens;
mod tui_trial;
mod tui_update;

#[path = "../support/cli.rs"]
mod cli;
#[path = "../support/edge.rs"]
mod edge;
#[path = "../support/hostile.rs"]
mod hostile;
#[path = "../support/tui.rs"]
mod tui;
