//! Reaching a server: the transport for its target, the handshake in the era asked for (probing
//! `server/discover` and falling back to `initialize`; each transport's handshake is in
//! `handshake.rs`), and what it says about itself.

use crate::mcp::oauth::{AuthFailure, Authorizer};
use crate::mcp::session::error::ConnectError;
use crate::mcp::session::events::{EventSink, ServerEvent};
use crate::mcp::session::handler::Handler;
use crate::mcp::session::handshake::{Handshake, Service};
use crate::mcp::transport::raw::RawResponses;

use crate::config::target::{HttpTransport, Target};
use crate::mcp::session::Subscriptions;
use crate::mcp::session::options::{ConnectOptions, ProtocolChoice};
use crate::mcp::session::subscriptions;
use crate::mcp::session::{ServerSummary, Session};
use crate::mcp::transport::wire::Tap;
use crate::schema::Era;
use rmcp::model::ProtocolVersion;
use rmcp::{ClientCacheConfig, ClientLifecycleMode};
use serde_json::Value;
use std::sync::Arc;
use std::time::Instant;

/// Connects, speaking the era asked for; `auto` retries a failed probe with `initialize`.
/// `--timeout` bounds the whole wait the user sees: the probe, the fallback and any diagnosis
/// share one deadline, so a silent server costs the timeout once, not once per attempt.
/// A 401 from a Streamable HTTP server (that was not given an `Authorization` of the user's)
/// runs OAuth outside that deadline, then connects again with the token.
pub async fn connect(opts: &ConnectOptions, events: &EventSink) -> Result<Session, ConnectError> {
    let auth = match &opts.target {
        Target::Http {
            url,
            transport: HttpTransport::Streamable,
            headers,
        } if !headers
            .iter()
            .any(|h| h.name.eq_ignore_ascii_case("authorization")) =>
        {
            Some(Authorizer::new(url, opts.auth.clone(), events).await)
        }
        _ => None,
    };
    let first = connect_in_era(opts, events, auth.as_ref()).await;
    let challenged = auth.as_ref().and_then(|a| a.take_challenge());
    let session = match (first, &auth) {
        (Err(e), Some(authorizer))
            if challenged.is_some() || matches!(e, ConnectError::Unauthorized { .. }) =>
        {
            let (url, challenge) = match e {
                ConnectError::Unauthorized { url, challenge } => (url, challenge.or(challenged)),
                _ => (opts.target.describe(), challenged),
            };
            match authorizer.before_connecting(challenge.as_deref()).await {
                Ok(()) => connect_in_era(opts, events, auth.as_ref()).await,
                Err(AuthFailure::NeedsUser) => Err(ConnectError::AuthorizationNeeded { url }),
                Err(AuthFailure::NoOAuth) => Err(ConnectError::Unauthorized { url, challenge }),
                Err(AuthFailure::Failed(reason)) => {
                    Err(ConnectError::AuthorizationFailed { url, reason })
                }
            }
        }
        (other, _) => other,
    }?;
    if let Some(authorizer) = &auth {
        authorizer.connected();
    }
    Ok(session)
}

