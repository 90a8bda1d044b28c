//! The MCP side: tools and results as project types, and the connection (the one IO module here).
//! Only this layer names rmcp types; everything leaves it converted.

mod child;
pub mod client_configs;
pub mod client_side;
pub mod config;
mod connect;
mod duplicate_keys;
pub mod error;
pub mod events;
pub mod guard;
mod handler;
mod http;
mod image;
mod input_required;
pub mod library;
mod lines;
pub mod logging;
pub mod oauth;
mod raw;
pub mod record;
pub mod result;
mod salvage;
mod schema_text;
pub mod session;
mod sse;
mod streamable;
mod subscriptions;
pub mod target;
mod tasks;
pub mod tool;
pub mod wire;

pub use child::MAX_MESSAGE_BYTES;
pub use connect::connect;
pub use error::{ConnectError, RequestError};
pub use events::{AuthStep, EventReceiver, EventSink, ServerEvent};
pub use schema_text::Schema;
pub use session::{ServerSummary, Session, ToolList};
pub use target::{ConnectOptions, Header, HttpTransport, ProtocolChoice, Target};
