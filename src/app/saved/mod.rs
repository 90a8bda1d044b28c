//! Call panels kept between sessions with the same server: what is saved, and restoring it once
//! the tools are listed.

pub mod state;
pub mod update;
