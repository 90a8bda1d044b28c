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
    /// How the server is authorized: mcp-inspect's own key (other clients pass it over).
    #[serde(default)]
    oauth: Option<OAuthEntry>,
}

/// A server's OAuth settings in the file, named as the flags are (`clientId` for
/// `--client-id` …); a flag given on the command line wins over the file.
#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OAuthEntry {
    pub client_id: Option<String>,
    pub client_secret_env: Option<String>,
    pub client_metadata_url: Option<String>,
    #[serde(default)]
    pub client_credentials: bool,
    pub client_key: Option<PathBuf>,
    pub assertion_file: Option<PathBuf>,
    pub idp_token_endpoint: Option<String>,
    pub idp_client_id: Option<String>,
    pub id_token_env: Option<String>,
    #[serde(default)]
    pub dpop: bool,
}

/// Reads `path` and returns the server called `name`.
pub fn load(path: &Path, name: &str) -> Result<Target, String> {
    let text = read(path)?;
    parse(&text, name).map_err(|e| format!("config {}: {e}", path.display()))
}

/// Reads `path` and returns the OAuth settings of the server called `name` (none: defaults).
pub fn load_oauth(path: &Path, name: &str) -> Result<OAuthEntry, String> {
    let text = read(path)?;
    let entry = entry(&text, name).map_err(|e| format!("config {}: {e}", path.display()))?;
    Ok(entry.oauth.unwrap_or_default())
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read config {}: {e}", path.display()))
}

pub fn parse(text: &str, name: &str) -> Result<Target, String> {
    entry(text, name)?.target(name)
}

/// The entry called `name` in the file's text.
fn entry(text: &str, name: &str) -> Result<ServerEntry, String> {
    // serde's message quotes the offending value, which may be a secret (`"headers": "Bearer
    // …"`): only the kind of fault and its place are said.
    let file: ConfigFile = serde_json::from_str(text).map_err(|e| {
        let what = match e.classify() {
            serde_json::error::Category::Data => {
                "an entry has the wrong shape (for example `headers` or `env` not an object of strings, or an `oauth` key that is not a flag's name)"
            }
            _ => "the file is not valid JSON",
        };
        format!(
            "not an mcpServers file: {what} at line {} column {} (values are not quoted: they may be secrets)",
            e.line(),
            e.column()
        )
    })?;
    let names: Vec<String> = file.mcp_servers.keys().cloned().collect();
    let mut servers = file.mcp_servers;
    servers
        .remove(name)
        .ok_or_else(|| format!("no server `{name}` (servers: {})", names.join(", ")))
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

    #[test]
    fn a_servers_oauth_entry_is_read_and_a_misspelt_key_refused() {
        let file = r#"{"mcpServers": {"r": {"url": "http://h/mcp",
            "oauth": {"clientId": "c", "clientKey": "/keys/c.pem", "dpop": true}}}}"#;
        let read = entry(file, "r").expect("entry");
        assert_eq!(
            read.oauth,
            Some(OAuthEntry {
                client_id: Some("c".into()),
                client_key: Some("/keys/c.pem".into()),
                dpop: true,
                ..OAuthEntry::default()
            })
        );
        let typo = r#"{"mcpServers": {"r": {"url": "http://h/mcp", "oauth": {"clientSecret": "sk-live-abcdef"}}}}"#;
        let err = entry(typo, "r").err().unwrap_or_default();
        assert!(
            err.contains("not a flag's name") && !err.contains("sk-live"),
            "{err}"
        );
    }

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
