//! The exit codes of every command, chosen here only (the engine says what happened; the
//! codes of the official Inspector CLI where it has one). `docs/commands.md` has the table.

use crate::mcp::session::error::ConnectError;

pub const OK: i32 = 0;
/// Usage error or any other failure.
pub const ERROR: i32 = 1;
/// The server wants OAuth authorization this command may not ask for, or the flow failed
/// (the official Inspector CLI's code for it).
pub const AUTH: i32 = 3;
/// The server could not be reached or did not complete the handshake.
pub const UNREACHABLE: i32 = 4;
/// The tool reported an error (`isError`) or does not exist.
pub const TOOL_ERROR: i32 = 5;
/// `diff` found a breaking change.
pub const BREAKING: i32 = 6;
/// `diff` found no breaking change, but one it could not judge (two different patterns, a
/// ref that cannot be followed, a budget that ran out): never read as "nothing breaks".
pub const UNKNOWN: i32 = 7;
/// `call --strict`: the result breaks its outputSchema or the protocol's rule for it
/// (never 3, which says authorization is needed).
pub const VIOLATION: i32 = 8;

/// The code for a connection that failed.
pub fn of_connect(error: &ConnectError) -> i32 {
    match error {
        ConnectError::AuthorizationNeeded { .. } | ConnectError::AuthorizationFailed { .. } => AUTH,
        _ => UNREACHABLE,
    }
}
