//! The MCP side: tools and results as project types, and the connection (the one IO module here).
//! Only this layer names rmcp types; everything leaves it converted.

pub mod result;
pub mod tool;
