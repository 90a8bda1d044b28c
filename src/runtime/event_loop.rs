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
pub use crate::runtime::edge::{Edge, Ended, Input};
use crate::runtime::session_task;
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

/// One message into `update`, at the time now: the runtime owns the clock.
fn step(model: &mut Model, msg: Msg) -> Vec<Effect> {
    model.now = Instant::now();
    update(model, msg)
}

/// The messages the transports saw meanwhile, taken once a frame (never one by one).
fn take_wire(model: &mut Model, wire: Option<&WireLog>) {
    if let Some((batch, dropped)) = wire.map(WireLog::take)
        && (!batch.is_empty() || dropped > 0)
    {
        step(model, Msg::Wire { batch, dropped });
    }
}

/// The next settled change `--watch` sees; never, without it.
async fn next_change(
    watch: &mut Option<&mut crate::file_watch::Watcher>,
) -> crate::file_watch::Changes {
    match watch {
        Some(watcher) => watcher.next().await,
        None => std::future::pending().await,
    }
}

/// What the UI shows: a connection it makes, or a tapped session it watches.
pub enum Source {
    Connect(Box<ConnectOptions>),
    Attach(crate::tap::follow::Following),
}

impl From<ConnectOptions> for Source {
    fn from(options: ConnectOptions) -> Source {
        Source::Connect(Box::new(options))
    }
}

/// Runs the UI on `edge` until the user quits or switches server.
pub async fn run_loop<E: Edge>(
    edge: &mut E,
    source: impl Into<Source>,
    mut model: Model,
    mut watch: Option<&mut crate::file_watch::Watcher>,
) -> std::io::Result<Ended>
where
    <E::Backend as Backend>::Error: Send + Sync + 'static,
{
    let (to_ui, mut from_session) = mpsc::channel(4_096);
    let (wire, mut carrier, session) = start(source.into(), model.saved.saving, to_ui);
    let mut dirty = true;
    let mut urgent = true;
    let mut last_frame = Instant::now();
    let mut ticker = tokio::time::interval(TICK);
    let left_at_start = model.view.left_percent;
    while !model.exit.quit {
        if dirty && (urgent || last_frame.elapsed() >= FRAME) {
            take_wire(&mut model, wire.as_ref());
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
            changes = next_change(&mut watch) => effects = step(&mut model, Msg::Watched(changes.describe())),
        }
        dirty = true;
        // What an effect answers at once goes into `update`, whose effects are carried too.
        let mut effects = std::collections::VecDeque::from(effects);
        while let Some(effect) = effects.pop_front() {
            let carried = carrier.carry(edge, effect).await?;
            urgent |= carried.urgent;
            if let Some(msg) = carried.answer {
                effects.extend(step(&mut model, msg));
            }
        }
    }
    carrier.finish(&model).await;
    if model.saved.saving && model.view.left_percent != left_at_start {
        super::layout_file::keep_chosen(model.view.left_percent);
    }
    if !model.exit.switch_server {
        edge.release();
    }
    closed(from_session, session).await;
    Ok(match model.exit.switch_server {
        true => Ended::SwitchServer,
        false => Ended::Quit(0),
    })
}

/// The task that tells the UI of the session (a connection's, or a tap's follower), the
/// carrier of effects to it, and the log of messages the protocol pane takes each frame.
fn start(
    source: Source,
    saving: bool,
    to_ui: mpsc::Sender<Msg>,
) -> (Option<WireLog>, Carrier, tokio::task::JoinHandle<()>) {
    let (requests, request_rx) = mpsc::unbounded_channel();
    match source {
        Source::Connect(options) => {
            let carrier = Carrier::new(Some(&options), saving, requests, to_ui.clone());
            let wire = options.wire.clone();
            let task = session_task::run(*options, request_rx, to_ui);
            (wire, carrier, tokio::spawn(task))
        }
        Source::Attach(following) => {
            let carrier = Carrier::new(None, false, requests, to_ui.clone());
            let wire = WireLog::default();
            let task = super::attached_task::run(following, request_rx, to_ui, wire.clone());
            (Some(wire), carrier, tokio::spawn(task))
        }
    }
}

/// Waits (2 s at most) for the session task to close the server: stdin, a short grace, then
/// the process group. With nothing left to hear it (`from_session` dropped first), a
/// connection still being made is dropped at once: q wins over a hanging handshake.
async fn closed(from_session: mpsc::Receiver<Msg>, session: tokio::task::JoinHandle<()>) {
    drop(from_session);
    let _ = tokio::time::timeout(Duration::from_secs(2), session).await;
}
