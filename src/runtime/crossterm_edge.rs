//! The real edge of the event loop: a crossterm terminal in raw mode on the alternate screen
//! with a guaranteed restore (drop guard and panic hook), keys and pastes, SIGTERM and SIGHUP,
//! the clipboard, and `$EDITOR` with the terminal handed over and taken back.

use super::clipboard;
use super::event_loop::{Edge, Input};
use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture, Event,
    EventStream, KeyEventKind, MouseEventKind,
};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use futures::StreamExt;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::Stdout;
use tokio::signal::unix::{Signal, SignalKind, signal};

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
        DisableMouseCapture,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
}

/// Takes the terminal back after an external program used it.
fn resume(terminal: &mut Terminal<CrosstermBackend<Stdout>>, mouse: bool) -> std::io::Result<()> {
    enable_raw_mode()?;
    crossterm::execute!(
        std::io::stdout(),
        EnterAlternateScreen,
        EnableBracketedPaste,
        crossterm::terminal::Clear(crossterm::terminal::ClearType::All)
    )?;
    if mouse {
        crossterm::execute!(std::io::stdout(), EnableMouseCapture)?;
    }
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
    // The arguments may hold secrets: a new file (never one planted at a guessable name in a
    // shared temporary folder, never through a link), the user's alone.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let name = format!(
        "mcp-inspect-arguments-{}-{nanos:x}.json",
        std::process::id()
    );
    let path = std::env::temp_dir().join(name);
    crate::private_files::new_private(&path)
        .and_then(|mut f| std::io::Write::write_all(&mut f, text.as_bytes()))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
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

fn setup(mouse: bool) -> std::io::Result<(Terminal<CrosstermBackend<Stdout>>, TerminalGuard)> {
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
    if mouse {
        crossterm::execute!(std::io::stdout(), EnableMouseCapture)?;
    }
    let terminal = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
    Ok((terminal, guard))
}

/// The terminal the user sees.
pub struct CrosstermEdge {
    terminal: Terminal<CrosstermBackend<Stdout>>,
    /// `None` while `$EDITOR` has the terminal.
    keys: Option<EventStream>,
    term: Signal,
    hangup: Signal,
    /// For tests of the panic path on the real binary: this key panics the UI loop.
    panic_key: Option<char>,
    /// Mouse reports are taken (not `--no-mouse`).
    mouse: bool,
    _guard: TerminalGuard,
}

impl CrosstermEdge {
    pub fn new(mouse: bool) -> std::io::Result<CrosstermEdge> {
        let (terminal, guard) = setup(mouse)?;
        Ok(CrosstermEdge {
            terminal,
            mouse,
            keys: Some(EventStream::new()),
            // SIGTERM, and SIGHUP (the SSH connection or the terminal went away), quit
            // cleanly: the terminal is restored and the server stopped.
            term: signal(SignalKind::terminate())?,
            hangup: signal(SignalKind::hangup())?,
            panic_key: std::env::var("MCP_INSPECT_PANIC_ON_KEY")
                .ok()
                .and_then(|k| k.chars().next()),
            _guard: guard,
        })
    }
}

impl Edge for CrosstermEdge {
    type Backend = CrosstermBackend<Stdout>;

    fn terminal(&mut self) -> &mut Terminal<Self::Backend> {
        &mut self.terminal
    }

    async fn next_input(&mut self) -> std::io::Result<Input> {
        loop {
            let event = tokio::select! {
                event = self.keys.get_or_insert_with(EventStream::new).next() => event,
                _ = self.term.recv() => return Ok(Input::Quit),
                _ = self.hangup.recv() => return Ok(Input::Quit),
            };
            return match event {
                Some(Ok(Event::Key(key))) if key.kind != KeyEventKind::Release => {
                    if self
                        .panic_key
                        .is_some_and(|k| key.code == crossterm::event::KeyCode::Char(k))
                    {
                        panic!("panic requested by MCP_INSPECT_PANIC_ON_KEY");
                    }
                    Ok(Input::Key(key))
                }
                Some(Ok(Event::Resize(..))) => Ok(Input::Resize),
                // Clicks and the wheel; moves and drags are not used.
                Some(Ok(Event::Mouse(m)))
                    if !matches!(m.kind, MouseEventKind::Moved | MouseEventKind::Drag(_)) =>
                {
                    Ok(Input::Mouse(m))
                }
                Some(Ok(Event::Paste(text))) => Ok(Input::Paste(text)),
                Some(Ok(_)) => continue,
                Some(Err(e)) => Err(e),
                None => Ok(Input::Quit),
            };
        }
    }

    fn copy(&mut self, text: &str) -> Result<String, String> {
        clipboard::copy(text)
    }

    async fn edit(&mut self, text: &str) -> std::io::Result<Result<String, String>> {
        // The key reader would steal the editor's input: stop it while the editor runs.
        self.keys = None;
        let edited = tokio::task::block_in_place(|| external_editor(text));
        resume(&mut self.terminal, self.mouse)?;
        self.keys = Some(EventStream::new());
        Ok(edited)
    }

    fn release(&mut self) {
        // Stop reading keys first: what the user types from now on is the shell's.
        self.keys = None;
        restore();
    }
}
