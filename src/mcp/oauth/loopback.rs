//! The redirect's end on this machine: a listener on 127.0.0.1 (RFC 8252 loopback redirect) that
//! waits for the browser to bring back `/callback?code=…&state=…`. Anything can connect to it, so
//! each request is read bounded in bytes and time, and only a GET of the callback path counts.

use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// The path the authorization server redirects to.
pub const PATH: &str = "/callback";
/// Bytes of a request read at most (its request line is all that matters).
const MAX_REQUEST: usize = 16 * 1024;
/// How long one connection may take to send its request line.
const READ_LIMIT: Duration = Duration::from_secs(5);

const DONE_PAGE: &str = "<!doctype html><meta charset=utf-8><title>mcp-inspect</title>\
<p>mcp-inspect received the authorization response. You can close this tab.</p>";

/// A bound loopback listener and the redirect URI that reaches it.
pub struct Loopback {
    listener: TcpListener,
    pub redirect_uri: String,
}

impl Loopback {
    /// Binds 127.0.0.1 on `port` when given and free, else on a port the system picks.
    pub async fn bind(port: Option<u16>) -> std::io::Result<Loopback> {
        let listener = match port {
            Some(port) => match TcpListener::bind(("127.0.0.1", port)).await {
                Ok(listener) => listener,
                Err(_) => TcpListener::bind(("127.0.0.1", 0)).await?,
            },
            None => TcpListener::bind(("127.0.0.1", 0)).await?,
        };
        let port = listener.local_addr()?.port();
        Ok(Loopback {
            listener,
            redirect_uri: format!("http://127.0.0.1:{port}{PATH}"),
        })
    }

    /// Waits for the browser's GET of the callback path and returns the full URL it asked for.
    /// Other requests (a favicon, a port scan, a slow or oversized request) are answered or
    /// dropped and the wait goes on.
    pub async fn callback(&self) -> String {
        loop {
            let Ok((mut stream, _)) = self.listener.accept().await else {
                continue;
            };
            let target = tokio::time::timeout(READ_LIMIT, request_target(&mut stream)).await;
            match target {
                Ok(Some(target)) if is_callback(&target) => {
                    let _ = respond(&mut stream, "200 OK", DONE_PAGE).await;
                    return format!("{}{}", self.origin(), target);
                }
                Ok(Some(_)) => {
                    let _ = respond(&mut stream, "404 Not Found", "not here").await;
                }
                _ => {}
            }
        }
    }

    fn origin(&self) -> &str {
        self.redirect_uri
            .strip_suffix(PATH)
            .unwrap_or(&self.redirect_uri)
    }
}

fn is_callback(target: &str) -> bool {
    target == PATH || target.starts_with(&format!("{PATH}?"))
}

/// The target of a `GET <target> HTTP/1.x` request line, if the request starts with one.
async fn request_target(stream: &mut tokio::net::TcpStream) -> Option<String> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 2048];
    while !buf.windows(2).any(|w| w == b"\r\n") {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 || buf.len() + n > MAX_REQUEST {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let line = String::from_utf8_lossy(&buf);
    let line = line.lines().next()?;
    let mut parts = line.split(' ');
    (parts.next()? == "GET").then_some(())?;
    let target = parts.next()?;
    parts
        .next()?
        .starts_with("HTTP/1.")
        .then(|| target.to_string())
}

async fn respond(
    stream: &mut tokio::net::TcpStream,
    status: &str,
    body: &str,
) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    stream.shutdown().await
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn get(port: u16, raw: &str) -> String {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("connect");
        stream.write_all(raw.as_bytes()).await.expect("send");
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer).await;
        answer
    }

    #[tokio::test]
    async fn the_callback_comes_back_and_strays_do_not_end_the_wait() {
        let loopback = Loopback::bind(None).await.expect("bind");
        assert!(loopback.redirect_uri.starts_with("http://127.0.0.1:"));
        let port: u16 = loopback.redirect_uri[17..]
            .trim_end_matches(PATH)
            .parse()
            .expect("port");
        let waiting = tokio::spawn(async move { loopback.callback().await });
        assert!(
            get(port, "GET /favicon.ico HTTP/1.1\r\n\r\n")
                .await
                .contains("404")
        );
        assert_eq!(get(port, "garbage without a line end").await, "");
        assert_eq!(
            get(port, "POST /callback?code=x HTTP/1.1\r\n\r\n").await,
            ""
        );
        let page = get(
            port,
            "GET /callback?code=c0de&state=s HTTP/1.1\r\nHost: x\r\n\r\n",
        )
        .await;
        assert!(
            page.starts_with("HTTP/1.1 200") && page.contains("close this tab"),
            "{page}"
        );
        let url = waiting.await.expect("joined");
        assert_eq!(
            url,
            format!("http://127.0.0.1:{port}/callback?code=c0de&state=s")
        );
    }

    #[tokio::test]
    async fn a_taken_port_falls_back_to_a_free_one() {
        let first = Loopback::bind(None).await.expect("bind");
        let port: u16 = first.redirect_uri[17..]
            .trim_end_matches(PATH)
            .parse()
            .expect("port");
        let second = Loopback::bind(Some(port)).await.expect("bind");
        assert_ne!(first.redirect_uri, second.redirect_uri);
    }
}
