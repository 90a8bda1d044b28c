//! One tool verified (`mcp-inspect verify`, and `V` in the TUI): inputs generated from its
//! inputSchema (boundaries, then random ones from the seed), each call judged (a result that
//! breaks the outputSchema with boxing unwrapped, or leaves out the structuredContent it
//! declares, a JSON-RPC error to a valid input, a timeout, a malformed answer, a crash), the
//! first failure of each kind shrunk to its smallest input (each call made and judged by
//! `outcome.rs`; `--invalid`'s inputs by `invalid.rs`); a slow read-only tool's calls run
//! together. Over any [`Link`]: one that starts the server again after a crash (headless), or
//! the TUI's live session.

use super::calls::{Link, TOGETHER, Together, Wait};
use super::invalid::invalid_inputs;
use super::outcome::{Calling, Failed, Kind, Tally, attempt, judged};
use super::report::{Failure, Status as Reported, ToolReport};
use super::shrink::{candidates, pairs};
use crate::mcp::surface::tool::Tool;
use crate::schema::Compiled;
use crate::schema::generate::rng::Rng;
use crate::schema::generate::{Gen, Spent};
use crate::schema::judge::Judge;
use serde_json::Value;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Calls spent shrinking one failure at most.
const SHRINK_CALLS: usize = 300;
/// Tries at generating a valid random input before giving up on one.
const TRIES: usize = 30;
/// Calls to a tool that takes no arguments: the same `{}` a hundred times finds nothing a
/// handful does not (a flaky or stateful tool shows by then).
const NO_ARGUMENT_CALLS: usize = 5;

/// How one tool is verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Calls at most (boundary values first).
    pub calls: usize,
    /// No call is started after this much time since the run began.
    pub budget: Option<Duration>,
    /// A call still running after this is cancelled and counts as a timeout.
    pub call_limit: Duration,
    /// Also send inputs the inputSchema refuses.
    pub invalid: bool,
}

/// The distinct failures of one tool so far: each one's key and the calls that hit it, and
/// the calls that hit one past those kept.
#[derive(Default)]
struct Distinct {
    seen: Vec<(Kind, Option<String>)>,
    hits: Vec<usize>,
    unkept: usize,
}

impl Distinct {
    /// Counts a failed call: `None` when its bug is known (or past those kept), else whether
    /// the new one is to be shrunk.
    fn count(&mut self, failed: &Failed) -> Option<bool> {
        let key = (failed.kind, failed.at.clone());
        if let Some(i) = self.seen.iter().position(|k| *k == key) {
            self.hits[i] += 1;
            return None;
        }
        if self.seen.len() >= KEPT_DISTINCT {
            self.unkept += 1;
            return None;
        }
        self.seen.push(key);
        self.hits.push(1);
        Some(self.seen.len() <= SHRUNK_DISTINCT)
    }

    /// Writes each failure's calls (`hits`) into its entry (the first entries, in order).
    fn tell(&self, failures: &mut [Failure]) {
        for (failure, n) in failures.iter_mut().zip(&self.hits) {
            failure.hits = Some(*n);
        }
    }
}

/// Distinct failures of one tool shrunk at most (each shrink costs up to [`SHRINK_CALLS`]);
/// more are reported as found.
const SHRUNK_DISTINCT: usize = 5;
/// Distinct failures of one tool kept at most; the calls that hit others are counted.
const KEPT_DISTINCT: usize = 20;

/// One tool's run as the report holds it, and why, when the connection was lost and could not
/// be had again (the run ends there; what was found so far is kept).
pub struct Verified<Lost> {
    pub result: ToolReport,
    pub lost: Option<Lost>,
}

/// What a run has found so far, told after each call.
pub trait Progress: Send {
    fn called(&mut self, calls: usize, failures: &[Failure]);
}

impl Progress for () {
    fn called(&mut self, _: usize, _: &[Failure]) {}
}

