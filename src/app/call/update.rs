//! The call panel's part of `update`: editing arguments, sending with confirmation, progress,
//! cancellation, results with their verdicts, and moving through past results. Pure.

use crate::app::call::state::Judged;
use crate::app::call::state::{CallState, Confirm, HostCall, InFlight, Made, Outcome, Record};
use crate::app::command::Command;
use crate::app::effect::{Effect, SessionRequest};
use crate::app::model::{LogKind, Model, Pane};
use crate::app::outline;
use crate::app::tools::entry::ToolEntry;
use crate::mcp::RequestError;
use crate::mcp::surface::tool::Tool;
use crossterm::event::KeyEvent;
use std::time::Instant;

/// The selected tool and its call panel (created on first use; a large tool's comes from a
/// blocking thread, see [`build_large`], and is none until it does).
fn panel(model: &mut Model) -> Option<(std::sync::Arc<ToolEntry>, &mut CallState)> {
    // The entry, not its tool: cloning a large schema on every key costs milliseconds.
    let entry = model.selected_entry()?.clone();
    // A tool large only by its output schema gets its panel at once: a key pressed right
    // after `a` (`ctrl-s`) is not lost while a form is built.
    if entry.large_input() && model.call(&entry.tool.name).is_none() {
        model.view.status = Some(BUILDING.into());
        return None;
    }
    let state = model.panel_of(&entry.tool);
    Some((entry, state))
}

const BUILDING: &str = "the form is being built: a moment";

/// The call panel of a large selected tool, once asked for (the panel focused), is built off
/// the UI thread: its form and validators take their time on a schema that size.
pub fn build_large(model: &mut Model) -> Vec<Effect> {
    if model.view.focus != Pane::Call {
        return Vec::new();
    }
    let Some(entry) = model.selected_entry().filter(|e| e.large_input()).cloned() else {
        return Vec::new();
    };
    let per = model
        .tools
        .per_tool
        .entry(entry.tool.name.clone())
        .or_default();
    if per.call.is_some() || per.building_call {
        return Vec::new();
    }
    per.building_call = true;
    vec![Effect::BuildCall(crate::app::effect::Listed(entry))]
}

/// A large tool's call panel arrived; kept when its tool is still the one listed.
pub fn built(model: &mut Model, entry: &std::sync::Arc<ToolEntry>, state: Option<CallState>) {
    let current = model
        .tools
        .list
        .iter()
        .any(|t| std::sync::Arc::ptr_eq(t, entry));
    if let Some(per) = model.tools.per_tool.get_mut(&entry.tool.name) {
        per.building_call = false;
        if current && per.call.is_none() {
            per.call = state;
        }
    }
    if model.view.status.as_deref() == Some(BUILDING) {
        model.view.status = None;
    }
}

/// The validator of a panel's arguments, compiled after the panel: the draft is checked now.
pub fn input_compiled(
    model: &mut Model,
    entry: &std::sync::Arc<ToolEntry>,
    input: Option<crate::schema::Compiled>,
) {
    let (Some(input), Some(state)) = (input, model.call_mut(&entry.tool.name)) else {
        return;
    };
    if state.awaits_input(&entry.tool.input_schema) {
        state.set_input(input);
        state.refresh_choices();
    }
}

/// A key the editor layer does not bind goes into the text (or moves its cursor).
pub fn type_into_editor(model: &mut Model, key: KeyEvent) {
    if let Some((_, state)) = panel(model) {
        if state.draft.key(key) {
            state.check();
        }
        state.refresh_choices();
    }
}

/// `ctrl-n` in the editor: the next value the schema names for the cursor's line.
pub fn next_choice(model: &mut Model) {
    if model.view.focus != Pane::Call {
        return;
    }
    if let Some((_, state)) = panel(model)
        && let Err(why) = state.put_next_choice()
    {
        model.view.status = Some(why);
    }
}

pub fn paste(model: &mut Model, text: &str) {
    if model.view.focus == Pane::Call
        && let Some((_, state)) = panel(model)
        && state.editing
    {
        state.draft.paste(text);
        state.check();
    }
}

