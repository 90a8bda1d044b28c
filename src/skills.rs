//! Skills (SEP-2640, extension `io.modelcontextprotocol/skills`): the entries a server lists
//! (`skills/list`, `skills/get`), checked as the extension asks before anything is fetched, and
//! every file read verified against its entry (size, SHA-256 digest, and for `SKILL.md` its
//! YAML frontmatter field by field) before any of it is used. Pure.

mod entry;
mod frontmatter;
mod verify;

pub use entry::{Entry, Files, decode, file_path};
pub use frontmatter::{compare, parse, split};
pub use verify::verify;

/// The extension's identifier, under `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/skills";

/// Whether a server's capabilities declare the extension.
pub fn declared(capabilities: &serde_json::Value) -> bool {
    capabilities
        .pointer("/extensions")
        .and_then(|e| e.get(EXTENSION))
        .is_some_and(|c| !c.is_null())
}

/// `sha256:` and the 64 lowercase hex digits of `bytes`' SHA-256, as an entry writes a digest.
pub fn digest_of(bytes: &[u8]) -> String {
    digest_text(ring::digest::digest(&ring::digest::SHA256, bytes).as_ref())
}

/// A SHA-256 as an entry writes it.
pub fn digest_text(digest: &[u8]) -> String {
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}