/// Calls one tool with generated inputs, from `seed`, until `settings.calls` or the budget
/// (counted from `started`) is spent; its results judged by `output` when the caller has the
/// tool's judge already.
pub async fn verify_tool<L: Link>(
    link: &mut L,
    (tool, output): (&Tool, Option<Arc<Judge>>),
    settings: &Settings,
    (seed, started): (u64, Instant),
    progress: &mut impl Progress,
) -> Verified<L::Lost> {
    // Parsed for this tool alone: memory stays flat in the number of tools verified. Parsed
    // twice, once to be compiled (and guarded in place) and once to generate from: the copy
    // of a large schema is never held beside the validator being compiled from it.
    let input = Compiled::from_owned(tool.input_schema.read_once().into_owned());
    let schema = tool.input_schema.read_once();
    let valid = |v: &Value| input.check(v).is_ok_and(|c| c.violations.is_empty());
    let generator = Gen::new(&schema);
    let mut source = Source {
        inputs: Inputs::new(&generator, seed, &tool.name),
        generator: &generator,
        valid: &valid,
    };
    let wait = Wait {
        limit: settings.call_limit,
        patient: true,
        until: settings.budget.map(|budget| started + budget),
    };
    let calling = Calling::new(tool, output, wait);
    let (mut made, mut found) = (Made::default(), Found::default());
    let planned = planned(&schema, settings.calls);
    let run = (&mut source, &calling, planned);
    let mut lost = one_at_a_time(link, tool, run, (&mut made, &mut found), progress).await;
    if lost.is_none() && !made.timed_out && found.tally.slow.is_some() && made.calls < planned {
        let run = (&mut source, &calling, planned);
        match together(link, tool, run, made.calls, &mut found, progress).await {
            Ok(calls) => made.calls = calls,
            Err(gone) => lost = Some(gone),
        }
    }
    let Found {
        mut tally,
        mut failures,
        distinct,
    } = found;
    distinct.tell(&mut failures);
    let (invalid_calls, gone) = match settings.invalid && lost.is_none() {
        true => {
            let (invalid, calls) = ((&generator, &input), (&calling, settings.calls));
            invalid_inputs(link, tool, invalid, calls, &mut tally, &mut failures).await
        }
        false => (0, None),
    };
    lost = lost.or(gone);
    let ended = Ended {
        calls: made.calls,
        planned,
        invalid_calls,
        no_input: made.unmade > 3,
        spent: generator.spent(),
        timed_out: made.timed_out,
        lost: lost.is_some(),
        unkept: distinct.unkept,
    };
    let result = report(&tool.name, &ended, tally, failures);
    Verified { result, lost }
}

/// Whether an input is valid for the tool's inputSchema.
type Valid<'a> = &'a (dyn Fn(&Value) -> bool + Sync);

/// Where a tool's inputs come from: the generator, the inputs made so far, what is valid.
struct Source<'g> {
    generator: &'g Gen<'g>,
    inputs: Inputs<'g>,
    valid: Valid<'g>,
}

impl Source<'_> {
    /// The next valid input (see [`Inputs::next`]).
    async fn next(&mut self) -> Option<Value> {
        self.inputs.next(self.generator, self.valid).await
    }
}

/// What a tool's calls found so far.
#[derive(Default)]
struct Found {
    tally: Tally,
    failures: Vec<Failure>,
    distinct: Distinct,
}

/// How far a tool's calls got: made, inputs that could not be made, and whether one timed out.
#[derive(Default)]
struct Made {
    calls: usize,
    unmade: usize,
    timed_out: bool,
}

