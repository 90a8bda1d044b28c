//! A live connection to one server: connects in the era it speaks, lists every tool across
//! pages, and calls tools with timeouts, progress and cancellation. Owns the server process.

use super::child::{self, ServerProcess};
use super::error::{ConnectError, RequestError};
use super::events::{EventSink, ServerEvent};
use super::handler::{Handler, token_text};
use super::raw::RawResponses;
use super::result::CallResult;
use super::target::{ConnectOptions, HttpTransport, ProtocolChoice, Target};
use super::tool::{RejectedTool, Tool, decode_page};
use crate::schema::Era;
use crate::untrusted;
use rmcp::model::{
    CancelledNotificationParam, ClientRequest, CustomRequest, ProtocolVersion, ServerResult,
    SubscriptionFilter,
};
use rmcp::service::{
    ClientInitializeError, PeerRequestOptions, RequestHandle, RoleClient, RunningService,
    ServiceError,
};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientCacheConfig, ClientLifecycleMode, ClientServiceExt, Peer};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::time::Duration;

/// Pages of `tools/list` followed before the listing stops as runaway.
pub const MAX_PAGES: usize = 1_000;
/// Stderr lines quoted in a connection error.
const STDERR_IN_ERRORS: usize = 12;

/// Who the server is and how we are talking to it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerSummary {
    pub name: String,
    pub title: Option<String>,
    pub version: String,
    pub protocol_version: String,
    pub era: Era,
    pub transport: &'static str,
    pub capabilities: Value,
    pub instructions: Option<String>,
}

/// Every tool across all pages, the ones rejected, and what stopped the listing early, if anything.
#[derive(Debug, Clone, Default)]
pub struct ToolList {
    pub tools: Vec<Tool>,
    pub rejected: Vec<RejectedTool>,
    pub pages: usize,
    pub problem: Option<String>,
}

pub struct Session {
    service: RunningService<RoleClient, Handler>,
    process: Option<ServerProcess>,
    raw: RawResponses,
    pub server: ServerSummary,
    timeout: Duration,
    /// The `subscriptions/listen` task of a modern connection.
    watcher: Option<tokio::task::JoinHandle<()>>,
}

impl Session {
    /// Connects, speaking the era asked for; `auto` retries a failed probe with `initialize`.
    pub async fn connect(
        opts: &ConnectOptions,
        events: &EventSink,
    ) -> Result<Session, ConnectError> {
        match opts.protocol {
            ProtocolChoice::Legacy => attempt(opts, events, Attempt::Initialize).await,
            ProtocolChoice::Modern => attempt(opts, events, Attempt::Discover).await,
            ProtocolChoice::Auto => match attempt(opts, events, Attempt::Auto).await {
                Err(e) if e.may_be_era_mismatch() => {
                    events.send(ServerEvent::Notice(format!(
                        "server/discover probe failed ({}); retrying with initialize",
                        first_line(&e.to_string())
                    )));
                    attempt(opts, events, Attempt::Initialize).await
                }
                other => other,
            },
        }
    }

    pub fn peer(&self) -> &Peer<RoleClient> {
        self.service.peer()
    }

    /// The last lines the server wrote to stderr (stdio only).
    pub fn stderr_tail(&self, n: usize) -> Vec<String> {
        self.process
            .as_ref()
            .map(|p| p.stderr.last(n))
            .unwrap_or_default()
    }

