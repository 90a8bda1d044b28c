//! `mcp-inspect verify [TOOL...]`: each tool the annotations let us call, called with inputs
//! generated from its inputSchema (boundaries, then random ones from the seed), every result
//! judged: a result that breaks the outputSchema (boxing unwrapped) or leaves out the
//! structuredContent it declares, a JSON-RPC error to a valid input, a timeout, a crash (the
//! server is started again for what remains). Each failure is shrunk to its smallest input and
//! reported with the call that reproduces it. Exit 1 when anything failed; 7 (unknown) when
//! nothing failed but a tool could not be verified: results its outputSchema could not judge,
//! no call made (the time budget spent, no valid input found). Never read as a pass.

use super::output::Report;
use crate::cli::{ConnectionArgs, VerifyFormat};
use crate::mcp::session::error::exit;
use crate::mcp::surface::result::CallResult;
use crate::mcp::surface::tool::Tool;
use crate::mcp::{RequestError, Session};
use crate::schema::{Compiled, Status};
use crate::verify::generate::Gen;
use crate::verify::plan::{Allow, refusal};
use crate::verify::rng::Rng;
use crate::verify::shrink::candidates;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Calls spent shrinking one failure at most.
const SHRINK_CALLS: usize = 300;
/// Tries at generating a valid random input before giving up on one.
const TRIES: usize = 30;

/// What `verify` was asked.
pub struct Options<'a> {
    pub tools: &'a [String],
    pub calls: usize,
    pub seed: Option<u64>,
    pub budget: Option<Duration>,
    /// A call still running after this is cancelled and counts as a timeout.
    pub call_limit: Duration,
    /// Also send inputs the inputSchema refuses.
    pub invalid: bool,
    pub allow: Allow,
    pub format: VerifyFormat,
}

/// What one tool's calls gave besides failures.
#[derive(Default)]
struct Tally {
    tool_errors: usize,
    /// Results with an outputSchema to answer to that could not be judged.
    not_checked: usize,
    /// Why the first of them could not be.
    not_checked_why: Option<String>,
}

/// A connection that is made again after the server crashed.
struct Link<'a> {
    connection: &'a ConnectionArgs,
    report: &'a Report,
    signals: super::Signals,
    session: Option<Session>,
}

impl Link<'_> {
    /// The session, connected again when the last one closed.
    async fn session(&mut self) -> Result<&Session, i32> {
        if self.session.as_ref().is_some_and(Session::is_closed)
            && let Some(old) = self.session.take()
        {
            old.shutdown().await;
        }
        if self.session.is_none() {
            let (events, mut receiver) = crate::mcp::EventSink::new();
            let session = super::connect(
                self.connection,
                self.report,
                &mut self.signals,
                &events,
                &mut receiver,
            )
            .await?;
            self.session = Some(session);
        }
        self.session.as_ref().ok_or(exit::ERROR)
    }
}

/// Why a call failed, as the report names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
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
    fn word(self) -> &'static str {
        match self {
            Kind::BreaksOutputSchema => "breaks_output_schema",
            Kind::NoStructuredContent => "missing_structured_content",
            Kind::ServerError(_) => "server_error",
            Kind::Timeout => "timeout",
            Kind::Crash => "crash",
            Kind::Malformed => "malformed_answer",
            Kind::AcceptedInvalid => "accepted_invalid_input",
        }
    }
}

pub async fn run(connection: &ConnectionArgs, options: Options<'_>) -> i32 {
    // Listened to beside the connection's own (which watches connecting): any of them ends
    // the run at once, the server closed.
    let mut signals = super::Signals::new();
    let format = options.format;
    tokio::select! {
        code = verify_all(connection, options) => code,
        signal = signals.next() => {
            report_for(format).error(&format!("interrupted by {signal}"), 130)
        }
    }
}

/// Errors and notes in text, or as JSON for the JSON and SARIF reports.
fn report_for(format: VerifyFormat) -> Report {
    Report {
        format: match format {
            VerifyFormat::Text => crate::cli::Format::Text,
            _ => crate::cli::Format::Json,
        },
    }
}

