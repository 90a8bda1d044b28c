//! Where saved calls live and their reading and writing: one file per tool under
//! `$XDG_DATA_HOME/mcp-inspect/calls/<server key>/` (`~/.local/share` when unset), the server
//! keyed by its command line or URL (never its environment or headers), files readable by the
//! user alone, written whole or not at all.

use crate::app::saved::state::{self as kept_tests, KeepTest, KeptTests};
use crate::app::saved::state::{KEEP, MAX_RESULT_BYTES, SavedTool};
use crate::config::target::Target;
use crate::private_files::{self, key};
use crate::suite::file::Action;
use std::path::{Path, PathBuf};

/// Tool files read at most (a server with more tools keeps only these).
const MAX_FILES: usize = 1_000;
/// A file larger than this is not read.
const MAX_FILE_BYTES: u64 = (KEEP as u64 + 1) * MAX_RESULT_BYTES as u64 * 2;

/// The directory of `target`'s saved calls, when a data directory is known: keyed by
/// [`kept_for`]. One kept before calls were keyed by directory (by the server alone) is read
/// while the new one does not exist yet; what is saved goes to the new one.
pub fn dir(target: &Target) -> Option<PathBuf> {
    let base = private_files::base_dir("XDG_DATA_HOME", ".local/share", "calls")?;
    // A password in the URL never becomes part of a name on disk.
    let named = |what: &str| base.join(key(&crate::secrets::redact(what)));
    Some(named(&kept_for(target)))
}

/// Where to read what earlier sessions kept: `dir`, or the directory kept by the server alone
/// before calls were keyed by directory, while `dir` does not exist yet.
pub fn read_dir_of(target: &Target, dir: &Path) -> PathBuf {
    let older = private_files::base_dir("XDG_DATA_HOME", ".local/share", "calls")
        .map(|base| base.join(key(&crate::secrets::redact(&target.describe()))));
    match older {
        Some(older) if !dir.exists() && older.is_dir() => older,
        _ => dir.to_path_buf(),
    }
}

/// What calls are kept for: the server as given and, for a command, the directory it starts
/// in (every project's `python server.py` is another server).
pub fn kept_for(target: &Target) -> String {
    match target {
        Target::Stdio { cwd, .. } => {
            let dir = cwd.clone().or_else(|| std::env::current_dir().ok());
            let dir = dir.map(|d| std::fs::canonicalize(&d).unwrap_or(d));
            match dir {
                Some(dir) => format!("{} in {}", target.describe(), dir.display()),
                None => target.describe(),
            }
        }
        Target::Http { .. } => target.describe(),
    }
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

/// Where the server's test file is remembered (see `app::saved::kept_tests`).
const TEST_FILE: &str = "tests-file";

/// The server's test file as an earlier session chose it, and the calls it holds.
pub fn load_tests(dir: &Path) -> Option<KeptTests> {
    let remembered = private_files::read_private(&dir.join(TEST_FILE), 4_096).ok()?;
    let file = PathBuf::from(remembered.trim_end_matches('\n'));
    let cases = crate::suite::file::read(&file).unwrap_or_default();
    let cases = cases.iter().filter_map(|c| match &c.action {
        Action::Call { tool, args } => Some(kept_tests::key(tool, args)),
        _ => None,
    });
    Some(KeptTests {
        cases: cases.collect(),
        file,
    })
}

/// Adds the call to its test file (made when missing, replaced whole) and remembers the file
/// in `dir` for the server's next sessions; says what it did.
pub fn keep_test(keep: &KeepTest, dir: Option<&Path>) -> Result<String, String> {
    let shown = keep.file.display();
    let text = match keep.file.exists() {
        true => private_files::read_named(&keep.file, crate::suite::file::MAX_FILE_BYTES)
            .map_err(|e| format!("{shown}: {e}"))?,
        false => String::new(),
    };
    let text = crate::suite::update::appended(&text, &keep.tool, &keep.arguments, &keep.got)
        .map_err(|e| format!("{shown}: {e}"))?;
    private_files::replace(&keep.file, &text).map_err(|e| format!("{shown}: {e}"))?;
    if let Some(dir) = dir {
        let absolute = std::path::absolute(&keep.file).unwrap_or_else(|_| keep.file.clone());
        let _ = private_files::write(&dir.join(TEST_FILE), &absolute.to_string_lossy());
    }
    let cases = crate::suite::file::parse(&text).map_or(0, |c| c.len());
    Ok(format!(
        "kept `{}` as a test in {shown} ({}); mcp-inspect test {shown} runs them",
        keep.tool,
        crate::plural::count(cases, "case")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::saved::state::SavedCall;

    /// A command's calls are kept per directory it starts in (`--cwd`, else this one): every
    /// project's `python server.py` is another server; a URL is the same server anywhere.
    #[test]
    fn a_commands_calls_are_kept_per_directory() {
        let stdio = |cwd: Option<&str>| Target::Stdio {
            command: "python".into(),
            args: vec!["server.py".into()],
            env: Vec::new(),
            cwd: cwd.map(PathBuf::from),
        };
        let here = std::fs::canonicalize(std::env::current_dir().expect("cwd")).expect("real");
        assert_eq!(
            kept_for(&stdio(None)),
            format!("python server.py in {}", here.display())
        );
        assert_eq!(kept_for(&stdio(Some("/"))), "python server.py in /");
        let http = Target::Http {
            url: "http://localhost:3000/mcp".into(),
            transport: crate::config::target::HttpTransport::Streamable,
            headers: Vec::new(),
        };
        assert_eq!(kept_for(&http), "http://localhost:3000/mcp");
    }

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
