//! `mcp-inspect verify [TOOL...]`: each tool the annotations let us call, called with inputs
//! generated from its inputSchema (boundaries, then random ones from the seed), every result
//! judged: a result that breaks the outputSchema (boxing unwrapped) or leaves out the
//! structuredContent it declares, a JSON-RPC error to a valid input, a timeout, a crash (the
//! server is started again for what remains). Each failure is shrunk to its smallest input and
//! reported with the call that reproduces it. Exit 1 when anything failed; 7 (unknown) when
//! nothing failed but a tool could not be verified: results its outputSchema could not judge,
//! no call made (the time budget spent, no valid input found). Never read as a pass.

use super::output::Report;
use super::status::{Counts, shown};
use crate::cli::{ConnectionArgs, VerifyFormat};
use crate::headless::exit;
use crate::mcp::Session;
use crate::mcp::surface::tool::Tool;
use crate::verify::calls::Link;
use crate::verify::plan::{Allow, refusal};
use crate::verify::report::{FailureKind, Status, ToolReport};
use crate::verify::run::{Settings, Verified, verify_tool};
use serde_json::{Value, json};
use std::time::Instant;

/// What `verify` was asked.
pub struct Options<'a> {
    pub tools: &'a [String],
    pub seed: Option<u64>,
    pub settings: Settings,
    pub allow: Allow,
    pub format: VerifyFormat,
}

/// A connection that is made again after the server crashed.
struct Restarting<'a> {
    connection: &'a ConnectionArgs,
    report: &'a Report,
    signals: super::Signals,
    session: Option<Session>,
}

impl Link for Restarting<'_> {
    /// The exit code of the failure, already told.
    type Lost = i32;

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
    let seed = options
        .seed
        .unwrap_or_else(crate::schema::generate::rng::fresh_seed);
    let mut link = Restarting {
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
    if chosen.is_empty() && !skipped.is_empty() {
        return all_skipped(&report, options.format, seed, &skipped);
    }
    tell_plan(
        &report,
        options.format,
        seed,
        &chosen,
        &skipped,
        options.settings.calls,
    );
    let words = super::connection_words(connection);
    let started = Instant::now();
    let mut results = Vec::new();
    for tool in chosen {
        let over = |s: Instant| options.settings.budget.is_some_and(|b| s.elapsed() > b);
        let (mut result, lost) = match over(started) {
            true => (
                ToolReport {
                    tool: tool.name.clone(),
                    note: Some("not called: --time-budget spent".into()),
                    ..ToolReport::default()
                },
                None,
            ),
            false => {
                let (settings, counts) = (&options.settings, Counts::default());
                let mut counting = counts.clone();
                let run = verify_tool(
                    &mut link,
                    (tool, None),
                    settings,
                    (seed, started),
                    &mut counting,
                );
                let line = |seconds| counts.line(&tool.name, seconds);
                let Verified { result, lost } = shown(&report, line, run).await;
                (result, lost)
            }
        };
        with_reproduce(&mut result, &tool.name, &words, &options.settings);
        if options.format == VerifyFormat::Text {
            tell_tool(&report, &result);
        }
        results.push(result);
        // The server could not be started again: what was found is told, then the reason.
        if let Some(code) = lost {
            return code;
        }
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
        match refusal(list, tool, &options.allow) {
            None => chosen.push(tool),
            // A tool the user named is not quietly left out: the run is refused with why.
            Some(why) if !options.tools.is_empty() => {
                return Err(format!(
                    "{} is not called: {why}",
                    crate::untrusted::line(&tool.name, 80)
                ));
            }
            Some(why) => skipped.push((tool.name.clone(), why)),
        }
    }
    Ok((chosen, skipped))
}

/// Nothing checked is not a pass: every tool skipped is said, with the flags that call them
/// (exit 7).
fn all_skipped(
    report: &Report,
    format: VerifyFormat,
    seed: u64,
    skipped: &[(String, String)],
) -> i32 {
    tell_plan(report, format, seed, &[], skipped, 0);
    report.error(
        &format!(
            "nothing verified: all {} were skipped ({})",
            crate::plural::count(skipped.len(), "tool"),
            crate::verify::plan::HOW_TO_ALLOW
        ),
        exit::UNKNOWN,
    )
}

