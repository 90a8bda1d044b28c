//! Turning HTTP failures into clear connection errors: refused, 401 with its challenge, 404,
//! other statuses, and endpoints that are not MCP. Header values are never echoed.

use super::error::ConnectError;
use super::target::Header;
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

/// Passes a successful response through; turns any other status into its error.
pub async fn check_status(
    url: &str,
    response: reqwest::Response,
) -> Result<reqwest::Response, ConnectError> {
    let status = response.status().as_u16();
    if response.status().is_success() {
        return Ok(response);
    }
    let challenge = response
        .headers()
        .get("www-authenticate")
        .and_then(|v| v.to_str().ok())
        .map(|c| untrusted::line(c, 300).into_owned());
    let body = response.text().await.unwrap_or_default();
    Err(match status {
        401 => ConnectError::Unauthorized {
            url: url.into(),
            challenge,
        },
        404 => ConnectError::NotFound(url.into()),
        _ => ConnectError::HttpStatus {
            url: url.into(),
            status,
            body: untrusted::line(body.trim(), 200).into_owned(),
        },
    })
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
    let mut post = reqwest::Client::new()
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
    let response = match check_status(url, response).await {
        Ok(r) => r,
        Err(e) => return e,
    };
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