async fn verify_all(connection: &ConnectionArgs, options: Options<'_>) -> i32 {
    let report = report_for(options.format);
    let seed = options.seed.unwrap_or_else(fresh_seed);
    let mut link = Link {
        connection,
        report: &report,
        signals: super::Signals::new(),
        session: None,
    };
    let tools = match link.session().await {
        Ok(session) => match session.list_tools().await {
            Ok(list) => list,
            Err(e) => return report.error(&format!("tools/list failed: {e}"), exit::ERROR),
        },
        Err(code) => return code,
    };
    let (chosen, skipped) = match plan(&tools, &options) {
        Ok(plan) => plan,
        Err(unknown) => return report.error(&unknown, exit::ERROR),
    };
    tell_plan(
        &report,
        options.format,
        seed,
        &chosen,
        &skipped,
        options.calls,
    );
    let words = connection
        .options()
        .map(|o| o.target.words())
        .unwrap_or_default();
    let started = Instant::now();
    let mut results = Vec::new();
    for tool in chosen {
        let over = |s: Instant| options.budget.is_some_and(|b| s.elapsed() > b);
        let mut result = match over(started) {
            true => {
                json!({"tool": tool.name, "status": "not_checked", "calls": 0, "toolErrors": 0, "failures": [], "note": "not called: --time-budget spent"})
            }
            false => match verify_tool(&mut link, tool, &options, seed, started).await {
                Ok(result) => result,
                Err(code) => return code,
            },
        };
        let failures = result["failures"].as_array_mut().into_iter().flatten();
        for failure in failures {
            failure["reproduce"] = json!(reproduce(&tool.name, &failure["input"], &words));
        }
        if options.format == VerifyFormat::Text {
            tell_tool(&report, &result);
        }
        results.push(result);
    }
    if let Some(session) = link.session.take() {
        session.shutdown().await;
    }
    finish(&report, options.format, seed, &skipped, &results)
}

/// The tools called, and those left out with why.
type Planned<'t> = (Vec<&'t Tool>, Vec<(String, String)>);

/// The tools to call (those named, or all) and those left out with why.
fn plan<'t>(list: &'t crate::mcp::ToolList, options: &Options<'_>) -> Result<Planned<'t>, String> {
    let tools = &list.tools;
    for name in options.tools {
        if !tools.iter().any(|t| &t.name == name) {
            return Err(list.unknown(name));
        }
    }
    let named = |t: &Tool| options.tools.is_empty() || options.tools.contains(&t.name);
    let (mut chosen, mut skipped) = (Vec::new(), Vec::new());
    for tool in tools.iter().filter(|t| named(t)) {
        match refusal(tool, &options.allow) {
            None => chosen.push(tool),
            Some(why) => skipped.push((tool.name.clone(), why)),
        }
    }
    Ok((chosen, skipped))
}

