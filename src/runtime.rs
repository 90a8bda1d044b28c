//! The TUI's edge: the terminal, the event loop, the connection task, the clipboard and the
//! external editor. The only TUI code with tasks, channels, the clock and processes.

mod clipboard;
mod crossterm_edge;
pub mod event_loop;
mod session_task;

use crate::app::{keymap, model, theme};
use crate::cli::ConnectionArgs;
use crate::mcp::client_side::{ElicitationPolicy, SamplingPolicy};
use crate::mcp::error::exit;

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

/// Runs the TUI on a connection and returns the exit code; `mouse`: take mouse reports.
pub async fn run(connection: ConnectionArgs, mouse: bool) -> i32 {
    let mut options = match connection.options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}\n(try mcp-inspect --help, or mcp-inspect --demo)");
            return exit::ERROR;
        }
    };
    // In the TUI a person is there: what the server asks is put to them, unless a policy
    // was chosen on the command line.
    let client = &mut options.client;
    if connection.on_elicitation.is_none() && client.elicitation.is_some() {
        client.elicitation = Some(ElicitationPolicy::Ask);
    }
    if connection.on_sampling.is_none() && client.sampling.is_some() {
        client.sampling = Some(SamplingPolicy::Ask);
    }
    let (keymap, warning) = keymap::Keymap::load();
    // Every message of the session, for the protocol pane.
    options.wire = Some(crate::mcp::wire::WireLog::default());
    let limits = model::CallLimits {
        timeout: options.timeout,
        max_time: options.max_time,
    };
    let mut model = model::Model::new(options.target.describe(), keymap, theme::Theme::from_env());
    model.limits = limits;
    model.log_level = options.log_level;
    model.connection_args = match &options.target {
        crate::mcp::Target::Stdio { command, args, .. } => std::iter::once("--".to_string())
            .chain(std::iter::once(command.clone()))
            .chain(args.iter().cloned())
            .collect(),
        crate::mcp::Target::Http { url, transport, .. } => {
            let mut words = vec!["--url".to_string(), url.clone()];
            if *transport == crate::mcp::HttpTransport::Sse {
                words.extend(["--transport".to_string(), "sse".to_string()]);
            }
            words
        }
    };
    if let Some(w) = warning {
        model.status = Some(w.clone());
        model.push_log(model::LogKind::Problem, w);
    }
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        eprintln!(
            "error: the TUI needs a terminal (stdin and stdout); without one, use a headless command: mcp-inspect tools | inspect TOOL | call TOOL | check (see --help)"
        );
        return exit::ERROR;
    }
    let outcome = match crossterm_edge::CrosstermEdge::new(mouse) {
        Ok(mut edge) => event_loop::run_loop(&mut edge, options, model).await,
        Err(e) => Err(e),
    };
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: terminal: {e}");
            exit::ERROR
        }
    }
}
