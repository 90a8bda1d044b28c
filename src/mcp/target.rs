//! Where a server is and how to reach it: a stdio command, or an HTTP URL (Streamable HTTP or
//! legacy SSE), with headers whose values are secret. Pure.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// The two HTTP transports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpTransport {
    Streamable,
    /// The legacy HTTP+SSE transport: GET a stream, read its `endpoint` event, POST there.
    Sse,
}

/// An HTTP header whose value never appears in logs, errors or copies.
#[derive(Clone, PartialEq, Eq)]
pub struct Header {
    pub name: String,
    pub value: String,
}

impl fmt::Debug for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: <redacted>", self.name)
    }
}

impl Header {
    /// Parses `Name: value`.
    pub fn parse(text: &str) -> Result<Header, String> {
        let (name, value) = text
            .split_once(':')
            .ok_or_else(|| format!("header `{}` is not `Name: value`", redact_after_colon(text)))?;
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err("header name is empty or has spaces".into());
        }
        Ok(Header {
            name: name.to_string(),
            value: value.trim().to_string(),
        })
    }
}

/// Never echo a header value back, even in a parse error.
fn redact_after_colon(text: &str) -> String {
    match text.split_once(':') {
        Some((name, _)) => format!("{name}: <redacted>"),
        None if text.len() > 40 => "<redacted>".into(),
        None => text.into(),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Stdio {
        command: String,
        args: Vec<String>,
        env: Vec<(String, String)>,
        cwd: Option<PathBuf>,
    },
    Http {
        url: String,
        transport: HttpTransport,
        headers: Vec<Header>,
    },
}

impl Target {
    /// A short description for messages: the command line or the URL (never header values).
    pub fn describe(&self) -> String {
        match self {
            Target::Stdio { command, args, .. } => {
                let mut s = command.clone();
                for a in args {
                    s.push(' ');
                    s.push_str(a);
                }
                s
            }
            Target::Http { url, .. } => url.clone(),
        }
    }

    pub fn transport_name(&self) -> &'static str {
        match self {
            Target::Stdio { .. } => "stdio",
            Target::Http {
                transport: HttpTransport::Streamable,
                ..
            } => "streamable-http",
            Target::Http {
                transport: HttpTransport::Sse,
                ..
            } => "sse",
        }
    }
}

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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_parse_and_never_print_their_value() {
        let h = Header::parse("Authorization: Bearer s3cret").expect("header");
        assert_eq!(
            (h.name.as_str(), h.value.as_str()),
            ("Authorization", "Bearer s3cret")
        );
        assert_eq!(format!("{h:?}"), "Authorization: <redacted>");
        assert!(Header::parse("no colon here").is_err());
        let err = Header::parse("Bad Name: s3cret").expect_err("space in name");
        assert!(!err.contains("s3cret"));
    }
}
