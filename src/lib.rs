//! mcp-inspect: inspect and exercise Model Context Protocol servers from a terminal UI or scripts.

pub mod app;
pub mod cli;
pub mod config;
pub mod demo;
pub mod drift;
pub mod headless;
pub mod hostile;
pub mod mcp;
pub mod plural;
pub mod private_files;
pub mod replay;
pub mod runtime;
pub mod sarif;
pub mod schema;
pub mod secrets;
pub mod ui;
pub mod untrusted;
