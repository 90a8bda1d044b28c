//! Test files (`mcp-inspect test`): calls, prompts and reads a person keeps in TOML with what
//! each must give, run against a server and checked, or (`--update`) rewritten with what each
//! gives now.

pub mod expect;
pub mod file;
pub mod report;
pub mod run;
pub mod update;
