//! The `mcpServers` JSON file used by Claude Desktop and the official Inspector, read into a
//! [`Target`]. Pure apart from reading the file.

use super::target::{Header, HttpTransport, Target};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ConfigFile {
    mcp_servers: BTreeMap<String, ServerEntry>,
}

/// One server as the clients write it (Windsurf says `serverUrl`, Codex `http_headers`).
#[derive(Deserialize)]
pub struct ServerEntry {
    #[serde(rename = "type")]
    kind: Option<String>,
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    cwd: Option<PathBuf>,
    #[serde(alias = "serverUrl")]
    url: Option<String>,
    #[serde(default, alias = "http_headers")]
    headers: BTreeMap<String, String>,
}

/// Reads `path` and returns the server called `name`.
pub fn load(path: &Path, name: &str) -> Result<Target, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read config {}: {e}", path.display()))?;
    parse(&text, name).map_err(|e| format!("config {}: {e}", path.display()))
}

pub fn parse(text: &str, name: &str) -> Result<Target, String> {
    // serde's message quotes the offending value, which may be a secret (`"headers": "Bearer
    // …"`): only the kind of fault and its place are said.
    let file: ConfigFile = serde_json::from_str(text).map_err(|e| {
        let what = match e.classify() {
            serde_json::error::Category::Data => {
                "an entry has the wrong shape (for example `headers` or `env` not an object of strings)"
            }
            _ => "the file is not valid JSON",
        };
        format!(
            "not an mcpServers file: {what} at line {} column {} (values are not quoted: they may be secrets)",
            e.line(),
            e.column()
        )
    })?;
    let names: Vec<&str> = file.mcp_servers.keys().map(String::as_str).collect();
    let Some(entry) = file.mcp_servers.get(name) else {
        return Err(format!(
            "no server `{name}` (servers: {})",
            names.join(", ")
        ));
    };
    entry.target(name)
}

impl ServerEntry {
    /// The server this entry describes (`name` for messages).
    pub fn target(&self, name: &str) -> Result<Target, String> {
        let entry = self;
        let kind =
            entry
                .kind
                .as_deref()
                .unwrap_or(if entry.url.is_some() { "http" } else { "stdio" });
        match kind {
            "stdio" => Ok(Target::Stdio {
                command: entry
                    .command
                    .clone()
                    .ok_or_else(|| format!("server `{name}` has no `command`"))?,
                args: entry.args.clone(),
                env: entry
                    .env
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
                cwd: entry.cwd.clone(),
            }),
            "http" | "streamable-http" | "streamableHttp" | "sse" => {
                let url = entry
                    .url
                    .clone()
                    .ok_or_else(|| format!("server `{name}` has no `url`"))?;
                Ok(Target::Http {
                    transport: if kind == "sse" {
                        HttpTransport::Sse
                    } else {
                        HttpTransport::Streamable
                    },
                    url,
                    headers: entry
                        .headers
                        .iter()
                        .map(|(k, v)| Header {
                            name: k.clone(),
                            value: v.clone(),
                        })
                        .collect(),
                })
            }
            other => Err(format!(
                "server `{name}` has unknown type `{other}` (stdio, http or sse)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"{"mcpServers": {
        "files": {"command": "npx", "args": ["-y", "server-filesystem", "/tmp"], "env": {"A": "1"}, "cwd": "/srv"},
        "remote": {"type": "http", "url": "http://127.0.0.1:3000/mcp", "headers": {"Authorization": "Bearer x"}},
        "old": {"type": "sse", "url": "http://127.0.0.1:3001/sse"},
        "odd": {"type": "carrier-pigeon"}
    }}"#;

    #[test]
    fn reads_each_kind() {
        assert_eq!(
            parse(FILE, "files"),
            Ok(Target::Stdio {
                command: "npx".into(),
                args: vec!["-y".into(), "server-filesystem".into(), "/tmp".into()],
                env: vec![("A".into(), "1".into())],
                cwd: Some("/srv".into()),
            })
        );
        let Ok(Target::Http {
            transport, headers, ..
        }) = parse(FILE, "remote")
        else {
            panic!("http")
        };
        assert_eq!((transport, headers.len()), (HttpTransport::Streamable, 1));
        assert!(matches!(
            parse(FILE, "old"),
            Ok(Target::Http {
                transport: HttpTransport::Sse,
                ..
            })
        ));
    }

    #[test]
    fn clear_errors() {
        assert_eq!(
            parse(FILE, "nope"),
            Err("no server `nope` (servers: files, odd, old, remote)".into())
        );
        assert!(
            parse(FILE, "odd")
                .expect_err("odd")
                .contains("unknown type `carrier-pigeon`")
        );
        assert!(
            parse("{}", "x")
                .expect_err("shape")
                .starts_with("not an mcpServers file")
        );
    }

    #[test]
    fn a_malformed_entry_never_quotes_its_values() {
        let file = r#"{"mcpServers": {"r": {"url": "http://h/mcp", "headers": "Bearer sk-live-abcdef123"}}}"#;
        let err = parse(file, "r").expect_err("headers must be an object");
        assert!(!err.contains("sk-live"), "{err}");
        assert!(err.contains("line 1"), "{err}");
    }
}
