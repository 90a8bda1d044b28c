//! mcp-inspect: inspect and exercise Model Context Protocol servers from a terminal UI or scripts.

pub mod mcp;
pub mod schema;
pub mod untrusted;
