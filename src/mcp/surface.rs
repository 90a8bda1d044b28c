//! What a server offers, as project types decoded from its raw JSON: tools (schemas held as
//! text), call results, resources and prompts in words, images' formats.

pub(crate) mod image;
pub mod library;
pub(crate) mod picture;
pub mod result;
pub(crate) mod schema_text;
pub mod tool;
