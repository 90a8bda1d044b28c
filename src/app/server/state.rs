//! The connection and what the server said of itself: the target and how it was reached, the
//! connection's state, the summary from the handshake, the log level asked, the last ping, and
//! the call limits and ids, and what `--watch` keeps between starts. Plain data.

use crate::app::library::state::Kind;
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
    pub watch: Watch,
    /// How many servers the picker (`S`) would offer: none makes `S` say so and stay.
    pub servers_to_pick: usize,
    /// The protocol-conduct checks (`C`).
    pub conduct: Conduct,
    /// Lines on a stdio server's stdout that were not JSON-RPC: how many, and the first.
    pub non_json: (usize, Option<String>),
    /// The TUI watches a tapped session (`attach`): the host is the client, not mcp-inspect.
    pub attached: bool,
}

/// What `C` found of the server's protocol conduct.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Conduct {
    #[default]
    NotAsked,
    Checking,
    Found(Vec<crate::conform::Finding>),
    Failed(String),
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
            servers_to_pick: 0,
            conduct: Conduct::NotAsked,
            non_json: (0, None),
            attached: false,
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

/// What `--watch` keeps between starts.
#[derive(Debug, Default)]
pub struct Watch {
    /// Files are watched (the log and the status say restarts are automatic).
    pub on: bool,
    /// A change came while connecting: restart again once the handshake is over.
    pub pending: bool,
    /// The listings of the last start that listed, until the restarted server lists again.
    pub before: Option<Before>,
    /// Restarts so far.
    pub restarts: u32,
    /// `--rerun`: each tool's last call of the session is made again after a restart.
    pub rerun: bool,
    /// A restart's calls are yet to be made again (once its tools are listed).
    pub(super) rerun_due: bool,
    /// The calls made again, by call id: their tool, arguments and what they gave before.
    pub reruns:
        std::collections::HashMap<u64, (String, serde_json::Value, crate::suite::expect::Got)>,
    /// Tools listed at any start this session without saying a call is safe to repeat
    /// (destructive, or hints missing): `--rerun` never calls them again, whatever a later
    /// start says (invariant 12: the most cautious annotations seen win).
    pub unsafe_seen: std::collections::HashSet<String>,
}

/// The listings a restart is compared with.
#[derive(Debug)]
pub struct Before {
    /// The tools in a snapshot's form.
    pub tools: Option<std::sync::Arc<serde_json::Value>>,
    /// The library's items by kind and key, when it was listed.
    pub library: Option<std::collections::BTreeMap<(Kind, String), serde_json::Value>>,
}
