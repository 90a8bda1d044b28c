//! The TUI's edge: the terminal, the event loop, the connection task, the clipboard and the
//! external editor. The only TUI code with tasks, channels, the clock and processes.

mod attached_task;
mod carrier;
mod clipboard;
mod crossterm_edge;
mod edge;
pub mod event_loop;
mod host_library;
mod layout_file;
mod picker_loop;
pub mod saved_calls;
mod session_task;
mod trials;

use crate::app::{keymap, model, theme};
use crate::cli::ConnectionArgs;
use crate::headless::exit;
use crate::mcp::session::client_side::{ElicitationPolicy, SamplingPolicy};
use event_loop::Edge;
use picker_loop::Chosen;

/// Draws one frame of `model` on `terminal` and lets the model adopt what the frame learned
/// (pane heights and scroll): the one way a frame is drawn, by the event loop and by tests.
pub fn frame<B: ratatui::backend::Backend>(
    terminal: &mut ratatui::Terminal<B>,
    model: &mut model::Model,
) -> Result<(), B::Error> {
    let mut viewport = None;
    terminal.draw(|f| viewport = Some(crate::ui::draw(f, model)))?;
    if let Some(viewport) = viewport {
        model.adopt(viewport);
    }
    Ok(())
}

/// The TUI's own flags.
pub struct Flags<'a> {
    /// Take mouse reports.
    pub mouse: bool,
    /// `--baseline`: a snapshot the tools are compared with.
    pub baseline: Option<&'a std::path::Path>,
    /// `--watch`: paths whose changes restart the server.
    pub watch: &'a [std::path::PathBuf],
    /// `--rerun`: each tool's last call made again after a restart.
    pub rerun: bool,
}

