//! Connection and request failures as one-line messages a person can act on (their exit codes
//! are chosen in `headless/exit.rs`). Header values never appear here.

use std::time::Duration;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum ConnectError {
    #[error("command not found: `{0}` (is it installed and on PATH?)")]
    CommandNotFound(String),
    #[error("cannot start `{command}`: {reason}")]
    Spawn { command: String, reason: String },
    #[error("the server exited during the handshake ({status}){}", tail(.stderr))]
    ExitedDuringHandshake { status: String, stderr: Vec<String> },
    #[error("connection refused: nothing is listening at {0}")]
    Refused(String),
    #[error("cannot reach {url}: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("HTTP 401 Unauthorized from {url}{}; give a token with --bearer-env VAR or --header 'Authorization: …' (a token given was refused; without one, mcp-inspect runs OAuth where the server publishes its metadata)", challenge.as_deref().map(|c| format!(" (WWW-Authenticate: {c})")).unwrap_or_default())]
    Unauthorized {
        url: String,
        challenge: Option<String>,
    },
    #[error(
        "HTTP 401 Unauthorized from {url}: it needs OAuth authorization, which needs a browser: run `mcp-inspect --url {url}` once (the TUI keeps the token) or add --interactive-auth; or give a token with --bearer-env VAR"
    )]
    AuthorizationNeeded { url: String },
    #[error(
        "OAuth authorization for {url} failed: {reason} (a server that wants a token given some other way: --bearer-env VAR)"
    )]
    AuthorizationFailed { url: String, reason: String },
    #[error(
        "HTTP 404 Not Found: no MCP endpoint at {0} (Streamable HTTP servers usually serve /mcp, legacy SSE /sse)"
    )]
    NotFound(String),
    #[error("HTTP {status} from {url}{}", if body.is_empty() { String::new() } else { format!(": {body}") })]
    HttpStatus {
        url: String,
        status: u16,
        body: String,
    },
    #[error(
        "HTTP {status} from {from}: redirected to {to}, not followed (only same-origin 307/308 redirects are: the user's headers never go to a host they did not name)"
    )]
    Redirected {
        from: String,
        status: u16,
        to: String,
    },
    #[error(
        "{url} named its message endpoint {endpoint}, on another origin: refused (the user's headers and messages never go to a host they did not name)"
    )]
    CrossOriginEndpoint { url: String, endpoint: String },
    #[error("not an MCP server: {0}")]
    NotMcp(String),
    #[error("no answer to the handshake within {}s{}", .timeout.as_secs_f32(), tail(.stderr))]
    Timeout {
        timeout: Duration,
        stderr: Vec<String>,
    },
    #[error("handshake failed: {reason}{}", tail(.stderr))]
    Handshake { reason: String, stderr: Vec<String> },
}

impl ConnectError {
    /// Whether a fresh attempt with the legacy `initialize` handshake could succeed.
    pub fn may_be_era_mismatch(&self) -> bool {
        matches!(
            self,
            ConnectError::Handshake { .. }
                | ConnectError::ExitedDuringHandshake { .. }
                | ConnectError::NotMcp(_)
                | ConnectError::HttpStatus {
                    status: 400..=499,
                    ..
                }
                | ConnectError::Timeout { .. }
        )
    }
}

/// The stderr tail appended to a message, when there is one.
fn tail(lines: &[String]) -> String {
    if lines.is_empty() {
        String::new()
    } else {
        format!("; server stderr (last lines):\n  {}", lines.join("\n  "))
    }
}

#[derive(Debug, Error, Clone, PartialEq)]
pub enum RequestError {
    #[error("the server answered with error {code}: {message}")]
    Server {
        code: i64,
        message: String,
        data: Option<serde_json::Value>,
    },
    #[error("no answer within {}s (timeout; raise it with --timeout)", .0.as_secs_f32())]
    Timeout(Duration),
    /// A tool call still running at its time limit, however much progress it reported.
    #[error("still running after {}s in all, the call's time limit (raise it with --max-time)", .0.as_secs_f32())]
    TooLong(Duration),
    #[error("cancelled")]
    Cancelled,
    #[error("the connection closed{}", tail(.0))]
    Closed(Vec<String>),
    #[error("malformed answer: {0}")]
    Malformed(String),
    /// The server asked for input (SEP-2322) that could not be given.
    #[error("input required: {0}")]
    InputRequired(String),
    /// The server did not take what was asked (said in full).
    #[error("{0}")]
    Refused(String),
    /// The answer arrived but could not be taken (too big, nested too deep): said in full.
    #[error("{0}")]
    Unreadable(String),
}

/// -32042 (2025-11-25, elicitation): the server needs the user to open a URL before the request
/// can be made.
const URL_ELICITATION_REQUIRED: i64 = -32042;

impl RequestError {
    /// Why the request waits on a person rather than failing (a URL elicitation to complete
    /// first), if it does: such an answer is not judged, by `verify` or by `load`.
    pub fn needs_a_person(&self) -> Option<&'static str> {
        match self {
            RequestError::Server {
                code: URL_ELICITATION_REQUIRED,
                ..
            } => Some("the server needs a person to complete a URL elicitation first (-32042)"),
            _ => None,
        }
    }
}