/// Calls one tool with generated inputs; its result as the report holds it.
async fn verify_tool(
    link: &mut Link<'_>,
    tool: &Tool,
    options: &Options<'_>,
    seed: u64,
    started: Instant,
) -> Result<Value, i32> {
    let input = Compiled::new(&tool.input_schema);
    let valid = |v: &Value| input.check(v).is_ok_and(|c| c.violations.is_empty());
    let generator = Gen::new(&tool.input_schema);
    let mut queue: Vec<Value> = generator
        .boundaries(options.calls.saturating_mul(4))
        .into_iter()
        .filter(|v| valid(v))
        .collect();
    queue.dedup();
    queue.reverse();
    // A stream per tool: naming other tools does not change this one's inputs.
    let mut rng = Rng::new(seed ^ name_hash(&tool.name));
    let (mut calls, mut unmade, mut tally) = (0, 0, Tally::default());
    let mut failures: Vec<Value> = Vec::new();
    let mut seen: Vec<Kind> = Vec::new();
    let mut stopped = false;
    while !stopped && calls < options.calls && options.budget.is_none_or(|b| started.elapsed() <= b)
    {
        let Some(args) = queue.pop().or_else(|| {
            (0..TRIES)
                .map(|_| generator.random(&mut rng))
                .find(|v| valid(v))
        }) else {
            unmade += 1;
            if unmade > 3 {
                break;
            }
            continue;
        };
        calls += 1;
        let limit = options.call_limit;
        let Some((kind, message)) = attempt(link, tool, &args, limit, &mut tally).await? else {
            continue;
        };
        // Each call after a timeout would most likely wait as long: the tool is left.
        if kind == Kind::Timeout {
            stopped = true;
        }
        if seen.contains(&kind) {
            continue;
        }
        seen.push(kind);
        let (smallest, shrink_calls, message) =
            shrink(link, tool, args.clone(), (kind, message), limit, &valid).await?;
        failures.push(json!({
            "kind": kind.word(),
            "message": message,
            "input": smallest,
            "found": args,
            "shrinkCalls": shrink_calls,
        }));
    }
    let invalid_calls = match options.invalid {
        true => invalid_inputs(link, tool, &generator, &input, options, &mut failures).await?,
        false => 0,
    };
    let status = match (failures.is_empty(), tally.not_checked > 0 || calls == 0) {
        (false, _) => "failed",
        (true, true) => "not_checked",
        (true, false) => "ok",
    };
    let mut result = json!({
        "tool": tool.name,
        "status": status,
        "calls": calls,
        "invalidCalls": invalid_calls,
        "toolErrors": tally.tool_errors,
        "notChecked": tally.not_checked,
        "failures": failures,
    });
    let note = match (unmade > 3, stopped, tally.not_checked_why) {
        (true, ..) => {
            "no valid input could be generated from the inputSchema (a pattern or `not` this cannot satisfy?)".into()
        }
        (_, true, _) => "its calls stopped after a timeout".into(),
        (.., Some(why)) => format!("results not checked against the outputSchema: {why}"),
        _ => String::new(),
    };
    if !note.is_empty() {
        result["note"] = json!(note);
    }
    Ok(result)
}

/// `--invalid`: the inputs one mistake away that the schema refuses, each sent; a failure of
/// each kind kept (with why the schema refuses the input). How many were sent.
async fn invalid_inputs(
    link: &mut Link<'_>,
    tool: &Tool,
    generator: &Gen<'_>,
    input: &Compiled,
    options: &Options<'_>,
    failures: &mut Vec<Value>,
) -> Result<usize, i32> {
    let refused = |v: &Value| {
        let checked = input.check(v).ok()?;
        let first = checked.violations.first()?;
        let at = if first.instance_path.is_empty() {
            "/"
        } else {
            &first.instance_path
        };
        Some(format!("at {at} ({}): {}", first.keyword, first.message))
    };
    let mut seen: Vec<Kind> = Vec::new();
    let mut sent = 0;
    for args in generator.invalid(options.calls) {
        let Some(why) = refused(&args) else {
            continue;
        };
        sent += 1;
        let Some((kind, message)) = attempt_invalid(link, tool, &args, options.call_limit).await?
        else {
            continue;
        };
        if !seen.contains(&kind) {
            seen.push(kind);
            failures.push(json!({
                "kind": kind.word(),
                "message": format!("{message} (the inputSchema refuses it {why})"),
                "input": args,
                "found": args,
                "shrinkCalls": 0,
            }));
        }
    }
    Ok(sent)
}

