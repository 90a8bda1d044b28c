//! How bytes reach and leave a server: the stdio process (through the guard), Streamable HTTP
//! and legacy SSE, each message bounded and screened before rmcp reads it (lines, raw answers
//! held as sent, salvage of what cannot be read), and the tap that feeds `--record` and the
//! protocol pane.

pub(crate) mod duplicate_keys;
pub mod guard;
pub(crate) mod handover;
pub(crate) mod http;
pub(crate) mod lines;
pub(crate) mod raw;
pub mod record;
pub(crate) mod salvage;
pub(crate) mod sse;
pub(crate) mod stdio;
pub(crate) mod streamable;
pub mod wire;
