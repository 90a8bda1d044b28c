//! The terminal and the event loop: raw mode and the alternate screen with a guaranteed restore
//! (drop guard and panic hook), key and server events into `update`, effects carried out, and a
//! redraw only when something changed.

use super::clipboard;
use super::model::Model;
use super::session_task::{self, Command};
use super::ui;
use super::update::{Effect, Msg, update};
use crate::mcp::ConnectOptions;
use crossterm::event::{Event, EventStream, KeyEventKind};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use futures::StreamExt;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::Stdout;
use std::time::Duration;
use tokio::sync::mpsc;

/// Messages handled before a redraw when a server floods us.
const MAX_BATCH: usize = 512;

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
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
}

fn setup() -> std::io::Result<(Terminal<CrosstermBackend<Stdout>>, TerminalGuard)> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
    enable_raw_mode()?;
    let guard = TerminalGuard;
    crossterm::execute!(std::io::stdout(), EnterAlternateScreen)?;
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
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    let mut dirty = true;
    while !model.quit {
        if dirty {
            terminal.draw(|frame| ui::draw(frame, &mut model))?;
            dirty = false;
        }
        let mut effects = Vec::new();
        tokio::select! {
            event = keys.next() => match event {
                Some(Ok(Event::Key(key))) if key.kind != KeyEventKind::Release => effects = update(&mut model, Msg::Key(key)),
                Some(Ok(Event::Resize(..))) => {}
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
            }
        }
    }
    drop(commands);
    drop(guard);
    // The session task closes the server: stdin, a short grace, then the process group.
    let _ = tokio::time::timeout(Duration::from_secs(2), session).await;
    Ok(0)
}
