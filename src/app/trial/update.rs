//! The trial pane's part of `update`: `V` verifies the selected tool, `M` puts it under load
//! (each asked once for a tool that is not read-only), `x` stops the run, Enter opens a
//! finding as a call with its smallest input in the editor; progress and results arrive as
//! [`Update`]s from the connection task. Pure.

use super::state::{Body, Kind, Run, Sample, Trial};
use crate::app::command::Command;
use crate::app::effect::{Effect, Listed, SessionRequest};
use crate::app::model::{LogKind, Model, Pane};
use crate::app::tools::entry::ToolEntry;
use crate::verify::report::{Failure, LoadSummary, ToolReport};
use crate::verify::run::Settings;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// What the connection task tells of a run.
#[derive(Debug, Clone)]
pub enum Update {
    /// A verify run's calls so far, the seed it drew and the failures found.
    Verifying {
        run: u64,
        seed: u64,
        calls: usize,
        failures: Vec<Failure>,
    },
    /// A verify run ended: the tool's report, as `verify` gives it.
    Verified { run: u64, result: ToolReport },
    /// One interval of a load run.
    Sampled { run: u64, sample: Sample },
    /// A load run ended: its numbers, as `load` gives them.
    Loaded { run: u64, summary: Box<LoadSummary> },
    /// A run could not start or go on (no connection, arguments refused), said why.
    Ended { run: u64, why: String },
}

/// `V` or `M` on the selected tool: the run started, or a confirmation asked first.
pub fn start(model: &mut Model, kind: Kind) -> Vec<Effect> {
    let Some(entry) = model.selected_entry().cloned() else {
        model.view.status = Some("no tool selected".into());
        return Vec::new();
    };
    let tool = &entry.tool;
    if model.trial.run.as_ref().is_some_and(Run::running) {
        model.view.status = Some("a run is going on: x stops it first".into());
        return Vec::new();
    }
    if model.session.connection != crate::app::server::state::Connection::Connected {
        model.view.status = Some("not connected: r reconnects".into());
        return Vec::new();
    }
    let asked = model.trial.confirm.take();
    if let Some(risk) = risk(tool)
        && asked.as_ref() != Some(&(tool.name.clone(), kind))
    {
        let set = model.trial.settings;
        let what = match kind {
            Kind::Verify => format!("up to {} times with generated inputs", set.verify_calls),
            Kind::Load => format!(
                "for {} s from {} callers",
                set.load_seconds, set.load_callers
            ),
        };
        let layer = model.active_layer();
        let key = model.view.keymap.reachable_key(layer, kind_command(kind));
        let key = key.unwrap_or_else(|| kind_command(kind).name().into());
        model.view.status = Some(format!(
            "{} {risk}: {} calls it {what}. {key} again goes ahead",
            crate::untrusted::line(&tool.name, 60),
            kind.word(),
        ));
        model.trial.confirm = Some((tool.name.clone(), kind));
        return Vec::new();
    }
    let request = match request(model, &entry, (kind, model.trial.runs + 1)) {
        Ok(request) => request,
        Err(why) => {
            model.view.status = Some(why);
            return Vec::new();
        }
    };
    let set = model.trial.settings;
    let body = match kind {
        Kind::Verify => Body::Verify {
            seed: 0,
            planned: set.verify_calls,
            calls: 0,
            failures: Vec::new(),
            result: None,
        },
        Kind::Load => Body::Load {
            concurrency: set.load_callers,
            seconds: set.load_seconds,
            samples: Vec::new(),
            summary: None,
        },
    };
    let id = model.trial.runs + 1;
    model.trial = Trial {
        runs: id,
        run: Some(Run {
            id,
            tool: tool.name.clone(),
            kind,
            started: model.now,
            took: None,
            stopped: false,
            body,
        }),
        settings: set,
        ..Trial::default()
    };
    model.view.tab = crate::app::tabs::Tab::Tools;
    model.view.focus = Pane::Trial;
    vec![Effect::Session(request)]
}