/// The tool's calls one at a time until `planned` are made, the budget is spent, one times
/// out, or the tool is found slow; each failure shrunk (see [`shrunk`]). Why the connection
/// was lost, if it was.
async fn one_at_a_time<L: Link>(
    link: &mut L,
    tool: &Tool,
    (source, calling, planned): (&mut Source<'_>, &Calling, usize),
    (made, found): (&mut Made, &mut Found),
    progress: &mut impl Progress,
) -> Option<L::Lost> {
    while !made.timed_out && !found.tally.left() && made.calls < planned && calling.wait.in_budget()
    {
        let Some(args) = source.next().await else {
            made.unmade += 1;
            if made.unmade > 3 {
                break;
            }
            continue;
        };
        made.calls += 1;
        let attempted = attempt(link, tool, &args, calling, &mut found.tally).await;
        progress.called(made.calls, &found.failures);
        let failed = match attempted {
            Ok(None) => continue,
            Ok(Some(failed)) => failed,
            // No session to send it on: the call was not made.
            Err(code) => {
                made.calls -= 1;
                return Some(code);
            }
        };
        // Each call after a timeout would most likely wait as long: the tool is left.
        made.timed_out = failed.kind == Kind::Timeout;
        let (failure, gone) = match found.distinct.count(&failed) {
            None => continue,
            // A slow tool's failure is left as found: each try would take as long.
            Some(true) if found.tally.slow.is_none() => {
                shrunk(link, tool, (args, failed), calling, source.valid).await
            }
            Some(_) => (as_found(args, failed), None),
        };
        found.failures.push(failure);
        progress.called(made.calls, &found.failures);
        if gone.is_some() {
            return gone;
        }
    }
    None
}

/// A slow tool's calls after the one that showed it: run together ([`Together`]) when it is
/// read-only and the time budget lasts, the input of the call cut at its first sign of life
/// first, then new ones until `planned` calls are made; each result judged as any (a failure
/// left as found: each try of a shrink would take as long). A crash or a stop ends them.
/// Another tool's calls are left. The calls made; the tool's note said in `tally.slow`.
async fn together<L: Link>(
    link: &mut L,
    tool: &Tool,
    (source, calling, planned): (&mut Source<'_>, &Calling, usize),
    mut calls: usize,
    found: &mut Found,
    progress: &mut impl Progress,
) -> Result<usize, L::Lost> {
    let Found {
        tally,
        failures,
        distinct,
    } = found;
    let slow = tally.slow.take().unwrap_or_default();
    let why_not = match (tool.annotations.read_only, calling.wait.in_budget()) {
        (Some(true), true) => None,
        (Some(true), false) => Some("the time budget was spent"),
        _ => Some(
            "not read-only, so they are not run together; a longer call timeout checks them: --call-timeout, or e in the TUI's trial pane",
        ),
    };
    if let Some(why_not) = why_not {
        tally.slow = Some(format!("{slow}; its other calls are left ({why_not})"));
        return Ok(calls);
    }
    let mut running = Together::new(link, tool, calling.wait).await?;
    let era = running.era();
    // The calls ended, as the run's progress tells them (those in flight are not counted).
    let mut done = calls;
    if let Some(args) = tally.unjudged.take() {
        tally.not_checked -= 1;
        done -= 1;
        running.start(args);
    }
    let mut ended = false;
    loop {
        while !ended && running.has_room() && calls < planned && calling.wait.in_budget() {
            match source.next().await {
                Some(args) => {
                    calls += 1;
                    running.start(args);
                }
                None => ended = true,
            }
        }
        let Some((args, outcome)) = running.next().await else {
            break;
        };
        let failed = match tally.outlasted(&outcome) {
            true => None,
            false => judged(outcome, calling, era, tally).await,
        };
        done += 1;
        progress.called(done, failures);
        let Some(failed) = failed else { continue };
        ended |= failed.kind.ends_the_batch();
        if distinct.count(&failed).is_some() {
            failures.push(as_found(args, failed));
            progress.called(done, failures);
        }
    }
    let outlasted = match tally.outlasted {
        0 => String::new(),
        n => format!("; {n} without a result by then, not judged"),
    };
    tally.slow = Some(format!(
        "{slow}; its calls then ran {TOGETHER} at a time, each waited for up to {} s{outlasted}",
        running.hard_secs()
    ));
    Ok(calls)
}

/// The calls a run is to make: `calls`, or a handful for a tool that takes no arguments.
fn planned(schema: &Value, calls: usize) -> usize {
    match takes_no_arguments(schema) {
        true => calls.min(NO_ARGUMENT_CALLS),
        false => calls,
    }
}

/// Whether the only input is `{}`: no properties and nothing that could add one.
fn takes_no_arguments(schema: &Value) -> bool {
    let empty = |key: &str| {
        schema
            .get(key)
            .is_none_or(|v| v.as_object().is_some_and(serde_json::Map::is_empty))
    };
    empty("properties")
        && empty("patternProperties")
        && ["allOf", "anyOf", "oneOf", "$ref", "if"]
            .iter()
            .all(|k| schema.get(*k).is_none())
}

/// The inputs of one tool's run: boundary values first, made one at a time as they are used
/// (a consecutive repeat skipped), then random ones. Each value is bounded; between two, a
/// signal, a stop or the time budget wins.
struct Inputs<'g> {
    boundary: Box<dyn Iterator<Item = Value> + Send + 'g>,
    last: Option<Value>,
    rng: Rng,
}

impl<'g> Inputs<'g> {
    /// Boundary values first, then random ones from `seed`.
    fn new(generator: &'g Gen<'g>, seed: u64, tool: &str) -> Inputs<'g> {
        Inputs {
            boundary: Box::new(generator.boundaries()),
            last: None,
            // A stream per tool: naming other tools does not change this one's inputs.
            rng: Rng::new(seed ^ name_hash(tool)),
        }
    }

    /// The next valid input, in a few tries of random ones; `None` when none came.
    async fn next(&mut self, generator: &Gen<'_>, valid: Valid<'_>) -> Option<Value> {
        let mut next = None;
        for v in self.boundary.by_ref() {
            tokio::task::yield_now().await;
            if valid(&v) && self.last.as_ref() != Some(&v) {
                next = Some(v);
                break;
            }
        }
        for _ in 0..TRIES {
            if next.is_some() {
                break;
            }
            tokio::task::yield_now().await;
            next = generator.random(&mut self.rng).filter(|v| valid(v));
        }
        self.last.clone_from(&next);
        next
    }
}