impl<'a> Flags<'a> {
    /// The TUI's flags as given on the command line.
    pub fn of(cli: &'a crate::cli::Cli) -> Flags<'a> {
        Flags {
            mouse: !cli.no_mouse,
            baseline: cli.baseline.as_deref(),
            watch: &cli.watch,
            rerun: cli.rerun,
        }
    }
}

/// Runs the TUI and returns the exit code. With no server named (or `--config` without
/// `--server`) the picker offers the user's configured servers first; `S` in the TUI comes
/// back to it.
pub async fn run(connection: ConnectionArgs, flags: Flags<'_>) -> i32 {
    let Flags {
        mouse,
        baseline,
        watch,
        rerun,
    } = flags;
    let (mut watcher, baseline) = match watch_and_baseline(watch, baseline) {
        Ok(both) => both,
        Err(why) => {
            eprintln!("error: {why}");
            return exit::ERROR;
        }
    };
    let mut next = None;
    if !connection.picks() {
        match connection.options() {
            Ok(o) => next = Some(o),
            Err(e) => {
                eprintln!("error: {e}\n(try mcp-inspect --help, or mcp-inspect --demo)");
                return exit::ERROR;
            }
        }
    }
    if let Err(why) = in_a_terminal(&connection) {
        eprintln!("error: {why}");
        return exit::ERROR;
    }
    let (keymap, warning) = keymap::Keymap::load();
    let mut edge = match crossterm_edge::CrosstermEdge::new(mouse) {
        Ok(edge) => edge,
        Err(e) => {
            eprintln!("error: terminal: {e}");
            return exit::ERROR;
        }
    };
    let mut picker = None;
    loop {
        let chosen = match next.take() {
            Some(options) => Chosen::Connect(Box::new(options)),
            None => {
                let picker = picker.get_or_insert_with(|| new_picker(&connection, &keymap));
                match pick(&mut edge, picker, &connection).await {
                    Ok(chosen) => chosen,
                    Err(code) => return code,
                }
            }
        };
        let (mut model, source, watcher) = match chosen {
            Chosen::Connect(options) => {
                let mut model = session_model(&options, keymap.clone(), warning.clone());
                model.tools.baseline = baseline.clone();
                if let Some(watcher) = &watcher {
                    watching(&mut model, watch, watcher, rerun);
                }
                let source = session_options(&connection, *options).into();
                (model, source, watcher.as_mut())
            }
            Chosen::Attach(path) => match attached(Some(&path), keymap.clone(), warning.clone()) {
                Ok((model, source)) => (model, source, None),
                Err(why) => {
                    told(&mut picker, &why);
                    continue;
                }
            },
        };
        model.session.servers_to_pick = servers_to_pick(&mut picker, &connection, &keymap);
        match event_loop::run_loop(&mut edge, source, model, watcher).await {
            Ok(event_loop::Ended::Quit(code)) => return code,
            Ok(event_loop::Ended::SwitchServer) => {}
            Err(e) => {
                eprintln!("error: terminal: {e}");
                return exit::ERROR;
            }
        }
    }
}

/// What the user picked on the picker; the exit code when they quit instead (the terminal
/// given back).
async fn pick(
    edge: &mut crossterm_edge::CrosstermEdge,
    picker: &mut crate::app::picker::Picker,
    connection: &ConnectionArgs,
) -> Result<Chosen, i32> {
    let picked = picker_loop::pick(edge, picker, connection).await;
    if !matches!(picked, Ok(Some(_))) {
        edge.release();
    }
    match picked {
        Ok(Some(chosen)) => Ok(chosen),
        Ok(None) => Err(exit::OK),
        Err(e) => {
            eprintln!("error: terminal: {e}");
            Err(exit::ERROR)
        }
    }
}

/// Says on the picker why what was picked could not be opened.
fn told(picker: &mut Option<crate::app::picker::Picker>, why: &str) {
    if let Some(picker) = picker {
        picker.status = Some(crate::untrusted::line(why, 300).into_owned());
    }
}

/// `--watch`'s watcher and `--baseline`'s snapshot, when asked for; why not, when either fails.
fn watch_and_baseline(
    watch: &[std::path::PathBuf],
    baseline: Option<&std::path::Path>,
) -> Result<
    (
        Option<crate::file_watch::Watcher>,
        Option<std::sync::Arc<serde_json::Value>>,
    ),
    String,
> {
    let baseline = baseline.map(read_baseline).transpose()?;
    Ok((start_watch(watch)?, baseline.map(std::sync::Arc::new)))
}

/// Runs the TUI attached to a tapped session (`session`, or the newest live one): it watches,
/// the host drives. Returns the exit code once the user quits.
pub async fn attach(session: Option<&std::path::Path>, mouse: bool) -> i32 {
    let (keymap, warning) = keymap::Keymap::load();
    let (model, source) = match attached(session, keymap, warning) {
        Ok(attached) => attached,
        Err(why) => {
            eprintln!("error: {why}");
            return exit::ERROR;
        }
    };
    if !in_the_foreground() {
        eprintln!("error: {NOT_IN_THE_FOREGROUND}");
        return exit::ERROR;
    }
    let mut edge = match crossterm_edge::CrosstermEdge::new(mouse) {
        Ok(edge) => edge,
        Err(e) => {
            eprintln!("error: terminal: {e}");
            return exit::ERROR;
        }
    };
    match event_loop::run_loop(&mut edge, source, model, None).await {
        Ok(_) => exit::OK,
        Err(e) => {
            eprintln!("error: terminal: {e}");
            exit::ERROR
        }
    }
}

/// A fresh model watching a tapped session, and the session to follow; why not, when it
/// cannot be opened.
fn attached(
    session: Option<&std::path::Path>,
    keymap: keymap::Keymap,
    warning: Option<String>,
) -> Result<(model::Model, event_loop::Source), String> {
    let following = crate::tap::follow::Following::open(session)?;
    let name = format!("tap {}", following.name());
    let mut model = model::Model::new(name, keymap, theme::Theme::from_env());
    model.session.attached = true;
    if let Some(w) = warning {
        model.push_log(model::LogKind::Problem, w);
    }
    model.push_log(
        model::LogKind::Event,
        format!(
            "attached to {}: the host's session as it happens (its tools once it lists them); q detaches, the session goes on",
            crate::untrusted::label(&following.name())
        ),
    );
    Ok((model, event_loop::Source::Attach(following)))
}

/// Whether stdin and stdout are both terminals (where the TUI can run).
pub fn has_a_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

const NOT_IN_THE_FOREGROUND: &str = "the TUI is not in the terminal's foreground (started with `&`, or under `timeout` without --foreground): it would be stopped (SIGTTOU) when it takes the terminal; run it in the foreground (`timeout --foreground …`)";

/// The TUI needs a terminal: why not, when stdin or stdout is not one.
fn in_a_terminal(connection: &ConnectionArgs) -> Result<(), &'static str> {
    if has_a_terminal() {
        return match in_the_foreground() {
            true => Ok(()),
            false => Err(NOT_IN_THE_FOREGROUND),
        };
    }
    Err(match connection.is_empty() {
        true => {
            "no server given: use `-- COMMAND ARGS...`, --url URL, --config FILE --server NAME or --demo (in a terminal, mcp-inspect alone lets you pick one from your client configs)"
        }
        false => {
            "the TUI needs a terminal (stdin and stdout); without one, use a headless command: mcp-inspect tools | inspect TOOL | call TOOL | check (see --help)"
        }
    })
}

