//! The terminal UI.

use crate::cli::ConnectionArgs;

/// Runs the TUI on a connection and returns the exit code.
pub async fn run(connection: ConnectionArgs) -> i32 {
    let _ = connection;
    eprintln!("the terminal UI is not built yet; use the headless commands (mcp-inspect --help)");
    1
}