/// How a tool's run ended, for its report.
struct Ended {
    calls: usize,
    /// The calls the run was to make.
    planned: usize,
    invalid_calls: usize,
    /// No valid input could be made.
    no_input: bool,
    /// Why the generator refused a value, if it did.
    spent: Option<Spent>,
    timed_out: bool,
    lost: bool,
    /// Calls that hit a failure past the distinct ones kept.
    unkept: usize,
}

/// A failure as the report holds it, its input shrunk (as found, when the connection went
/// while shrinking: then its exit code too).
async fn shrunk<L: Link>(
    link: &mut L,
    tool: &Tool,
    (args, failed): (Value, Failed),
    calling: &Calling,
    valid: Valid<'_>,
) -> (Failure, Option<L::Lost>) {
    let (lost, shrunk) = match shrink(link, tool, args.clone(), &failed, calling, valid).await {
        Ok(shrunk) => (None, shrunk),
        Err(code) => (Some(code), unshrunk(&args, &failed)),
    };
    (entry(args, &failed, shrunk), lost)
}

/// A failure left as found (past the distinct failures shrunk).
fn as_found(args: Value, failed: Failed) -> Failure {
    let shrunk = unshrunk(&args, &failed);
    entry(args, &failed, shrunk)
}

fn unshrunk(args: &Value, failed: &Failed) -> Shrunk {
    Shrunk {
        input: args.clone(),
        calls: 0,
        message: failed.message.clone(),
        smallest: false,
    }
}

/// A failure's entry in the report.
fn entry(args: Value, failed: &Failed, shrunk: Shrunk) -> Failure {
    Failure {
        kind: failed.kind.reported(),
        at: failed.at.clone(),
        message: shrunk.message,
        input: shrunk.input,
        found: args,
        shrink_calls: shrunk.calls,
        smallest: Some(shrunk.smallest),
        hits: None,
        reproduce: None,
    }
}

/// One tool's run as the report holds it: ok, failed or not_checked (never ok when nothing
/// was called or a result could not be judged), with a note saying why it stopped.
/// A run that made fewer calls than planned, with no failure to show for it, is not a pass
/// (invariant 11): "2 of 100 calls: the time budget was spent".
fn report(tool: &str, ended: &Ended, tally: Tally, failures: Vec<Failure>) -> ToolReport {
    let of = format!("{} of {} calls", ended.calls, ended.planned);
    let note = match (
        ended.no_input,
        ended.timed_out,
        ended.lost,
        tally.not_checked_why,
    ) {
        (true, ..) => match ended.spent {
            Some(spent) => format!("{of}: {}", spent.words()),
            None => format!(
                "{of}: no valid input could be generated from the inputSchema (a pattern or `not` this cannot satisfy?)"
            ),
        },
        (_, true, ..) => "its calls stopped after a timeout".into(),
        _ if tally.unsent.is_some() || tally.slow.is_some() => {
            let why = tally.unsent.as_ref().or(tally.slow.as_ref());
            format!("{of}: {}", why.map_or("", String::as_str))
        }
        (_, _, true, _) => format!("{of}: the connection was lost, the run ended there"),
        (.., Some(why)) => format!("results not checked against the outputSchema: {why}"),
        _ if ended.calls < ended.planned => format!("{of}: the time budget was spent"),
        _ => String::new(),
    };
    let short = ended.calls < ended.planned && !ended.timed_out;
    let status = match (
        failures.is_empty(),
        tally.not_checked > 0 || ended.calls == 0 || short,
    ) {
        (false, _) => Reported::Failed,
        (true, true) => Reported::NotChecked,
        (true, false) => Reported::Ok,
    };
    ToolReport {
        tool: tool.to_string(),
        status,
        calls: ended.calls,
        invalid_calls: ended.invalid_calls,
        tool_errors: tally.tool_errors,
        not_checked: tally.not_checked,
        failures,
        note: (!note.is_empty()).then_some(note),
        unkept_failures: (ended.unkept > 0).then_some(ended.unkept),
    }
}