/// Whether this process's group has the terminal: else taking it (raw mode) stops the process
/// with SIGTTOU and leaves a blank screen. Unknown counts as yes.
fn in_the_foreground() -> bool {
    match nix::unistd::tcgetpgrp(std::io::stdin()) {
        Ok(group) => group == nix::unistd::getpgrp(),
        Err(_) => true,
    }
}

/// Says in the log what `--watch` watches, and what it could not; `rerun`: calls are made
/// again after each restart.
fn watching(
    model: &mut model::Model,
    paths: &[std::path::PathBuf],
    watcher: &crate::file_watch::Watcher,
    rerun: bool,
) {
    model.session.watch.on = true;
    model.session.watch.rerun = rerun;
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    model.push_log(
        model::LogKind::Event,
        format!(
            "watching {}: a change restarts the server",
            shown.join(", ")
        ),
    );
    if let Some(problem) = &watcher.problem {
        model.push_log(model::LogKind::Problem, problem.clone());
    }
}

/// A snapshot file for `--baseline`.
fn read_baseline(path: &std::path::Path) -> Result<serde_json::Value, String> {
    let said = |why: String| format!("--baseline {}: {why}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| said(e.to_string()))?;
    crate::drift::snapshot::read(&text).map_err(said)
}

/// The watch `--watch` asks for, if any.
fn start_watch(paths: &[std::path::PathBuf]) -> Result<Option<crate::file_watch::Watcher>, String> {
    match paths.is_empty() {
        true => Ok(None),
        false => crate::file_watch::Watcher::start(paths).map(Some),
    }
}

/// How many servers the picker `S` goes back to offers (read once, then kept for it).
fn servers_to_pick(
    picker: &mut Option<crate::app::picker::Picker>,
    connection: &ConnectionArgs,
    keymap: &keymap::Keymap,
) -> usize {
    let picker = picker.get_or_insert_with(|| new_picker(connection, keymap));
    picker.found.servers.len() + picker.taps.len()
}

/// The picker over `--config`'s file, or over the user's client configs; the server given
/// on the command line first, when one was (`S` can always go back to it).
fn new_picker(connection: &ConnectionArgs, keymap: &keymap::Keymap) -> crate::app::picker::Picker {
    use crate::config::client_configs;
    let (mut found, mut source) = match (&connection.config, &connection.server) {
        (Some(file), None) => (client_configs::in_file(file), file.display().to_string()),
        _ => (
            client_configs::discover(&client_configs::Places::from_env()),
            "your client configs".to_string(),
        ),
    };
    if !connection.picks()
        && let Ok(options) = connection.options()
    {
        let given = client_configs::Found {
            name: options.target.describe(),
            client: "the command line".into(),
            file: std::path::PathBuf::from("(given on the command line)"),
            target: Ok(options.target),
            warnings: Vec::new(),
            layout: client_configs::Layout::McpServers,
        };
        found.servers.insert(0, given);
        source = format!("the command line and {source}");
    }
    crate::app::picker::Picker::new(found, source, keymap.clone(), theme::Theme::from_env())
}

/// The options as the TUI uses them: what the server asks is put to the person there, unless
/// a policy was chosen on the command line; every message kept for the protocol pane.
fn session_options(
    connection: &ConnectionArgs,
    mut options: crate::mcp::ConnectOptions,
) -> crate::mcp::ConnectOptions {
    let client = &mut options.client;
    if connection.on_elicitation.is_none() && client.elicitation.is_some() {
        client.elicitation = Some(ElicitationPolicy::Ask);
    }
    if connection.on_sampling.is_none() && client.sampling.is_some() {
        client.sampling = Some(SamplingPolicy::Ask);
    }
    options.wire = Some(crate::mcp::transport::wire::WireLog::default());
    options.auth.interactive = true;
    options.auth.pasted = Some(crate::mcp::oauth::Pasted::default());
    options
}

/// A fresh model for a session on `options`.
fn session_model(
    options: &crate::mcp::ConnectOptions,
    keymap: keymap::Keymap,
    warning: Option<String>,
) -> model::Model {
    let mut model = model::Model::new(options.target.describe(), keymap, theme::Theme::from_env());
    model.session.limits = crate::app::server::state::CallLimits {
        timeout: options.timeout,
        max_time: options.max_time,
    };
    model.session.log_level = options.log_level;
    model.saved.saving = true;
    model.saved.kept_for =
        crate::untrusted::label(&crate::runtime::saved_calls::kept_for(&options.target))
            .into_owned();
    if let Some(percent) = layout_file::path().and_then(|p| layout_file::left_percent(&p)) {
        model.view.left_percent = percent;
    }
    model.session.connection_args = options.target.words();
    if let Some(w) = warning {
        model.view.status = Some(w.clone());
        model.push_log(model::LogKind::Problem, w);
    }
    model
}
