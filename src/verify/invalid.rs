//! `verify --invalid`: inputs one mistake away that the inputSchema refuses, each sent and
//! held to the rule that it be refused (a tool error or -32602); a slow read-only tool's run
//! together, as its valid ones did.

use super::calls::{Link, Together};
use super::outcome::{Calling, Kind, Tally, attempt_invalid, invalid_failure};
use super::report::Failure;
use crate::mcp::surface::tool::Tool;
use crate::schema::Compiled;
use crate::schema::generate::Gen;
use serde_json::Value;

/// `--invalid`: the inputs one mistake away that the schema refuses, each sent; a failure of
/// each kind kept (with why the schema refuses the input). A slow read-only tool's run
/// together (see `run::together`); another slow tool's are left. How many were sent, and why
/// the connection was lost if it was.
pub(super) async fn invalid_inputs<L: Link>(
    link: &mut L,
    tool: &Tool,
    (generator, input): (&Gen<'_>, &Compiled),
    (calling, calls): (&Calling, usize),
    tally: &mut Tally,
    failures: &mut Vec<Failure>,
) -> (usize, Option<L::Lost>) {
    let refused = |v: &Value| {
        let checked = input.check(v).ok()?;
        Some(checked.violations.first()?.brief())
    };
    let run = (generator.invalid().take(calls), &refused as Refused<'_>);
    let mut invalid = Invalid::default();
    let lost = match tally.slow.is_some() && tool.annotations.read_only == Some(true) {
        true => (invalid_together(link, tool, run, calling, tally, &mut invalid).await).err(),
        false => one_by_one(link, tool, run, calling, tally, &mut invalid).await,
    };
    failures.extend(invalid.failures);
    (invalid.sent, lost)
}

/// The invalid inputs one at a time, until the tool is left (slow, or the budget spent); why
/// the connection was lost, if it was.
async fn one_by_one<L: Link>(
    link: &mut L,
    tool: &Tool,
    (inputs, refused): (impl Iterator<Item = Value>, Refused<'_>),
    calling: &Calling,
    tally: &mut Tally,
    invalid: &mut Invalid,
) -> Option<L::Lost> {
    for args in inputs {
        tokio::task::yield_now().await;
        if tally.left() {
            break;
        }
        let Some(why) = refused(&args) else {
            continue;
        };
        invalid.sent += 1;
        match attempt_invalid(link, tool, &args, calling, tally).await {
            Ok(Some(failed)) => invalid.keep(failed, why, args),
            Ok(None) => {}
            Err(lost) => return Some(lost),
        }
    }
    None
}

/// Why the inputSchema refuses an input, or `None` when it does not.
type Refused<'a> = &'a (dyn Fn(&Value) -> Option<String> + Sync);

/// What `--invalid` sent and found: a failure of each kind.
#[derive(Default)]
struct Invalid {
    sent: usize,
    seen: Vec<Kind>,
    failures: Vec<Failure>,
}

impl Invalid {
    /// Keeps a failed call when its kind is new, with `why` the schema refuses its input.
    fn keep(&mut self, (kind, message): (Kind, String), why: String, args: Value) {
        if self.seen.contains(&kind) {
            return;
        }
        self.seen.push(kind);
        self.failures.push(Failure {
            kind: kind.reported(),
            at: None,
            message: format!("{message} (the inputSchema refuses it {why})"),
            input: args.clone(),
            found: args,
            shrink_calls: 0,
            smallest: None,
            hits: None,
            reproduce: None,
        });
    }
}

/// `--invalid` for a slow read-only tool: its invalid inputs run together as its valid ones
/// did (see `run::together`); one without a result at the hard maximum is not judged.
async fn invalid_together<L: Link>(
    link: &mut L,
    tool: &Tool,
    (mut inputs, refused): (impl Iterator<Item = Value>, Refused<'_>),
    calling: &Calling,
    tally: &mut Tally,
    invalid: &mut Invalid,
) -> Result<(), L::Lost> {
    let mut running = Together::new(link, tool, calling.wait).await?;
    let mut ended = false;
    loop {
        while !ended && running.has_room() && calling.wait.in_budget() {
            match inputs.next() {
                Some(args) if refused(&args).is_some() => {
                    invalid.sent += 1;
                    running.start(args);
                }
                Some(_) => {}
                None => ended = true,
            }
        }
        let Some((args, outcome)) = running.next().await else {
            return Ok(());
        };
        if tally.outlasted(&outcome) {
            continue;
        }
        if let Some(failed) = invalid_failure(outcome, calling.wait.limit) {
            ended |= failed.0.ends_the_batch();
            invalid.keep(failed, refused(&args).unwrap_or_default(), args);
        }
    }
}
