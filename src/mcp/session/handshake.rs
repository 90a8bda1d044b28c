//! The handshake over each transport: the connection made, rmcp's client started in the era
//! asked for within what is left of the deadline, and a failure said so the user can act on it
//! (a stdio server's stderr and exit status; an HTTP endpoint asked what is wrong).

use crate::config::target::{Header, HttpTransport, Target};
use crate::mcp::oauth::Authorizer;
use crate::mcp::session::STDERR_IN_ERRORS;
use crate::mcp::session::error::ConnectError;
use crate::mcp::session::events::EventSink;
use crate::mcp::session::handler::Handler;
use crate::mcp::session::options::ConnectOptions;
use crate::mcp::transport::raw::RawResponses;
use crate::mcp::transport::stdio::{self, ServerProcess};
use crate::mcp::transport::streamable::WireClient;
use crate::untrusted;
use rmcp::service::{ClientInitializeError, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// rmcp's client, running.
pub(super) type Service = RunningService<RoleClient, Handler>;

/// One handshake: what it needs.
pub(super) struct Handshake<'a> {
    pub opts: &'a ConnectOptions,
    pub events: &'a EventSink,
    pub auth: Option<&'a Arc<Authorizer>>,
    pub raw: &'a RawResponses,
    pub handler: Handler,
    pub lifecycle: ClientLifecycleMode,
    pub deadline: Instant,
}

impl Handshake<'_> {
    /// Connects over the target's transport and shakes hands; the stdio server's process too.
    pub(super) async fn run(self) -> Result<(Service, Option<ServerProcess>), ConnectError> {
        let target = self.opts.target.clone();
        match target {
            Target::Stdio {
                command,
                args,
                env,
                cwd,
            } => self.over_stdio(&command, &args, &env, cwd.as_ref()).await,
            Target::Http {
                url,
                transport: HttpTransport::Streamable,
                headers,
            } => Ok((self.over_streamable(&url, &headers).await?, None)),
            Target::Http {
                url,
                transport: HttpTransport::Sse,
                headers,
            } => Ok((self.over_sse(&url, &headers).await?, None)),
        }
    }

    fn left(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    async fn over_stdio(
        self,
        command: &str,
        args: &[String],
        env: &[(String, String)],
        cwd: Option<&PathBuf>,
    ) -> Result<(Service, Option<ServerProcess>), ConnectError> {
        let timeout = self.opts.timeout;
        let spawned =
            stdio::spawn(command, args, env, cwd, self.events, self.raw).map_err(|e| {
                match e.kind() {
                    std::io::ErrorKind::NotFound => ConnectError::CommandNotFound(command.into()),
                    _ => ConnectError::Spawn {
                        command: command.into(),
                        reason: e.to_string(),
                    },
                }
            })?;
        let mut process = spawned.process;
        let transport = spawned.transport;
        let left = self.left();
        // Kept alive past the deadline until the server's state is read: dropping it closes
        // the server's stdin, and a server that exits on EOF would then read as one that
        // exited by itself during the handshake (seen under load).
        let mut serving = Box::pin(self.handler.serve_with_lifecycle(transport, self.lifecycle));
        match tokio::time::timeout(left, &mut serving).await {
            Ok(Ok(service)) => Ok((service, Some(process))),
            Ok(Err(e)) => {
                let exited = process.wait_briefly(Duration::from_millis(300)).await;
                let stderr = process.stderr.last(STDERR_IN_ERRORS);
                process.shutdown().await;
                // A server that broke the protocol exits when we hang up: the protocol error
                // is the story, not the exit.
                let closed = matches!(e, ClientInitializeError::ConnectionClosed(_));
                Err(match exited {
                    Some(status) if closed => ConnectError::ExitedDuringHandshake {
                        status: status.to_string(),
                        stderr,
                    },
                    _ => ConnectError::Handshake {
                        reason: init_error(&e),
                        stderr,
                    },
                })
            }
            Err(_) => {
                let stderr = process.stderr.last(STDERR_IN_ERRORS);
                let status = process.exit_status();
                drop(serving);
                process.shutdown().await;
                Err(match status {
                    Some(status) => ConnectError::ExitedDuringHandshake {
                        status: status.to_string(),
                        stderr,
                    },
                    None => ConnectError::Timeout { timeout, stderr },
                })
            }
        }
    }

    async fn over_streamable(self, url: &str, headers: &[Header]) -> Result<Service, ConnectError> {
        let mut custom = HashMap::new();
        for h in headers {
            let name =
                reqwest::header::HeaderName::from_bytes(h.name.as_bytes()).map_err(|_| {
                    ConnectError::Handshake {
                        reason: format!("bad header name `{}`", h.name),
                        stderr: vec![],
                    }
                })?;
            let value = reqwest::header::HeaderValue::from_str(&h.value).map_err(|_| {
                ConnectError::Handshake {
                    reason: format!("header `{}` has a value that is not valid in HTTP", h.name),
                    stderr: vec![],
                }
            })?;
            custom.insert(name, value);
        }
        let config = StreamableHttpClientTransportConfig::with_uri(url).custom_headers(custom);
        let client = WireClient::new(
            crate::mcp::transport::http::client_keeping(0),
            self.raw.clone(),
            self.events.clone(),
            self.auth.cloned(),
        );
        let transport = StreamableHttpClientTransport::with_client(client, config);
        let left = self.left();
        let serving = self.handler.serve_with_lifecycle(transport, self.lifecycle);
        match tokio::time::timeout(left, serving).await {
            Ok(Ok(service)) => Ok(service),
            Err(_) => {
                // No time is left to ask the endpoint what is wrong.
                Err(ConnectError::Timeout {
                    timeout: self.opts.timeout,
                    stderr: vec![],
                })
            }
            Ok(Err(e)) => {
                // Asked with the token the attempt used, so a refused token is what it says.
                let mut headers = headers.to_vec();
                if let Some(auth) = self.auth
                    && let (Some(token), _) = auth.token().await
                {
                    headers.push(Header {
                        name: "Authorization".into(),
                        value: format!("Bearer {token}"),
                    });
                }
                let left = self.deadline.saturating_duration_since(Instant::now());
                let why = init_error(&e);
                Err(crate::mcp::transport::http::diagnose(url, &headers, left, why).await)
            }
        }
    }

    async fn over_sse(self, url: &str, headers: &[Header]) -> Result<Service, ConnectError> {
        let transport =
            crate::mcp::transport::sse::connect(url, headers, self.left(), self.events, self.raw)
                .await?;
        let left = self.left();
        let serving = self.handler.serve_with_lifecycle(transport, self.lifecycle);
        match tokio::time::timeout(left, serving).await {
            Ok(Ok(service)) => Ok(service),
            Ok(Err(e)) => Err(ConnectError::Handshake {
                reason: init_error(&e),
                stderr: vec![],
            }),
            Err(_) => Err(ConnectError::Timeout {
                timeout: self.opts.timeout,
                stderr: vec![],
            }),
        }
    }
}

fn init_error(e: &ClientInitializeError) -> String {
    untrusted::line(&e.to_string(), 400).into_owned()
}