/// One call with a valid input, judged: `None` when it went well (a tool error, `isError`,
/// is a tool's answer, counted, not a failure; a result that could not be judged is counted
/// too, never taken for a pass).
async fn attempt(
    link: &mut Link<'_>,
    tool: &Tool,
    args: &Value,
    limit: Duration,
    tally: &mut Tally,
) -> Result<Option<(Kind, String)>, i32> {
    let result = match send(link, tool, args, limit).await? {
        Ok(result) => result,
        Err(RequestError::Server { code, message, .. }) => {
            let said = format!("the server answered error {code} to a valid input: {message}");
            return Ok(Some((Kind::ServerError(code), said)));
        }
        Err(e) => return Ok(Some(failure(e, limit))),
    };
    let schema = tool.output_schema.clone();
    let era = link.session().await?.server.era;
    let verdict = tokio::task::spawn_blocking(move || {
        let compiled = schema.as_deref().map(Compiled::new);
        result.verdict(schema.as_deref().zip(compiled.as_ref()), era)
    })
    .await
    .map_err(|_| exit::ERROR)?;
    Ok(match verdict.status {
        Status::ToolError => {
            tally.tool_errors += 1;
            None
        }
        Status::Violations => {
            let first = verdict.violations.first().map_or(String::new(), |v| {
                let at = if v.instance_path.is_empty() {
                    "/"
                } else {
                    &v.instance_path
                };
                format!(": at {at} ({}): {}", v.keyword, v.message)
            });
            Some((
                Kind::BreaksOutputSchema,
                format!("the result breaks its outputSchema{first}"),
            ))
        }
        Status::MissingStructuredContent => Some((
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
    })
}

/// One call with an input the inputSchema refuses (`--invalid`): it must get a tool error or
/// the JSON-RPC error for invalid params (-32602); a success, another error, a timeout or a
/// crash is a failure.
async fn attempt_invalid(
    link: &mut Link<'_>,
    tool: &Tool,
    args: &Value,
    limit: Duration,
) -> Result<Option<(Kind, String)>, i32> {
    Ok(match send(link, tool, args, limit).await? {
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
    })
}

/// Sends one call; a call still running at `limit` is cancelled.
async fn send(
    link: &mut Link<'_>,
    tool: &Tool,
    args: &Value,
    limit: Duration,
) -> Result<Result<CallResult, RequestError>, i32> {
    let session = link.session().await?;
    let as_task = tool.task_support() == Some("required");
    Ok(
        match session.start_call(&tool.name, args.clone(), as_task).await {
            Ok(pending) => pending.result_or_cancel(tokio::time::sleep(limit)).await,
            Err(e) => Err(e),
        },
    )
}

/// A call that got no result, as a failure.
fn failure(error: RequestError, limit: Duration) -> (Kind, String) {
    match error {
        RequestError::Cancelled => {
            let limit = limit.as_secs_f64();
            let said = format!("no result within {limit} s (--call-timeout): cancelled");
            (Kind::Timeout, said)
        }
        e @ (RequestError::Timeout(_) | RequestError::TooLong(_)) => (Kind::Timeout, e.to_string()),
        e @ RequestError::Closed(_) => (Kind::Crash, format!("the server crashed: {e}")),
        e => (Kind::Malformed, e.to_string()),
    }
}

/// The smallest valid input that still fails the same way, the calls it took, and the
/// failure's words for it. A timeout is not shrunk: each try would wait for the timeout.
async fn shrink(
    link: &mut Link<'_>,
    tool: &Tool,
    start: Value,
    (kind, message): (Kind, String),
    limit: Duration,
    valid: &dyn Fn(&Value) -> bool,
) -> Result<(Value, usize, String), i32> {
    if kind == Kind::Timeout {
        return Ok((start, 0, message));
    }
    let (mut now, mut said, mut calls, mut ignored) = (start, message, 0, Tally::default());
    'again: loop {
        for candidate in candidates(&now) {
            if calls >= SHRINK_CALLS {
                break 'again;
            }
            if !valid(&candidate) {
                continue;
            }
            calls += 1;
            if let Some((k, m)) = attempt(link, tool, &candidate, limit, &mut ignored).await?
                && k == kind
            {
                (now, said) = (candidate, m);
                continue 'again;
            }
        }
        break;
    }
    Ok((now, calls, said))
}

/// `mcp-inspect call TOOL --args '…' <connection>`, quoted for a shell.
fn reproduce(tool: &str, args: &Value, words: &[String]) -> String {
    let quote = crate::app::copy::shell_quote;
    let mut line = format!(
        "mcp-inspect call {} --args {}",
        quote(tool),
        quote(&args.to_string())
    );
    for word in words {
        line.push(' ');
        line.push_str(&quote(word));
    }
    line
}

fn fresh_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(0, |d| d.as_nanos() as u64) ^ u64::from(std::process::id())
}

/// FNV-1a of a tool's name.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The plan, before the first call: on stdout in text, on stderr otherwise.
fn tell_plan(
    report: &Report,
    format: VerifyFormat,
    seed: u64,
    chosen: &[&Tool],
    skipped: &[(String, String)],
    calls: usize,
) {
    let line = crate::untrusted::line;
    let mut lines = vec![format!("seed {seed} (--seed {seed} repeats this run)")];
    let names: Vec<String> = chosen
        .iter()
        .map(|t| line(&t.name, 60).into_owned())
        .collect();
    lines.push(format!(
        "plan: {} at most {calls} calls each: {}",
        crate::plural::count(chosen.len(), "tool"),
        names.join(", ")
    ));
    for (name, why) in skipped {
        lines.push(format!("skipped {}: {why}", line(name, 60)));
    }
    for text in lines {
        match format {
            VerifyFormat::Text => report.line(&text),
            _ => report.note(&text),
        }
    }
}

