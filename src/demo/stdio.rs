//! The demo over stdio: rmcp speaks through two pipes of ours, so that a line that is not JSON
//! is answered with -32700 (rmcp passes over it in silence) and the end of stdin is seen (open
//! subscriptions are then ended, see `listen`). Whole lines reach stdout, never interleaved.

use super::server::Demo;
use crate::mcp::transport::lines::{Line, read_line};
use crate::mcp::transport::stdio::MAX_MESSAGE_BYTES;
use rmcp::ServiceExt;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

pub async fn serve(demo: Demo) -> Result<(), String> {
    eprintln!("demo: mcp-inspect demo server ready on stdio");
    let (rmcp_reads, to_rmcp) = tokio::io::duplex(64 * 1024);
    let (rmcp_writes, from_rmcp) = tokio::io::duplex(64 * 1024);
    let (errors, errors_out) = mpsc::channel(16);
    let closing = demo.closing.clone();
    tokio::spawn(async move {
        pump_stdin(to_rmcp, errors).await;
        closing.cancel();
    });
    tokio::spawn(pump_stdout(from_rmcp, errors_out));
    let service = demo
        .serve((rmcp_reads, rmcp_writes))
        .await
        .map_err(|e| e.to_string())?;
    service.waiting().await.map_err(|e| e.to_string())?;
    Ok(())
}

/// Copies each JSON line to rmcp; answers any other line with -32700 (JSON-RPC 2.0 §5.1: the
/// id could not be read, so it is null).
async fn pump_stdin(mut to_rmcp: DuplexStream, errors: mpsc::Sender<String>) {
    let mut stdin = BufReader::new(tokio::io::stdin());
    loop {
        let line = match read_line(&mut stdin, MAX_MESSAGE_BYTES).await {
            Ok(Line::Complete(line)) => line,
            Ok(Line::TooLong { total, .. }) => {
                let _ = errors
                    .send(parse_error(&format!("a {total}-byte line, over the limit")))
                    .await;
                continue;
            }
            Ok(Line::Eof) | Err(_) => return,
        };
        let blank = line.iter().all(u8::is_ascii_whitespace);
        match serde_json::from_slice::<serde::de::IgnoredAny>(&line) {
            Err(e) if !blank => {
                let _ = errors.send(parse_error(&e.to_string())).await;
            }
            _ => {
                let written = async {
                    to_rmcp.write_all(&line).await?;
                    to_rmcp.write_all(b"\n").await
                };
                if written.await.is_err() {
                    return;
                }
            }
        }
    }
}

fn parse_error(why: &str) -> String {
    serde_json::json!({"jsonrpc": "2.0", "id": null,
        "error": {"code": -32700, "message": format!("Parse error: {why}")}})
    .to_string()
}

/// Writes rmcp's lines and the parse errors to stdout, each whole.
async fn pump_stdout(from_rmcp: DuplexStream, mut errors: mpsc::Receiver<String>) {
    let mut lines = BufReader::new(from_rmcp).lines();
    let mut stdout = tokio::io::stdout();
    loop {
        // Errors first: one sent for a line is queued before any later line reaches rmcp, so
        // answers go out in the order the lines came.
        let line = tokio::select! {
            biased;
            Some(error) = errors.recv() => error,
            line = lines.next_line() => match line {
                Ok(Some(line)) => line,
                _ => return,
            },
        };
        let written = async {
            stdout.write_all(line.as_bytes()).await?;
            stdout.write_all(b"\n").await?;
            stdout.flush().await
        };
        if written.await.is_err() {
            return;
        }
    }
}
