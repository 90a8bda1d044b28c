//! What `update` asks the outside world to do, as data: the runtime carries each effect out and
//! answers with a message. Requests for the connection pass to its task unchanged. Pure.

use super::copy::Clipping;
use super::tools::entry::ToolEntry;
use crate::schema::judge::Judge;
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// For the task that owns the connection.
    Session(SessionRequest),
    Copy(Clipping),
    /// Suspend the UI and edit `text` in `$EDITOR`.
    EditExternally {
        tool: String,
        text: String,
    },
    /// Write `bytes` to a new file at `path` (or over it, when `overwrite`); answered by
    /// `Msg::Saved`.
    Save {
        path: std::path::PathBuf,
        bytes: Arc<Vec<u8>>,
        overwrite: bool,
    },
    /// Build a large tool's schema trees on a blocking thread; answered by `Msg::DetailBuilt`.
    BuildDetail(Listed),
    /// Build a large tool's call panel (form and validators) on a blocking thread; answered by
    /// `Msg::CallBuilt`.
    BuildCall(Listed),
    /// Compile a tool's arguments' validator again (its inputSchema changed while its panel
    /// was open) on a blocking thread; answered by `Msg::InputCompiled`.
    CompileInput(Listed),
    /// Keep a tool's draft and last results for the next session with this server.
    SaveCalls(crate::app::saved::state::SavedTool),
    /// Add a call and its result to a test file; answered by `Msg::TestKept`.
    KeepTest(crate::app::saved::state::KeepTest),
    /// Start the browser on an authorization URL; answered by `Msg::BrowserOpened`.
    OpenInBrowser(String),
    /// The address the browser ended at, pasted for the OAuth flow (empty: cancel it).
    PasteRedirect(String),
    /// Whether each of the roots form's entries is a directory (a `stat` each, off the UI
    /// thread: a path on a hung mount may take its time); answered by `Msg::RootsChecked`.
    CheckRoots(Vec<String>),
    /// A feature's word for another feature. `update` routes every handoff before it returns,
    /// so the runtime never sees one and no feature calls another's `update`.
    Handoff(Handoff),
}

/// What one feature hands to another, through `update`'s router.
#[derive(Debug, Clone, PartialEq)]
pub enum Handoff {
    /// Read the resource a call's result links to (the call panel to the library).
    ReadLink(String),
    /// The TUI's own form was answered (the request panel to the feature that opened it).
    OwnFormAnswered {
        form: crate::app::asked::state::OwnForm,
        answer: Result<serde_json::Value, String>,
    },
}

/// A value built off the UI thread, handed over once (a message may be cloned; the value not).
pub struct Handed<T>(Arc<std::sync::Mutex<Option<T>>>);

impl<T> Handed<T> {
    pub fn new(value: T) -> Handed<T> {
        Handed(Arc::new(std::sync::Mutex::new(Some(value))))
    }

    /// The value, the first time it is asked for.
    pub fn take(&self) -> Option<T> {
        self.0.lock().ok()?.take()
    }
}

impl<T> Clone for Handed<T> {
    fn clone(&self) -> Self {
        Handed(Arc::clone(&self.0))
    }
}

impl<T> std::fmt::Debug for Handed<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Handed")
    }
}

/// A listed tool, compared by identity: the same entry of the same listing.
#[derive(Debug, Clone)]
pub struct Listed(pub Arc<ToolEntry>);

impl PartialEq for Listed {
    fn eq(&self, other: &Listed) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Listed {}

/// What the connection task is asked to do; answers come back as messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionRequest {
    ListTools,
    /// The server's resources, templates and prompts (those it declares).
    ListLibrary,
    /// Read a resource or get a prompt.
    Open(crate::app::library::state::Open),
    /// `completion/complete` for a prompt argument or a template variable.
    Complete(crate::mcp::session::requests::Completion),
    Reconnect,
    /// Subscribe to a resource (`on`), or end the subscription.
    Subscribe {
        uri: String,
        on: bool,
    },
    /// A round trip, timed.
    Ping,
    /// The protocol-conduct checks (see [`crate::conform`]), with what the session has seen
    /// on the server's stdout so far; told by `Msg::Conformed`.
    Conform(crate::conform::Seen),
    /// Any request the user composed in the protocol pane; answered by `Msg::Answered`.
    Any {
        method: String,
        params: Option<serde_json::Value>,
    },
    /// Ask the server for logs at this level and above (kept for later connections too).
    SetLogLevel(&'static str),
    /// Verify a tool (see [`crate::verify::run`]) from a fresh seed; told by `Msg::Trial`.
    Verify {
        /// The run's id, carried back by what is told of it.
        run: u64,
        tool: Listed,
        /// The call panel's judge of the tool's results, when it is open (else compiled for
        /// the run, on the connection task).
        output: Option<Arc<Judge>>,
        settings: crate::verify::run::Settings,
    },
    /// Call a tool from `callers` at once for `seconds`, sampled; told by `Msg::Trial`.
    Load {
        run: u64,
        tool: Listed,
        /// As for `Verify`.
        output: Option<Arc<Judge>>,
        arguments: serde_json::Value,
        callers: usize,
        duration: std::time::Duration,
    },
    /// End the verify or load run going on.
    StopTrial,
    /// Hand the server these roots (directories or `file://` URIs) and tell it; answered by
    /// `Msg::RootsSet`.
    SetRoots(Vec<String>),
    Call {
        tool: String,
        id: u64,
        arguments: serde_json::Value,
        /// What the result is judged against, by the connection task.
        output: Option<Arc<Judge>>,
        /// Called as a task (the tool's `execution.taskSupport` is `required`).
        as_task: bool,
    },
    Cancel {
        id: u64,
    },
    /// Judge results kept from an earlier session again (the schema may have changed);
    /// answered by `Msg::Restored`.
    Rejudge {
        tool: String,
        output: Option<Arc<Judge>>,
        calls: Vec<crate::app::saved::state::SavedCall>,
    },
    /// The user's answer to request `id` the server put to them (see `ServerEvent::Asked`).
    Answer {
        id: u64,
        result: Result<serde_json::Value, String>,
    },
}

impl SessionRequest {
    /// What the request is, in a word or two (for a log line).
    pub fn name(&self) -> &'static str {
        match self {
            SessionRequest::ListTools => "the tools' listing",
            SessionRequest::ListLibrary => "the library's listing",
            SessionRequest::Open(_) => "an open",
            SessionRequest::Complete(_) => "a completion",
            SessionRequest::Reconnect => "a reconnect",
            SessionRequest::Subscribe { .. } => "a subscription",
            SessionRequest::Ping => "a ping",
            SessionRequest::Conform(_) => "the conduct checks",
            SessionRequest::Any { .. } => "a request",
            SessionRequest::SetLogLevel(_) => "the log level",
            SessionRequest::Verify { .. } => "a verify run",
            SessionRequest::Load { .. } => "a load run",
            SessionRequest::StopTrial => "a stop",
            SessionRequest::SetRoots(_) => "the roots",
            SessionRequest::Call { .. } => "a call",
            SessionRequest::Cancel { .. } => "a cancel",
            SessionRequest::Rejudge { .. } => "a re-judgement",
            SessionRequest::Answer { .. } => "an answer to the server",
        }
    }
}
