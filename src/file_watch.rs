//! `--watch`: the files and folders of a server's code, watched for changes (inotify and its
//! kin, through `notify`), each burst of changes told once it has settled (debounced), with the
//! noise left out: version control, build output, dependencies, caches and editors' swap files.

use notify::{EventKind, RecursiveMode, Watcher as _};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::sync::mpsc;

/// A burst of changes is over when nothing changed for this long.
pub const SETTLE: Duration = Duration::from_millis(150);
/// Folders watched at most under one path (each is an inotify watch).
const MAX_FOLDERS: usize = 8_000;
/// Changed paths named at most per burst.
const NAMED: usize = 5;
/// Folders whose contents are never the server's source.
const IGNORED_FOLDERS: [&str; 9] = [
    ".git",
    ".hg",
    "target",
    "node_modules",
    "__pycache__",
    ".venv",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
];

/// A settled burst of changes: the first few paths changed (relative to where the watch was
/// asked where possible), and how many changes there were.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changes {
    pub paths: Vec<String>,
    pub count: usize,
}

impl Changes {
    /// `server.py`, `server.py and 2 more`.
    pub fn describe(&self) -> String {
        let shown = self.paths.join(", ");
        let rest = self.count.saturating_sub(self.paths.len());
        if rest == 0 {
            shown
        } else {
            format!("{shown} and {rest} more")
        }
    }
}

/// The watch: alive while this value is.
pub struct Watcher {
    inner: notify::RecommendedWatcher,
    events: mpsc::Receiver<notify::Event>,
    /// The files asked for (their folder is watched: editors replace a file by renaming).
    files: HashSet<PathBuf>,
    /// The folders asked for, whose whole tree counts.
    trees: Vec<PathBuf>,
    folders: HashSet<PathBuf>,
    /// Why a folder could not be watched (the system's limit), said once.
    pub problem: Option<String>,
    /// The burst under way (kept here, so that a `next` dropped halfway loses nothing).
    burst: Changes,
    /// The paths changed in the burst under way.
    changed: HashSet<PathBuf>,
    /// When the burst under way is over, if nothing more changes.
    quiet_at: tokio::time::Instant,
}

