//! The servers a user already configured in their MCP clients, found where each client keeps
//! them (Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Codex), for the server picker.
//! A file that is missing is skipped; one that cannot be read is named with why; an entry that
//! cannot be used is listed with why. Nothing but reading files.

use super::servers_file::ServerEntry;
use super::target::Target;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// A file read whole at most: client configs are small (Claude Code's grows with history).
const MAX_FILE_BYTES: u64 = 16 << 20;

/// One configured server: its name, the client and file it came from, and what it reaches.
#[derive(Debug, Clone)]
pub struct Found {
    pub name: String,
    /// The client's name, and the scope where a client has several (`Claude Code (project)`).
    pub client: String,
    pub file: PathBuf,
    /// The server, or why the entry cannot be used.
    pub target: Result<Target, String>,
    /// How the file lists its servers (where the entry is, for `tap install`).
    pub layout: Layout,
    /// What may keep it from starting, said before it is picked: a command not found on
    /// `PATH`, a `${…}` placeholder its client fills in and mcp-inspect does not.
    pub warnings: Vec<String>,
}

/// What a search found: the servers, in the order of the places looked, and the files that
/// exist but could not be read, each with why.
#[derive(Debug, Clone, Default)]
pub struct Discovery {
    pub servers: Vec<Found>,
    pub problems: Vec<String>,
    /// Every file looked for, found or not.
    pub looked: Vec<PathBuf>,
}

/// The directories the usual places hang from.
#[derive(Debug, Clone)]
pub struct Places {
    pub home: PathBuf,
    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    pub config: PathBuf,
    /// `$CODEX_HOME`, else `~/.codex`.
    pub codex: PathBuf,
    /// The working directory (project-scoped files).
    pub cwd: PathBuf,
}

impl Places {
    pub fn from_env() -> Places {
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let home = var("HOME").unwrap_or_default();
        Places {
            config: var("XDG_CONFIG_HOME").unwrap_or_else(|| home.join(".config")),
            codex: var("CODEX_HOME").unwrap_or_else(|| home.join(".codex")),
            cwd: std::env::current_dir().unwrap_or_default(),
            home,
        }
    }
}

/// A server's name, and its target or why the entry cannot be used.
type Entry = (String, Result<Target, String>);

/// How a file lists its servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `{"mcpServers": {name: entry}}` (Claude Desktop, Cursor, Windsurf, `.mcp.json`).
    McpServers,
    /// `{"servers": {name: entry}}`, JSON with comments (VS Code's `mcp.json`).
    Servers,
    /// `{"mcp": {"servers": …}}` in VS Code's `settings.json` (JSON with comments).
    VsCodeSettings,
    /// `~/.claude.json`: `mcpServers` for the user, and `projects[dir].mcpServers`.
    ClaudeCode,
    /// `[mcp_servers.name]` tables in TOML (Codex).
    CodexToml,
}

/// Every usual place on this system, in the order shown: the client, the file, its layout.
/// macOS's own places only on macOS; a file reached twice (the working directory is the home
/// directory) only once.
fn usual_places(p: &Places) -> Vec<(&'static str, PathBuf, Layout)> {
    let mac = p.home.join("Library/Application Support");
    let mut places = vec![
        (
            "Claude Desktop",
            p.config.join("Claude/claude_desktop_config.json"),
            Layout::McpServers,
        ),
        (
            "Claude Desktop",
            mac.join("Claude/claude_desktop_config.json"),
            Layout::McpServers,
        ),
        (
            "Claude Code",
            p.home.join(".claude.json"),
            Layout::ClaudeCode,
        ),
        (
            "Claude Code (project)",
            p.cwd.join(".mcp.json"),
            Layout::McpServers,
        ),
        (
            "Cursor",
            p.home.join(".cursor/mcp.json"),
            Layout::McpServers,
        ),
        (
            "Cursor (project)",
            p.cwd.join(".cursor/mcp.json"),
            Layout::McpServers,
        ),
        (
            "VS Code",
            p.config.join("Code/User/mcp.json"),
            Layout::Servers,
        ),
        ("VS Code", mac.join("Code/User/mcp.json"), Layout::Servers),
        (
            "VS Code",
            p.config.join("Code/User/settings.json"),
            Layout::VsCodeSettings,
        ),
        (
            "VS Code (workspace)",
            p.cwd.join(".vscode/mcp.json"),
            Layout::Servers,
        ),
        (
            "Windsurf",
            p.home.join(".codeium/windsurf/mcp_config.json"),
            Layout::McpServers,
        ),
        ("Codex", p.codex.join("config.toml"), Layout::CodexToml),
    ];
    if !cfg!(target_os = "macos") {
        places.retain(|(_, file, _)| !file.starts_with(&mac));
    }
    let mut seen = std::collections::HashSet::new();
    places.retain(|(_, file, _)| seen.insert(file.clone()));
    places
}

