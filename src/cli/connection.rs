//! The connection flags made into [`ConnectOptions`]: which server (one of `--`, `--url`,
//! `--config`, `--demo`, `--hostile`), its environment or headers, timeouts, the client side's
//! policies, OAuth options and `--record`. No IO beyond reading a config file and creating the
//! recording.

use crate::cli::args::{ConnectionArgs, ProtocolArg, TransportArg};
use crate::config::servers_file::OAuthEntry;
use crate::config::target::{Header, HttpTransport, Target};
use crate::mcp::session::client_side::{
    ClientSide, ElicitationPolicy, Roots, SamplingPolicy, file_uri,
};
use crate::mcp::transport::record::Recorder;
use crate::mcp::{ConnectOptions, ProtocolChoice};
use clap::ValueEnum;
use std::time::Duration;

/// Default seconds to wait for an answer.
pub const DEFAULT_TIMEOUT_SECS: f64 = 30.0;
/// A tool call's whole time, progress or not: long work is fine, an endless drip is not.
pub const DEFAULT_MAX_TIME_SECS: f64 = 600.0;

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
            crate::config::servers_file::load(file, name)?
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
        let settings = self.oauth_settings()?;
        let client_secret = match &settings.client_secret_env {
            Some(var) => Some(std::env::var(var).map_err(|_| {
                format!("--client-secret-env: environment variable {var} is not set")
            })?),
            None => None,
        };
        if let Some(url) = &settings.client_metadata_url
            && !url.starts_with("https://")
        {
            return Err(format!(
                "--client-metadata-url {} is not an https:// URL",
                crate::untrusted::line(url, 200)
            ));
        }
        Ok(crate::mcp::oauth::AuthOptions {
            assertion: assertion_grant(&settings)?,
            client_id: settings.client_id,
            client_secret,
            client_metadata_url: settings.client_metadata_url,
            interactive: self.interactive_auth,
            store: !self.no_store,
            open_browser: !self.no_browser,
            client_credentials: settings.client_credentials,
            dpop: settings.dpop,
            pasted: None,
            timeout: seconds("--timeout", self.timeout, DEFAULT_TIMEOUT_SECS)?,
        })
    }

    /// The OAuth settings: each flag given, else the server's `oauth` entry in `--config`'s
    /// file (with `--server`).
    fn oauth_settings(&self) -> Result<OAuthEntry, String> {
        let file = match (&self.config, &self.server) {
            (Some(path), Some(name)) => crate::config::servers_file::load_oauth(path, name)?,
            _ => OAuthEntry::default(),
        };
        Ok(OAuthEntry {
            client_id: self.client_id.clone().or(file.client_id),
            client_secret_env: self.client_secret_env.clone().or(file.client_secret_env),
            client_metadata_url: self
                .client_metadata_url
                .clone()
                .or(file.client_metadata_url),
            client_credentials: self.client_credentials || file.client_credentials,
            client_key: self.client_key.clone().or(file.client_key),
            assertion_file: self.assertion_file.clone().or(file.assertion_file),
            idp_token_endpoint: self.idp_token_endpoint.clone().or(file.idp_token_endpoint),
            idp_client_id: self.idp_client_id.clone().or(file.idp_client_id),
            id_token_env: self.id_token_env.clone().or(file.id_token_env),
            dpop: self.dpop || file.dpop,
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
            side.roots = Some(Roots::new(uris));
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

/// `--client-key` (read and checked now), the enterprise grant (its ID token read now) or
/// `--assertion-file` (read at each grant).
fn assertion_grant(
    settings: &OAuthEntry,
) -> Result<Option<crate::mcp::oauth::AssertionGrant>, String> {
    use crate::mcp::oauth::AssertionGrant;
    if let Some(path) = &settings.client_key {
        let key = crate::mcp::oauth::read_key(path)?;
        return Ok(Some(AssertionGrant::PrivateKeyJwt { key }));
    }
    if let (Some(endpoint), Some(var)) = (&settings.idp_token_endpoint, &settings.id_token_env) {
        let id_token = std::env::var(var)
            .map_err(|_| format!("--id-token-env: environment variable {var} is not set"))?;
        crate::secrets::register(&id_token);
        return Ok(Some(AssertionGrant::Enterprise {
            idp_token_endpoint: endpoint.clone(),
            idp_client_id: settings.idp_client_id.clone(),
            id_token,
        }));
    }
    Ok(settings
        .assertion_file
        .clone()
        .map(|file| AssertionGrant::JwtBearer { file }))
}

#[cfg(test)]
mod tests {
    use crate::cli::args::{Cli, Command};
    use crate::config::target::{HttpTransport, Target};
    use clap::Parser;

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
        assert_eq!(arg, ["a=2", "b=x"]);
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
