//! Everything a connection is made with: the target, the protocol era, the timeouts, what the
//! client declares, where messages are recorded and tapped, and how OAuth may run.

use crate::config::target::Target;
use std::time::Duration;

/// Which protocol era to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ProtocolChoice {
    /// Probe with `server/discover` (2026-07-28), fall back to `initialize` on any error.
    #[default]
    Auto,
    Modern,
    Legacy,
}

/// Everything needed to connect.
#[derive(Debug, Clone)]
pub struct ConnectOptions {
    pub target: Target,
    pub protocol: ProtocolChoice,
    /// Per-request timeout (reset by progress on tool calls).
    pub timeout: Duration,
    /// How long a tool call may take in all, whatever progress it reports (`--max-time`).
    pub max_time: Duration,
    /// The log level to ask of the server once connected (`--log-level`).
    pub log_level: Option<&'static str>,
    /// What this client declares and how it answers the server's requests.
    pub client: crate::mcp::session::client_side::ClientSide,
    /// Where every message of the session is written (`--record`).
    pub record: Option<std::sync::Arc<crate::mcp::transport::record::Recorder>>,
    /// Where every message is put for the protocol pane (the TUI sets it).
    pub wire: Option<crate::mcp::transport::wire::WireLog>,
    /// How to authorize when a Streamable HTTP server asks for OAuth.
    pub auth: crate::mcp::oauth::AuthOptions,
}