pub fn command(model: &mut Model, command: Command) -> Vec<Effect> {
    if command == Command::KeepTest {
        return crate::app::saved::kept_tests::keep(model);
    }
    if command == Command::ReadLink {
        return read_link(model);
    }
    let destructive = model
        .selected_entry()
        .is_some_and(|e| e.tool.annotations.destructive == Some(true));
    let era = model.session.server.as_ref().map(|s| s.era);
    let excluded = model
        .selected_entry()
        .zip(era)
        .is_some_and(|(e, era)| e.tool.excluded_in(era).is_some());
    let page = model.view.viewport.call_rows.max(1);
    let now = model.now;
    let mut status = None;
    let mut effects = Vec::new();
    let Some((entry, state)) = panel(model) else {
        return effects;
    };
    let tool = &entry.tool;
    let Some(command) = rerun_as_send(state, command) else {
        model.view.status = Some("no past call to run again".into());
        return effects;
    };
    match command {
        Command::Call | Command::Edit => state.editing = true,
        Command::LeaveEditor => state.editing = false,
        Command::ToggleTask => match tool.task_support() {
            Some("optional") => state.as_task = !state.as_task,
            Some("required") => status = Some("this tool always runs as a task".into()),
            _ => status = Some("this tool does not run as a task (execution.taskSupport)".into()),
        },
        Command::Undo
        | Command::Redo
        | Command::ToggleForm
        | Command::ResetArguments
        | Command::ClearArguments
        | Command::FormatArguments => status = edit_draft(state, tool, command),
        Command::ExternalEditor => effects.push(Effect::EditExternally {
            tool: tool.name.clone(),
            text: state.text(),
        }),
        Command::Send => match send(state, excluded, destructive) {
            Ok(arguments) => {
                let (output, as_task) = (state.output().cloned(), state.as_task);
                let id = start(model, &tool.name, arguments.clone(), now);
                effects.push(Effect::Session(SessionRequest::Call {
                    tool: tool.name.clone(),
                    id,
                    arguments,
                    output,
                    as_task,
                }));
            }
            Err(message) => status = Some(message),
        },
        Command::CancelCall => match &mut state.in_flight {
            Some(f) if !f.cancelling => {
                f.cancelling = true;
                effects.push(Effect::Session(SessionRequest::Cancel { id: f.id }));
            }
            Some(_) => status = Some("already cancelling".into()),
            None => status = Some("no call in flight".into()),
        },
        Command::Back => model.view.focus = Pane::Tool,
        command => status = browse_results(state, command, page),
    }
    if status.is_some() {
        model.view.status = status;
    }
    effects
}

/// A past call again (`Rerun`): its arguments become the draft, sent as a draft is; `None`
/// when no past call is shown. Other commands as they are.
fn rerun_as_send(state: &mut CallState, command: Command) -> Option<Command> {
    if command != Command::Rerun {
        return Some(command);
    }
    let arguments = state.shown_record()?.arguments.clone();
    state.set_text(&crate::untrusted::json(&arguments, true));
    Some(Command::Send)
}

/// The commands that change the draft as a whole: undo and redo, form or JSON, reset, clear,
/// format. What to say, if anything.
fn edit_draft(state: &mut CallState, tool: &Tool, command: Command) -> Option<String> {
    let mut status = None;
    match command {
        Command::Undo | Command::Redo => {
            if !state.draft.undo(command == Command::Redo) {
                status = Some("nothing to undo".into());
            }
            state.check();
            state.refresh_choices();
        }
        Command::ToggleForm => {
            if let Err(why) = state.draft.toggle() {
                status = Some(why);
            }
            state.check();
            state.refresh_choices();
        }
        Command::ResetArguments => state.reset(tool),
        Command::ClearArguments => {
            state.set_text("{}");
            // Typing goes between the braces.
            let jump = ratatui_textarea::CursorMove::Jump(0, 1);
            state.draft.editor.move_cursor(jump);
        }
        Command::FormatArguments => {
            match serde_json::from_str::<serde_json::Value>(&state.text()) {
                Ok(draft) => state.set_text(&crate::untrusted::json(&draft, true)),
                Err(e) => status = Some(format!("not formatted: not JSON ({e})")),
            }
        }
        _ => {}
    }
    status
}

