//! Command-line parsing: the clap definitions (`args`) and the connection options built from
//! them (`connection`). The headless commands and the TUI take what this gives them.

mod args;
mod connection;

pub use args::{
    AuthAction, CheckFormat, Cli, Command, ConnectionArgs, DiffFormat, Format, ProtocolArg,
};
