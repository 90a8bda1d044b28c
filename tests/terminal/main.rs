//! Tier 4, a real terminal: the release binary driven in tmux.

mod tui_attach;
mod tui_layout;
mod tui_oauth;
mod tui_tmux;
mod tui_trial;
mod tui_watch;

#[path = "../support/hostile.rs"]
mod hostile;
#[path = "../support/peers.rs"]
mod peers;
