//! The connection and what the server said of itself: the target and how it was reached, the
//! connection's state, the summary from the handshake, the log level asked, the last ping, and
//! the call limits and ids. Plain data.

use crate::mcp::ServerSummary;
use std::time::Duration;

/// The session's part of the model.
pub struct Session {
    pub target: String,
    /// The connection as command-line words (`--url …` or `-- command …`), for copied commands.
    /// Header values and environment are never included.
    pub connection_args: Vec<String>,
    pub connection: Connection,
    pub server: Option<ServerSummary>,
    /// The log level asked of the server (`--log-level`, or picked with `L`).
    pub log_level: Option<&'static str>,
    /// The last ping's round trip and the method it used.
    pub last_ping: Option<(Duration, &'static str)>,
    /// The timeouts, for the countdown of a call in flight.
    pub limits: CallLimits,
    pub next_call_id: u64,
    /// `--watch`: restarts on change and what they are compared with.
    pub watch: crate::app::server::watch::Watch,
}

impl Session {
    pub fn new(target: String) -> Session {
        Session {
            target,
            connection_args: Vec::new(),
            connection: Connection::Connecting,
            server: None,
            log_level: None,
            last_ping: None,
            limits: CallLimits {
                timeout: Duration::from_secs(30),
                max_time: Duration::from_secs(600),
            },
            next_call_id: 1,
            watch: Default::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Connection {
    Connecting,
    Connected,
    /// An open connection ended (why).
    Lost(String),
    /// The connection could not be made (why).
    Failed(String),
}

/// How long a call may wait: for any sign of life (`--timeout`, restarted by progress), and in
/// all (`--max-time`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallLimits {
    pub timeout: Duration,
    pub max_time: Duration,
}