    /// Sends a request and returns its raw result (exactly as sent, where the transport is ours).
    pub async fn request(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> Result<Value, RequestError> {
        let handle = self
            .send(
                method,
                params,
                PeerRequestOptions::with_timeout(self.timeout),
            )
            .await?;
        self.finish(handle).await
    }

    async fn send(
        &self,
        method: &str,
        params: Option<Value>,
        options: PeerRequestOptions,
    ) -> Result<RequestHandle<RoleClient>, RequestError> {
        let request = ClientRequest::CustomRequest(CustomRequest::new(method, params));
        self.peer()
            .send_request_with_option(request, options)
            .await
            .map_err(|e| self.request_error(e))
    }

    async fn finish(&self, handle: RequestHandle<RoleClient>) -> Result<Value, RequestError> {
        let id = serde_json::to_string(&handle.id).unwrap_or_default();
        let result = handle
            .await_response()
            .await
            .map_err(|e| self.request_error(e))?;
        Ok(self.raw_result(&id, result))
    }

    fn raw_result(&self, id: &str, typed: ServerResult) -> Value {
        match self.raw.take(id).and_then(|m| m.get("result").cloned()) {
            Some(raw) => raw,
            None => serde_json::to_value(typed).unwrap_or(Value::Null),
        }
    }

    fn request_error(&self, e: ServiceError) -> RequestError {
        match e {
            ServiceError::McpError(err) => RequestError::Server {
                code: i64::from(err.code.0),
                message: untrusted::line(&err.message, 500).into_owned(),
                data: err.data,
            },
            ServiceError::Timeout { timeout } => RequestError::Timeout(timeout),
            ServiceError::Cancelled { .. } => RequestError::Cancelled,
            ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
                RequestError::Closed(self.stderr_tail(STDERR_IN_ERRORS))
            }
            other => RequestError::Malformed(other.to_string()),
        }
    }

    /// Every tool on every page. A repeated cursor or more than [`MAX_PAGES`] pages stops the
    /// listing with the tools found so far and a problem saying why.
    pub async fn list_tools(&self) -> Result<ToolList, RequestError> {
        let mut list = ToolList::default();
        let mut cursor: Option<String> = None;
        let mut seen = HashSet::new();
        loop {
            let params = cursor.as_ref().map(|c| json!({ "cursor": c }));
            let result = self.request("tools/list", params).await?;
            let page = decode_page(&result).map_err(RequestError::Malformed)?;
            list.pages += 1;
            let offset = list.tools.len() + list.rejected.len();
            list.tools.extend(page.tools);
            list.rejected.extend(page.rejected.into_iter().map(|mut r| {
                r.index += offset;
                r
            }));
            match page.next_cursor {
                None => return Ok(list),
                Some(next) if !seen.insert(next.clone()) => {
                    list.problem = Some(format!(
                        "the server repeated the cursor `{}` after {} pages: listing stopped",
                        untrusted::line(&next, 80),
                        list.pages
                    ));
                    return Ok(list);
                }
                Some(_) if list.pages >= MAX_PAGES => {
                    list.problem = Some(format!(
                        "more than {MAX_PAGES} pages of tools: listing stopped"
                    ));
                    return Ok(list);
                }
                Some(next) => cursor = Some(next),
            }
        }
    }

    /// Starts a tool call. The timeout restarts on every progress notification.
    pub async fn start_call(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<PendingCall<'_>, RequestError> {
        let options = PeerRequestOptions::with_timeout(self.timeout).reset_timeout_on_progress();
        let handle = self
            .send(
                "tools/call",
                Some(json!({"name": name, "arguments": arguments})),
                options,
            )
            .await?;
        Ok(PendingCall {
            progress_token: token_text(&handle.progress_token),
            session: self,
            handle,
        })
    }

    /// Calls a tool and waits for its result.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<CallResult, RequestError> {
        self.start_call(name, arguments).await?.result().await
    }

    /// Whether the connection has ended (the server exited or the transport closed).
    pub fn is_closed(&self) -> bool {
        self.peer().is_transport_closed()
    }

    /// Why the connection ended, with the server's exit status and last stderr lines.
    pub fn close_reason(&mut self) -> String {
        let tail = self.stderr_tail(3);
        let mut reason = match self.process.as_mut().and_then(|p| p.exit_status()) {
            Some(status) => format!("the server exited ({status})"),
            None => "the connection closed".to_string(),
        };
        if !tail.is_empty() {
            reason.push_str(&format!("; last stderr: {}", tail.join(" | ")));
        }
        reason
    }

    /// Closes the connection: stdin first, then a short grace, then the process group is ended.
    pub async fn shutdown(self) {
        let Session {
            service,
            process,
            watcher,
            ..
        } = self;
        if let Some(w) = watcher {
            w.abort();
        }
        let _ = tokio::time::timeout(Duration::from_millis(500), service.cancel()).await;
        if let Some(p) = process {
            p.shutdown().await;
        }
    }
}

