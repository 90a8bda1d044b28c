//! Turning HTTP failures into clear connection errors: refused, 401 with its challenge, 404,
//! other statuses, redirects, and endpoints that are not MCP. Header values are never echoed;
//! bodies are read bounded in bytes and time; redirects never leave the origin the user named.

use crate::config::target::Header;
use crate::mcp::session::error::ConnectError;
use crate::untrusted;
use std::time::Duration;

/// A transport-level reqwest error in words, without the URL's query or any header.
pub fn describe(e: &reqwest::Error) -> String {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    let mut deepest = e.to_string();
    while let Some(s) = source {
        deepest = s.to_string();
        source = s.source();
    }
    untrusted::line(&deepest, 300).into_owned()
}

pub fn request_error(url: &str, e: &reqwest::Error) -> ConnectError {
    let text = describe(e);
    if e.is_connect() && text.to_lowercase().contains("refused") {
        ConnectError::Refused(url.to_string())
    } else {
        ConnectError::Unreachable {
            url: url.to_string(),
            reason: text,
        }
    }
}

/// Most of an error body kept for the message; the rest is never read.
const MAX_ERROR_BODY: usize = 8 * 1024;
/// Redirects followed (same origin only) before a request fails.
const MAX_REDIRECTS: usize = 5;

/// The HTTP client for the requests we make ourselves beside Streamable HTTP (legacy SSE, the
/// diagnosis); see [`client_keeping`].
pub fn client() -> reqwest::Client {
    client_keeping(usize::MAX)
}

/// The HTTP client for every request we make ourselves: it follows
/// a redirect only within the origin the user named and only when the method and body are kept
/// (307/308), so neither the user's headers nor the message ever reach a host they did not name.
/// Any other redirect comes back as the 3xx response, which [`check_status`] turns into an
/// error naming both URLs. (rmcp's Streamable HTTP client has the same policy built in.)
///
/// `idle_connections`: connections kept open per host between requests. Streamable HTTP keeps
/// none (as rmcp's own client): a connection kept to a server that restarted fails the next
/// POST outright ("connection closed before message completed").
pub fn client_keeping(idle_connections: usize) -> reqwest::Client {
    tls_crypto_installed();
    let policy = reqwest::redirect::Policy::custom(|attempt| {
        let keeps_body = matches!(attempt.status().as_u16(), 307 | 308);
        let same_origin = attempt
            .previous()
            .first()
            .is_some_and(|first| first.origin() == attempt.url().origin());
        if !keeps_body || !same_origin {
            attempt.stop()
        } else if attempt.previous().len() > MAX_REDIRECTS {
            attempt.error(format!("more than {MAX_REDIRECTS} redirects"))
        } else {
            attempt.follow()
        }
    });
    reqwest::Client::builder()
        .redirect(policy)
        .pool_max_idle_per_host(idle_connections)
        .build()
        .unwrap_or_default()
}

/// Installs ring as the process's TLS crypto (once): reqwest is built without a provider of its
/// own (Cargo.toml says why) and panics when it builds a client with none installed. Called
/// before any client is built, ours or rmcp's OAuth manager's.
pub fn tls_crypto_installed() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Err only when another provider is already the default, which serves as well.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// Reads at most `max` bytes of a body, for at most `limit`: a body that never ends, or that
/// drips, costs neither memory nor more than the user's timeout. Returns the text and whether
/// it was cut.
pub async fn bounded_body(
    mut response: reqwest::Response,
    max: usize,
    limit: Duration,
) -> (String, bool) {
    let mut body = Vec::new();
    let deadline = tokio::time::Instant::now() + limit;
    let cut = loop {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Ok(Ok(Some(chunk))) => {
                let room = max - body.len();
                body.extend_from_slice(&chunk[..chunk.len().min(room)]);
                if chunk.len() >= room {
                    break true;
                }
            }
            Ok(Ok(None)) => break false,
            Ok(Err(_)) | Err(_) => break true,
        }
    };
    (String::from_utf8_lossy(&body).into_owned(), cut)
}

/// Passes a successful response through; turns any other status into its error. The error
/// names the URL that answered, and reads at most [`MAX_ERROR_BODY`] bytes of the body within
/// `limit`.
pub async fn check_status(
    response: reqwest::Response,
    limit: Duration,
) -> Result<reqwest::Response, ConnectError> {
    let status = response.status().as_u16();
    if response.status().is_success() {
        return Ok(response);
    }
    let url = response.url().to_string();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(|c| untrusted::line(c, 300).into_owned())
    };
    let challenge = header("www-authenticate");
    if response.status().is_redirection() {
        return Err(ConnectError::Redirected {
            from: url,
            status,
            to: header("location").unwrap_or_else(|| "(no Location)".into()),
        });
    }
    let (body, cut) = bounded_body(response, MAX_ERROR_BODY, limit).await;
    let mut body = body_in_words(&body);
    if cut && !body.is_empty() && !looks_like_html(&body) {
        body.push_str(" … (body not read to its end)");
    }
    Err(match status {
        401 => ConnectError::Unauthorized { url, challenge },
        404 => ConnectError::NotFound(url),
        _ => ConnectError::HttpStatus { url, status, body },
    })
}