/// One tool's outcome in words.
fn tell_tool(report: &Report, result: &Value) {
    let line =
        |v: &Value, n| crate::untrusted::line(v.as_str().unwrap_or_default(), n).into_owned();
    let failures = result["failures"].as_array().map_or(&[][..], Vec::as_slice);
    let head = match result["status"].as_str() {
        Some("ok") => "ok",
        Some("not_checked") => "NOT CHECKED",
        _ => "FAIL",
    };
    report.line(&format!(
        "{head} {}: {} calls{}, {} tool errors (isError){}{}",
        line(&result["tool"], 60),
        result["calls"],
        match result["invalidCalls"].as_u64() {
            Some(n) if n > 0 => format!(" and {n} with invalid inputs"),
            _ => String::new(),
        },
        result["toolErrors"],
        match result["notChecked"].as_u64() {
            Some(n) if n > 0 => format!(", {n} not checked"),
            _ => String::new(),
        },
        result
            .get("note")
            .map_or(String::new(), |n| format!("; {}", line(n, 200)))
    ));
    for f in failures {
        report.line(&format!("  ✗ {}", line(&f["message"], 400)));
        let input = crate::untrusted::json(&f["input"], false);
        report.line(&match f["input"] == f["found"] {
            true => format!("    input: {input}"),
            false => format!(
                "    smallest input: {input}  (shrunk from {} in {} calls)",
                crate::untrusted::json(&f["found"], false),
                f["shrinkCalls"]
            ),
        });
        report.line(&format!("    reproduce: {}", line(&f["reproduce"], 2_000)));
    }
}

/// The summary (text), the whole report (JSON) or the findings (SARIF); the exit code.
fn finish(
    report: &Report,
    format: VerifyFormat,
    seed: u64,
    skipped: &[(String, String)],
    results: &[Value],
) -> i32 {
    let with = |status: &str| results.iter().filter(|r| r["status"] == status).count();
    let (failed, unknown) = (with("failed"), with("not_checked"));
    match format {
        VerifyFormat::Text => report.line(&format!(
            "{} failed, {} passed, {} not checked, {} skipped (seed {seed})",
            crate::plural::count(failed, "tool"),
            with("ok"),
            unknown,
            skipped.len()
        )),
        VerifyFormat::Json => {
            let skipped: Vec<Value> = skipped
                .iter()
                .map(|(t, w)| json!({"tool": t, "why": w}))
                .collect();
            report.json(&json!({"seed": seed, "results": results, "skipped": skipped}));
        }
        VerifyFormat::Sarif => {
            let unverified = results
                .iter()
                .filter(|r| r["status"] == "not_checked")
                .map(|r| crate::sarif::Finding {
                    rule: "verify/not-checked",
                    level: "warning",
                    tool: r["tool"].as_str().unwrap_or_default(),
                    pointer: "",
                    message: format!(
                        "not verified: {}",
                        r["note"].as_str().unwrap_or("no call made")
                    ),
                });
            let findings: Vec<crate::sarif::Finding> = results
                .iter()
                .flat_map(|r| {
                    let tool = r["tool"].as_str().unwrap_or_default();
                    let failures = r["failures"].as_array().map_or(&[][..], Vec::as_slice);
                    failures.iter().map(move |f| crate::sarif::Finding {
                        rule: "verify/failure",
                        level: "error",
                        tool,
                        pointer: "",
                        message: format!(
                            "{} (smallest input {}; {})",
                            f["message"].as_str().unwrap_or_default(),
                            f["input"],
                            f["reproduce"].as_str().unwrap_or_default()
                        ),
                    })
                })
                .chain(unverified)
                .collect();
            report.json(&crate::sarif::log(&findings, None));
        }
    }
    match (failed, unknown) {
        (0, 0) => exit::OK,
        (0, _) => exit::UNKNOWN,
        _ => exit::ERROR,
    }
}
