//! The event loop, generic over its [`Edge`] (the terminal, input, clipboard and editor): key
//! and server events into `update` with the time, effects carried out, and a redraw only when
//! something changed. The real edge is [`super::crossterm_edge`]; tests drive this same loop on
//! a `TestBackend`.

use crate::app::effect::Effect;
use crate::app::model::Model;
use crate::app::update::{Msg, update};
use crate::mcp::ConnectOptions;
use crate::mcp::transport::wire::WireLog;
use crate::runtime::carrier::Carrier;
use crate::runtime::session_task;
use crossterm::event::KeyEvent;
use ratatui::Terminal;
use ratatui::backend::Backend;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Messages handled before a redraw when a server floods us.
const MAX_BATCH: usize = 512;
/// Least time between frames drawn for server events alone (a key press draws at once): a
/// flooding server costs at most 60 frames a second.
const FRAME: Duration = Duration::from_millis(16);
/// How often the screen ticks while a call runs (spinner, elapsed, countdown).
const TICK: Duration = Duration::from_millis(200);

/// One input from the user's side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Key(KeyEvent),
    Mouse(crossterm::event::MouseEvent),
    Paste(String),
    Resize,
    /// SIGTERM, SIGHUP or the end of input: quit cleanly.
    Quit,
}

/// Everything the loop touches besides the connection.
#[allow(async_fn_in_trait)] // used generically, never as a trait object
pub trait Edge {
    type Backend: Backend;
    fn terminal(&mut self) -> &mut Terminal<Self::Backend>;
    /// The next input. Must be cancel-safe: the loop drops it when a server event comes first,
    /// and asks again after the next frame.
    async fn next_input(&mut self) -> std::io::Result<Input>;
    /// Puts text on a clipboard; says how, or why not.
    fn copy(&mut self, text: &str) -> Result<String, String>;
    /// Lets the user edit `text` in an external editor; the new text, or why not.
    async fn edit(&mut self, text: &str) -> std::io::Result<Result<String, String>>;
    /// The UI is done: give the terminal back now, before the server is waited for.
    fn release(&mut self);
}

/// How a session of the UI ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The user quit (the exit code); the terminal is given back.
    Quit(i32),
    /// The user asked for another server (`S`): the terminal is kept for the picker.
    SwitchServer,
}

/// One message into `update`, at the time now: the runtime owns the clock.
pub(super) fn step(model: &mut Model, msg: Msg) -> Vec<Effect> {
    model.now = Instant::now();
    update(model, msg)
}

/// Runs the UI on `edge` until the user quits or switches server.
pub async fn run_loop<E: Edge>(
    edge: &mut E,
    options: ConnectOptions,
    mut model: Model,
) -> std::io::Result<Ended>
where
    <E::Backend as Backend>::Error: Send + Sync + 'static,
{
    let wire = options.wire.clone();
    let (to_ui, mut from_session) = mpsc::channel(4_096);
    let (requests, request_rx) = mpsc::channel(16);
    let mut carrier = Carrier::new(&options, model.saved.saving, requests, to_ui.clone());
    let session = tokio::spawn(session_task::run(options, request_rx, to_ui));
    let mut dirty = true;
    let mut urgent = true;
    let mut last_frame = Instant::now();
    let mut ticker = tokio::time::interval(TICK);
    while !model.exit.quit {
        if dirty && (urgent || last_frame.elapsed() >= FRAME) {
            // The messages the transports saw meanwhile, taken once a frame (never one by one).
            if let Some((batch, dropped)) = wire.as_ref().map(WireLog::take)
                && (!batch.is_empty() || dropped > 0)
            {
                step(&mut model, Msg::Wire { batch, dropped });
            }
            model.now = Instant::now();
            super::frame(edge.terminal(), &mut model).map_err(std::io::Error::other)?;
            last_frame = Instant::now();
            dirty = false;
            urgent = false;
        }
        let mut effects = Vec::new();
        tokio::select! {
            () = tokio::time::sleep_until((last_frame + FRAME).into()), if dirty => continue,
            input = edge.next_input() => {
                urgent = true;
                match input? {
                    Input::Key(key) => effects = step(&mut model, Msg::Key(key)),
                    Input::Mouse(event) => effects = step(&mut model, Msg::Mouse(event)),
                    Input::Paste(text) => effects = step(&mut model, Msg::Paste(text)),
                    Input::Resize => {}
                    Input::Quit => model.exit.quit = true,
                }
            }
            msg = from_session.recv() => {
                if let Some(msg) = msg {
                    effects = step(&mut model, msg);
                    for _ in 0..MAX_BATCH {
                        match from_session.try_recv() {
                            Ok(more) => effects.extend(step(&mut model, more)),
                            Err(_) => break,
                        }
                    }
                }
            }
            _ = ticker.tick(), if model.busy() => effects = step(&mut model, Msg::Tick),
        }
        dirty = true;
        for effect in effects {
            urgent |= carrier.carry(edge, &mut model, effect).await?;
        }
    }
    carrier.finish(&model).await;
    if !model.exit.switch_server {
        edge.release();
    }
    // The session task closes the server: stdin, a short grace, then the process group.
    let _ = tokio::time::timeout(Duration::from_secs(2), session).await;
    Ok(match model.exit.switch_server {
        true => Ended::SwitchServer,
        false => Ended::Quit(0),
    })
}
