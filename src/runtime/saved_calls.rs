//! Where saved calls live and their reading and writing: one file per tool under
//! `$XDG_DATA_HOME/mcp-inspect/calls/<server key>/` (`~/.local/share` when unset), the server
//! keyed by its command line or URL (never its environment or headers), files readable by the
//! user alone, written whole or not at all.

use crate::app::saved::state::{KEEP, MAX_RESULT_BYTES, SavedTool};
use crate::config::target::Target;
use crate::private_files::{self, key};
use std::path::{Path, PathBuf};

/// Tool files read at most (a server with more tools keeps only these).
const MAX_FILES: usize = 1_000;
/// A file larger than this is not read.
const MAX_FILE_BYTES: u64 = (KEEP as u64 + 1) * MAX_RESULT_BYTES as u64 * 2;

/// The directory of `target`'s saved calls, when a data directory is known.
pub fn dir(target: &Target) -> Option<PathBuf> {
    // A password in the URL never becomes part of a name on disk.
    let server = crate::secrets::redact(&target.describe()).into_owned();
    Some(private_files::base_dir("XDG_DATA_HOME", ".local/share", "calls")?.join(key(&server)))
}

/// Every tool file kept for the server in `dir` (none when it does not exist).
pub fn load(dir: &Path) -> Vec<SavedTool> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .take(MAX_FILES)
        .filter_map(|e| private_files::read_private(&e.path(), MAX_FILE_BYTES).ok())
        .filter_map(|text| SavedTool::from_text(&text))
        .collect()
}

/// Writes `saved` as its tool's file in `dir`, whole or not at all.
pub fn write(dir: &Path, saved: &SavedTool) -> Result<(), String> {
    let path = dir.join(format!("{}.json", key(&saved.tool)));
    private_files::write(&path, &saved.to_text())
        .map_err(|e| format!("cannot keep the calls of {}: {e}", saved.tool))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::saved::state::SavedCall;

    #[test]
    fn a_written_tool_loads_back_and_a_broken_file_is_skipped() {
        let dir = std::env::temp_dir().join(format!("mcp-inspect-saved-{}", std::process::id()));
        let saved = SavedTool {
            tool: "add".into(),
            draft: "{}".into(),
            calls: vec![SavedCall {
                arguments: serde_json::json!({"a": 1}),
                result: serde_json::json!({"content": []}),
                elapsed_ms: 3,
            }],
        };
        write(&dir, &saved).expect("written");
        std::fs::write(dir.join("broken.json"), "{not json").expect("write");
        assert_eq!(load(&dir), [saved]);
        use std::os::unix::fs::PermissionsExt;
        let file = dir.join(format!("{}.json", key("add")));
        let mode = std::fs::metadata(file).expect("file").permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the user's alone");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(load(&dir).is_empty(), "no directory, nothing kept");
    }
}