/// A call of `tool` goes out: it gets the next id (returned), and the panel shows it in flight.
/// Calls `tool` again with `arguments` (`--watch --rerun`), the panel's draft and editing
/// left as they are; none when a call of the tool is in flight.
pub fn call_again(
    model: &mut Model,
    tool: &str,
    arguments: serde_json::Value,
) -> Option<(u64, Effect)> {
    let state = model.call_mut(tool)?;
    if state.in_flight.is_some() {
        return None;
    }
    let (output, as_task, editing) = (state.output().cloned(), state.as_task, state.editing);
    let id = start(model, tool, arguments.clone(), model.now);
    if let Some(state) = model.call_mut(tool) {
        state.editing = editing;
    }
    let call = SessionRequest::Call {
        tool: tool.to_string(),
        id,
        arguments,
        output,
        as_task,
    };
    Some((id, Effect::Session(call)))
}

fn start(model: &mut Model, tool: &str, arguments: serde_json::Value, now: Instant) -> u64 {
    let id = model.session.next_call_id;
    model.session.next_call_id += 1;
    if let Some(state) = model.call_mut(tool) {
        state.in_flight = Some(InFlight {
            id,
            arguments,
            started: now,
            progress: None,
            last_activity: now,
            token: None,
            request: None,
            cancelling: false,
        });
        state.editing = false;
    }
    id
}