impl Watcher {
    /// Watches `paths` (files or folders; each must exist).
    pub fn start(paths: &[PathBuf]) -> Result<Watcher, String> {
        let (sender, events) = mpsc::channel(1_024);
        let inner = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            // Full: changes are already waiting to be told, which is all that matters.
            if let Ok(event) = event {
                let _ = sender.try_send(event);
            }
        })
        .map_err(|e| format!("--watch: cannot watch files: {e}"))?;
        let mut watcher = Watcher {
            inner,
            events,
            files: HashSet::new(),
            trees: Vec::new(),
            folders: HashSet::new(),
            problem: None,
            burst: Changes {
                paths: Vec::new(),
                count: 0,
            },
            changed: HashSet::new(),
            quiet_at: tokio::time::Instant::now(),
        };
        for path in paths {
            let real = std::fs::canonicalize(path)
                .map_err(|e| format!("--watch {}: {e}", path.display()))?;
            if real.is_dir() {
                watcher.trees.push(real.clone());
                watcher.add_tree(&real);
                // Its parent too (only for it): a folder replaced whole (`mv src src.old; mkdir
                // src`, a checkout) is seen made again.
                if let Some(parent) = real.parent() {
                    watcher.add_folder(parent);
                }
            } else {
                let folder = real.parent().unwrap_or(Path::new("/")).to_path_buf();
                watcher.files.insert(real);
                watcher.add_folder(&folder);
            }
        }
        Ok(watcher)
    }

    /// The next settled burst of changes that matter. Cancel-safe: a call dropped before it
    /// returns leaves the burst to the next call.
    pub async fn next(&mut self) -> Changes {
        loop {
            let event = if self.burst.count == 0 {
                self.events.recv().await
            } else {
                match tokio::time::timeout_at(self.quiet_at, self.events.recv()).await {
                    Ok(event) => event,
                    Err(_) => {
                        let empty = Changes {
                            paths: Vec::new(),
                            count: 0,
                        };
                        self.changed.clear();
                        return std::mem::replace(&mut self.burst, empty);
                    }
                }
            };
            let Some(event) = event else {
                // The watcher's thread is gone: nothing more will come.
                std::future::pending::<()>().await;
                continue;
            };
            if matches!(event.kind, EventKind::Access(_)) {
                continue;
            }
            for path in event.paths {
                if !self.matters(&path) {
                    continue;
                }
                if matches!(event.kind, EventKind::Create(_)) && path.is_dir() {
                    self.forget_tree(&path);
                    self.add_tree(&path);
                }
                self.quiet_at = tokio::time::Instant::now() + SETTLE;
                if self.burst.count > 0 && self.changed.contains(&path) {
                    continue;
                }
                self.burst.count += 1;
                if self.changed.len() < MAX_FOLDERS {
                    self.changed.insert(path.clone());
                }
                let shown = self.shown(&path);
                if self.burst.paths.len() < NAMED && !self.burst.paths.contains(&shown) {
                    self.burst.paths.push(shown);
                }
            }
        }
    }

    /// Whether a change at `path` is one of the server's.
    fn matters(&self, path: &Path) -> bool {
        if ignored(path) {
            return false;
        }
        self.files.contains(path) || self.trees.iter().any(|t| path.starts_with(t))
    }

    /// `path` relative to the folder watched, or in full.
    fn shown(&self, path: &Path) -> String {
        let relative = self
            .trees
            .iter()
            .find_map(|t| path.strip_prefix(t).ok())
            .filter(|r| !r.as_os_str().is_empty());
        let name = match relative {
            Some(r) => r.display().to_string(),
            None => path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
        };
        crate::untrusted::line(&name, 120).into_owned()
    }

    /// Watches `root` and every folder under it that is not ignored.
    fn add_tree(&mut self, root: &Path) {
        let mut stack = vec![root.to_path_buf()];
        while let Some(folder) = stack.pop() {
            if self.folders.len() >= MAX_FOLDERS {
                self.problem.get_or_insert_with(|| {
                    format!("--watch: more than {MAX_FOLDERS} folders; the rest are not watched")
                });
                return;
            }
            if !self.add_folder(&folder) {
                continue;
            }
            let Ok(entries) = std::fs::read_dir(&folder) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                // Not through symlinks: a link to `/` must not watch the machine.
                let is_folder = entry.file_type().is_ok_and(|t| t.is_dir());
                if is_folder && !ignored(&path) {
                    stack.push(path);
                }
            }
        }
    }

    /// Forgets the watches at and under `root`, a folder just made where one may have been:
    /// those watches followed the old folder (moved away or deleted), so they are made again.
    fn forget_tree(&mut self, root: &Path) {
        let stale: Vec<PathBuf> = (self.folders.iter())
            .filter(|f| f.starts_with(root))
            .cloned()
            .collect();
        for folder in stale {
            let _ = self.inner.unwatch(&folder);
            self.folders.remove(&folder);
        }
    }

    /// Watches one folder (not below it); false when it was already, or cannot be.
    fn add_folder(&mut self, folder: &Path) -> bool {
        if self.folders.contains(folder) {
            return false;
        }
        if let Err(e) = self.inner.watch(folder, RecursiveMode::NonRecursive) {
            self.problem
                .get_or_insert_with(|| format!("--watch {}: {e}", folder.display()));
            return false;
        }
        self.folders.insert(folder.to_path_buf());
        true
    }
}

