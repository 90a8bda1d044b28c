//! Tier 4, a real terminal: the release binary driven in tmux.

mod tui_tmux;
