//! Files only the user may read (saved calls, OAuth tokens, and every file written with server
//! data in it: snapshots, test files, saved resources): where they live, a stable name for what
//! they belong to, and writing one whole or not at all.

use std::path::{Path, PathBuf};

/// A short, stable, file-name-safe key for `text` (a server's command line or URL, a tool's
/// name): FNV-1a, 64 bits, in hex.
pub fn key(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// `$VAR`, else `$HOME/fallback` (XDG base directories), joined with `mcp-inspect/sub`.
pub fn base_dir(var: &str, fallback: &str, sub: &str) -> Option<PathBuf> {
    let set = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let base = set(var).or_else(|| set("HOME").map(|h| h.join(fallback)))?;
    Some(base.join("mcp-inspect").join(sub))
}

/// Writes `text` to `path` (its directory made, mode 0700): to a temporary file (mode 0600)
/// first, then renamed over the old one, so a crash leaves the old file or the new, never half
/// of one, and two writers never share a temporary file.
pub fn write(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let nth = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let temporary = dir.join(format!(".{name}.{}.{nth}.tmp", std::process::id()));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&temporary)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    std::fs::rename(&temporary, path)
}

/// Replaces `file` (a path the user named) with `text` whole or not at all. What is written
/// holds server data, so the file is the user's alone (0600) whether new or replacing one that
/// others could read (git keeps only the executable bit, so a committed file loses nothing).
/// The temporary beside it is made new (never an existing file or a link).
/// A symbolic link is refused: the rename would replace the link, not the file it names.
pub fn replace(file: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    if std::fs::symlink_metadata(file).is_ok_and(|m| m.file_type().is_symlink()) {
        let target = std::fs::read_link(file).unwrap_or_default();
        return Err(std::io::Error::other(format!(
            "it is a symbolic link to {}: not replaced (name that file to update it)",
            crate::untrusted::line(&target.to_string_lossy(), 200)
        )));
    }
    let name = file.file_name().unwrap_or_default().to_string_lossy();
    let temporary = file.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = new_private(&temporary).and_then(|mut f| {
        f.write_all(text.as_bytes())?;
        f.sync_all()
    });
    match written.and_then(|()| std::fs::rename(&temporary, file)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&temporary);
            Err(e)
        }
    }
}

/// A new file only the user may read (0600): never an existing file, never through a link.
pub fn new_private(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
}

/// Reads a file the program chose the path of (a store): not through a symlink (`O_NOFOLLOW`),
/// never blocking on a FIFO (`O_NONBLOCK`), a regular file only, and at most `max` bytes (a
/// larger one is an error, not read).
pub fn read_private(path: &Path, max: u64) -> std::io::Result<String> {
    read_bounded(path, max, false)
}

/// Reads a file the user named: through symlinks (the user chose them), but a regular file
/// only, never blocking on a FIFO, and at most `max` bytes.
pub fn read_named(path: &Path, max: u64) -> std::io::Result<String> {
    read_bounded(path, max, true)
}

/// Opens a file the user named to read as it grows: through symlinks, but a regular file only
/// (never blocking on a FIFO).
pub fn open_named(path: &Path) -> std::io::Result<std::fs::File> {
    open_regular(path, true)
}

fn open_regular(path: &Path, follow: bool) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut flags = nix::libc::O_NONBLOCK;
    if !follow {
        flags |= nix::libc::O_NOFOLLOW;
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    Ok(file)
}

fn read_bounded(path: &Path, max: u64, follow: bool) -> std::io::Result<String> {
    use std::io::Read;
    let file = open_regular(path, follow)?;
    let meta = file.metadata()?;
    if meta.len() > max {
        return Err(std::io::Error::other(format!(
            "{} bytes, over the {max}-byte bound",
            meta.len()
        )));
    }
    let mut text = String::new();
    file.take(max).read_to_string(&mut text)?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_are_read_as_regular_files_only_bounded_and_not_through_links() {
        let dir = std::env::temp_dir().join(format!("mcp-inspect-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("store.json");
        std::fs::write(&file, "{}").expect("write");
        assert_eq!(read_private(&file, 16).expect("read"), "{}");
        assert!(read_private(&file, 1).is_err(), "over the bound");
        let link = dir.join("zero.json");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink("/dev/zero", &link).expect("link");
        assert!(
            read_private(&link, 1 << 20).is_err(),
            "a link is not followed"
        );
        assert!(
            read_named(&link, 1 << 20).is_err(),
            "/dev/zero is not a regular file"
        );
        let fifo = dir.join("fifo.json");
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        assert!(
            read_private(&fifo, 1 << 20).is_err(),
            "a FIFO is refused at once"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn keys_are_stable_and_plain() {
        assert_eq!(key("a"), key("a"));
        assert_ne!(key("a"), key("b"));
        assert!(key("x y/z").chars().all(|c| c.is_ascii_hexdigit()));
    }

    #[test]
    fn a_written_file_is_the_users_alone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("mcp-inspect-private-{}", std::process::id()));
        let path = dir.join("sub/file.json");
        write(&path, "one").expect("write");
        write(&path, "two").expect("write again");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "two");
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let dir_mode = std::fs::metadata(dir.join("sub"))
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(dir_mode & 0o777, 0o700);
        assert_eq!(
            std::fs::read_dir(dir.join("sub")).expect("listed").count(),
            1,
            "no temporary left"
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_file_replaced_or_new_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("mcp-inspect-replace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        let new = dir.join("new.toml");
        replace(&new, "a").expect("made");
        assert_eq!(mode(&new), 0o600);
        let shared = dir.join("shared.toml");
        std::fs::write(&shared, "old").expect("write");
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        replace(&shared, "new").expect("replaced");
        assert_eq!(
            (
                mode(&shared),
                std::fs::read_to_string(&shared).expect("read")
            ),
            (0o600, "new".to_string())
        );
        assert_eq!(std::fs::read_dir(&dir).expect("listed").count(), 2);
        // A link is refused with where it points, the link and its target left as they were.
        let link = dir.join("link.toml");
        std::os::unix::fs::symlink(&shared, &link).expect("link");
        let refused = replace(&link, "other").expect_err("refused").to_string();
        assert!(refused.contains("symbolic link to"), "{refused}");
        assert!(
            std::fs::symlink_metadata(&link)
                .expect("meta")
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&shared).expect("read"), "new");
        let _ = std::fs::remove_dir_all(dir);
    }
}
