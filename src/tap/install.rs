//! `mcp-inspect tap install NAME` and `tap uninstall NAME`: a server a host already runs put
//! through the tap in the host's own config (Claude Desktop, Claude Code, Cursor, VS Code,
//! Windsurf, Codex), and taken out again. Only that entry's `command` and `args` change; every
//! other byte of the file (comments, order, spacing, other servers, secrets in `env`) stays as
//! it was. Before the first change the file is copied beside itself (`….mcp-inspect-backup`,
//! 0600); the file is replaced whole or not at all.

use crate::config::client_configs::{self, Found, Layout, Places};
use crate::config::json_spans::span;
use serde_json::Value;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Put a server through the tap, or take it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Install,
    Uninstall,
}

/// A config file is read whole at most this (Claude Code's grows with its history).
const MAX_BYTES: u64 = 16 << 20;

/// Changes the entry `name` (in `file`, or the one client config that has it); an exit code.
pub fn run(change: Change, name: &str, file: Option<&Path>) -> i32 {
    match changed(change, name, file) {
        Ok(said) => {
            println!("{said}");
            0
        }
        Err(why) => {
            eprintln!("error: {why}");
            1
        }
    }
}

fn changed(change: Change, name: &str, file: Option<&Path>) -> Result<String, String> {
    let found = the_entry(name, file)?;
    let exe = std::env::current_exe()
        .map_err(|e| format!("where this program is cannot be told: {e}"))?
        .to_string_lossy()
        .into_owned();
    let text = crate::private_files::read_named(&found.file, MAX_BYTES)
        .map_err(|e| format!("{}: {e}", found.file.display()))?;
    let cwd = std::env::current_dir().unwrap_or_default();
    let new = rewrite(&text, found.layout, name, &cwd, change, &exe)?;
    // A config kept in a dotfiles folder is a link: the file it names is the one changed.
    let real = std::fs::canonicalize(&found.file).unwrap_or_else(|_| found.file.clone());
    let backup = backup_of(&real);
    if !backup.exists() {
        crate::private_files::write(&backup, &text)
            .map_err(|e| format!("the backup {} could not be written: {e}", backup.display()))?;
    }
    crate::private_files::replace(&real, &new).map_err(|e| format!("{}: {e}", real.display()))?;
    let place = format!("{} ({})", found.client, found.file.display());
    Ok(match change {
        Change::Install => format!(
            "{name} in {place} now runs through the tap: restart {} and `mcp-inspect attach` shows its next session (the file as it was: {})",
            found.client,
            backup.display()
        ),
        Change::Uninstall => format!(
            "{name} in {place} runs without the tap again: restart {} (the file before the first change: {})",
            found.client,
            backup.display()
        ),
    })
}

fn backup_of(file: &Path) -> PathBuf {
    let mut name = file.file_name().unwrap_or_default().to_os_string();
    name.push(".mcp-inspect-backup");
    file.with_file_name(name)
}

/// The one stdio entry called `name`: in `file`, or in the client configs.
fn the_entry(name: &str, file: Option<&Path>) -> Result<Found, String> {
    let discovery = match file {
        Some(file) => client_configs::in_file(file),
        None => client_configs::discover(&Places::from_env()),
    };
    let mut named: Vec<Found> = (discovery.servers.into_iter())
        .filter(|f| f.name == name)
        .collect();
    match named.len() {
        0 => Err(format!(
            "no server called `{}` in {} (looked in {}); name the file with --file",
            crate::untrusted::line(name, 80),
            if file.is_some() {
                "that file"
            } else {
                "your client configs"
            },
            crate::plural::count(discovery.looked.len(), "file")
        )),
        1 => {
            let found = named.remove(0);
            match &found.target {
                Ok(crate::config::target::Target::Stdio { .. }) => Ok(found),
                Ok(_) => Err(format!(
                    "`{name}` is reached by URL: the tap sits in front of stdio servers"
                )),
                Err(why) => Err(format!("`{name}` cannot be used: {why}")),
            }
        }
        _ => Err(format!(
            "`{name}` is in more than one config; name one with --file:\n{}",
            (named.iter())
                .map(|f| format!("  {} ({})", f.file.display(), f.client))
                .collect::<Vec<_>>()
                .join("\n")
        )),
    }
}

