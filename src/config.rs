//! The servers a user names: where a server is and how to reach it (`target`), a `--config`
//! file of `mcpServers` (`servers_file`), and the MCP clients' own config files the picker
//! reads (`client_configs`), and where a value sits in such a file (`json_spans`, for `tap
//! install`). Reads other programs' files; never connects.

pub mod client_configs;
pub mod json_spans;
pub mod servers_file;
pub mod target;
