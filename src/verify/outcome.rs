//! How one call of `verify` is made and judged: its wait and output judge (`Calling`), what
//! the calls gave besides failures (`Tally`: tool errors, results not judged, a slow tool), a
//! failure as the report names it (`Kind`, `Failed`), a valid input's outcome judged against
//! the outputSchema, an invalid input's against the rule that it be refused.

use super::calls::{Called, Link, Wait, called};
use super::report::FailureKind;
use crate::mcp::RequestError;
use crate::mcp::surface::result::CallResult;
use crate::mcp::surface::tool::Tool;
use crate::schema::judge::Judge;
use crate::schema::{Era, Status};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// How each call of one tool is made and judged: its wait (see [`Wait`]), and its output
/// schema compiled once for the run (shrinking alone may judge hundreds of results).
#[derive(Clone)]
pub(super) struct Calling {
    pub(super) wait: Wait,
    pub(super) output: Option<Arc<Judge>>,
}

impl Calling {
    /// `output`: the tool's judge when the caller has one already (else compiled here);
    /// each call's wait.
    pub(super) fn new(tool: &Tool, output: Option<Arc<Judge>>, wait: Wait) -> Calling {
        Calling {
            wait,
            output: output
                .or_else(|| (tool.output_schema.as_deref()).map(|s| Arc::new(Judge::new(s)))),
        }
    }
}

/// What one tool's calls gave besides failures.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) tool_errors: usize,
    /// Results with an outputSchema to answer to that could not be judged.
    pub(super) not_checked: usize,
    /// Why the first of them could not be.
    pub(super) not_checked_why: Option<String>,
    /// The tool is slow, not hung (a call outlived `--call-timeout`, then answered or showed
    /// life when sent again, or reported progress up to the hard maximum), in these words: a
    /// read-only tool's calls then run together (`run::together`), another's are left.
    pub(super) slow: Option<String>,
    /// A call silent for `--call-timeout` with the time budget spent: the tool is left.
    pub(super) unsent: Option<String>,
    /// The input of the call cut at its first sign of life, not judged: sent again first
    /// when the tool's calls run together.
    pub(super) unjudged: Option<Value>,
    /// Calls still without a result at the hard maximum (not judged).
    pub(super) outlasted: usize,
}

impl Tally {
    /// A call's outcome to judge, or `None` when there is none (see [`Called`]).
    pub(super) fn outcome(
        &mut self,
        called: Called,
        args: &Value,
    ) -> Option<Result<CallResult, RequestError>> {
        match called {
            Called::Alive(why) => {
                self.not_checked += 1;
                (self.slow, self.unjudged) = (Some(why), Some(args.clone()));
                None
            }
            Called::Unsent(why) => {
                self.not_checked += 1;
                self.unsent = Some(why);
                None
            }
            Called::Ended(outcome, slow) => {
                if slow.is_some() {
                    self.slow = slow;
                }
                Some(*outcome)
            }
        }
    }

    /// Whether the tool's calls, one at a time, are to stop (it is slow, or the budget went).
    pub(super) fn left(&self) -> bool {
        self.slow.is_some() || self.unsent.is_some()
    }

    /// Counts a call of a slow tool that was cut at the hard maximum (silent or still working:
    /// slow or hung is not told for a tool known to be slow), not judged; whether it was one.
    pub(super) fn outlasted(&mut self, outcome: &Result<CallResult, RequestError>) -> bool {
        let cut = matches!(
            outcome,
            Err(RequestError::Timeout(_) | RequestError::TooLong(_))
        );
        if cut {
            self.count_outlasting();
        }
        cut
    }

    /// One call more without a result at the hard maximum, not judged.
    fn count_outlasting(&mut self) {
        self.not_checked += 1;
        self.outlasted += 1;
    }
}

/// Why a call failed, as the report names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    BreaksOutputSchema,
    NoStructuredContent,
    ServerError(i64),
    Timeout,
    Crash,
    Malformed,
    /// `--invalid`: a success to an input the inputSchema refuses.
    AcceptedInvalid,
}

impl Kind {
    /// As the report names it (a server error's code is in its message).
    pub(super) fn reported(self) -> FailureKind {
        match self {
            Kind::BreaksOutputSchema => FailureKind::BreaksOutputSchema,
            Kind::NoStructuredContent => FailureKind::MissingStructuredContent,
            Kind::ServerError(_) => FailureKind::ServerError,
            Kind::Timeout => FailureKind::Timeout,
            Kind::Crash => FailureKind::Crash,
            Kind::Malformed => FailureKind::MalformedAnswer,
            Kind::AcceptedInvalid => FailureKind::AcceptedInvalidInput,
        }
    }

    /// Whether calls running together stop at it: the server gone, or the run stopped (a
    /// cancelled call reads as a timeout).
    pub(super) fn ends_the_batch(self) -> bool {
        matches!(self, Kind::Crash | Kind::Timeout)
    }
}

/// A failed call: how it failed, where in the outputSchema (the first violation's schema
/// location, for a schema break), and in words. Two failures are the same bug when kind and
/// place agree: each such bug is reported once, with how many calls hit it.
pub(super) struct Failed {
    pub(super) kind: Kind,
    pub(super) at: Option<String>,
    pub(super) message: String,
}

impl Failed {
    pub(super) fn new(kind: Kind, message: String) -> Failed {
        Failed {
            kind,
            at: None,
            message,
        }
    }

    pub(super) fn key(&self) -> (Kind, Option<&str>) {
        (self.kind, self.at.as_deref())
    }
}

