//! Locates the third-party servers installed by `scripts/setup-peers.sh`. Without them a test
//! is skipped, unless MCP_INSPECT_REQUIRE_PEERS=1 (set by the test script and CI) makes it fail.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(".peers")
}

/// The path of an installed peer file, or `None` (skip) when peers are not installed.
pub fn path(relative: &str) -> Option<String> {
    let p = root().join(relative);
    if p.exists() {
        return Some(p.to_string_lossy().into_owned());
    }
    if std::env::var("MCP_INSPECT_REQUIRE_PEERS").as_deref() == Ok("1") {
        panic!("{} is missing: run scripts/setup-peers.sh", p.display());
    }
    eprintln!(
        "skipped: {} is missing (run scripts/setup-peers.sh)",
        p.display()
    );
    None
}

pub fn everything() -> Option<String> {
    path("npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
}
pub fn filesystem() -> Option<String> {
    path("npm/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
}
pub fn memory() -> Option<String> {
    path("npm/node_modules/@modelcontextprotocol/server-memory/dist/index.js")
}
pub fn time() -> Option<String> {
    path("venv/bin/mcp-server-time")
}
pub fn python() -> Option<String> {
    path("venv/bin/python")
}
pub fn fastmcp_script() -> String {
    script("fastmcp_server.py")
}

/// A server script of `tests/peers/`, by file name.
pub fn script(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/peers")
        .join(name)
        .to_string_lossy()
        .into_owned()
}
/// The official conformance suite's runner (its Node 22 sits beside it in the same bin folder).
pub fn conformance() -> Option<String> {
    path("conformance/node_modules/.bin/conformance")
}