/// What may keep a configured server from starting (see [`Found::warnings`]).
fn warnings_for(target: &Target) -> Vec<String> {
    let mut warnings = Vec::new();
    let words: Vec<&str> = match target {
        Target::Stdio {
            command, args, env, ..
        } => {
            if !command.contains("${") && !on_path(command) {
                warnings.push(format!(
                    "`{}` is not found on PATH",
                    crate::untrusted::line(command, 200)
                ));
            }
            let mut words = vec![command.as_str()];
            words.extend(args.iter().map(String::as_str));
            words.extend(env.iter().map(|(_, v)| v.as_str()));
            words
        }
        Target::Http { url, headers, .. } => {
            let mut words = vec![url.as_str()];
            words.extend(headers.iter().map(|h| h.value.as_str()));
            words
        }
    };
    // Placeholders are named by their kind when it is one clients define, else not at all:
    // what follows `${` in a header or an environment value may be a secret.
    const KINDS: [&str; 8] = [
        "input",
        "env",
        "workspaceFolder",
        "userHome",
        "config",
        "command",
        "file",
        "cwd",
    ];
    let placeholders: std::collections::BTreeSet<&str> = words
        .iter()
        .flat_map(|w| w.match_indices("${").map(|(at, _)| &w[at + 2..]))
        .map(|rest| {
            let kind = &rest[..rest.find([':', '}']).unwrap_or(rest.len())];
            KINDS.iter().find(|k| **k == kind).copied().unwrap_or("")
        })
        .collect();
    for kind in placeholders {
        let shown = if kind.is_empty() {
            "${…}".to_string()
        } else {
            format!("${{{kind}…}}")
        };
        warnings.push(format!(
            "holds a `{shown}` placeholder its client fills in; mcp-inspect passes it as written"
        ));
    }
    warnings
}

/// Whether `command` names an executable file: as a path when it has a `/`, else in a
/// directory of `PATH`.
fn on_path(command: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let executable = |path: &Path| {
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if command.contains('/') {
        return executable(Path::new(command));
    }
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| executable(&dir.join(command)))
    })
}

/// The servers configured in every usual place.
pub fn discover(places: &Places) -> Discovery {
    let mut found = Discovery::default();
    for (client, file, layout) in usual_places(places) {
        found.looked.push(file.clone());
        read_into(&mut found, client, &file, layout, &places.cwd, true);
    }
    found
}

/// The servers in one file given with `--config` (its layout guessed from its name and keys).
pub fn in_file(file: &Path) -> Discovery {
    let mut found = Discovery::default();
    let layout = if file.extension().is_some_and(|e| e == "toml") {
        Layout::CodexToml
    } else {
        Layout::McpServers
    };
    found.looked.push(file.to_path_buf());
    read_into(&mut found, "--config", file, layout, Path::new(""), false);
    found
}

fn read_into(
    found: &mut Discovery,
    client: &str,
    file: &Path,
    layout: Layout,
    cwd: &Path,
    missing_is_fine: bool,
) {
    let text = match read_bounded(file) {
        Ok(text) => text,
        Err(e) if missing_is_fine && e.kind() == std::io::ErrorKind::NotFound => return,
        Err(e) => {
            found.problems.push(format!("{}: {e}", file.display()));
            return;
        }
    };
    match servers_in(&text, layout, cwd) {
        Ok(entries) => found
            .servers
            .extend(entries.into_iter().map(|(name, target)| Found {
                warnings: target.as_ref().map(warnings_for).unwrap_or_default(),
                name,
                client: client.to_string(),
                file: file.to_path_buf(),
                target,
                layout,
            })),
        Err(why) => found.problems.push(format!("{}: {why}", file.display())),
    }
}

fn read_bounded(file: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(file)?
        .take(MAX_FILE_BYTES)
        .read_to_string(&mut text)?;
    Ok(text)
}

/// The servers a file's text lists, each with its target or why not. Errors never quote the
/// file's text: it may hold secrets.
fn servers_in(text: &str, layout: Layout, cwd: &Path) -> Result<Vec<Entry>, String> {
    if layout == Layout::CodexToml {
        let file: toml::Table =
            toml::from_str(text).map_err(|_| "not valid TOML (its text is not shown)")?;
        let Some(servers) = file.get("mcp_servers").and_then(toml::Value::as_table) else {
            return Ok(Vec::new());
        };
        return Ok(servers
            .iter()
            .map(|(name, entry)| {
                let target = entry
                    .clone()
                    .try_into::<ServerEntry>()
                    .map_err(|_| shape(name))
                    .and_then(|e| e.target(name));
                (name.clone(), target)
            })
            .collect());
    }
    let json: Value = serde_json::from_str(&strip_jsonc(text)).map_err(|e| {
        format!(
            "not valid JSON at line {} column {} (its text is not shown)",
            e.line(),
            e.column()
        )
    })?;
    let mut lists: Vec<&Value> = match layout {
        Layout::Servers => vec![&json["servers"]],
        Layout::VsCodeSettings => vec![&json["mcp"]["servers"]],
        _ => vec![&json["mcpServers"]],
    };
    if layout == Layout::ClaudeCode
        && let Some(dir) = cwd.to_str()
    {
        lists.push(&json["projects"][dir]["mcpServers"]);
    }
    Ok(lists
        .into_iter()
        .filter_map(Value::as_object)
        .flat_map(entries)
        .collect())
}

