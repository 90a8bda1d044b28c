//! The server's log level. In the legacy era it is set once with `logging/setLevel`; in the
//! 2026 era there is no session to keep it (SEP-2575), so it rides in each request's `_meta`
//! as `io.modelcontextprotocol/logLevel`.

use crate::mcp::session::Session;
use crate::mcp::session::error::RequestError;
use crate::schema::Era;
use serde_json::json;

/// The eight levels (RFC 5424's), least severe first.
pub const LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// `text` as one of [`LEVELS`] (ASCII case ignored).
pub fn parse(text: &str) -> Option<&'static str> {
    LEVELS
        .into_iter()
        .find(|level| level.eq_ignore_ascii_case(text))
}

/// How a level reaches the server in `era`, in words for the log.
pub fn how(era: Era) -> &'static str {
    match era {
        Era::Legacy => "sent as logging/setLevel",
        Era::Modern => {
            "sent in each request's _meta (2026 era, where logging is deprecated: SEP-2577)"
        }
    }
}

impl Session {
    /// The log level asked of the server, if one was.
    pub fn log_level(&self) -> Option<&'static str> {
        self.log_level.lock().ok().and_then(|l| *l)
    }

    /// Asks the server to send logs at `level` and above: at once in the legacy era
    /// (`logging/setLevel`), with every request from now on in the 2026 era.
    pub async fn set_log_level(&self, level: &'static str) -> Result<(), RequestError> {
        if self.server.era == Era::Legacy {
            self.request("logging/setLevel", Some(json!({"level": level})))
                .await?;
        }
        if let Ok(mut kept) = self.log_level.lock() {
            *kept = Some(level);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_by_name_only() {
        assert_eq!(parse("Warning"), Some("warning"));
        assert_eq!(parse("warn"), None);
        assert_eq!(parse(""), None);
    }
}