/// Whether a change at `path` is noise: under a folder of [`IGNORED_FOLDERS`], or an editor's
/// swap, backup or temporary file.
pub fn ignored(path: &Path) -> bool {
    let in_ignored_folder = path.components().any(|c| {
        let c = c.as_os_str().to_string_lossy();
        IGNORED_FOLDERS.contains(&c.as_ref())
    });
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let editors = [
        ".swp",
        ".swx",
        ".swo",
        "~",
        ".tmp",
        "___jb_tmp___",
        "___jb_old___",
    ];
    in_ignored_folder
        || editors.iter().any(|end| name.ends_with(end))
        || name.starts_with(".#")
        || name == "4913"
        || name == ".DS_Store"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editors_and_build_output_are_noise_and_sources_are_not() {
        for noise in [
            "/p/.git/index",
            "/p/target/debug/x",
            "/p/node_modules/a/b.js",
            "/p/src/__pycache__/m.cpython-312.pyc",
            "/p/.server.py.swp",
            "/p/server.py~",
            "/p/.#server.py",
            "/p/4913",
            "/p/server.py___jb_tmp___",
        ] {
            assert!(ignored(Path::new(noise)), "{noise}");
        }
        for source in [
            "/p/server.py",
            "/p/src/index.ts",
            "/p/targets.py",
            "/p/git/x",
        ] {
            assert!(!ignored(Path::new(source)), "{source}");
        }
        let changes = Changes {
            paths: vec!["a.py".into(), "b.py".into()],
            count: 4,
        };
        assert_eq!(changes.describe(), "a.py, b.py and 2 more");
    }

    #[tokio::test]
    async fn a_burst_of_changes_is_told_once_it_settles_noise_left_out() {
        let dir = std::env::temp_dir().join(format!("mcp-inspect-watch-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src")).expect("dir");
        std::fs::create_dir_all(dir.join("node_modules")).expect("dir");
        let mut watcher = Watcher::start(std::slice::from_ref(&dir)).expect("watch");
        std::fs::write(dir.join("node_modules/noise.js"), "x").expect("write");
        std::fs::write(dir.join(".server.py.swp"), "x").expect("write");
        std::fs::write(dir.join("src/server.py"), "a").expect("write");
        std::fs::write(dir.join("src/server.py"), "b").expect("write");
        let changes = tokio::time::timeout(Duration::from_secs(10), watcher.next())
            .await
            .expect("told");
        assert_eq!(changes.paths, ["src/server.py"]);
        // A folder made after the start is watched too.
        std::fs::create_dir_all(dir.join("lib")).expect("dir");
        let _ = tokio::time::timeout(Duration::from_secs(10), watcher.next()).await;
        std::fs::write(dir.join("lib/new.py"), "c").expect("write");
        let changes = tokio::time::timeout(Duration::from_secs(10), watcher.next())
            .await
            .expect("told");
        assert_eq!(changes.paths, ["lib/new.py"]);
        // A folder replaced whole (what `git checkout` and some editors do) is watched again,
        // and so is the watched folder itself.
        std::fs::rename(dir.join("src"), dir.join("src.old")).expect("move");
        std::fs::create_dir_all(dir.join("src")).expect("dir");
        let _ = tokio::time::timeout(Duration::from_secs(10), watcher.next()).await;
        std::fs::write(dir.join("src/server.py"), "d").expect("write");
        let changes = tokio::time::timeout(Duration::from_secs(10), watcher.next())
            .await
            .expect("told");
        assert_eq!(changes.paths, ["src/server.py"]);
        let moved = dir.with_extension("old");
        let _ = std::fs::remove_dir_all(&moved);
        std::fs::rename(&dir, &moved).expect("move");
        std::fs::create_dir_all(&dir).expect("dir");
        let _ = tokio::time::timeout(Duration::from_secs(10), watcher.next()).await;
        std::fs::write(dir.join("again.py"), "e").expect("write");
        let changes = tokio::time::timeout(Duration::from_secs(10), watcher.next())
            .await
            .expect("told");
        assert_eq!(changes.paths, ["again.py"]);
        let _ = std::fs::remove_dir_all(moved);
        assert!(Watcher::start(&[dir.join("missing")]).is_err());
        let _ = std::fs::remove_dir_all(dir);
    }
}