fn entries(servers: &Map<String, Value>) -> Vec<Entry> {
    servers
        .iter()
        .map(|(name, entry)| {
            let target = serde_json::from_value::<ServerEntry>(entry.clone())
                .map_err(|_| shape(name))
                .and_then(|e| e.target(name));
            (name.clone(), target)
        })
        .collect()
}

fn shape(name: &str) -> String {
    format!(
        "server `{name}` has the wrong shape (for example `env` or `headers` not an object of strings; values are not shown)"
    )
}

impl Layout {
    /// The key paths where a server called `name` may be listed, in the order looked
    /// (Claude Code's user entries, then the working directory's project).
    pub fn entry_paths(self, name: &str, cwd: &Path) -> Vec<Vec<String>> {
        let path = |keys: &[&str]| keys.iter().map(|k| k.to_string()).collect::<Vec<_>>();
        match self {
            Layout::McpServers => vec![path(&["mcpServers", name])],
            Layout::Servers => vec![path(&["servers", name])],
            Layout::VsCodeSettings => vec![path(&["mcp", "servers", name])],
            Layout::CodexToml => vec![path(&["mcp_servers", name])],
            Layout::ClaudeCode => {
                let dir = cwd.to_string_lossy();
                vec![
                    path(&["mcpServers", name]),
                    path(&["projects", &dir, "mcpServers", name]),
                ]
            }
        }
    }
}

