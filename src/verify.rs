//! `verify` and `load`: a server's tools exercised with generated inputs, each result judged
//! and each failure shrunk to its smallest input; and one tool under concurrent calls.

pub mod calls;
mod invalid;
pub mod load;
mod outcome;
pub mod plan;
pub mod report;
pub mod run;
pub mod shrink;