/// The file's text with the entry's command and arguments changed.
pub fn rewrite(
    text: &str,
    layout: Layout,
    name: &str,
    cwd: &Path,
    change: Change,
    exe: &str,
) -> Result<String, String> {
    let paths = layout.entry_paths(name, cwd);
    if layout == Layout::CodexToml {
        return rewrite_toml(text, name, change, exe);
    }
    let entry = (paths.iter())
        .find(|p| span(text, p).is_some())
        .ok_or_else(|| format!("`{name}` was not found where its client keeps it"))?;
    let at = |key: &str| {
        let mut path = entry.clone();
        path.push(key.into());
        span(text, &path)
    };
    let stripped = client_configs::strip_jsonc(text);
    let read = |range: &Range<usize>| serde_json::from_str::<Value>(&stripped[range.clone()]).ok();
    let command_at = at("command").ok_or_else(|| format!("`{name}` has no command"))?;
    let command = read(&command_at)
        .and_then(|v| v.as_str().map(String::from))
        .ok_or_else(|| format!("`{name}`'s command is not a string"))?;
    let args_at = at("args");
    let args = match &args_at {
        Some(range) => {
            strings(read(range)).ok_or_else(|| format!("`{name}`'s args are not strings"))?
        }
        None => Vec::new(),
    };
    let (command, args) = changed_words(change, name, command, args, exe)?;
    let mut edits = vec![(command_at.clone(), quoted(&command))];
    match args_at {
        Some(range) => edits.push((range, quoted(&args))),
        None => edits.push((
            command_at.end..command_at.end,
            format!(", \"args\": {}", quoted(&args)),
        )),
    }
    Ok(apply(text, edits))
}

