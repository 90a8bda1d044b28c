//! An OAuth authorization under way: its panel, the URL to open and the redirect pasted back.

pub mod state;
pub mod update;
