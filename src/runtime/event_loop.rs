//! The terminal and the event loop: raw mode and the alternate screen with a guaranteed restore
//! (drop guard and panic hook), key and server events into `update`, effects carried out, and a
//! redraw only when something changed.

use crate::app::model::Model;
use crate::app::update::{Effect, Msg, update};
use crate::mcp::ConnectOptions;
use crate::runtime::clipboard;
use crate::runtime::session_task::{self, Command};
use crossterm::event::{
    DisableBracketedPaste, EnableBracketedPaste, Event, EventStream, KeyEventKind,
};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use futures::StreamExt;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::Stdout;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Messages handled before a redraw when a server floods us.
const MAX_BATCH: usize = 512;
/// Least time between frames drawn for server events alone (a key press draws at once): a
/// flooding server costs at most 60 frames a second.
const FRAME: Duration = Duration::from_millis(16);

struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

fn restore() {
    let _ = disable_raw_mode();
    let _ = crossterm::execute!(
        std::io::stdout(),
        DisableBracketedPaste,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
}

/// Takes the terminal back after an external program used it.
fn resume(terminal: &mut Terminal<CrosstermBackend<Stdout>>) -> std::io::Result<()> {
    enable_raw_mode()?;
    crossterm::execute!(
        std::io::stdout(),
        EnterAlternateScreen,
        EnableBracketedPaste,
        crossterm::terminal::Clear(crossterm::terminal::ClearType::All)
    )?;
    // A fresh terminal has empty buffers, so the next frame is drawn whole. (`Terminal::clear`
    // would ask the terminal for the cursor position, an answer the key reader can swallow.)
    *terminal = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
    Ok(())
}

/// Runs `$VISUAL`/`$EDITOR` (default `vi`) on the text in a temporary file; returns the new text.
fn external_editor(text: &str) -> Result<String, String> {
    restore();
    let editor = std::env::var("VISUAL")
        .or_else(|_| std::env::var("EDITOR"))
        .unwrap_or_else(|_| "vi".into());
    let path =
        std::env::temp_dir().join(format!("mcp-inspect-arguments-{}.json", std::process::id()));
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    // The editor may carry arguments (`code --wait`): run it through the shell.
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(&path)
        .status()
        .map_err(|e| format!("cannot run {editor}: {e}"))?;
    let edited = std::fs::read_to_string(&path).map_err(|e| e.to_string());
    let _ = std::fs::remove_file(&path);
    if !status.success() {
        return Err(format!(
            "{editor} exited with {status}; arguments unchanged"
        ));
    }
    edited
}

fn setup() -> std::io::Result<(Terminal<CrosstermBackend<Stdout>>, TerminalGuard)> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
    enable_raw_mode()?;
    let guard = TerminalGuard;
    crossterm::execute!(
        std::io::stdout(),
        EnterAlternateScreen,
        EnableBracketedPaste
    )?;
    let terminal = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
    Ok((terminal, guard))
}

/// Runs the UI until the user quits; returns the exit code.
pub async fn run(options: ConnectOptions, mut model: Model) -> std::io::Result<i32> {
    let (mut terminal, guard) = setup()?;
    let (to_ui, mut from_session) = mpsc::channel(4_096);
    let (commands, command_rx) = mpsc::channel(16);
    let session = tokio::spawn(session_task::run(options, command_rx, to_ui));
    let mut keys = EventStream::new();
    // For tests of the panic path on the real binary: this key panics the UI loop.
    let panic_key = std::env::var("MCP_INSPECT_PANIC_ON_KEY")
        .ok()
        .and_then(|k| k.chars().next());
    // SIGTERM, and SIGHUP (the SSH connection or the terminal went away), quit cleanly: the
    // terminal is restored and the server stopped.
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    let mut hangup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())?;
    let mut dirty = true;
    let mut urgent = true;
    let mut last_frame = Instant::now();
    let mut ticker = tokio::time::interval(Duration::from_millis(200));
    while !model.quit {
        if dirty && (urgent || last_frame.elapsed() >= FRAME) {
            super::frame(&mut terminal, &mut model)?;
            last_frame = Instant::now();
            dirty = false;
            urgent = false;
        }
        let mut effects = Vec::new();
        tokio::select! {
            () = tokio::time::sleep_until((last_frame + FRAME).into()), if dirty => continue,
            event = keys.next() => match event {
                Some(Ok(Event::Key(key))) if key.kind != KeyEventKind::Release => {
                    if panic_key.is_some_and(|k| key.code == crossterm::event::KeyCode::Char(k)) {
                        panic!("panic requested by MCP_INSPECT_PANIC_ON_KEY");
                    }
                    urgent = true;
                    effects = update(&mut model, Msg::Key(key));
                }
                Some(Ok(Event::Resize(..))) => urgent = true,
                Some(Ok(Event::Paste(text))) => {
                    urgent = true;
                    effects = update(&mut model, Msg::Paste(text));
                }
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e),
                None => model.quit = true,
            },
            msg = from_session.recv() => {
                if let Some(msg) = msg {
                    effects = update(&mut model, msg);
                    for _ in 0..MAX_BATCH {
                        match from_session.try_recv() {
                            Ok(more) => effects.extend(update(&mut model, more)),
                            Err(_) => break,
                        }
                    }
                }
            }
            _ = term.recv() => model.quit = true,
            _ = hangup.recv() => model.quit = true,
            _ = ticker.tick(), if model.busy() => effects = update(&mut model, Msg::Tick),
        }
        dirty = true;
        for effect in effects {
            match effect {
                Effect::ListTools => {
                    let _ = commands.try_send(Command::ListTools);
                }
                Effect::Reconnect => {
                    let _ = commands.try_send(Command::Reconnect);
                }
                Effect::Copy(copy) => {
                    let outcome = clipboard::copy(&copy.text);
                    update(
                        &mut model,
                        Msg::Copied {
                            label: copy.label,
                            outcome,
                        },
                    );
                }
                Effect::Call {
                    tool,
                    id,
                    arguments,
                    output,
                } => {
                    if commands
                        .try_send(Command::Call {
                            tool: tool.clone(),
                            id,
                            arguments,
                            output,
                        })
                        .is_err()
                    {
                        let outcome = Err(crate::mcp::RequestError::Closed(vec![
                            "the connection task is busy".into(),
                        ]));
                        update(&mut model, Msg::CallFinished { tool, id, outcome });
                    }
                }
                Effect::Cancel { id } => {
                    let _ = commands.try_send(Command::Cancel { id });
                }
                Effect::EditExternally { tool, text } => {
                    // The key reader would steal the editor's input: stop it while the editor runs.
                    drop(keys);
                    let edited = tokio::task::block_in_place(|| external_editor(&text));
                    resume(&mut terminal)?;
                    keys = EventStream::new();
                    update(&mut model, Msg::EditorClosed { tool, text: edited });
                }
            }
        }
    }
    drop(commands);
    drop(guard);
    // The session task closes the server: stdin, a short grace, then the process group.
    let _ = tokio::time::timeout(Duration::from_secs(2), session).await;
    Ok(0)
}