/// A tool call in flight.
pub struct PendingCall<'s> {
    session: &'s Session,
    handle: RequestHandle<RoleClient>,
    /// The progress token our progress events carry.
    pub progress_token: String,
}

impl PendingCall<'_> {
    pub async fn result(self) -> Result<CallResult, RequestError> {
        Ok(CallResult::decode(self.session.finish(self.handle).await?))
    }

    /// Waits for the result unless `cancel` resolves first; then `notifications/cancelled` is sent.
    pub async fn result_or_cancel(
        self,
        cancel: impl Future<Output = ()>,
    ) -> Result<CallResult, RequestError> {
        let id = self.handle.id.clone();
        let peer = self.handle.peer.clone();
        tokio::select! {
            r = self.result() => r,
            () = cancel => {
                let _ = peer.notify_cancelled(CancelledNotificationParam::new(Some(id), Some("cancelled by the user".into()))).await;
                Err(RequestError::Cancelled)
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Attempt {
    Auto,
    Discover,
    Initialize,
}

async fn attempt(
    opts: &ConnectOptions,
    events: &EventSink,
    kind: Attempt,
) -> Result<Session, ConnectError> {
    let raw = RawResponses::default();
    let handler = Handler {
        events: events.clone(),
        protocol_version: match kind {
            Attempt::Initialize => ProtocolVersion::LATEST_WITH_INITIALIZE,
            _ => ProtocolVersion::LATEST,
        },
    };
    let lifecycle = match kind {
        Attempt::Initialize => ClientLifecycleMode::Initialize,
        Attempt::Discover => ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::LATEST],
        },
        Attempt::Auto => ClientLifecycleMode::Auto {
            preferred_versions: vec![ProtocolVersion::LATEST],
            legacy_version: Some(ProtocolVersion::LATEST_WITH_INITIALIZE),
        },
    };
    let timeout = opts.timeout;
    let (service, process) = match &opts.target {
        Target::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let spawned = child::spawn(command, args, env, cwd.as_ref(), events, &raw).map_err(
                |e| match e.kind() {
                    std::io::ErrorKind::NotFound => ConnectError::CommandNotFound(command.clone()),
                    _ => ConnectError::Spawn {
                        command: command.clone(),
                        reason: e.to_string(),
                    },
                },
            )?;
            let mut process = spawned.process;
            let transport = (spawned.from_server, spawned.to_server);
            match tokio::time::timeout(timeout, handler.serve_with_lifecycle(transport, lifecycle))
                .await
            {
                Ok(Ok(service)) => (service, Some(process)),
                Ok(Err(e)) => {
                    let exited = process.wait_briefly(Duration::from_millis(300)).await;
                    let stderr = process.stderr.last(STDERR_IN_ERRORS);
                    process.shutdown().await;
                    return Err(match exited {
                        Some(status) => ConnectError::ExitedDuringHandshake {
                            status: status.to_string(),
                            stderr,
                        },
                        None => ConnectError::Handshake {
                            reason: init_error(&e),
                            stderr,
                        },
                    });
                }
                Err(_) => {
                    let stderr = process.stderr.last(STDERR_IN_ERRORS);
                    let status = process.exit_status();
                    process.shutdown().await;
                    return Err(match status {
                        Some(status) => ConnectError::ExitedDuringHandshake {
                            status: status.to_string(),
                            stderr,
                        },
                        None => ConnectError::Timeout { timeout, stderr },
                    });
                }
            }
        }
        Target::Http {
            url,
            transport: HttpTransport::Streamable,
            headers,
        } => {
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
                        reason: format!(
                            "header `{}` has a value that is not valid in HTTP",
                            h.name
                        ),
                        stderr: vec![],
                    }
                })?;
                custom.insert(name, value);
            }
            let config =
                StreamableHttpClientTransportConfig::with_uri(url.as_str()).custom_headers(custom);
            let transport = StreamableHttpClientTransport::from_config(config);
            match tokio::time::timeout(timeout, handler.serve_with_lifecycle(transport, lifecycle))
                .await
            {
                Ok(Ok(service)) => (service, None),
                Ok(Err(e)) => {
                    return Err(super::http::diagnose(url, headers, timeout, init_error(&e)).await);
                }
                Err(_) => {
                    return Err(super::http::diagnose(
                        url,
                        headers,
                        timeout,
                        "handshake timed out".into(),
                    )
                    .await);
                }
            }
        }
        Target::Http {
            url,
            transport: HttpTransport::Sse,
            headers,
        } => {
            let transport = super::sse::connect(url, headers, timeout, events, &raw).await?;
            match tokio::time::timeout(timeout, handler.serve_with_lifecycle(transport, lifecycle))
                .await
            {
                Ok(Ok(service)) => (service, None),
                Ok(Err(e)) => {
                    return Err(ConnectError::Handshake {
                        reason: init_error(&e),
                        stderr: vec![],
                    });
                }
                Err(_) => {
                    return Err(ConnectError::Timeout {
                        timeout,
                        stderr: vec![],
                    });
                }
            }
        }
    };
    service
        .peer()
        .set_response_cache_config(ClientCacheConfig::disabled())
        .await;
    let server = summary(&service, opts.target.transport_name());
    let watcher = (server.era == Era::Modern)
        .then(|| watch_tool_changes(service.peer().clone(), events.clone()));
    Ok(Session {
        service,
        process,
        raw,
        server,
        timeout,
        watcher,
    })
}

