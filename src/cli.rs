//! Command-line parsing: the connection flags every command shares, the headless subcommands,
//! and their conversion into [`ConnectOptions`]. No IO beyond reading a config file and
//! creating a `--record` file.

use crate::mcp::session::client_side::{ClientSide, ElicitationPolicy, SamplingPolicy, file_uri};
use crate::mcp::transport::record::Recorder;
use crate::mcp::{ConnectOptions, Header, HttpTransport, ProtocolChoice, Target};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "mcp-inspect",
    version,
    about = "Inspect and exercise Model Context Protocol servers: a terminal UI and scriptable commands",
    after_help = "Examples:\n  mcp-inspect --demo\n  mcp-inspect -- npx -y @modelcontextprotocol/server-everything\n  mcp-inspect --url http://127.0.0.1:3001/mcp\n  mcp-inspect tools --format json -- uvx mcp-server-time\n  mcp-inspect call add --arg a=2 --arg b=40 --demo\n\nExit codes: 0 ok, 1 usage or error, 3 result violates its outputSchema or leaves out the structuredContent it declares (--strict), 4 server unreachable, 5 tool error or unknown tool.",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub connection: ConnectionArgs,
    /// TUI: leave the mouse to the terminal (its own text selection) instead of clicking rows.
    #[arg(long)]
    pub no_mouse: bool,
    /// TUI: mark the tools that changed against this snapshot (`mcp-inspect snapshot`), with
    /// what changed and whether it breaks callers or consumers.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List every tool (all pages): one line per tool, or JSON.
    Tools {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// One tool's full definition as JSON: schemas, annotations, signature.
    Inspect {
        /// The tool's name.
        tool: String,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Call a tool and print the result with its verdict against the outputSchema.
    Call {
        /// The tool's name.
        tool: String,
        /// All arguments as one JSON object.
        #[arg(long, conflicts_with = "arg")]
        args: Option<String>,
        /// One argument as key=value; the value is read as JSON when it parses, else as a string.
        #[arg(long = "arg", value_name = "KEY=VALUE")]
        arg: Vec<String>,
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
        /// Exit with 3 when the result violates its outputSchema or leaves out the
        /// structuredContent it declares.
        #[arg(long)]
        strict: bool,
        /// Call it as a task (tasks/get polled, then tasks/result); a tool whose
        /// execution.taskSupport is `required` is always called so.
        #[arg(long)]
        task: bool,
        /// Call a tool even when clients of this protocol era must exclude it (an invalid
        /// `x-mcp-header` in the 2026-07-28 era).
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Lint every tool's schemas; exits 1 when there are errors.
    Check {
        #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
        format: CheckFormat,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// List every resource (all pages): one line each, or JSON.
    Resources {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// List every resource template (all pages): one line each, or JSON.
    Templates {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Read a resource: its contents as text, or the result as JSON; --out writes the first
    /// content's bytes (a blob decoded) to a new file.
    Read {
        /// The resource's URI.
        uri: String,
        /// Write the first content to this file (never over an existing one).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// List every prompt (all pages) with its arguments: one line each, or JSON.
    Prompts {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Get a prompt with arguments: its messages by role, or the result as JSON.
    Prompt {
        /// The prompt's name.
        name: String,
        /// One argument as key=value (prompt arguments are strings).
        #[arg(long = "arg", value_name = "KEY=VALUE")]
        arg: Vec<String>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Ask the server to complete an argument of a prompt or a resource template.
    Complete {
        /// The prompt whose argument is completed.
        #[arg(
            long,
            conflicts_with = "template",
            required_unless_present = "template"
        )]
        prompt: Option<String>,
        /// The resource template (its URI template) whose variable is completed.
        #[arg(long)]
        template: Option<String>,
        /// The argument (or template variable) to complete.
        argument: String,
        /// What is typed so far.
        #[arg(default_value = "")]
        prefix: String,
        /// An argument already chosen, as context (key=value, repeatable).
        #[arg(long = "context", value_name = "KEY=VALUE")]
        context: Vec<String>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Ping the server and print the round-trip time.
    Ping {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Run the built-in demo MCP server (stdio, or Streamable HTTP with --http).
    DemoServer {
        /// Serve Streamable HTTP at 127.0.0.1:PORT/mcp instead of stdio.
        #[arg(long, value_name = "PORT")]
        http: Option<u16>,
        /// List tools N per page (exercises pagination).
        #[arg(long, value_name = "N")]
        page_size: Option<usize>,
        /// Misbehave: hand out the same cursor again and again (with --page-size).
        #[arg(long, requires = "page_size")]
        repeat_cursor: bool,
    },
    /// The server's whole surface (server, capabilities, era, tools with their schemas and
    /// annotations, resources, templates, prompts) as deterministic JSON, to commit beside its
    /// code and `diff` against later.
    Snapshot {
        /// Write the snapshot to FILE (else to stdout).
        #[arg(short = 'o', long = "out", value_name = "FILE")]
        out: Option<PathBuf>,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Compare a snapshot with another, or with the server given by the connection flags: each
    /// change judged breaking, compatible, unknown or info for callers and consumers. Exits 6
    /// when something breaks.
    Diff {
        /// The old snapshot file.
        #[arg(required_unless_present = "eras")]
        old: Option<PathBuf>,
        /// The new snapshot file; without it, the server the connection flags name, as it is now.
        new: Option<PathBuf>,
        /// The server in both protocol eras instead: the legacy (`initialize`) surface against
        /// the 2026-07-28 one (boxing, projected schemas, lists that differ).
        #[arg(long, conflicts_with_all = ["old", "new"])]
        eras: bool,
        #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
        format: DiffFormat,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// OAuth tokens kept for servers (in $XDG_STATE_HOME/mcp-inspect/auth): list them, or
    /// forget one server's.
    Auth {
        #[command(subcommand)]
        action: AuthAction,
    },
    /// Serve recordings made with --record as a stdio MCP server: each request gets the
    /// recorded answer to the same method and params.
    Replay {
        /// Recording files (JSON lines), read in order.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Run the built-in hostile MCP server (stdio): tools that crash, hang, flood, send escape
    /// sequences, huge results and schema bombs; --attack adds connection-wide misbehaviour.
    HostileServer {
        /// Connection-wide misbehaviours (comma-separated or repeated).
        #[arg(long, value_enum, value_delimiter = ',')]
        attack: Vec<crate::hostile::Attack>,
        /// Point remote `$ref`s and links at this URL (an inspector must never fetch it).
        #[arg(long, value_name = "URL")]
        ref_url: Option<String>,
        /// Write "PID GRANDCHILD_PID" here (for orphan checks).
        #[arg(long, value_name = "FILE")]
        pid_file: Option<PathBuf>,
    },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// How `diff` reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Text,
    Json,
    /// A Markdown report for a pull-request comment.
    Markdown,
    /// SARIF 2.1.0, for CI annotations (located in the newer snapshot file when there is one).
    Sarif,
}

/// How `check` reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
    /// SARIF 2.1.0, for CI annotations.
    Sarif,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum TransportArg {
    /// Streamable HTTP, or legacy SSE when the URL path ends in /sse.
    Auto,
    Http,
    Sse,
}

#[derive(Subcommand, Debug, Clone)]
pub enum AuthAction {
    /// Every server with a kept token: URL, client, scopes, expiry (never the token).
    List {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Forget the token and client kept for a server URL.
    Logout {
        /// The server's URL, as given to --url.
        url: String,
    },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProtocolArg {
    /// Try 2026-07-28 (server/discover), fall back to initialize.
    Auto,
    /// 2026-07-28 only.
    Modern,
    /// initialize (2025-11-25 and earlier) only.
    Legacy,
}

#[derive(Args, Debug, Default, Clone)]
pub struct ConnectionArgs {
    /// Connect to the built-in demo server (started from this binary over stdio).
    #[arg(long)]
    pub demo: bool,
    /// Connect to the built-in hostile server, with these attacks (`--hostile`, `--hostile=flood,garbage`).
    #[arg(long, value_enum, value_delimiter = ',', num_args = 0.., require_equals = true, value_name = "ATTACKS")]
    pub hostile: Option<Vec<crate::hostile::Attack>>,
    /// The server's URL (Streamable HTTP, or legacy SSE).
    #[arg(long)]
    pub url: Option<String>,
    /// HTTP transport.
    #[arg(long, value_enum)]
    pub transport: Option<TransportArg>,
    /// An HTTP header, `Name: value` (repeatable). Values never appear in output.
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// Send `Authorization: Bearer <token>` with the token read from this environment variable.
    #[arg(long, value_name = "VAR")]
    pub bearer_env: Option<String>,
    /// OAuth: a client registered with the authorization server beforehand (else a Client ID
    /// Metadata Document or dynamic registration is used).
    #[arg(long, value_name = "ID")]
    pub client_id: Option<String>,
    /// OAuth: the pre-registered client's secret, read from this environment variable.
    #[arg(long, value_name = "VAR", requires = "client_id")]
    pub client_secret_env: Option<String>,
    /// OAuth: the HTTPS URL of a Client ID Metadata Document describing this client, used as
    /// its client id where the authorization server supports them.
    #[arg(long, value_name = "URL")]
    pub client_metadata_url: Option<String>,
    /// OAuth: the client credentials grant with --client-id and --client-secret-env (no
    /// browser, for machine-to-machine servers).
    #[arg(long, requires = "client_secret_env")]
    pub client_credentials: bool,
    /// OAuth in a headless command: allow the browser flow (without it, a server that needs a
    /// new authorization ends the command with exit code 3).
    #[arg(long)]
    pub interactive_auth: bool,
    /// OAuth: print the authorization URL but do not start a browser.
    #[arg(long)]
    pub no_browser: bool,
    /// OAuth: keep tokens in memory only (not in the state directory).
    #[arg(long)]
    pub no_store: bool,
    /// Environment for a stdio server, KEY=VALUE (repeatable).
    #[arg(short = 'e', long = "env", value_name = "KEY=VALUE")]
    pub env: Vec<String>,
    /// Working directory for a stdio server.
    #[arg(long)]
    pub cwd: Option<PathBuf>,
    /// An mcpServers JSON file (Claude Desktop, official Inspector); without --server the TUI
    /// lets you pick one of its servers.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The server's name in --config.
    #[arg(long, requires = "config")]
    pub server: Option<String>,
    /// Protocol era.
    #[arg(long, value_enum)]
    pub protocol: Option<ProtocolArg>,
    /// Seconds to wait for any answer (a tool call's wait restarts on progress).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Seconds a tool call may take in all, however often it reports progress or its task
    /// changes status [default: 600].
    #[arg(long, value_name = "SECONDS")]
    pub max_time: Option<f64>,
    /// The server's log level once connected: debug, info, notice, warning, error, critical,
    /// alert or emergency (2026 era: sent with every request).
    #[arg(long, value_name = "LEVEL", value_parser = log_level)]
    pub log_level: Option<&'static str>,
    /// A root offered to the server: a directory (repeatable; default: none, the roots
    /// capability is declared and the list is empty).
    #[arg(long = "roots", value_name = "DIR", num_args = 1..)]
    pub roots: Vec<PathBuf>,
    /// Declare no roots capability (the server sees a client without roots).
    #[arg(long, conflicts_with = "roots")]
    pub no_roots: bool,
    /// Declare no sampling capability.
    #[arg(long, conflicts_with = "on_sampling")]
    pub no_sampling: bool,
    /// Declare no elicitation capability.
    #[arg(long, conflicts_with = "on_elicitation")]
    pub no_elicitation: bool,
    /// How to answer the server's elicitation/create: decline (default), cancel, defaults
    /// (accept with each requested field's default), or a file holding the JSON result.
    #[arg(long, value_name = "decline|cancel|defaults|FILE")]
    pub on_elicitation: Option<String>,
    /// How to answer the server's sampling/createMessage: reject (default), or a file holding
    /// the JSON result.
    #[arg(long, value_name = "reject|FILE")]
    pub on_sampling: Option<String>,
    /// Judge `format` mismatches as violations also where the schema's dialect (2019-09,
    /// 2020-12) makes `format` an annotation; otherwise they are shown beside the verdict.
    #[arg(long)]
    pub assert_formats: bool,
    /// Write every JSON-RPC message of the session to FILE, one JSON line each (serve it again
    /// with `mcp-inspect replay FILE`). Secrets given here are redacted.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// The stdio server's command and arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// Default seconds to wait for an answer.
pub const DEFAULT_TIMEOUT_SECS: f64 = 30.0;
/// A tool call's whole time, progress or not: long work is fine, an endless drip is not.
pub const DEFAULT_MAX_TIME_SECS: f64 = 600.0;

fn log_level(text: &str) -> Result<&'static str, String> {
    crate::mcp::session::logging::parse(text)
        .ok_or_else(|| format!("one of {}", crate::mcp::session::logging::LEVELS.join(", ")))
}

/// A flag's positive number of seconds, or its default.
fn seconds(flag: &str, given: Option<f64>, default: f64) -> Result<Duration, String> {
    let secs = given.unwrap_or(default);
    if !(secs.is_finite() && secs > 0.0 && secs < 1e9) {
        return Err(format!("{flag} must be a positive number of seconds"));
    }
    Ok(Duration::from_secs_f64(secs))
}

impl ConnectionArgs {
    /// Whether any way to reach a server was given.
    pub fn is_empty(&self) -> bool {
        !self.demo
            && self.hostile.is_none()
            && self.url.is_none()
            && self.config.is_none()
            && self.command.is_empty()
    }

    /// Whether the TUI should offer the server picker: no server given, or `--config FILE`
    /// without `--server`.
    pub fn picks(&self) -> bool {
        let named = self.demo || self.hostile.is_some() || self.url.is_some();
        !named && self.command.is_empty() && self.server.is_none()
    }

    /// The connection these flags describe.
    pub fn options(&self) -> Result<ConnectOptions, String> {
        self.options_for(self.target()?)
    }

    /// The server these flags name.
    fn target(&self) -> Result<Target, String> {
        let given = [
            self.demo,
            self.hostile.is_some(),
            self.url.is_some(),
            self.config.is_some(),
            !self.command.is_empty(),
        ];
        match given.iter().filter(|g| **g).count() {
            0 => return Err("no server given: use `-- COMMAND ARGS...`, --url URL, --config FILE --server NAME, --demo or --hostile".into()),
            1 => {}
            _ => return Err("give only one of `-- COMMAND`, --url, --config, --demo and --hostile".into()),
        }
        Ok(if self.demo {
            this_executable(vec!["demo-server".into()])?
        } else if let Some(attacks) = &self.hostile {
            let mut args = vec!["hostile-server".to_string()];
            for attack in attacks {
                if let Some(name) = attack.to_possible_value() {
                    args.extend(["--attack".into(), name.get_name().to_string()]);
                }
            }
            this_executable(args)?
        } else if let Some(url) = &self.url {
            check_url(url)?;
            let sse = match self.transport.unwrap_or(TransportArg::Auto) {
                TransportArg::Sse => true,
                TransportArg::Http => false,
                TransportArg::Auto => url_path_ends_in_sse(url),
            };
            Target::Http {
                url: url.clone(),
                transport: if sse {
                    HttpTransport::Sse
                } else {
                    HttpTransport::Streamable
                },
                headers: vec![],
            }
        } else if let Some(file) = &self.config {
            let Some(name) = &self.server else {
                return Err(format!(
                    "--config {} needs --server NAME (the TUI, without it, lets you pick)",
                    file.display()
                ));
            };
            crate::mcp::config::load(file, name)?
        } else {
            Target::Stdio {
                command: self.command[0].clone(),
                args: self.command[1..].to_vec(),
                env: vec![],
                cwd: None,
            }
        })
    }

    /// The connection to `target` (named by these flags, or picked), with the other flags
    /// (environment, headers, timeouts, policies) applied.
    pub fn options_for(&self, mut target: Target) -> Result<ConnectOptions, String> {
        self.apply_overrides(&mut target)?;
        target.register_secrets();
        if self.assert_formats {
            crate::schema::validate::assert_formats();
        }
        let timeout = seconds("--timeout", self.timeout, DEFAULT_TIMEOUT_SECS)?;
        let max_time = seconds("--max-time", self.max_time, DEFAULT_MAX_TIME_SECS)?;
        let record = match &self.record {
            None => None,
            Some(path) => Some(
                Recorder::create(path)
                    .map_err(|e| format!("cannot write the recording {}: {e}", path.display()))?,
            ),
        };
        Ok(ConnectOptions {
            target,
            protocol: match self.protocol.unwrap_or(ProtocolArg::Auto) {
                ProtocolArg::Auto => ProtocolChoice::Auto,
                ProtocolArg::Modern => ProtocolChoice::Modern,
                ProtocolArg::Legacy => ProtocolChoice::Legacy,
            },
            timeout,
            max_time,
            log_level: self.log_level,
            client: self.client_side()?,
            record,
            wire: None,
            auth: self.auth_options()?,
        })
    }

    /// How OAuth may run (headless: interactive only with --interactive-auth; the TUI allows it).
    fn auth_options(&self) -> Result<crate::mcp::oauth::AuthOptions, String> {
        let client_secret = match &self.client_secret_env {
            Some(var) => Some(std::env::var(var).map_err(|_| {
                format!("--client-secret-env: environment variable {var} is not set")
            })?),
            None => None,
        };
        if let Some(url) = &self.client_metadata_url
            && !url.starts_with("https://")
        {
            return Err(format!(
                "--client-metadata-url {} is not an https:// URL",
                crate::untrusted::line(url, 200)
            ));
        }
        Ok(crate::mcp::oauth::AuthOptions {
            client_id: self.client_id.clone(),
            client_secret,
            client_metadata_url: self.client_metadata_url.clone(),
            interactive: self.interactive_auth,
            store: !self.no_store,
            open_browser: !self.no_browser,
            client_credentials: self.client_credentials,
            pasted: None,
            timeout: seconds("--timeout", self.timeout, DEFAULT_TIMEOUT_SECS)?,
        })
    }

    /// What this client declares and how it answers the server's requests.
    fn client_side(&self) -> Result<ClientSide, String> {
        let mut side = ClientSide::default();
        if self.no_roots {
            side.roots = None;
        } else if !self.roots.is_empty() {
            let mut uris = Vec::new();
            for dir in &self.roots {
                let absolute = std::path::absolute(dir)
                    .map_err(|e| format!("--roots {}: {e}", dir.display()))?;
                uris.push(file_uri(&absolute));
            }
            side.roots = Some(uris);
        }
        side.sampling = match (self.no_sampling, self.on_sampling.as_deref()) {
            (true, _) => None,
            (false, None | Some("reject")) => Some(SamplingPolicy::Reject),
            (false, Some(file)) => Some(SamplingPolicy::File(file.into())),
        };
        side.elicitation = match (self.no_elicitation, self.on_elicitation.as_deref()) {
            (true, _) => None,
            (false, None | Some("decline")) => Some(ElicitationPolicy::Decline),
            (false, Some("cancel")) => Some(ElicitationPolicy::Cancel),
            (false, Some("defaults")) => Some(ElicitationPolicy::Defaults),
            (false, Some(file)) => Some(ElicitationPolicy::File(file.into())),
        };
        Ok(side)
    }

    fn apply_overrides(&self, target: &mut Target) -> Result<(), String> {
        match target {
            Target::Stdio { env, cwd, .. } => {
                if !self.headers.is_empty() || self.bearer_env.is_some() || self.transport.is_some()
                {
                    return Err(
                        "--header, --bearer-env and --transport apply to --url servers only".into(),
                    );
                }
                for pair in &self.env {
                    // The text is not echoed: a mistyped pair may be a bare secret.
                    let (k, v) = pair.split_once('=').ok_or(
                        "an -e value is not KEY=VALUE (its text is not shown: it may be a secret)",
                    )?;
                    env.push((k.to_string(), v.to_string()));
                }
                if self.cwd.is_some() {
                    cwd.clone_from(&self.cwd);
                }
            }
            Target::Http { headers, .. } => {
                if !self.env.is_empty() || self.cwd.is_some() {
                    return Err("-e and --cwd apply to stdio servers only".into());
                }
                for h in &self.headers {
                    headers.push(Header::parse(h)?);
                }
                if let Some(var) = &self.bearer_env {
                    let token = std::env::var(var).map_err(|_| {
                        format!("--bearer-env: environment variable {var} is not set")
                    })?;
                    headers.push(Header {
                        name: "Authorization".into(),
                        value: format!("Bearer {token}"),
                    });
                }
            }
        }
        Ok(())
    }
}

/// This binary as a stdio server (`demo-server`, `hostile-server`).
fn this_executable(args: Vec<String>) -> Result<Target, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    Ok(Target::Stdio {
        command: exe.to_string_lossy().into_owned(),
        args,
        env: vec![],
        cwd: None,
    })
}

/// An `http://` or `https://` URL, or a usage error that says what to write instead.
fn check_url(url: &str) -> Result<(), String> {
    let shown = crate::untrusted::line(url, 200);
    match reqwest::Url::parse(url) {
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => Ok(()),
        Ok(u) if matches!(u.scheme(), "http" | "https") => {
            Err(format!("--url {shown} names no host"))
        }
        // `host:port/path` parses with the host as its scheme.
        _ if !url.contains("://") => Err(format!(
            "--url {shown} is not an http:// or https:// URL: did you mean http://{shown}?"
        )),
        _ => Err(format!("--url {shown} is not an http:// or https:// URL")),
    }
}

fn url_path_ends_in_sse(url: &str) -> bool {
    reqwest::Url::parse(url).is_ok_and(|u| u.path().trim_end_matches('/').ends_with("/sse"))
}

/// Arguments for `call` from `--args` or repeated `--arg key=value`. A value is read as JSON
/// when it parses, unless the input schema says the property is a string (so `kind=false` or
/// `id=007` stay strings where strings are expected).
pub fn call_arguments(
    args: Option<&str>,
    pairs: &[String],
    input_schema: Option<&serde_json::Value>,
) -> Result<serde_json::Value, String> {
    if let Some(text) = args {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("--args is not JSON: {e}"))?;
        if !value.is_object() {
            return Err("--args must be a JSON object".into());
        }
        return Ok(value);
    }
    let mut map = serde_json::Map::new();
    for pair in pairs {
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| format!("--arg `{pair}` is not KEY=VALUE"))?;
        let as_string = input_schema
            .and_then(|s| s.get("properties"))
            .and_then(|p| p.get(k))
            .is_some_and(expects_string);
        let value = match serde_json::from_str(v) {
            Ok(parsed) if !as_string => parsed,
            _ => serde_json::Value::String(v.to_string()),
        };
        map.insert(k.to_string(), value);
    }
    Ok(serde_json::Value::Object(map))
}

/// Whether a property schema only accepts strings (`type: string`, or string enum/const).
fn expects_string(schema: &serde_json::Value) -> bool {
    if let Some(t) = schema.get("type") {
        return t == "string";
    }
    let all_strings = |v: &serde_json::Value| {
        v.as_array()
            .is_some_and(|a| !a.is_empty() && a.iter().all(serde_json::Value::is_string))
    };
    schema.get("enum").is_some_and(all_strings)
        || schema
            .get("const")
            .is_some_and(serde_json::Value::is_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(args: &[&str]) -> Cli {
        Cli::try_parse_from(std::iter::once("mcp-inspect").chain(args.iter().copied()))
            .expect("parses")
    }

    #[test]
    fn stdio_after_double_dash_with_env_and_cwd() {
        let cli = parse(&["-e", "A=1", "--cwd", "/tmp", "--", "server", "--flag"]);
        let opts = cli.connection.options().expect("options");
        assert_eq!(
            opts.target,
            Target::Stdio {
                command: "server".into(),
                args: vec!["--flag".into()],
                env: vec![("A".into(), "1".into())],
                cwd: Some("/tmp".into())
            }
        );
    }

    #[test]
    fn subcommands_take_the_connection_too() {
        let cli = parse(&[
            "call", "add", "--arg", "a=2", "--arg", "b=x", "--strict", "--", "srv",
        ]);
        let Some(Command::Call {
            tool,
            arg,
            strict,
            connection,
            ..
        }) = cli.command
        else {
            panic!("call")
        };
        assert_eq!((tool.as_str(), strict), ("add", true));
        assert_eq!(
            call_arguments(None, &arg, None),
            Ok(json!({"a": 2, "b": "x"}))
        );
        let schema = json!({"properties": {"kind": {"enum": ["zero", "false"]}, "id": {"type": "string"}, "n": {"type": "integer"}}});
        let pairs = [
            "kind=false".to_string(),
            "id=007".to_string(),
            "n=7".to_string(),
        ];
        assert_eq!(
            call_arguments(None, &pairs, Some(&schema)),
            Ok(json!({"kind": "false", "id": "007", "n": 7}))
        );
        assert!(matches!(
            connection.options().expect("opts").target,
            Target::Stdio { .. }
        ));
    }

    #[test]
    fn sse_is_chosen_by_path_or_flag() {
        let sse = parse(&["--url", "http://h/sse"])
            .connection
            .options()
            .expect("opts");
        assert!(matches!(
            sse.target,
            Target::Http {
                transport: HttpTransport::Sse,
                ..
            }
        ));
        let http = parse(&["--url", "http://h/mcp"])
            .connection
            .options()
            .expect("opts");
        assert!(matches!(
            http.target,
            Target::Http {
                transport: HttpTransport::Streamable,
                ..
            }
        ));
        for (url, said) in [
            (
                "127.0.0.1:3955/mcp",
                "did you mean http://127.0.0.1:3955/mcp?",
            ),
            ("localhost:3001", "did you mean http://localhost:3001?"),
            ("ftp://h/mcp", "is not an http:// or https:// URL"),
        ] {
            let why = parse(&["--url", url])
                .connection
                .options()
                .map(|_| ())
                .expect_err(url);
            assert!(why.contains(said), "{url}: {why}");
        }
        let forced = parse(&["--url", "http://h/events", "--transport", "sse"])
            .connection
            .options()
            .expect("opts");
        assert!(matches!(
            forced.target,
            Target::Http {
                transport: HttpTransport::Sse,
                ..
            }
        ));
    }

    #[test]
    fn usage_errors_are_clear() {
        assert!(
            parse(&[])
                .connection
                .options()
                .expect_err("none")
                .starts_with("no server given")
        );
        assert!(
            parse(&["--url", "http://h/mcp", "--", "x"])
                .connection
                .options()
                .is_err()
        );
        assert!(
            parse(&["--url", "http://h/mcp", "-e", "A=1"])
                .connection
                .options()
                .is_err()
        );
        assert!(
            parse(&["--timeout", "0", "--", "x"])
                .connection
                .options()
                .is_err()
        );
        assert_eq!(
            call_arguments(Some("[1]"), &[], None),
            Err("--args must be a JSON object".into())
        );
    }

    #[test]
    fn bearer_token_from_environment() {
        let cli = parse(&[
            "--url",
            "http://h/mcp",
            "--bearer-env",
            "MCP_INSPECT_TEST_TOKEN_UNSET",
        ]);
        assert!(
            cli.connection
                .options()
                .expect_err("unset")
                .contains("MCP_INSPECT_TEST_TOKEN_UNSET")
        );
    }
}
