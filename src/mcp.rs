//! The MCP side: tools and results as project types, and the connection (the one IO module here).
//! Only this layer names rmcp types; everything leaves it converted. By concern: `transport`
//! (bytes to and from a server), `session` (the connection: handshake, requests, what the
//! server asks and says), `surface` (what it offers, decoded), `oauth`.

pub mod oauth;
pub mod session;
pub mod surface;
pub mod transport;

pub use session::connect::connect;
pub use session::error::RequestError;
pub use session::events::{AuthStep, EventReceiver, EventSink, ServerEvent};
pub use session::options::{ConnectOptions, ProtocolChoice};
pub use session::{ServerSummary, Session, ToolList};
pub use surface::schema_text::Schema;
pub use transport::stdio::MAX_MESSAGE_BYTES;