/// On a modern connection, list changes arrive only through a `subscriptions/listen` stream.
fn watch_tool_changes(peer: Peer<RoleClient>, events: EventSink) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let filter: SubscriptionFilter = SubscriptionFilter::builder().tools_list_changed().build();
        let mut subscription = match peer.listen(filter).await {
            Ok(s) => s,
            Err(e) => {
                events.send(ServerEvent::Notice(format!(
                    "subscriptions/listen failed: {e}; list changes will not be seen"
                )));
                return;
            }
        };
        while let Ok(Some(notification)) = subscription.next().await {
            if matches!(
                notification,
                rmcp::model::ServerNotification::ToolListChangedNotification(_)
            ) {
                events.send(ServerEvent::ToolsChanged);
            }
        }
    })
}

fn summary(
    service: &RunningService<RoleClient, Handler>,
    transport: &'static str,
) -> ServerSummary {
    let info = service.peer().peer_info();
    let protocol_version = info
        .as_ref()
        .map(|i| i.protocol_version.to_string())
        .unwrap_or_default();
    let implementation = info.as_ref().and_then(|i| i.server_info.clone());
    ServerSummary {
        name: implementation
            .as_ref()
            .map(|s| s.name.clone())
            .unwrap_or_else(|| "(unnamed)".into()),
        title: implementation.as_ref().and_then(|s| s.title.clone()),
        version: implementation
            .as_ref()
            .map(|s| s.version.clone())
            .unwrap_or_default(),
        era: if protocol_version.as_str() >= "2026-07-28" {
            Era::Modern
        } else {
            Era::Legacy
        },
        protocol_version,
        transport,
        capabilities: info
            .as_ref()
            .and_then(|i| serde_json::to_value(&i.capabilities).ok())
            .unwrap_or(Value::Null),
        instructions: info.as_ref().and_then(|i| i.instructions.clone()),
    }
}

fn init_error(e: &ClientInitializeError) -> String {
    untrusted::line(&e.to_string(), 400).into_owned()
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or(text)
}