/// An error response's body as one line a person reads: a web page by its title (a URL that
/// is not an MCP endpoint answers with one), anything else with its white space folded.
pub fn body_in_words(body: &str) -> String {
    if looks_like_html(body) {
        let lower = body.to_ascii_lowercase();
        let between = |open: &str, close: &str| {
            let start = lower.find(open)? + open.len();
            let start = start + lower[start..].find('>')? + 1;
            let end = start + lower[start..].find(close)?;
            Some(body[start..end].to_string())
        };
        let title = between("<title", "</title>").or_else(|| between("<h1", "</h1>"));
        let title = title
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|t| !t.is_empty())
            .map(|t| format!(" titled \"{}\"", untrusted::line(&t, 100)))
            .unwrap_or_default();
        return format!("an HTML page{title}, not an MCP endpoint");
    }
    let folded = body.split_whitespace().collect::<Vec<_>>().join(" ");
    untrusted::line(&folded, 200).into_owned()
}

fn looks_like_html(body: &str) -> bool {
    let start = body.trim_start().get(..15).unwrap_or(body.trim_start());
    let start = start.to_ascii_lowercase();
    start.starts_with("<!doctype html") || start.starts_with("<html")
}

/// After rmcp fails to connect over Streamable HTTP, asks the endpoint directly what is wrong
/// with a plain `initialize` POST, so the user gets a specific reason.
pub async fn diagnose(
    url: &str,
    headers: &[Header],
    timeout: Duration,
    fallback: String,
) -> ConnectError {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "mcp-inspect", "version": env!("CARGO_PKG_VERSION")}}});
    let mut post = client()
        .post(url)
        .header("Accept", "application/json, text/event-stream")
        .timeout(timeout)
        .json(&body);
    for h in headers {
        post = post.header(&h.name, &h.value);
    }
    let response = match post.send().await {
        Ok(r) => r,
        Err(e) if e.is_timeout() => {
            return ConnectError::Timeout {
                timeout,
                stderr: Vec::new(),
            };
        }
        Err(e) => return request_error(url, &e),
    };
    let response = match check_status(response, timeout).await {
        Ok(r) => r,
        Err(e) => return e,
    };
    // Our `initialize` may have opened an HTTP session: end it, so asking what went wrong
    // leaves nothing behind on the server (the spec's DELETE with the session id).
    if let Some(session) = response.headers().get("mcp-session-id").cloned() {
        end_session(url, headers, session, timeout).await;
    }
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    if !content_type.starts_with("application/json")
        && !content_type.starts_with("text/event-stream")
    {
        return ConnectError::NotMcp(format!(
            "{url} answered an MCP initialize with `{}`, not JSON or an event stream",
            untrusted::line(&content_type, 80)
        ));
    }
    ConnectError::Handshake {
        reason: fallback,
        stderr: Vec::new(),
    }
}

/// Ends an HTTP session with a DELETE carrying its id and the user's headers, bounded by
/// `timeout`. The answer does not matter: a server may refuse (405) to let clients end sessions.
async fn end_session(
    url: &str,
    headers: &[Header],
    session: reqwest::header::HeaderValue,
    timeout: Duration,
) {
    let mut delete = client()
        .delete(url)
        .header("mcp-session-id", session)
        .timeout(timeout);
    for h in headers {
        delete = delete.header(&h.name, &h.value);
    }
    let _ = delete.send().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The client reaches a TLS handshake with the ring provider (reqwest has none of its own and
    /// would panic): a local listener that answers garbage fails as a TLS error in words.
    #[tokio::test]
    async fn https_uses_the_installed_crypto_and_fails_in_words() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let port = listener.local_addr().expect("addr").port();
        tokio::spawn(async move {
            if let Ok((mut socket, _)) = listener.accept().await {
                use tokio::io::AsyncWriteExt;
                let _ = socket.write_all(b"HTTP/1.1 200 OK\r\n\r\nnot tls").await;
            }
        });
        let url = format!("https://127.0.0.1:{port}/mcp");
        let error = client().get(&url).send().await.expect_err("not TLS");
        assert!(rustls::crypto::CryptoProvider::get_default().is_some());
        let words = describe(&error).to_lowercase();
        assert!(words.contains("corrupt message"), "a rustls error: {words}");
    }

    #[test]
    fn an_html_error_page_is_named_by_its_title() {
        let page = "<!DOCTYPE HTML>\n<html>\n<head><title>Error\n response</title></head>\n<body><h1>Nope</h1></body></html>";
        assert_eq!(
            body_in_words(page),
            "an HTML page titled \"Error response\", not an MCP endpoint"
        );
        assert_eq!(
            body_in_words("<html><body><H1>Welcome to nginx!</H1></body></html>"),
            "an HTML page titled \"Welcome to nginx!\", not an MCP endpoint"
        );
        assert_eq!(body_in_words("not\n  found\n"), "not found");
        // A hostile page's title is escaped like any server text.
        let said = body_in_words("<!doctype html><title>\u{1b}]0;pwned\u{7}x</title>");
        assert!(
            !said.contains('\u{1b}') && !said.contains('\u{7}'),
            "{said}"
        );
    }
}