/// A JSON value's text, for an edit.
fn quoted(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

fn strings(value: Option<Value>) -> Option<Vec<String>> {
    (value?.as_array()?.iter())
        .map(|v| v.as_str().map(String::from))
        .collect()
}

/// The command and arguments after the change: `EXE tap -- COMMAND ARGS…` in, back out.
fn changed_words(
    change: Change,
    name: &str,
    command: String,
    args: Vec<String>,
    exe: &str,
) -> Result<(String, Vec<String>), String> {
    let tapped = Path::new(&command)
        .file_name()
        .is_some_and(|n| n == "mcp-inspect" || command == exe)
        && args.first().is_some_and(|a| a == "tap");
    match (change, tapped) {
        (Change::Install, true) => Err(format!("`{name}` already runs through the tap")),
        (Change::Install, false) => {
            let mut wrapped = vec!["tap".to_string(), "--".into(), command];
            wrapped.extend(args);
            Ok((exe.to_string(), wrapped))
        }
        (Change::Uninstall, false) => Err(format!("`{name}` does not run through the tap")),
        (Change::Uninstall, true) => {
            let after = args
                .iter()
                .position(|a| a == "--")
                .map_or(args.len(), |i| i + 1);
            let mut original = args[after..].to_vec();
            if original.is_empty() {
                return Err(format!("`{name}`'s tap names no server command"));
            }
            let command = original.remove(0);
            Ok((command, original))
        }
    }
}

/// `text` with each range replaced (ranges that do not overlap).
fn apply(text: &str, mut edits: Vec<(Range<usize>, String)>) -> String {
    edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    let mut out = text.to_string();
    for (range, with) in edits {
        out.replace_range(range, &with);
    }
    out
}

/// Codex's `[mcp_servers.NAME]`, changed with the rest of the TOML kept as written.
fn rewrite_toml(text: &str, name: &str, change: Change, exe: &str) -> Result<String, String> {
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|_| "not valid TOML (its text is not shown)".to_string())?;
    let entry = doc
        .get_mut("mcp_servers")
        .and_then(|t| t.get_mut(name))
        .and_then(toml_edit::Item::as_table_like_mut)
        .ok_or_else(|| format!("`{name}` was not found in [mcp_servers]"))?;
    let command = (entry.get("command").and_then(toml_edit::Item::as_str))
        .ok_or_else(|| format!("`{name}` has no command"))?
        .to_string();
    let args: Vec<String> = match entry.get("args") {
        None => Vec::new(),
        Some(item) => (item.as_array().into_iter().flatten())
            .map(|v| v.as_str().map(String::from))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("`{name}`'s args are not strings"))?,
    };
    let (command, args) = changed_words(change, name, command, args, exe)?;
    entry.insert("command", toml_edit::value(command));
    entry.insert("args", toml_edit::value(toml_edit::Array::from_iter(args)));
    Ok(doc.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXE: &str = "/opt/bin/mcp-inspect";

    /// In and out again: only the entry's command and args change, and back; comments, other
    /// servers, `env` and spacing stay byte for byte.
    #[test]
    fn a_json_entry_goes_through_the_tap_and_back_with_every_other_byte_kept() {
        let text = r#"{
  // mine
  "mcpServers": {
    "other": {"command": "node", "args": ["x.js"]},
    "weather": {
      "command": "python",  /* é */
      "args": ["/srv/weather/server.py", "--port", "8'0"],
      "env": {"KEY": "S3CR3T\"q"},
    }
  }
}"#;
        let cwd = Path::new("/home/me");
        let tapped = rewrite(
            text,
            Layout::McpServers,
            "weather",
            cwd,
            Change::Install,
            EXE,
        )
        .expect("installed");
        assert!(
            tapped.contains(r#""command": "/opt/bin/mcp-inspect",  /* é */"#),
            "{tapped}"
        );
        assert!(
            tapped.contains(
                r#""args": ["tap","--","python","/srv/weather/server.py","--port","8'0"],"#
            ),
            "{tapped}"
        );
        assert!(tapped.contains(r#""other": {"command": "node", "args": ["x.js"]},"#));
        assert!(tapped.contains(r#""env": {"KEY": "S3CR3T\"q"},"#));
        let again = rewrite(
            &tapped,
            Layout::McpServers,
            "weather",
            cwd,
            Change::Install,
            EXE,
        );
        assert!(again.is_err_and(|e| e.contains("already")));
        let back = rewrite(
            &tapped,
            Layout::McpServers,
            "weather",
            cwd,
            Change::Uninstall,
            EXE,
        )
        .expect("uninstalled");
        assert_eq!(
            back.replace(
                r#"["/srv/weather/server.py","--port","8'0"]"#,
                r#"["/srv/weather/server.py", "--port", "8'0"]"#
            ),
            text
        );
    }

    #[test]
    fn an_entry_without_args_gets_them_and_vs_code_and_claude_code_layouts_are_found() {
        let text = r#"{"servers": {"w": {"type": "stdio", "command": "weather-mcp"}}}"#;
        let cwd = Path::new("/p");
        let tapped = rewrite(text, Layout::Servers, "w", cwd, Change::Install, EXE).expect("in");
        assert_eq!(
            tapped,
            r#"{"servers": {"w": {"type": "stdio", "command": "/opt/bin/mcp-inspect", "args": ["tap","--","weather-mcp"]}}}"#
        );
        let claude =
            r#"{"projects": {"/p": {"mcpServers": {"w": {"command": "x"}}}}, "mcpServers": {}}"#;
        let tapped =
            rewrite(claude, Layout::ClaudeCode, "w", cwd, Change::Install, EXE).expect("in");
        assert!(
            tapped
                .contains(r#""w": {"command": "/opt/bin/mcp-inspect", "args": ["tap","--","x"]}"#),
            "{tapped}"
        );
        let missing = rewrite(
            claude,
            Layout::ClaudeCode,
            "nobody",
            cwd,
            Change::Install,
            EXE,
        );
        assert!(missing.is_err());
    }

    #[test]
    fn a_codex_entry_goes_through_the_tap_and_back_with_its_comments_kept() {
        let text = "# my codex\n[mcp_servers.weather]\ncommand = \"python\" # the interpreter\nargs = [\"server.py\"]\nenv = { KEY = \"v\" }\n";
        let cwd = Path::new("/p");
        let tapped = rewrite(
            text,
            Layout::CodexToml,
            "weather",
            cwd,
            Change::Install,
            EXE,
        )
        .expect("in");
        assert!(
            tapped.starts_with("# my codex\n[mcp_servers.weather]\n"),
            "{tapped}"
        );
        assert!(
            tapped.contains(r#"args = ["tap", "--", "python", "server.py"]"#),
            "{tapped}"
        );
        assert!(tapped.contains("env = { KEY = \"v\" }"), "{tapped}");
        let back = rewrite(
            &tapped,
            Layout::CodexToml,
            "weather",
            cwd,
            Change::Uninstall,
            EXE,
        )
        .expect("out");
        assert!(back.contains("command = \"python\""), "{back}");
        assert!(back.contains(r#"args = ["server.py"]"#), "{back}");
    }
}