async fn connect_in_era(
    opts: &ConnectOptions,
    events: &EventSink,
    auth: Option<&Arc<Authorizer>>,
) -> Result<Session, ConnectError> {
    let deadline = Instant::now() + opts.timeout;
    match opts.protocol {
        ProtocolChoice::Legacy => attempt(opts, events, auth, Attempt::Initialize, deadline).await,
        ProtocolChoice::Modern => attempt(opts, events, auth, Attempt::Discover, deadline).await,
        ProtocolChoice::Auto => match attempt(opts, events, auth, Attempt::Auto, deadline).await {
            // Out of time: a second attempt could only overrun the user's bound. A 401 is
            // not the era: authorization comes first.
            Err(e)
                if e.may_be_era_mismatch()
                    && Instant::now() < deadline
                    && !auth.is_some_and(|a| a.challenged()) =>
            {
                // A server of the older era may exit on a method it does not know: it is
                // started again for `initialize`, and the user told why it starts twice.
                let again = match (&e, &opts.target) {
                    (ConnectError::ExitedDuringHandshake { .. }, Target::Stdio { .. }) => {
                        "starting it again to try initialize (an older server may exit on a \
                         method it does not know)"
                    }
                    _ => "retrying with initialize",
                };
                let retried = attempt(opts, events, auth, Attempt::Initialize, deadline).await;
                // Said after the second try: a server that fails the same way twice is told
                // once, by the error (not a warning that reads like a second problem).
                let told = match &retried {
                    Err(second) if second.to_string() == e.to_string() => None,
                    Ok(_) => Some(format!("{again}: initialize was answered")),
                    Err(_) => Some(again.to_string()),
                };
                if let Some(told) = told {
                    events.send(ServerEvent::Notice(format!(
                        "server/discover probe failed ({}); {told}",
                        first_line(&e.to_string())
                    )));
                }
                retried
            }
            other => other,
        },
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
    auth: Option<&Arc<Authorizer>>,
    kind: Attempt,
    deadline: Instant,
) -> Result<Session, ConnectError> {
    let tap = Tap {
        recorder: opts.record.clone(),
        log: opts.wire.clone(),
    };
    let raw = RawResponses::default().tapped(tap.clone());
    let raw = match &opts.target {
        Target::Http {
            transport: HttpTransport::Streamable,
            ..
        } => raw.tool_lists_read_typed(),
        _ => raw,
    };
    let handler = Handler {
        events: events.clone(),
        client: std::sync::Arc::new(opts.client.clone()),
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
    let handshake = Handshake {
        opts,
        events,
        auth,
        raw: &raw,
        handler,
        lifecycle,
        deadline,
    };
    let (service, process) = handshake.run().await?;
    service
        .peer()
        .set_response_cache_config(ClientCacheConfig::disabled())
        .await;
    let mut server = summary(&service, opts.target.transport_name());
    server.client_capabilities = opts.client.capabilities();
    server.roots = opts.client.roots.as_ref().map(|r| r.get());
    if let Some(sent) = raw.handshake_result() {
        with_what_was_sent(&mut server, &sent);
    }
    let left = deadline.saturating_duration_since(Instant::now());
    let subscriptions = listen_for_changes(&service, &server, events, left).await;
    let session = Session {
        service,
        process,
        raw,
        server,
        timeout,
        max_time: opts.max_time,
        log_level: std::sync::Mutex::default(),
        subscriptions: tokio::sync::Mutex::new(subscriptions),
        events: events.clone(),
    };
    if let Some(level) = opts.log_level
        && let Err(e) = session.set_log_level(level).await
    {
        // A server that refuses the level is still worth inspecting: said, not fatal.
        events.send(ServerEvent::Notice(format!("--log-level {level}: {e}")));
    }
    Ok(session)
}

/// On a modern connection, list changes arrive only on a `subscriptions/listen` stream. It is
/// acknowledged before the session is handed out (within what is left of the connect deadline),
/// so a change made right after connecting is never missed. A server that declares no list
/// changes is not asked (many 2026 servers do not serve the method).
async fn listen_for_changes(
    service: &Service,
    server: &ServerSummary,
    events: &EventSink,
    left: std::time::Duration,
) -> Subscriptions {
    let mut subscriptions = Subscriptions::default();
    let changes = [
        "/tools/listChanged",
        "/prompts/listChanged",
        "/resources/listChanged",
    ];
    let announces = changes
        .iter()
        .any(|c| server.capabilities.pointer(c) == Some(&Value::Bool(true)));
    if server.era == Era::Modern && announces {
        match subscriptions::listen(service.peer(), events, &Default::default(), left).await {
            Ok((stream, _)) => subscriptions.stream = Some(stream),
            Err(why) => events.send(ServerEvent::Notice(format!(
                "subscriptions/listen failed: {why}; list changes will not be seen"
            ))),
        }
    }
    subscriptions
}

fn summary(service: &Service, transport: &'static str) -> ServerSummary {
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
        era: Era::of(&protocol_version),
        protocol_version,
        transport,
        capabilities: info
            .as_ref()
            .and_then(|i| serde_json::to_value(&i.capabilities).ok())
            .unwrap_or(Value::Null),
        instructions: info.as_ref().and_then(|i| i.instructions.clone()),
        client_capabilities: Value::Null,
        roots: None,
        extras: Value::Null,
    }
}

/// The handshake's result as sent, where rmcp's types drop what they do not know: the
/// capabilities object whole (a capability this client has no name for is still shown), and
/// the rest kept as [`ServerSummary::extras`].
fn with_what_was_sent(server: &mut ServerSummary, sent: &Value) {
    if let Some(capabilities) = sent.get("capabilities").filter(|c| c.is_object()) {
        server.capabilities = capabilities.clone();
    }
    const READ: [&str; 4] = [
        "protocolVersion",
        "capabilities",
        "serverInfo",
        "instructions",
    ];
    let mut extras = serde_json::Map::new();
    if let Some(info) = sent.get("serverInfo").and_then(Value::as_object) {
        let more: serde_json::Map<String, Value> = info
            .iter()
            .filter(|(k, _)| !["name", "title", "version"].contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !more.is_empty() {
            extras.insert("serverInfo".into(), Value::Object(more));
        }
    }
    if let Some(result) = sent.as_object() {
        for (key, value) in result.iter().filter(|(k, _)| !READ.contains(&k.as_str())) {
            extras.insert(key.clone(), value.clone());
        }
    }
    if !extras.is_empty() {
        server.extras = Value::Object(extras);
    }
}

impl ServerSummary {
    /// A handshake seen rather than made (a tapped session): its result as the server sent it.
    pub fn of_sent(result: &Value, transport: &'static str) -> ServerSummary {
        let text = |value: &Value| value.as_str().map(String::from);
        let info = &result["serverInfo"];
        let protocol_version = text(&result["protocolVersion"]).unwrap_or_default();
        let mut server = ServerSummary {
            name: text(&info["name"]).unwrap_or_else(|| "(unnamed)".into()),
            title: text(&info["title"]),
            version: text(&info["version"]).unwrap_or_default(),
            era: Era::of(&protocol_version),
            protocol_version,
            transport,
            capabilities: Value::Null,
            instructions: text(&result["instructions"]),
            client_capabilities: Value::Null,
            roots: None,
            extras: Value::Null,
        };
        with_what_was_sent(&mut server, result);
        server
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or(text)
}
