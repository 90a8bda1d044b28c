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
    let (new_command, new_args) = changed_words(change, name, command, args, exe)?;
    let spans = Spans {
        command: command_at,
        args: args_at,
    };
    let exact = match change {
        Change::Install => Some(tapped_exactly(text, &spans, new_args.len() > 3, exe)),
        Change::Uninstall => untapped_exactly(text, &spans, &new_command, &new_args),
    };
    if let Some(edits) = exact {
        return Ok(apply(text, edits));
    }
    // Edited by hand since: the words put back, each array written afresh.
    let mut edits = vec![(spans.command.clone(), quoted(&new_command))];
    match spans.args {
        Some(range) => edits.push((range, quoted(&new_args))),
        None => edits.push((
            spans.command.end..spans.command.end,
            format!(", \"args\": {}", quoted(&new_args)),
        )),
    }
    Ok(apply(text, edits))
}

/// Where an entry's `command` and `args` values are in the file's text.
struct Spans {
    command: Range<usize>,
    args: Option<Range<usize>>,
}

/// What the tap puts before a server's arguments: its command's text as the file wrote it.
fn tap_words(command_text: &str) -> String {
    format!("\"tap\", \"--\", {command_text}")
}

/// The edits that put the entry through the tap by inserting text only: the command's value
/// becomes this program, and the tap's words and the old command's text (as the file wrote it)
/// go in front of the arguments, so [`untapped_exactly`] can take out exactly that.
fn tapped_exactly(
    text: &str,
    spans: &Spans,
    has_args: bool,
    exe: &str,
) -> Vec<(Range<usize>, String)> {
    let words = tap_words(&text[spans.command.clone()]);
    let mut edits = vec![(spans.command.clone(), quoted(&exe))];
    match &spans.args {
        Some(range) if text[range.clone()].starts_with('[') => {
            let at = range.start + 1;
            let sep = if has_args { ", " } else { "" };
            edits.push((at..at, format!("{words}{sep}")));
        }
        Some(range) => edits.push((range.clone(), format!("[{words}]"))),
        None => edits.push((
            spans.command.end..spans.command.end,
            format!(", \"args\": [{words}]"),
        )),
    }
    edits
}

/// The edits that undo [`tapped_exactly`] byte for byte, when what it inserted is still there
/// as it wrote it and gives back `command` and `args`; `None` otherwise.
fn untapped_exactly(
    text: &str,
    spans: &Spans,
    command: &str,
    args: &[String],
) -> Option<Vec<(Range<usize>, String)>> {
    let range = spans.args.clone()?;
    let inner = text[range.clone()].strip_prefix("[\"tap\", \"--\", ")?;
    let end = json_string_end(inner)?;
    let command_text = &inner[..end];
    if serde_json::from_str::<String>(command_text).ok()? != command {
        return None;
    }
    let rest = &inner[end..];
    let inserted_args = format!(", \"args\": [{}]", tap_words(command_text));
    if args.is_empty() && text[spans.command.end..].starts_with(&inserted_args) {
        let added = spans.command.end..spans.command.end + inserted_args.len();
        return Some(vec![
            (added, String::new()),
            (spans.command.clone(), command_text.into()),
        ]);
    }
    let rest = match args.is_empty() {
        true => rest,
        false => rest.strip_prefix(", ")?,
    };
    let original = format!("[{rest}");
    let stripped = client_configs::strip_jsonc(&original);
    if strings(serde_json::from_str(&stripped).ok()) != Some(args.to_vec()) {
        return None;
    }
    Some(vec![
        (range, original),
        (spans.command.clone(), command_text.into()),
    ])
}

/// Where a JSON string that `text` starts with ends (just past its closing quote).
fn json_string_end(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'"') {
        return None;
    }
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
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
                r#""args": ["tap", "--", "python", "/srv/weather/server.py", "--port", "8'0"],"#
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
        assert_eq!(back, text, "byte for byte");
        // Edited by hand in between: the tap's words taken out, the edit kept as written.
        let edited = tapped.replace(r#""--port", "8'0""#, r#""--port","9""#);
        let back = rewrite(
            &edited,
            Layout::McpServers,
            "weather",
            cwd,
            Change::Uninstall,
            EXE,
        )
        .expect("uninstalled");
        assert!(
            back.contains(r#""command": "python",  /* é */"#)
                && back.contains(r#""args": ["/srv/weather/server.py", "--port","9"],"#),
            "{back}"
        );
    }

    #[test]
    fn an_entry_without_args_gets_them_and_vs_code_and_claude_code_layouts_are_found() {
        let text = r#"{"servers": {"w": {"type": "stdio", "command": "weather-mcp"}}}"#;
        let cwd = Path::new("/p");
        let tapped = rewrite(text, Layout::Servers, "w", cwd, Change::Install, EXE).expect("in");
        assert_eq!(
            tapped,
            r#"{"servers": {"w": {"type": "stdio", "command": "/opt/bin/mcp-inspect", "args": ["tap", "--", "weather-mcp"]}}}"#
        );
        let back =
            rewrite(&tapped, Layout::Servers, "w", cwd, Change::Uninstall, EXE).expect("out");
        assert_eq!(back, text, "the args it added taken out again");
        let empty = r#"{"servers": {"w": {"command": "a\"b", "args": [ ]}}}"#;
        let tapped = rewrite(empty, Layout::Servers, "w", cwd, Change::Install, EXE).expect("in");
        assert!(
            tapped.contains(r#""args": ["tap", "--", "a\"b" ]"#),
            "{tapped}"
        );
        let back =
            rewrite(&tapped, Layout::Servers, "w", cwd, Change::Uninstall, EXE).expect("out");
        assert_eq!(back, empty);
        let claude =
            r#"{"projects": {"/p": {"mcpServers": {"w": {"command": "x"}}}}, "mcpServers": {}}"#;
        let tapped =
            rewrite(claude, Layout::ClaudeCode, "w", cwd, Change::Install, EXE).expect("in");
        assert!(
            tapped.contains(
                r#""w": {"command": "/opt/bin/mcp-inspect", "args": ["tap", "--", "x"]}"#
            ),
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