/// Each failure given the command line that repeats it: a timeout with the wait it ran out of.
fn with_reproduce(result: &mut ToolReport, tool: &str, words: &[String], settings: &Settings) {
    for failure in &mut result.failures {
        let mut words = words.to_vec();
        if failure.kind == FailureKind::Timeout {
            // The call is repeated with the wait that found it hung (the second, patient one:
            // the hard maximum), not `call`'s own.
            let most = settings.call_limit * crate::verify::calls::PROGRESS_EXTENDS;
            let most = most.as_secs_f64().to_string();
            let flags = [
                "--timeout".to_string(),
                most.clone(),
                "--max-time".to_string(),
                most,
            ];
            words.splice(0..0, flags);
        }
        failure.reproduce = Some(reproduce(tool, &failure.input, &words));
    }
}

/// `mcp-inspect call TOOL --args '…' <connection>`, quoted for a shell.
fn reproduce(tool: &str, args: &Value, words: &[String]) -> String {
    let quote = crate::escape::shell_quote;
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
fn tell_tool(report: &Report, result: &ToolReport) {
    let line = |s: &str, n| crate::untrusted::line(s, n).into_owned();
    report.line(&format!(
        "{} {}: {} calls{}, {} tool errors (isError){}{}",
        result.status.head(),
        line(&result.tool, 60),
        result.calls,
        match result.invalid_calls {
            0 => String::new(),
            n => format!(" and {n} with invalid inputs"),
        },
        result.tool_errors,
        match result.not_checked {
            0 => String::new(),
            n => format!(", {n} not checked"),
        },
        (result.note.as_deref()).map_or(String::new(), |n| format!("; {}", line(n, 400)))
    ));
    for f in &result.failures {
        report.lines_under(("  ✗ ", "    "), &f.message, 8);
        if let Some(n) = f.hits {
            report.line(&format!("    hit by {}", crate::plural::count(n, "call")));
        }
        let input = crate::untrusted::json(&f.input, false);
        // "smallest" only where no pass found a smaller failing input.
        let what = match f.smallest {
            Some(true) => "smallest input",
            Some(false) => "input (shrinking cut short)",
            None => "input",
        };
        report.line(&match f.input == f.found {
            true => format!("    input: {input}"),
            false => format!(
                "    {what}: {input}  (shrunk from {} in {} calls)",
                crate::untrusted::json(&f.found, false),
                f.shrink_calls
            ),
        });
        let again = f.reproduce.as_deref().unwrap_or_default();
        report.line(&format!("    reproduce: {}", line(again, 2_000)));
    }
    if let Some(n) = result.unkept_failures {
        report.line(&format!(
            "  and {} hitting failures past the {} kept",
            crate::plural::count(n, "call"),
            result.failures.len()
        ));
    }
}

/// `verify --format json`: the seed, each tool's report, the tools left out and why.
#[derive(serde::Serialize)]
struct Whole<'r> {
    seed: u64,
    results: &'r [ToolReport],
    skipped: Vec<Value>,
}

/// The summary (text), the whole report (JSON) or the findings (SARIF); the exit code.
fn finish(
    report: &Report,
    format: VerifyFormat,
    seed: u64,
    skipped: &[(String, String)],
    results: &[ToolReport],
) -> i32 {
    let with = |status: Status| results.iter().filter(|r| r.status == status).count();
    let (failed, unknown) = (with(Status::Failed), with(Status::NotChecked));
    match format {
        VerifyFormat::Text => report.line(&format!(
            "{} failed, {} passed, {} not checked, {} skipped (seed {seed})",
            crate::plural::count(failed, "tool"),
            with(Status::Ok),
            unknown,
            skipped.len()
        )),
        VerifyFormat::Json => {
            let skipped: Vec<Value> = skipped
                .iter()
                .map(|(t, w)| json!({"tool": t, "why": w}))
                .collect();
            report.serialized(&Whole {
                seed,
                results,
                skipped,
            });
        }
        VerifyFormat::Sarif => {
            let unverified = results
                .iter()
                .filter(|r| r.status == Status::NotChecked)
                .map(|r| crate::sarif::Finding {
                    rule: "verify/not-checked",
                    level: "warning",
                    tool: &r.tool,
                    kind: crate::drift::compare::Kind::Tool,
                    pointer: "",
                    message: format!(
                        "not verified: {}",
                        r.note.as_deref().unwrap_or("no call made")
                    ),
                });
            let findings: Vec<crate::sarif::Finding> = results
                .iter()
                .flat_map(|r| {
                    r.failures.iter().map(|f| crate::sarif::Finding {
                        rule: "verify/failure",
                        level: "error",
                        tool: &r.tool,
                        kind: crate::drift::compare::Kind::Tool,
                        pointer: "",
                        message: format!(
                            "{} (input {}; {})",
                            f.message,
                            f.input,
                            f.reproduce.as_deref().unwrap_or_default()
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
