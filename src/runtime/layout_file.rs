//! The layout a person chose, kept for their next session: the left pane's share of a wide
//! screen, in `$XDG_STATE_HOME/mcp-inspect/layout` (`~/.local/state` when unset), one line
//! `left_percent = N`. A missing, unreadable or odd file is the default layout, never an error.

use crate::app::model::LEFT_PERCENT;
use crate::private_files;
use std::path::{Path, PathBuf};

/// The file, when a state directory is known.
pub fn path() -> Option<PathBuf> {
    private_files::base_dir("XDG_STATE_HOME", ".local/state", "layout")
}

/// The left pane's share kept in `path`, within its bounds.
pub fn left_percent(path: &Path) -> Option<u16> {
    let text = private_files::read_private(path, 1_024).ok()?;
    parse(&text)
}

fn parse(text: &str) -> Option<u16> {
    let (_, least, most) = LEFT_PERCENT;
    text.lines()
        .filter_map(|line| line.split_once('='))
        .find(|(key, _)| key.trim() == "left_percent")
        .and_then(|(_, value)| value.trim().parse::<u16>().ok())
        .map(|p| p.clamp(least, most))
}

/// Keeps the share the person set (key or drag) for their next session, when a state directory
/// is known; a failure to write it costs only that.
pub fn keep_chosen(left_percent: u16) {
    if let Some(path) = path() {
        let _ = keep(&path, left_percent);
    }
}

/// Keeps the left pane's share in `path` for the next session.
pub fn keep(path: &Path, left_percent: u16) -> std::io::Result<()> {
    private_files::write(path, &format!("left_percent = {left_percent}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_width_is_read_back_within_its_bounds() {
        assert_eq!(parse("left_percent = 44\n"), Some(44));
        assert_eq!(parse("left_percent=5"), Some(LEFT_PERCENT.1));
        assert_eq!(parse("left_percent = 900"), Some(LEFT_PERCENT.2));
        assert_eq!(parse("left_percent = -3"), None);
        assert_eq!(parse("\u{1b}[2J garbage"), None);
        let dir = std::env::temp_dir().join(format!("mcp-inspect-layout-{}", std::process::id()));
        let file = dir.join("layout");
        assert_eq!(left_percent(&file), None, "no file: the default");
        keep(&file, 48).expect("kept");
        assert_eq!(left_percent(&file), Some(48));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