/// One call with a valid input, judged: `None` when it went well (a tool error, `isError`,
/// is a tool's answer, counted, not a failure; a result that could not be judged is counted
/// too, never taken for a pass).
pub(super) async fn attempt<L: Link>(
    link: &mut L,
    tool: &Tool,
    args: &Value,
    calling: &Calling,
    tally: &mut Tally,
) -> Result<Option<Failed>, L::Lost> {
    let era = link.session().await?.server.era;
    let called = called(link, tool, args, calling.wait).await?;
    Ok(match tally.outcome(called, args) {
        Some(outcome) => judged(outcome, calling, era, tally).await,
        None => None,
    })
}

/// A call's outcome judged (see [`attempt`]).
pub(super) async fn judged(
    outcome: Result<CallResult, RequestError>,
    calling: &Calling,
    era: Era,
    tally: &mut Tally,
) -> Option<Failed> {
    let result = match outcome {
        Ok(result) => result,
        // Still working at this run's limit, reporting progress all along: the tool was alive,
        // the limit is ours. Not judged; the tool is slow.
        Err(RequestError::TooLong(cap)) => {
            tally.count_outlasting();
            tally.slow.get_or_insert_with(|| format!(
                "a call was still working after {} s, reporting progress (the limit of a call here, 10 × --call-timeout): slow, not hung",
                cap.as_secs_f64()
            ));
            return None;
        }
        // A person's step (a URL elicitation to complete), not the server failing: not judged.
        Err(e) if e.needs_a_person().is_some() => {
            tally.not_checked += 1;
            let why = e.needs_a_person().unwrap_or_default();
            tally.not_checked_why.get_or_insert_with(|| why.into());
            return None;
        }
        Err(RequestError::Server { code, message, .. }) => {
            let said = format!("the server answered error {code} to a valid input: {message}");
            return Some(Failed::new(Kind::ServerError(code), said));
        }
        Err(e) => {
            let (kind, said) = failure(e, calling.wait.limit);
            return Some(Failed::new(kind, said));
        }
    };
    let output = calling.output.clone();
    let verdict = tokio::task::spawn_blocking(move || {
        result.verdict(output.as_deref().map(Judge::parts), era)
    })
    .await
    // The judge panicked: a bug of ours, not the server's failure.
    .unwrap_or_else(|failed| std::panic::resume_unwind(failed.into_panic()));
    match verdict.status {
        Status::ToolError => {
            tally.tool_errors += 1;
            None
        }
        Status::Violations => {
            let first = verdict.violations.first();
            let brief = first.map_or(String::new(), |v| format!(": {}", v.brief()));
            Some(Failed {
                kind: Kind::BreaksOutputSchema,
                at: first.map(|v| v.schema_path.clone()),
                message: format!("the result breaks its outputSchema{brief}"),
            })
        }
        Status::MissingStructuredContent => Some(Failed::new(
            Kind::NoStructuredContent,
            "the result leaves out the structuredContent its outputSchema declares".into(),
        )),
        _ => {
            if let Some(why) = verdict.unjudged() {
                tally.not_checked += 1;
                tally.not_checked_why.get_or_insert_with(|| why.to_string());
            }
            None
        }
    }
}

/// One call with an input the inputSchema refuses (`--invalid`): it must get a tool error or
/// the JSON-RPC error for invalid params (-32602); a success, another error, a timeout or a
/// crash is a failure.
pub(super) async fn attempt_invalid<L: Link>(
    link: &mut L,
    tool: &Tool,
    args: &Value,
    calling: &Calling,
    tally: &mut Tally,
) -> Result<Option<(Kind, String)>, L::Lost> {
    let Some(outcome) = tally.outcome(called(link, tool, args, calling.wait).await?, args) else {
        return Ok(None);
    };
    Ok(invalid_failure(outcome, calling.wait.limit))
}

/// How an invalid input's call failed, or `None` when it was refused as it should be.
pub(super) fn invalid_failure(
    outcome: Result<CallResult, RequestError>,
    limit: Duration,
) -> Option<(Kind, String)> {
    match outcome {
        Ok(result) if result.is_error => None,
        Ok(_) => Some((
            Kind::AcceptedInvalid,
            "a success to an input its inputSchema refuses".into(),
        )),
        Err(RequestError::Server { code: -32602, .. }) => None,
        Err(RequestError::Server { code, message, .. }) => Some((
            Kind::ServerError(code),
            format!(
                "error {code} to an invalid input (invalid params are -32602, or a tool error): {message}"
            ),
        )),
        Err(e) => Some(failure(e, limit)),
    }
}

/// A call that got no result, as a failure.
pub(super) fn failure(error: RequestError, limit: Duration) -> (Kind, String) {
    match error {
        // The wait ran out with no answer and no progress since (the server told); a longer
        // wait than the call's own is the second, patient one (see `super::calls`).
        RequestError::Timeout(waited) => {
            let limit = limit.as_secs_f64();
            let said = match waited.as_secs_f64() {
                waited if waited > limit => format!(
                    "no result within {limit} s, nor within {waited} s when sent again (no progress either time): hung, cancelled"
                ),
                _ => format!("no result within {limit} s (nor progress): cancelled"),
            };
            (Kind::Timeout, said)
        }
        // The run was stopped with the call in flight (`x` in the TUI, a signal).
        RequestError::Cancelled => (Kind::Timeout, "cancelled: the run was stopped".into()),
        e @ RequestError::TooLong(_) => (Kind::Timeout, e.to_string()),
        e @ RequestError::Closed(_) => (Kind::Crash, format!("the server crashed: {e}")),
        e => (Kind::Malformed, e.to_string()),
    }
}