/// `o` on a result: reads the resource its next `resource_link` names, in the library (only on
/// this key: a link is the server's word, never followed on arrival).
fn read_link(model: &mut Model) -> Vec<Effect> {
    let Some((_, state)) = panel(model) else {
        return Vec::new();
    };
    let links: Vec<String> = match state.shown_record().map(|r| &r.outcome) {
        Some(Outcome::Result { result, .. }) => result
            .content
            .iter()
            .filter_map(|c| match c {
                crate::mcp::surface::result::Content::ResourceLink { uri, .. } => Some(uri.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    if links.is_empty() {
        model.view.status = Some("this result links to no resource".into());
        return Vec::new();
    }
    let uri = links[state.links_read % links.len()].clone();
    state.links_read += 1;
    vec![Effect::Handoff(crate::app::effect::Handoff::ReadLink(uri))]
}

/// Moving through the results: pages, the value tree's rows, older and newer results, the raw
/// value, violations. What to say, if anything.
fn browse_results(state: &mut CallState, command: Command, page: usize) -> Option<String> {
    match command {
        Command::PageDown => state.scroll += page,
        Command::PageUp => state.scroll = state.scroll.saturating_sub(page),
        Command::Down
        | Command::Up
        | Command::First
        | Command::Last
        | Command::Expand
        | Command::Collapse
        | Command::Toggle => return value_command(state, command),
        Command::OlderResult | Command::NewerResult => {
            let newest = state.history.len().saturating_sub(1);
            let at = state.shown.unwrap_or(newest);
            let next = if command == Command::OlderResult {
                at.saturating_sub(1)
            } else {
                (at + 1).min(newest)
            };
            state.shown = if next == newest { None } else { Some(next) };
            state.scroll = 0;
        }
        Command::ToggleRawValue => state.raw_value = !state.raw_value,
        Command::NextViolation | Command::PrevViolation => {
            return jump_to_violation(state, command == Command::NextViolation);
        }
        _ => {}
    }
    None
}

/// Checks a send against the draft: not JSON is refused; schema violations and destructive
/// hints need a second press.
fn send(
    state: &mut CallState,
    excluded: bool,
    destructive: bool,
) -> Result<serde_json::Value, String> {
    if state.in_flight.is_some() {
        return Err("a call is already in flight (ctrl-x cancels it)".into());
    }
    let Some(arguments) = state.arguments() else {
        return Err(state
            .parse_error
            .clone()
            .unwrap_or_else(|| "the arguments are not a JSON object".into()));
    };
    // One confirmation at a time, the gravest first: each press of send passes one.
    let needed: Vec<Confirm> = [
        (excluded, Confirm::Excluded),
        (!state.violations.is_empty(), Confirm::InvalidArguments),
        (destructive, Confirm::Destructive),
    ]
    .into_iter()
    .filter_map(|(needed, c)| needed.then_some(c))
    .collect();
    let passed = state
        .confirm
        .and_then(|c| needed.iter().position(|n| *n == c))
        .map_or(0, |at| at + 1);
    match needed.get(passed) {
        Some(&c) => {
            state.confirm = Some(c);
            Err(c.question(state.violations.len()))
        }
        None => {
            state.confirm = None;
            Ok(arguments)
        }
    }
}

/// Moves the value cursor or opens and closes rows of the value tree.
fn value_command(state: &mut CallState, command: Command) -> Option<String> {
    let Some(view) = state.value_view() else {
        return Some("no value to move in".into());
    };
    // Page keys scroll the whole result page (see above), so no page size is needed here.
    outline::step_in(&view.tree, &mut view.open, &mut view.cursor, command);
    view.follow = true;
    None
}

/// Moves the value cursor to the next (or previous) row where a violation occurs.
fn jump_to_violation(state: &mut CallState, forward: bool) -> Option<String> {
    let paths: Vec<String> = match state.shown_record().map(|r| &r.outcome) {
        Some(Outcome::Result { verdict, .. }) => verdict
            .violations
            .iter()
            .map(|v| v.instance_path.clone())
            .collect(),
        _ => return Some("no result with violations".into()),
    };
    let view = state.value_view()?;
    let marked: Vec<usize> = (0..view.tree.rows.len())
        .filter(|i| paths.contains(&view.tree.rows[*i].pointer))
        .collect();
    let target = if forward {
        marked.iter().find(|i| **i > view.cursor).or(marked.first())
    } else {
        marked
            .iter()
            .rev()
            .find(|i| **i < view.cursor)
            .or(marked.last())
    };
    match target.copied() {
        Some(i) => {
            outline::reveal(&view.tree, &mut view.open, i);
            view.cursor = i;
            view.follow = true;
            None
        }
        None => Some("no violations in this value".into()),
    }
}

/// The external editor closed: its text becomes the draft.
pub fn editor_closed(model: &mut Model, tool: &str, text: Result<String, String>) {
    match text {
        Ok(text) => {
            if let Some(state) = model.call_mut(tool) {
                state.set_text(&text);
            }
        }
        Err(e) => model.view.status = Some(format!("$EDITOR: {e}")),
    }
}

/// A call's request went out; its progress token lets progress events find it.
pub fn started(model: &mut Model, tool: &str, id: u64, token: String, request: String) {
    if let Some(f) = model
        .call_mut(tool)
        .and_then(|s| s.in_flight.as_mut())
        .filter(|f| f.id == id)
    {
        f.token = Some(token);
        f.request = Some(request);
    }
}

/// The user answered the server's request: the session did not time the calls in flight while
/// it waited (see `mcp::session::call_clock`), and their waits start again now.
pub fn waits_restart(model: &mut Model) {
    let now = model.now;
    let calls = model
        .tools
        .per_tool
        .values_mut()
        .filter_map(|p| p.call.as_mut());
    for flight in calls.filter_map(|state| state.in_flight.as_mut()) {
        flight.last_activity = now;
    }
}

pub fn progress(
    model: &mut Model,
    token: &str,
    value: f64,
    total: Option<f64>,
    message: Option<String>,
) {
    let model_now = model.now;
    for state in model
        .tools
        .per_tool
        .values_mut()
        .filter_map(|p| p.call.as_mut())
    {
        if let Some(f) = state
            .in_flight
            .as_mut()
            .filter(|f| f.token.as_deref() == Some(token))
        {
            f.progress = Some((value, total, message.clone()));
            f.last_activity = model_now;
        }
    }
}

/// A call ended: its result is judged and kept; a stale answer only goes to the log.
pub fn finished(
    model: &mut Model,
    tool: &str,
    id: u64,
    outcome: Result<Box<Judged>, RequestError>,
) {
    let now = model.now;
    let Some(state) = model.call_mut(tool) else {
        return;
    };
    let Some(flight) = state.in_flight.take_if(|f| f.id == id) else {
        model.push_log(
            LogKind::Problem,
            format!("call #{id} to {tool}: an answer arrived after it ended; ignored"),
        );
        return;
    };
    let elapsed = now.saturating_duration_since(flight.started);
    let outcome = match outcome {
        Ok(judged) => judged.into_outcome(),
        Err(RequestError::Cancelled) => Outcome::Cancelled,
        Err(e) => Outcome::Failed(e),
    };
    let arguments = flight.arguments;
    // The request's own id too, the one the protocol pane shows (calls are numbered apart).
    let request = flight
        .request
        .map(|r| format!(" (request #{})", crate::untrusted::line(&r, 40)))
        .unwrap_or_default();
    let summary = match &outcome {
        Outcome::Result { verdict, .. } => verdict.headline(),
        Outcome::Cancelled => "cancelled (notifications/cancelled sent)".into(),
        Outcome::Failed(e) => e.to_string(),
    };
    let dropped = state.record(Record {
        id,
        arguments,
        elapsed,
        outcome,
        made: crate::app::call::state::Made::Here,
    });
    model.push_log(
        LogKind::Event,
        format!("call #{id}{request} {tool}: {summary}"),
    );
    if dropped > 0 {
        model.push_log(
            LogKind::Event,
            format!(
                "{} of {tool} dropped from the history (it keeps {} and {} MiB)",
                crate::plural::count(dropped, "older result"),
                crate::app::call::state::HISTORY,
                crate::app::call::state::HISTORY_BYTES >> 20
            ),
        );
    }
}

/// A host's call seen in a tapped session: its result in the tool's call panel, shown as a
/// call made here is (boxing unwrapped, violations in place), and a line in the log. A large
/// tool's panel is not built for it here (that is done off the UI thread, when it is opened).
pub fn host_called(model: &mut Model, call: HostCall) {
    let HostCall {
        tool,
        request,
        arguments,
        took,
        outcome,
    } = call;
    let (kind, summary, outcome) = match outcome {
        Ok(judged) => {
            let kind = match judged.verdict.status {
                crate::schema::Status::Violations => LogKind::Problem,
                _ => LogKind::Event,
            };
            (kind, judged.verdict.headline(), judged.into_outcome())
        }
        Err(e) => (LogKind::Problem, e.to_string(), Outcome::Failed(e)),
    };
    model.push_log(
        kind,
        format!(
            "the host called {} (id {}): {summary}, {} ms",
            crate::untrusted::label(&tool),
            crate::untrusted::line(&request, 40),
            took.as_millis()
        ),
    );
    let listed = (model.tools.list.iter())
        .find(|e| e.tool.name == tool)
        .filter(|e| !e.large_input())
        .cloned();
    let panel = match listed {
        Some(entry) => Some(model.panel_of(&entry.tool)),
        None => model.call_mut(&tool),
    };
    if let Some(panel) = panel {
        panel.record(Record {
            id: 0,
            arguments,
            elapsed: took,
            outcome,
            made: Made::ByHost(request),
        });
    }
}

/// Every call in flight ends as failed: the connection it ran on is gone.
pub fn abandon_all(model: &mut Model, reason: &str) {
    let ended: Vec<(String, u64)> = model
        .calls()
        .filter_map(|(tool, s)| s.in_flight.as_ref().map(|f| (tool.clone(), f.id)))
        .collect();
    for (tool, id) in ended {
        finished(
            model,
            &tool,
            id,
            Err(RequestError::Closed(vec![reason.to_string()])),
        );
    }
}