/// What the connection task is asked for: a verify run, or a load run with the arguments
/// the call panel holds (refused, said why, when they do not fit).
fn request(
    model: &Model,
    entry: &Arc<ToolEntry>,
    (kind, run): (Kind, u64),
) -> Result<SessionRequest, String> {
    let set = model.trial.settings;
    let output = (model.call(&entry.tool.name)).and_then(|c| c.output().cloned());
    Ok(match kind {
        Kind::Verify => SessionRequest::Verify {
            run,
            tool: Listed(entry.clone()),
            output,
            settings: Settings {
                calls: set.verify_calls,
                budget: None,
                call_limit: Duration::from_secs_f64(set.verify_call_timeout),
                invalid: set.verify_invalid,
            },
        },
        Kind::Load => SessionRequest::Load {
            run,
            tool: Listed(entry.clone()),
            output,
            arguments: load_arguments(model, entry)?,
            callers: set.load_callers,
            duration: Duration::from_secs_f64(set.load_seconds),
        },
    })
}

/// Why a run on `tool` needs a second press: it is not read-only (and may destroy).
pub(super) fn risk(tool: &crate::mcp::surface::tool::Tool) -> Option<&'static str> {
    let hints = &tool.annotations;
    match (hints.read_only, hints.destructive) {
        (Some(true), _) => None,
        (_, Some(false)) => Some("writes (readOnlyHint is not true)"),
        (_, Some(true)) => Some("is destructive (destructiveHint: true)"),
        (_, None) => Some("may destroy (no destructiveHint)"),
    }
}

fn kind_command(kind: Kind) -> Command {
    match kind {
        Kind::Verify => Command::Verify,
        Kind::Load => Command::Load,
    }
}

/// The arguments a load run sends: the call panel's draft, or the schema's defaults when no
/// panel was opened; refused when they do not fit the inputSchema.
fn load_arguments(model: &Model, entry: &ToolEntry) -> Result<Value, String> {
    let fresh;
    let state = match model.call(&entry.tool.name) {
        Some(state) => state,
        // A large form is built off the UI thread, never here.
        None if entry.large_input() => {
            return Err("open the call panel first (a): the arguments come from it".into());
        }
        None => {
            fresh = crate::app::call::state::CallState::new(&entry.tool);
            &fresh
        }
    };
    match state.arguments() {
        Some(arguments) if state.is_valid() => Ok(arguments),
        _ => Err(
            "the arguments do not fit the inputSchema: fix them in the call panel (a) first".into(),
        ),
    }
}

/// `x`: the run stops (what it found so far is kept).
pub fn stop(model: &mut Model) -> Vec<Effect> {
    match model.trial.run.as_mut().filter(|r| r.running()) {
        Some(run) => {
            run.stopped = true;
            run.took = Some(model.now.saturating_duration_since(run.started));
            vec![Effect::Session(SessionRequest::StopTrial)]
        }
        None => {
            model.view.status = Some("no run is going on".into());
            Vec::new()
        }
    }
}

/// `V` and `M` anywhere they are bound, and the trial pane's own keys while it has the focus;
/// `None` for a command that is not the pane's.
pub fn route(model: &mut Model, command: Command) -> Option<Vec<Effect>> {
    match command {
        Command::Verify => Some(start(model, Kind::Verify)),
        Command::Load => Some(start(model, Kind::Load)),
        Command::StopTrial
        | Command::Open
        | Command::Down
        | Command::Up
        | Command::PageDown
        | Command::PageUp
        | Command::First
        | Command::Last
            if model.view.focus == Pane::Trial && model.view.overlay.is_none() =>
        {
            Some(self::command(model, command))
        }
        _ => None,
    }
}

/// The keys of the trial pane.
fn command(model: &mut Model, command: Command) -> Vec<Effect> {
    let rows = super::query::findings(&model.trial).len();
    let page = model.view.viewport.trial_rows.max(1);
    let cursor = &mut model.trial.cursor;
    match command {
        Command::StopTrial => return stop(model),
        Command::Open => return open_finding(model),
        Command::Down => *cursor = (*cursor + 1).min(rows.saturating_sub(1)),
        Command::Up => *cursor = cursor.saturating_sub(1),
        Command::PageDown => *cursor = (*cursor + page).min(rows.saturating_sub(1)),
        Command::PageUp => *cursor = cursor.saturating_sub(page),
        Command::First => *cursor = 0,
        Command::Last => *cursor = rows.saturating_sub(1),
        _ => {}
    }
    Vec::new()
}

