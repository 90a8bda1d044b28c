//! Where a server is and how to reach it: a stdio command, or an HTTP URL (Streamable HTTP or
//! legacy SSE), with headers whose values are secret. Pure.

use std::fmt;
use std::path::PathBuf;

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
    /// Parses `Name: value`. A malformed header is never echoed: with the colon missing, the
    /// whole text may be the secret (`Authorization Bearer …`).
    pub fn parse(text: &str) -> Result<Header, String> {
        let (name, value) = text.split_once(':').ok_or(
            "a --header is not `Name: value` (its text is not shown: it may hold a secret)",
        )?;
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err("a --header name is empty or has spaces (its value is not shown)".into());
        }
        Ok(Header {
            name: name.to_string(),
            value: value.trim().to_string(),
        })
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
    /// The connection as command-line words (`--url …` or `-- command …`), for commands a
    /// user copies. Header values and environment are never included.
    pub fn words(&self) -> Vec<String> {
        match self {
            Target::Stdio { command, args, .. } => std::iter::once("--".to_string())
                .chain(std::iter::once(command.clone()))
                .chain(args.iter().cloned())
                .collect(),
            Target::Http { url, transport, .. } => {
                let mut words = vec!["--url".to_string(), url.clone()];
                if *transport == HttpTransport::Sse {
                    words.extend(["--transport".to_string(), "sse".to_string()]);
                }
                words
            }
        }
    }

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

    /// Registers every secret this target carries (header values, environment values, a
    /// password in the URL) so that no output, log or copy shows them.
    pub fn register_secrets(&self) {
        match self {
            Target::Stdio { env, .. } => {
                for (_, value) in env {
                    crate::secrets::register(value);
                }
            }
            Target::Http { url, headers, .. } => {
                for h in headers {
                    crate::secrets::register(&h.value);
                }
                // The URL's user and password are sent as `Authorization: Basic …` (decoded,
                // then base64): every such form is a secret, not only the password as written.
                if let Some(parsed) = reqwest::Url::parse(url).ok()
                    && let Some(password) = parsed.password()
                {
                    crate::secrets::register(password);
                    crate::secrets::register_basic(
                        &percent_decoded(parsed.username()),
                        &percent_decoded(password),
                    );
                }
            }
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

/// A URL component with its `%XX` escapes decoded (as an HTTP client does for userinfo).
fn percent_decoded(component: &str) -> String {
    let bytes = component.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
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
        let err = Header::parse("Authorization Bearer s3cret").expect_err("no colon");
        assert!(!err.contains("s3cret") && !err.contains("Bearer"), "{err}");
        let err = Header::parse("Bad Name: s3cret").expect_err("space in name");
        assert!(!err.contains("s3cret"));
    }
}
