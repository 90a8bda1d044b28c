//! What the trial pane holds: the last `verify` or `load` run on a tool from the TUI, its
//! progress while it runs, and the tool a confirmation was asked for.

use crate::verify::report::{Failure, LoadSummary, ToolReport};
use std::time::Instant;

/// The two kinds of run the pane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Generated inputs, each result judged, failures shrunk (`V`).
    Verify,
    /// Concurrent calls of the tool's arguments, measured (`M`).
    Load,
}

impl Kind {
    pub fn word(self) -> &'static str {
        match self {
            Kind::Verify => "verify",
            Kind::Load => "load",
        }
    }
}

/// The trial pane's state.
#[derive(Debug, Default)]
pub struct Trial {
    /// The run shown: the one running, or the last one.
    pub run: Option<Run>,
    /// A tool that is not read-only, and the run asked for it: the same key again goes ahead.
    pub confirm: Option<(String, Kind)>,
    /// The row under the cursor (a verify run's findings).
    pub cursor: usize,
    pub scroll: usize,
    /// Runs started in this session: the last one's id (what its updates carry).
    pub runs: u64,
    /// How the next run of each kind goes (`e`).
    pub settings: TrialSettings,
}

/// One run on one tool.
#[derive(Debug)]
pub struct Run {
    pub id: u64,
    pub tool: String,
    pub kind: Kind,
    pub started: Instant,
    /// How long it took, once over.
    pub took: Option<std::time::Duration>,
    /// Stopped by the user (`x`) before it ended.
    pub stopped: bool,
    pub body: Body,
}

impl Run {
    pub fn running(&self) -> bool {
        self.took.is_none()
    }
}

/// What a run learned so far.
#[derive(Debug)]
pub enum Body {
    Verify {
        seed: u64,
        /// Calls planned at most.
        planned: usize,
        calls: usize,
        /// Failures found so far.
        failures: Vec<Failure>,
        /// The tool's report, once over.
        result: Option<ToolReport>,
    },
    Load {
        concurrency: usize,
        seconds: f64,
        /// One sample per interval, oldest first.
        samples: Vec<Sample>,
        /// The run in numbers, once over.
        summary: Option<Box<LoadSummary>>,
    },
}

/// One interval of a load run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Seconds since the run began, at the interval's end.
    pub at: f64,
    pub calls_per_second: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    /// Calls that failed in the interval (errors, timeouts, verdict failures).
    pub failed: u64,
}

/// How the next run of each kind goes (set by `app::trial::settings`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrialSettings {
    /// Calls a verify run makes at most (`verify --calls`).
    pub verify_calls: usize,
    /// A verify run also sends inputs the inputSchema refuses (`verify --invalid`).
    pub verify_invalid: bool,
    /// A verify run's call timeout in seconds (`verify --call-timeout`): a call silent this
    /// long is sent again, and ten times it is the hard maximum of a call.
    pub verify_call_timeout: f64,
    /// How long a load run lasts, in seconds (`load --seconds`).
    pub load_seconds: f64,
    /// Callers of a load run (`load -c`).
    pub load_callers: usize,
}

impl Default for TrialSettings {
    /// `verify`'s and `load`'s defaults on the command line, a load run shortened to 10 s.
    fn default() -> TrialSettings {
        TrialSettings {
            verify_calls: 100,
            verify_invalid: false,
            verify_call_timeout: 10.0,
            load_seconds: 10.0,
            load_callers: 4,
        }
    }
}
