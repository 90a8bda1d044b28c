//! The built-in demo MCP server (`mcp-inspect demo-server`): a real rmcp server over stdio or
//! Streamable HTTP, the fixture for the project's tests and the README's demo.

pub mod catalog;
pub mod library;
mod server;
pub mod skills;
mod stdio;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use server::Demo;
pub use server::Paging;
use std::sync::Arc;

/// Serves the demo over stdio, or over Streamable HTTP at `127.0.0.1:PORT/mcp`. Returns an exit code.
pub async fn run(http: Option<u16>, paging: Paging) -> i32 {
    let demo = Demo::new(paging);
    let outcome = match http {
        None => stdio::serve(demo).await,
        Some(port) => serve_http(demo, port).await,
    };
    match outcome {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("demo server: {e}");
            1
        }
    }
}

async fn serve_http(demo: Demo, port: u16) -> Result<(), String> {
    let service = StreamableHttpService::new(
        move || Ok(demo.clone()),
        Arc::new(LocalSessionManager::default()),
        // A local server refuses pages of other sites (DNS rebinding): rmcp checks the Host by
        // default, an Origin only when told which are its own.
        StreamableHttpServerConfig::default()
            .with_allowed_origins(["http://localhost:*", "http://127.0.0.1:*"]),
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    eprintln!("demo: mcp-inspect demo server ready at http://{addr}/mcp");
    axum::serve(listener, app).await.map_err(|e| e.to_string())
}