/// A failure's input shrunk: the input, the calls it took, the failure's words for it, and
/// whether it is the smallest the passes reach (false when the call budget ended it first).
struct Shrunk {
    input: Value,
    calls: usize,
    message: String,
    smallest: bool,
}

/// The failing input shrunk in passes (see [`super::shrink`]) while it stays valid and fails
/// the same way. A timeout is not shrunk: each try would wait for the timeout.
async fn shrink<L: Link>(
    link: &mut L,
    tool: &Tool,
    start: Value,
    failed: &Failed,
    calling: &Calling,
    valid: Valid<'_>,
) -> Result<Shrunk, L::Lost> {
    let kind = failed.kind;
    let mut out = Shrunk {
        input: start,
        calls: 0,
        message: failed.message.clone(),
        smallest: kind != Kind::Timeout,
    };
    if kind == Kind::Timeout {
        return Ok(out);
    }
    let mut ignored = Tally::default();
    // A timeout only tells a candidate apart here: not sent again.
    let mut calling = calling.clone();
    calling.wait.patient = false;
    let calling = &calling;
    'again: loop {
        for pass in [candidates, pairs] {
            for candidate in pass(&out.input) {
                if out.calls >= SHRINK_CALLS {
                    out.smallest = false;
                    break 'again;
                }
                if !valid(&candidate) {
                    continue;
                }
                out.calls += 1;
                // Smaller, and still the same bug: the same kind at the same place.
                if let Some(f) = attempt(link, tool, &candidate, calling, &mut ignored).await?
                    && f.key() == failed.key()
                {
                    (out.input, out.message) = (candidate, f.message);
                    continue 'again;
                }
            }
        }
        break;
    }
    Ok(out)
}

/// FNV-1a of a tool's name.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(calls: usize, planned: usize) -> Ended {
        Ended {
            calls,
            planned,
            invalid_calls: 0,
            no_input: false,
            spent: None,
            timed_out: false,
            lost: false,
            unkept: 0,
        }
    }

    /// Invariant 11: a run cut short by its budget, by inputs that could not be made or by a
    /// lost connection is NOT CHECKED with how far it got, never ok.
    #[test]
    fn fewer_calls_than_planned_is_never_a_pass() {
        let r = report("t", &ended(2, 100), Tally::default(), Vec::new());
        assert_eq!(r.status, Reported::NotChecked);
        assert_eq!(
            r.note.as_deref(),
            Some("2 of 100 calls: the time budget was spent")
        );
        let short = Ended {
            no_input: true,
            ..ended(2, 20)
        };
        let r = report("t", &short, Tally::default(), Vec::new());
        assert_eq!(r.status, Reported::NotChecked);
        assert!(
            r.note
                .as_deref()
                .is_some_and(|n| n.starts_with("2 of 20 calls: no valid input"))
        );
        let spent = Ended {
            no_input: true,
            spent: Some(Spent::TooLarge),
            ..ended(0, 20)
        };
        let r = report("t", &spent, Tally::default(), Vec::new());
        assert!(
            r.note
                .as_deref()
                .is_some_and(|n| n.contains("too large to generate"))
        );
        assert_eq!(
            report("t", &ended(100, 100), Tally::default(), Vec::new()).status,
            Reported::Ok
        );
    }
}