/// JSON with comments (`//`, `/* */`) and trailing commas, as VS Code writes it, made JSON:
/// comments become spaces (a space a byte: every byte offset stays where it was, so an edit
/// found in the result applies to the original), a comma before `}` or `]` is dropped. Strings
/// are left alone.
pub fn strip_jsonc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    let mut in_string = false;
    while let Some((at, c)) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next().map(|(_, c)| c)),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek().map(|(_, c)| *c)) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                out.push(' ');
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                    out.extend(std::iter::repeat_n(' ', c.len_utf8()));
                }
            }
            ('/', Some('*')) => {
                chars.next();
                out.push_str("  ");
                let mut last = ' ';
                for (_, c) in chars.by_ref() {
                    match c {
                        '\n' => out.push('\n'),
                        c => out.extend(std::iter::repeat_n(' ', c.len_utf8())),
                    }
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            // A trailing comma: what follows, past blanks and comments, closes.
            (',', _) if strip_leading_blanks(&text[at + 1..]).starts_with(['}', ']']) => {
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}

/// `text` without its leading whitespace and comments.
fn strip_leading_blanks(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        if let Some(rest) = text.strip_prefix("//") {
            text = rest.split_once('\n').map_or("", |(_, r)| r);
        } else if let Some(rest) = text.strip_prefix("/*") {
            text = rest.split_once("*/").map_or("", |(_, r)| r);
        } else {
            return text;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas_are_dropped_strings_kept() {
        let text = "{\n  // a comment\n  \"a\": \"http://x/*y*/\", /* b */\n  \"b\": [1, 2,],\n}";
        let json: Value = serde_json::from_str(&strip_jsonc(text)).expect("json");
        assert_eq!(json, serde_json::json!({"a": "http://x/*y*/", "b": [1, 2]}));
        assert_eq!(strip_jsonc("\"a\\\"//\""), "\"a\\\"//\"");
    }

    #[test]
    fn each_layout_gives_its_servers() {
        let vscode = r#"{"inputs": [], "servers": {"git": {"type": "stdio", "command": "uvx", "args": ["mcp-server-git"]},
            "web": {"type": "http", "url": "http://127.0.0.1:3000/mcp"}}}"#;
        let got = servers_in(vscode, Layout::Servers, Path::new("/p")).expect("servers");
        assert_eq!(got.len(), 2);
        assert!(
            matches!(&got[1].1, Ok(Target::Http { url, .. }) if url == "http://127.0.0.1:3000/mcp")
        );
        let claude_code = r#"{"numStartups": 3, "mcpServers": {"u": {"command": "a"}},
            "projects": {"/p": {"mcpServers": {"here": {"type": "sse", "url": "http://h/sse"}}},
                         "/q": {"mcpServers": {"elsewhere": {"command": "b"}}}}}"#;
        let got = servers_in(claude_code, Layout::ClaudeCode, Path::new("/p")).expect("servers");
        let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["u", "here"], "the user's, and this project's only");
        let codex = "model = \"o3\"\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"docs-mcp\"]\nenv = { TOKEN = \"sk-secret-value\" }\n[mcp_servers.remote]\nurl = \"https://h/mcp\"\n";
        let got = servers_in(codex, Layout::CodexToml, Path::new("/p")).expect("servers");
        assert!(
            matches!(&got[0].1, Ok(Target::Stdio { command, env, .. }) if command == "npx" && env.len() == 1)
        );
        assert!(matches!(&got[1].1, Ok(Target::Http { .. })));
        let windsurf = r#"{"mcpServers": {"w": {"serverUrl": "https://w/mcp"}, "bad": {"env": "sk-live-123456"}}}"#;
        let got = servers_in(windsurf, Layout::McpServers, Path::new("/p")).expect("servers");
        assert!(matches!(&got[0].1, Ok(Target::Http { .. })));
        let bad = got[1].1.as_ref().expect_err("wrong shape");
        assert!(
            bad.contains("wrong shape") && !bad.contains("sk-live"),
            "{bad}"
        );
        let broken = servers_in(
            "{\"mcpServers\": sk-live-1",
            Layout::McpServers,
            Path::new(""),
        );
        let broken = broken.expect_err("not JSON");
        assert!(
            broken.contains("line 1") && !broken.contains("sk-live"),
            "{broken}"
        );
    }

    #[test]
    fn the_usual_places_are_searched_and_a_missing_file_is_no_problem() {
        let home = std::env::temp_dir().join(format!("mcp-inspect-places-{}", std::process::id()));
        let desktop = home.join(".config/Claude");
        std::fs::create_dir_all(&desktop).expect("dirs");
        std::fs::write(
            desktop.join("claude_desktop_config.json"),
            r#"{"mcpServers": {"files": {"command": "npx", "args": ["server-filesystem"]}}}"#,
        )
        .expect("write");
        std::fs::create_dir_all(home.join(".cursor")).expect("dirs");
        std::fs::write(home.join(".cursor/mcp.json"), "{not json").expect("write");
        let places = Places {
            config: home.join(".config"),
            codex: home.join(".codex"),
            cwd: home.join("project"),
            home: home.clone(),
        };
        let found = discover(&places);
        assert_eq!(found.servers.len(), 1);
        assert_eq!(found.servers[0].client, "Claude Desktop");
        assert_eq!(found.problems.len(), 1, "{:?}", found.problems);
        assert!(found.problems[0].contains(".cursor/mcp.json: not valid JSON"));
        assert_eq!(found.looked.len(), usual_places(&places).len());
        let _ = std::fs::remove_dir_all(&home);
    }

    #[test]
    fn servers_that_may_not_start_are_flagged_without_their_secrets() {
        let stdio = |command: &str, args: &[&str], env: &[(&str, &str)]| Target::Stdio {
            command: command.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            cwd: None,
        };
        assert!(warnings_for(&stdio("sh", &["-c", "true"], &[])).is_empty());
        let missing = warnings_for(&stdio("no-such-mcp-server-here", &[], &[]));
        assert_eq!(missing, ["`no-such-mcp-server-here` is not found on PATH"]);
        let placeholders = warnings_for(&stdio(
            "sh",
            &["${workspaceFolder}/server.py"],
            &[
                ("TOKEN", "${input:api_key}"),
                ("OTHER", "${sk-live-secret}"),
            ],
        ));
        assert_eq!(
            placeholders,
            [
                "holds a `${…}` placeholder its client fills in; mcp-inspect passes it as written",
                "holds a `${input…}` placeholder its client fills in; mcp-inspect passes it as written",
                "holds a `${workspaceFolder…}` placeholder its client fills in; mcp-inspect passes it as written",
            ]
        );
        assert!(!placeholders.concat().contains("sk-live"));
    }

    #[test]
    fn a_place_is_searched_once_and_macos_places_only_on_macos() {
        let home = PathBuf::from("/home/u");
        let places = Places {
            config: home.join(".config"),
            codex: home.join(".codex"),
            cwd: home.clone(),
            home,
        };
        let files: Vec<PathBuf> = usual_places(&places)
            .into_iter()
            .map(|(_, f, _)| f)
            .collect();
        let cursor = files
            .iter()
            .filter(|f| f.ends_with(".cursor/mcp.json"))
            .count();
        assert_eq!(
            cursor, 1,
            "the home directory is the working directory: {files:?}"
        );
        let mac = files
            .iter()
            .any(|f| f.to_string_lossy().contains("Library/Application Support"));
        assert_eq!(mac, cfg!(target_os = "macos"), "{files:?}");
    }
}
