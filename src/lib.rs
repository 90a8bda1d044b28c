//! mcp-inspect: inspect and exercise Model Context Protocol servers from a terminal UI or scripts.

pub mod cli;
pub mod demo;
pub mod headless;
pub mod hostile;
pub mod mcp;
pub mod schema;
pub mod secrets;
pub mod tui;
pub mod untrusted;