/// Enter on a finding: its tool's call panel opens with the smallest input in the editor,
/// ready to send (and to copy as a command line).
fn open_finding(model: &mut Model) -> Vec<Effect> {
    let Some(run) = &model.trial.run else {
        return Vec::new();
    };
    let Some(input) = super::query::findings(&model.trial)
        .get(model.trial.cursor)
        .map(|f| f.input.clone())
    else {
        model.view.status = Some("no finding to open".into());
        return Vec::new();
    };
    let tool = run.tool.clone();
    let visible = model.tools.filter.visible.iter().position(|v| {
        model
            .tools
            .list
            .get(v.index)
            .is_some_and(|e| e.tool.name == tool)
    });
    let Some(position) = visible else {
        model.view.status = Some("the tool is not in the list now (a filter hides it?)".into());
        return Vec::new();
    };
    model.tools.selected = position;
    model.view.focus = Pane::Call;
    let Some(entry) = model.selected_entry().cloned() else {
        return Vec::new();
    };
    if entry.large_input() && model.call(&tool).is_none() {
        model.view.status = Some("the form is being built: Enter on the finding again".into());
        return Vec::new();
    }
    let state = model.panel_of(&entry.tool);
    state.set_text(&crate::untrusted::json(&input, true));
    state.editing = true;
    model.view.status = Some("the finding's input is in the editor: ctrl-s sends it".into());
    Vec::new()
}

/// A verify run's end: its result kept, said in the log's words.
fn verified(run: &mut Run, r: ToolReport) -> String {
    let tool = crate::untrusted::line(&run.tool, 60).into_owned();
    let Body::Verify {
        calls,
        failures,
        result,
        seed,
        ..
    } = &mut run.body
    else {
        return String::new();
    };
    *calls = r.calls;
    failures.clone_from(&r.failures);
    let said = super::query::verdict_line(&r);
    *result = Some(r);
    format!("verify {tool} (seed {seed}): {said}")
}

/// What the connection task told of a run.
pub fn updated(model: &mut Model, update: Update) {
    let now = model.now;
    let Some(run) = model.trial.run.as_mut() else {
        return;
    };
    let id = match &update {
        Update::Verifying { run, .. }
        | Update::Verified { run, .. }
        | Update::Sampled { run, .. }
        | Update::Loaded { run, .. }
        | Update::Ended { run, .. } => *run,
    };
    // A run before this one may still report: not heard. A stopped run says only its end.
    let ended = matches!(update, Update::Ended { .. });
    if run.id != id || (run.stopped && !ended) {
        return;
    }
    let took = now.saturating_duration_since(run.started);
    let log = match (update, &mut run.body) {
        (
            Update::Verifying {
                seed: s,
                calls: c,
                failures: f,
                ..
            },
            Body::Verify {
                seed,
                calls,
                failures,
                ..
            },
        ) => {
            (*seed, *calls, *failures) = (s, c, f);
            None
        }
        (Update::Verified { result, .. }, Body::Verify { .. }) => {
            run.took = Some(took);
            Some(verified(run, result))
        }
        (Update::Sampled { sample, .. }, Body::Load { samples, .. }) => {
            // A long run keeps its last ten minutes of samples.
            if samples.len() >= 1_200 {
                samples.remove(0);
            }
            samples.push(sample);
            None
        }
        (Update::Loaded { summary: s, .. }, Body::Load { summary, .. }) => {
            let said = super::query::load_line(&s);
            *summary = Some(s);
            run.took = Some(took);
            Some(format!(
                "load {}: {said}",
                crate::untrusted::line(&run.tool, 60)
            ))
        }
        (Update::Ended { why, .. }, _) => {
            run.took.get_or_insert(took);
            let why = crate::untrusted::label(&why);
            let tool = crate::untrusted::line(&run.tool, 60);
            Some(format!("{} {tool} ended: {why}", run.kind.word()))
        }
        _ => None,
    };
    if let Some(text) = log {
        model.push_log(LogKind::Event, text);
    }
}
