//! The schema engine: display trees, validation, boxing, verdicts, signatures, skeletons and lint.
//! Pure: no IO, no MCP types, no UI. Shared by the TUI and the headless commands.

pub mod boxing;
pub mod budget;
pub mod choices;
pub mod describe;
pub mod dialect;
pub mod generate;
pub mod headers;
pub mod judge;
pub mod lint;
pub mod numbers;
pub mod refs;
pub mod signature;
pub mod tree;
pub mod unknown;
pub mod validate;
pub mod verdict;

pub use boxing::{Boxer, Boxing};
pub use tree::{Edge, NodeId, SchemaTree};
pub use validate::{Compiled, Unusable, Violation};
pub use verdict::{Era, Status, Verdict};
