//! `update(&mut Model, Msg) -> Vec<Effect>`: every state change, driven by key presses through
//! the keymap and by connection events. No IO, no awaits; effects are data for the runtime.

use crate::app::command::Command;
use crate::app::copy;
pub use crate::app::effect::{Effect, Handoff, Listed, SessionRequest};
use crate::app::keymap::{Key, Layer, Route, typed_char};
use crate::app::model::{LogKind, Model, Overlay, Pane};
use crate::app::server::state::Connection;
use crate::app::tools::entry::ToolEntry;
use crate::app::tools::state::{ToolDetail, ToolView};
use crate::app::tools::update::ensure_detail;
use crate::app::{asked, authorize, call, library, panes, protocol, saved, server, trial};
use crate::mcp::{RequestError, ServerEvent, ServerSummary, ToolList};
use crate::schema::Era;
use crate::untrusted;
use asked::state::{OwnForm, Reply};
use crossterm::event::{KeyCode, KeyEvent};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

#[derive(Debug, Clone)]
pub enum Msg {
    Key(KeyEvent),
    /// A click or a wheel notch (while no request panel or overlay has the keys).
    Mouse(crossterm::event::MouseEvent),
    Connected(ServerSummary),
    ConnectFailed(String),
    ToolsListed(ToolList),
    ListFailed(RequestError),
    Server(ServerEvent),
    /// The browser was started on the authorization URL (with what), or why not.
    BrowserOpened(Result<String, String>),
    /// A copy finished: how it was delivered, or why not.
    Copied {
        label: String,
        outcome: Result<String, String>,
    },
    /// Text pasted into the terminal (bracketed paste).
    Paste(String),
    /// Time passed while something runs (spinner, elapsed, countdown).
    Tick,
    CallStarted {
        tool: String,
        id: u64,
        token: String,
        /// The JSON-RPC id of the request, as the protocol pane shows it.
        request: String,
    },
    /// A call the host of a tapped session made, answered (the TUI attached to a tap).
    HostCalled(Box<call::state::HostCall>),
    CallFinished {
        tool: String,
        id: u64,
        outcome: Result<Box<call::state::Judged>, RequestError>,
    },
    /// A large tool's call panel, built off the UI thread for this entry of the list.
    CallBuilt {
        entry: Arc<ToolEntry>,
        state: crate::app::effect::Handed<call::state::CallState>,
    },
    /// The arguments' validator of a call panel built before it (see `CallState::drafted`).
    InputCompiled {
        entry: Arc<ToolEntry>,
        input: crate::app::effect::Handed<crate::schema::Compiled>,
    },
    /// A large tool's trees, built off the UI thread for this entry of the list.
    DetailBuilt {
        entry: Arc<ToolEntry>,
        detail: Box<ToolDetail>,
    },
    /// Messages the transports saw since the last frame, and how many they had to drop.
    Wire {
        batch: Vec<crate::mcp::transport::wire::WireMessage>,
        dropped: u64,
    },
    /// The server's resources, templates and prompts, and why any list could not be had.
    LibraryListed {
        items: Vec<library::state::Item>,
        problems: Vec<String>,
    },
    /// What `completion/complete` gave for an argument of the open form.
    Completed {
        argument: String,
        result: Result<serde_json::Value, String>,
    },
    /// What a read or a prompt gave.
    Opened {
        open: library::state::Open,
        result: Result<serde_json::Value, String>,
        /// Its images, decoded off the UI thread (see `surface::picture::in_opened`).
        pictures: Vec<(
            String,
            Result<crate::mcp::surface::picture::Picture, String>,
        )>,
    },
    /// A subscription to a resource started (`on`) or ended, or why not.
    Subscribed {
        uri: String,
        on: bool,
        outcome: Result<(), String>,
    },
    /// A file was written (what was written where), or why not.
    Saved(Result<String, String>),
    /// What a request composed in the protocol pane got.
    Answered {
        method: String,
        result: Result<serde_json::Value, RequestError>,
    },
    /// A ping's round trip and the method it used, or why it failed.
    Pinged(Result<(std::time::Duration, &'static str), RequestError>),
    /// What the conduct checks found, or why they could not run.
    Conformed(Result<Vec<crate::conform::Finding>, String>),
    /// The server was asked for a log level (see [`crate::mcp::session::logging`]).
    LogLevelSet {
        level: &'static str,
        outcome: Result<(), RequestError>,
    },
    /// `$EDITOR` closed with the new arguments text, or failed.
    EditorClosed {
        tool: String,
        text: Result<String, String>,
    },
    /// What was kept of earlier sessions with this server (see `app::saved`).
    SavedLoaded(Vec<saved::state::SavedTool>),
    /// A tool's kept results, judged again.
    Restored {
        tool: String,
        records: Vec<call::state::Record>,
    },
    /// `--watch`: the server's files changed (which, described).
    Watched(String),
    /// The server's test file, as an earlier session chose it, and the calls it holds.
    TestsLoaded(Option<saved::state::KeptTests>),
    /// How a verify or load run goes.
    Trial(crate::app::trial::update::Update),
    /// The roots now handed to the server and how it learns of them, or why not (the form
    /// opens again with the entries the user sent).
    RootsSet {
        entries: Vec<String>,
        outcome: Result<(Vec<String>, &'static str), String>,
    },
    /// Whether the roots form's entries are directories: why not, if one is not.
    RootsChecked {
        entries: Vec<String>,
        problem: Option<String>,
    },
    /// A call was kept as a test (said how), or why not.
    TestKept {
        tool: String,
        arguments: serde_json::Value,
        outcome: Result<String, String>,
    },
}

pub fn update(model: &mut Model, msg: Msg) -> Vec<Effect> {
    let mut effects = apply(model, msg);
    route_handoffs(model, &mut effects);
    // The selected tool's trees: built here when small, asked for off the UI thread when large.
    ensure_detail(model);
    if let Some(entry) = model.selected_entry().filter(|e| e.large).cloned()
        && model
            .tools
            .per_tool
            .get(&entry.tool.name)
            .is_none_or(|p| p.detail.is_none() && !p.building)
    {
        model
            .tools
            .per_tool
            .entry(entry.tool.name.clone())
            .or_default()
            .building = true;
        effects.push(Effect::BuildDetail(Listed(entry)));
    }
    effects.extend(call::update::build_large(model));
    // The trees the call panel and the protocol pane show are built here, never while drawing.
    if model.view.focus == Pane::Protocol {
        model.protocol.refresh_detail();
    }
    let numbers = model.view.theme.dim();
    if let Some(entry) = model.selected_entry().cloned()
        && let Some(state) = model.call_mut(&entry.tool.name)
    {
        let _ = state.value_view();
        state.draft.set_look(Some(numbers));
    }
    if let Some(panel) = model.asked.front_mut() {
        panel.draft.set_look(None);
    }
    effects
}

/// Hands each feature's word for another to it, until none is left: the runtime never sees a
/// handoff, and features never import each other's `update`.
fn route_handoffs(model: &mut Model, effects: &mut Vec<Effect>) {
    loop {
        let (handoffs, rest): (Vec<Effect>, Vec<Effect>) = std::mem::take(effects)
            .into_iter()
            .partition(|e| matches!(e, Effect::Handoff(_)));
        *effects = rest;
        if handoffs.is_empty() {
            return;
        }
        for handoff in handoffs {
            if let Effect::Handoff(handoff) = handoff {
                effects.extend(hand_over(model, handoff));
            }
        }
    }
}

fn hand_over(model: &mut Model, handoff: Handoff) -> Vec<Effect> {
    match handoff {
        Handoff::ReadLink(uri) => library::update::read_link(model, &uri),
        Handoff::OwnFormAnswered { form, answer } => match form {
            OwnForm::Open(item) => library::update::filled(model, &item, answer),
            OwnForm::Save(bytes) => library::update::save_to(model, bytes, answer),
            OwnForm::Request => protocol::update::send(model, answer),
            OwnForm::KeepTest(keep) => saved::kept_tests::chosen(model, keep, answer),
            OwnForm::Roots => server::roots::chosen(model, answer),
            OwnForm::Trial(kind) => crate::app::trial::settings::chosen(model, kind, answer),
        },
    }
}

fn apply(model: &mut Model, msg: Msg) -> Vec<Effect> {
    // Messages that ask for effects return them; the others change the model only.
    match msg {
        Msg::Key(key) => return on_key(model, key),
        // A panel or an overlay in front takes its keys; the mouse leaves the panes alone then.
        Msg::Mouse(event) if model.asked.is_empty() && model.view.overlay.is_none() => {
            return crate::app::mouse::mouse(model, event);
        }
        Msg::Mouse(_) => {}
        Msg::Connected(summary) => {
            let effects = server::update::connected(model, summary);
            // A new connection's library is listed afresh once its tools are.
            library::update::connected(model);
            return effects;
        }
        Msg::Watched(what) => return server::watch::changed(model, &what),
        Msg::Trial(update) => crate::app::trial::update::updated(model, update),
        Msg::RootsSet { entries, outcome } => return server::roots::set(model, entries, outcome),
        Msg::RootsChecked { entries, problem } => server::roots::checked(model, entries, problem),
        Msg::TestsLoaded(kept) => saved::kept_tests::loaded(model, kept),
        Msg::TestKept {
            tool,
            arguments,
            outcome,
        } => saved::kept_tests::kept(model, &tool, &arguments, outcome),
        Msg::ToolsListed(list) => return listed(model, list),
        Msg::SavedLoaded(tools) => return saved::update::loaded(model, tools),
        Msg::Server(event) => return on_server_event(model, event),
        Msg::Tick => return asked::completions::tick(model),
        Msg::CallFinished { tool, id, outcome } => {
            call::update::finished(model, &tool, id, outcome);
            server::watch::rerun_finished(model, &tool, id);
            return saved::update::save(model, &tool);
        }
        Msg::HostCalled(host) => call::update::host_called(model, *host),
        Msg::ConnectFailed(reason) => return server::update::connect_failed(model, &reason),
        Msg::ListFailed(error) => server::update::list_failed(model, error),
        Msg::LibraryListed { items, problems } => {
            library::update::listed(model, items, problems);
            server::watch::library_listed(model);
        }
        Msg::Completed { argument, result } => {
            asked::completions::completed(model, &argument, result)
        }
        Msg::Opened {
            open,
            result,
            pictures,
        } => library::update::opened(model, open, result, pictures),
        Msg::Restored { tool, records } => saved::update::restored(model, &tool, records),
        Msg::Paste(text) => return paste(model, &text),
        Msg::CallStarted {
            tool,
            id,
            token,
            request,
        } => call::update::started(model, &tool, id, token, request),
        Msg::DetailBuilt { entry, detail } => {
            crate::app::tools::update::detail_built(model, &entry, *detail)
        }
        Msg::CallBuilt { entry, state } => call::update::built(model, &entry, state.take()),
        Msg::InputCompiled { entry, input } => {
            call::update::input_compiled(model, &entry, input.take())
        }
        Msg::Subscribed { uri, on, outcome } => {
            library::update::subscribed(model, uri, on, outcome)
        }
        Msg::Saved(outcome) => library::update::saved(model, outcome),
        Msg::BrowserOpened(outcome) => authorize::update::browser_opened(model, outcome),
        Msg::Pinged(outcome) => server::update::pinged(model, outcome),
        Msg::Conformed(outcome) => server::update::conformed(model, outcome),
        Msg::Answered { method, result } => protocol::update::answered(model, &method, result),
        Msg::LogLevelSet { level, outcome } => server::update::log_level_set(model, level, outcome),
        Msg::Wire { batch, dropped } => model.protocol.add(batch, dropped),
        Msg::EditorClosed { tool, text } => call::update::editor_closed(model, &tool, text),
        Msg::Copied { label, outcome } => copied(model, &label, outcome),
    }
    Vec::new()
}

/// Says where a copy went, or why it did not.
fn copied(model: &mut Model, label: &str, outcome: Result<String, String>) {
    model.view.status = Some(match outcome {
        Ok(how) => format!("copied {label} ({how})"),
        Err(e) => format!("copy failed: {e}"),
    })
}

/// Pasted text goes where typing would: the authorization panel, a request's form, or the
/// call panel's editor.
fn paste(model: &mut Model, text: &str) -> Vec<Effect> {
    if model.active_layer() == Layer::Authorize {
        authorize::update::type_text(model, text);
    } else if !model.asked.is_empty() {
        asked::update::paste(model, text);
        return server::roots::recheck(model);
    } else {
        call::update::paste(model, text);
    }
    Vec::new()
}

/// The tools were listed: compared with a baseline or the last start, then the library and
/// the saved calls follow.
fn listed(model: &mut Model, list: ToolList) -> Vec<Effect> {
    let mut effects = tools_listed(model, list);
    server::watch::tools_listed(model);
    crate::app::tools::drift::compare(model);
    effects.extend(library::update::list(model));
    effects.extend(saved::update::restore(model));
    effects.extend(server::watch::rerun(model));
    effects
}

/// The new list in place of the old; an open panel whose tool's inputSchema changed has its
/// validator compiled again off the UI thread (the effects returned).
fn tools_listed(model: &mut Model, list: ToolList) -> Vec<Effect> {
    let keep = model.selected_entry().map(|e| e.tool.name.clone());
    for r in &list.rejected {
        model.push_log(LogKind::Problem, r.to_string());
    }
    if let Some(p) = &list.problem {
        model.push_log(LogKind::Problem, untrusted::block(p));
    }
    model.push_log(
        LogKind::Event,
        format!(
            "{} listed ({})",
            crate::plural::count(list.tools.len(), "tool"),
            crate::plural::count(list.pages, "page")
        ),
    );
    let before: HashMap<String, Arc<ToolEntry>> = std::mem::take(&mut model.tools.list)
        .into_iter()
        .map(|e| (e.tool.name.clone(), e))
        .collect();
    let era = model.session.server.as_ref().map_or(Era::Legacy, |s| s.era);
    model.tools.list = list
        .tools
        .into_iter()
        .map(|t| Arc::new(ToolEntry::new(t, era)))
        .collect();
    let mut compile = Vec::new();
    for entry in &model.tools.list {
        if let Some(state) = model
            .tools
            .per_tool
            .get_mut(&entry.tool.name)
            .and_then(|p| p.call.as_mut())
            && state.refresh(&entry.tool)
        {
            compile.push(Effect::CompileInput(crate::app::effect::Listed(
                entry.clone(),
            )));
        }
    }
    // A changed tool must not keep a stale tree, nor a pane look that points into it; a
    // tool whose schemas are the same keeps both (its rows stay open where they were).
    let same: HashSet<&str> = model
        .tools
        .list
        .iter()
        .filter(|e| {
            before.get(&e.tool.name).is_some_and(|old| {
                old.tool.input_schema == e.tool.input_schema
                    && old.tool.output_schema == e.tool.output_schema
                    && old.era == e.era
            })
        })
        .map(|e| e.tool.name.as_str())
        .collect();
    for (name, per) in &mut model.tools.per_tool {
        if !same.contains(name.as_str()) {
            per.detail = None;
            per.view = ToolView::default();
        }
    }
    model.tools.filter.apply(&model.tools.list);
    model.tools.selected = keep
        .and_then(|name| {
            model
                .tools
                .filter
                .visible
                .iter()
                .position(|v| model.tools.list[v.index].tool.name == name)
        })
        .unwrap_or(0);
    compile
}

fn on_server_event(model: &mut Model, event: ServerEvent) -> Vec<Effect> {
    match event {
        ServerEvent::ToolsChanged => {
            model.push_log(
                LogKind::Event,
                "the server's tool list changed: reloading".into(),
            );
            return vec![Effect::Session(SessionRequest::ListTools)];
        }
        // Listed again only if it was listed: the pane lists on first sight anyway.
        ServerEvent::LibraryChanged if model.library.asked => {
            model.push_log(
                LogKind::Event,
                "the server's resources or prompts changed: reloading".into(),
            );
            return vec![Effect::Session(SessionRequest::ListLibrary)];
        }
        ServerEvent::LibraryChanged => {}
        ServerEvent::ResourceUpdated(uri) => library::update::resource_updated(model, uri),
        ServerEvent::Stderr(line) => model.push_log(LogKind::Stderr, line),
        ServerEvent::Log {
            level,
            logger,
            data,
        } => {
            let text = match &data {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let who = logger
                .map(|l| format!("[{}] ", untrusted::label(&l)))
                .unwrap_or_default();
            model.push_log(
                LogKind::Log(level),
                format!("{who}{}", untrusted::label(&text)),
            );
        }
        ServerEvent::Progress {
            token,
            progress,
            total,
            message,
        } => call::update::progress(model, &token, progress, total, message),
        ServerEvent::Asked { id, method, params } => {
            return asked::update::arrived(model, id, method, params);
        }
        ServerEvent::Request(text) => model.push_log(
            LogKind::Event,
            format!("the server asked {}", untrusted::label(&text)),
        ),
        ServerEvent::Notice(text) => {
            if text.starts_with(crate::mcp::transport::stdio::NON_JSON_LINE) {
                let seen = &mut model.session.non_json;
                seen.0 += 1;
                seen.1.get_or_insert_with(|| text.clone());
            }
            model.push_log(LogKind::Problem, untrusted::label(&text).into_owned())
        }
        ServerEvent::Authorization(step) => authorize::update::on_step(model, step),
        ServerEvent::Closed(reason) if model.session.attached => {
            let text = untrusted::label(&reason).into_owned();
            model.push_log(LogKind::Event, text.clone());
            model.session.connection = Connection::Lost(text);
        }
        ServerEvent::Closed(reason) => {
            let text = untrusted::label(&reason).into_owned();
            model.push_log(LogKind::Problem, format!("connection lost: {text}"));
            call::update::abandon_all(model, &format!("connection lost: {text}"));
            model.session.connection = Connection::Lost(text);
        }
    }
    Vec::new()
}

fn on_key(model: &mut Model, event: KeyEvent) -> Vec<Effect> {
    let layer = model.active_layer();
    let route = model
        .view
        .keymap
        .route(layer, Key::from_event(&event), edits_text(&event));
    match route {
        Route::Run(command) => run_command(model, command),
        Route::Type => type_into(model, layer, event),
        Route::Ignore => Vec::new(),
    }
}

/// A key no binding took, typed into the layer in front (see `Keymap::route`).
fn type_into(model: &mut Model, layer: Layer, event: KeyEvent) -> Vec<Effect> {
    match layer {
        Layer::Filter => {
            if let Some(c) = typed_char(&event) {
                panes::filter::type_char(model, c);
            }
        }
        Layer::Authorize => match (event.code, typed_char(&event)) {
            (KeyCode::Backspace, _) => authorize::update::backspace(model),
            (_, Some(c)) => authorize::update::type_text(model, &c.to_string()),
            _ => {}
        },
        Layer::Asked => {
            asked::update::type_into_form(model, event);
            return server::roots::recheck(model);
        }
        Layer::Editor => call::update::type_into_editor(model, event),
        Layer::Result => {
            let effects = run_command(model, Command::Edit);
            call::update::type_into_editor(model, event);
            model.view.status = Some("back in the arguments (esc: the result)".into());
            return effects;
        }
        _ => {}
    }
    Vec::new()
}

/// Whether `event` edits text: Backspace, Delete, or a typed character.
fn edits_text(event: &KeyEvent) -> bool {
    matches!(event.code, KeyCode::Backspace | KeyCode::Delete) || typed_char(event).is_some()
}

fn run_command(model: &mut Model, command: Command) -> Vec<Effect> {
    model.view.status = None;
    if let Some(effects) = for_the_panel_in_front(model, command) {
        return effects;
    }
    let quit_asked = std::mem::take(&mut model.exit.quit_asked);
    if command == Command::Call {
        model.view.focus = Pane::Call;
    }
    if model.view.focus == Pane::Call && model.selected_entry().is_none() {
        model.view.focus = Pane::Tools;
    }
    if model.view.focus == Pane::Call && !command.is_shared() && model.view.overlay.is_none() {
        return call::update::command(model, command);
    }
    if command == Command::TrialSettings && model.view.focus == Pane::Trial {
        return trial::settings::edit(model);
    }
    if let Some(effects) = trial::update::route(model, command) {
        return effects;
    }
    // The arms' order matters: an open level picker takes the motions, the library its `Open`.
    match command {
        Command::Quit | Command::SwitchServer => end(model, command, quit_asked),
        Command::Help
        | Command::Close
        | Command::CopyMenu
        | Command::Zoom
        | Command::NarrowLeft
        | Command::WidenLeft => panes::update::overlay(model, command),
        Command::Ping => return server::update::ping(model),
        Command::Conform => return server::update::conform(model),
        Command::EditRoots => return server::roots::edit(model),
        Command::ComposeRequest => protocol::update::compose(model),
        Command::LogLevel => server::update::open_levels(model),
        Command::SetLogLevel => return server::update::set_log_level(model),
        motion if matches!(model.view.overlay, Some(Overlay::LogLevel(_))) => {
            server::update::move_in_levels(model, motion);
        }
        Command::FocusLibrary => return library::update::focus(model),
        Command::NextTab => return library::update::step(model, true),
        Command::PrevTab => return library::update::step(model, false),
        Command::Open if model.view.focus == Pane::Library => {
            return library::update::open(model);
        }
        Command::Subscribe => return library::update::subscribe(model),
        Command::Save => return library::update::save(model),
        Command::FocusNext
        | Command::FocusPrev
        | Command::FocusTools
        | Command::FocusTool
        | Command::Open
        | Command::FocusServer
        | Command::FocusLog
        | Command::FocusProtocol
        | Command::Back => panes::update::focus(model, command),
        Command::Reconnect => return server::reconnect::reconnect(model),
        Command::Filter
        | Command::FilterAccept
        | Command::FilterCancel
        | Command::FilterClear
        | Command::FilterDelete => panes::filter::command(model, command),
        c if c.is_copy() => {
            model.view.overlay = None;
            return match copy::resolve(model, c) {
                Ok(copy) => vec![Effect::Copy(copy)],
                Err(e) => {
                    model.view.status = Some(format!("nothing copied: {e}"));
                    Vec::new()
                }
            };
        }
        motion => self::motion(model, motion),
    }
    Vec::new()
}

/// A motion goes to the help overlay when it is open, else to the focused pane's feature.
fn motion(model: &mut Model, motion: Command) {
    use crate::app::tools::update::{move_in_list, move_in_log, tool_command};
    if model.view.overlay == Some(Overlay::Help) {
        return panes::update::help_motion(model, motion);
    }
    match model.view.focus {
        Pane::Tools => move_in_list(model, motion),
        Pane::Tool => tool_command(model, motion),
        Pane::Log => move_in_log(model, motion),
        Pane::Library => library::update::motion(model, motion),
        Pane::Opened => library::update::in_opened(model, motion),
        Pane::Protocol | Pane::Server => panes::update::scroll(model, motion),
        // Their motions are their own (`trial::update::command`, the call panel's keys).
        Pane::Trial | Pane::Call => {}
    }
}

/// A command for the completion list, the authorization panel or a request's panel, if one
/// is in front and the command is its.
fn for_the_panel_in_front(model: &mut Model, command: Command) -> Option<Vec<Effect>> {
    if command == Command::Complete && model.asked.is_empty() {
        call::update::next_choice(model);
        return Some(Vec::new());
    }
    if command == Command::Complete {
        return Some(asked::completions::complete(model));
    }
    if matches!(command, Command::Undo | Command::Redo | Command::ToggleForm)
        && model.active_layer() == Layer::Asked
    {
        asked::update::edit(model, command);
        return Some(server::roots::recheck(model));
    }
    if matches!(
        command,
        Command::AuthSend | Command::AuthCancel | Command::AuthCopyUrl | Command::AuthOpen
    ) {
        return Some(authorize::update::run(model, command));
    }
    if matches!(command, Command::LinkCopy | Command::LinkOpen) {
        return Some(asked::update::link(model, command));
    }
    Reply::of(command).map(|reply| {
        if crate::app::call::query::server_waits_on_user(&model.asked) {
            call::update::waits_restart(model);
        }
        asked::update::answer(model, reply)
    })
}

/// Quit, or end the session to pick another server; a running call would be lost without a
/// word, so the first press asks. Switching always asks (one key ends the session), and is
/// refused with a word when the picker would have no server to offer.
fn end(model: &mut Model, command: Command, asked_before: bool) {
    let switch = command == Command::SwitchServer;
    if switch && model.session.servers_to_pick == 0 {
        model.view.status = Some(
            "no other server to pick: none in your client configs (or --config); quit and start mcp-inspect with another".into(),
        );
        return;
    }
    if switch && !model.busy() && !asked_before {
        model.exit.quit_asked = true;
        let key = model.view.keymap.key_for(Layer::Global, command);
        model.view.status = Some(format!(
            "{} again ends this session to pick another server (any other key stays)",
            key.unwrap_or_default()
        ));
        return;
    }
    if model.busy() && !asked_before {
        model.exit.quit_asked = true;
        model.view.status = Some(if switch {
            "a call or run is going on: press switch again to end it and pick a server".into()
        } else {
            "a call or run is going on: press quit again to quit and abandon it".into()
        });
        return;
    }
    model.exit.switch_server = switch;
    model.exit.quit = true;
}
