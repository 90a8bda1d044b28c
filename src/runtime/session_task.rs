//! The one task that owns the connection: connects (and reconnects), lists tools, runs tool calls
//! concurrently (each cancellable) and forwards server events, all as messages to the UI loop.
//! The UI never awaits the server.

use crate::app::call::state::Judged;
use crate::app::effect::SessionRequest;
use crate::app::library::state::{Item, Kind, Open};
use crate::app::trial::update::Update;
use crate::app::update::Msg;
use crate::config::target::Target;
use crate::mcp::session::client_side::Asking;
use crate::mcp::session::requests::{Completion, LibraryList};
use crate::mcp::{ConnectOptions, EventSink, RequestError, ServerEvent, Session};
use crate::schema::judge::Judge;
use futures::StreamExt;
use futures::stream::FuturesUnordered;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// How often a quiet connection is checked for having ended.
const LIVENESS: Duration = Duration::from_millis(250);

pub async fn run(
    mut options: ConnectOptions,
    mut commands: mpsc::UnboundedReceiver<SessionRequest>,
    to_ui: mpsc::Sender<Msg>,
) {
    loop {
        let (events, event_rx) = EventSink::new();
        let forwarder = tokio::spawn(forward(events.clone(), event_rx, to_ui.clone()));
        let connected = tokio::select! {
            connected = crate::mcp::connect(&options, &events) => connected,
            // The UI is gone (q while a handshake or a restart hangs): the half-made
            // connection is dropped, which ends the server's process group at once.
            () = to_ui.closed() => {
                forwarder.abort();
                return;
            }
        };
        let outcome = match connected {
            Ok(session) => {
                let asking = &options.client.asking;
                let target = &options.target;
                serve(
                    session,
                    &mut commands,
                    &to_ui,
                    (asking, target),
                    &mut options.log_level,
                )
                .await
            }
            Err(e) => {
                let _ = to_ui.send(Msg::ConnectFailed(e.to_string())).await;
                wait_for_reconnect(&mut commands, &to_ui, &mut options.log_level).await
            }
        };
        forwarder.abort();
        if outcome == Next::Stop {
            return;
        }
    }
}

/// Passes server events to the UI, and says (at most once a second) how many a flooding server
/// made us drop.
async fn forward(
    events: EventSink,
    mut event_rx: crate::mcp::EventReceiver,
    to_ui: mpsc::Sender<Msg>,
) {
    let mut reported = 0;
    let mut every_second = tokio::time::interval(Duration::from_secs(1));
    loop {
        let event = tokio::select! {
            event = event_rx.recv() => match event {
                Some(e) => e,
                None => return,
            },
            _ = every_second.tick() => {
                let dropped = events.dropped();
                if dropped == reported {
                    continue;
                }
                reported = dropped;
                ServerEvent::Notice(format!(
                    "{dropped} server events dropped so far: the server sends them faster than they can be shown"
                ))
            }
        };
        if to_ui.send(Msg::Server(event)).await.is_err() {
            return;
        }
    }
}

#[derive(PartialEq, Eq)]
enum Next {
    Reconnect,
    Stop,
}

/// A call as the connection task gets it: tool, call number, arguments, what the result is
/// judged against, and whether it goes as a task.
type CallRequest = (String, u64, serde_json::Value, Option<Arc<Judge>>, bool);

/// Results kept from an earlier session, judged again on a blocking thread against the
/// output schema listed now; a result that is no longer a tool result is left out.
async fn rejudge(
    tool: String,
    output: Option<Arc<Judge>>,
    calls: Vec<crate::app::saved::state::SavedCall>,
    era: crate::schema::Era,
    to_ui: mpsc::Sender<Msg>,
) {
    use crate::app::call::state::Record;
    let judged = tokio::task::spawn_blocking(move || {
        calls
            .into_iter()
            .filter(|c| crate::mcp::surface::result::CallResult::check_shape(&c.result).is_ok())
            .map(|c| {
                let result = crate::mcp::surface::result::CallResult::decode(c.result);
                Record {
                    id: 0,
                    arguments: c.arguments,
                    elapsed: std::time::Duration::from_millis(c.elapsed_ms),
                    outcome: Judged::new(result, output.as_deref(), era).into_outcome(),
                    made: crate::app::call::state::Made::Earlier,
                }
            })
            .collect()
    })
    .await;
    if let Ok(records) = judged {
        let _ = to_ui.send(Msg::Restored { tool, records }).await;
    }
}

/// One call: start it, say so, wait for its answer unless cancelled, then judge it on a
/// blocking thread (a hostile output schema can make that slow; the UI never waits for it).
async fn call(
    session: &Session,
    to_ui: mpsc::Sender<Msg>,
    (tool, id, arguments, output, as_task): CallRequest,
    cancelled: oneshot::Receiver<()>,
) -> (String, u64, Result<Box<Judged>, RequestError>) {
    let outcome = match session.start_call(&tool, arguments, as_task).await {
        Ok(pending) => {
            let token = pending.progress_token.clone();
            let _ = to_ui
                .send(Msg::CallStarted {
                    tool: tool.clone(),
                    id,
                    token,
                    request: pending.request_id.clone(),
                })
                .await;
            // A dropped sender is not a cancel.
            let cancel = async {
                if cancelled.await.is_err() {
                    std::future::pending::<()>().await;
                }
            };
            pending.result_or_cancel(cancel).await
        }
        Err(e) => Err(e),
    };
    let era = session.server.era;
    let judged = match outcome {
        Ok(result) => tokio::task::spawn_blocking(move || {
            Box::new(Judged::new(result, output.as_deref(), era))
        })
        .await
        .map_err(|e| RequestError::Malformed(format!("judging the result failed: {e}"))),
        Err(e) => Err(e),
    };
    (tool, id, judged)
}

/// The roots the user named, checked and handed to the server (which is told).
async fn set_roots(session: &Session, entries: Vec<String>) -> Msg {
    let outcome = match crate::mcp::session::client_side::root_uris(&entries) {
        Ok(uris) => (session.set_roots(uris.clone()).await).map(|how| (uris, how)),
        Err(why) => Err(why),
    };
    Msg::RootsSet { entries, outcome }
}

/// A request beside the calls whose answer is one message to the UI.
type Errand<'s> = std::pin::Pin<Box<dyn std::future::Future<Output = Msg> + Send + 's>>;

/// Lists what the server declares of resources, templates, prompts and skills.
async fn list_library(session: &Session) -> Msg {
    let (mut items, mut problems) = (Vec::new(), Vec::new());
    for list in LibraryList::ALL {
        if !session.server.declares(list.capability()) {
            continue;
        }
        let kind = match list {
            LibraryList::Resources => Kind::Resource,
            LibraryList::Templates => Kind::Template,
            LibraryList::Prompts => Kind::Prompt,
        };
        match session.list_library(list).await {
            Ok(listing) => {
                problems.extend(listing.problem);
                items.extend(listing.items.into_iter().map(|json| Item { kind, json }));
            }
            Err(e) => problems.push(format!("{} failed: {e}", list.method())),
        }
    }
    if crate::skills::declared(&session.server.capabilities) {
        match session.list_skills().await {
            Ok(listing) => {
                problems.extend(listing.problem);
                let kind = Kind::Skill;
                items.extend(listing.items.into_iter().map(|json| Item { kind, json }));
            }
            Err(e) => problems.push(format!("skills/list failed: {e}")),
        }
    }
    Msg::LibraryListed { items, problems }
}

/// Reads a resource or gets a prompt.
async fn open_item(session: &Session, open: Open) -> Msg {
    let result = session.open(&open.request).await.map_err(|e| e.to_string());
    // Images are decoded here, off the UI thread: a hostile one may take its time to refuse.
    let Ok(value) = result else {
        return Msg::Opened {
            open,
            result,
            pictures: Vec::new(),
        };
    };
    let decoded = tokio::task::spawn_blocking(move || {
        let pictures = crate::mcp::surface::picture::in_opened(&value);
        (value, pictures)
    })
    .await;
    match decoded {
        Ok((value, pictures)) => Msg::Opened {
            open,
            result: Ok(value),
            pictures,
        },
        Err(e) => Msg::Opened {
            open,
            result: Err(format!("decoding its images failed: {e}")),
            pictures: Vec::new(),
        },
    }
}

/// Completions for a form's field.
async fn complete(session: &Session, completion: Completion) -> Msg {
    let result = session
        .complete(&completion)
        .await
        .map_err(|e| e.to_string());
    let argument = completion.argument;
    Msg::Completed { argument, result }
}

async fn serve(
    mut session: Session,
    commands: &mut mpsc::UnboundedReceiver<SessionRequest>,
    to_ui: &mpsc::Sender<Msg>,
    (asking, target): (&Asking, &Target),
    log_level: &mut Option<&'static str>,
) -> Next {
    let _ = to_ui.send(Msg::Connected(session.server.clone())).await;
    let mut liveness = tokio::time::interval(LIVENESS);
    let mut lost = false;
    let next = {
        let mut work = Work::new(&session, to_ui, asking, target);
        loop {
            tokio::select! {
                command = commands.recv() => match command {
                    None => break Next::Stop,
                    Some(request) => if let Some(next) = work.take(request, log_level) {
                        break next;
                    },
                },
                Some(msg) = work.listings.next(), if !work.listings.is_empty() => {
                    let _ = to_ui.send(msg).await;
                    if std::mem::take(&mut work.list_again) {
                        work.list_tools();
                    }
                }
                Some(msg) = work.errands.next(), if !work.errands.is_empty() => {
                    if let Msg::CallFinished { id, .. } = &msg {
                        work.cancels.remove(id);
                    }
                    let _ = to_ui.send(msg).await;
                }
                _ = liveness.tick(), if !lost => {
                    if session.is_closed() {
                        lost = true;
                    }
                }
            }
            if lost {
                break Next::Reconnect;
            }
        }
    };
    if lost {
        let _ = to_ui
            .send(Msg::Server(ServerEvent::Closed(session.close_reason())))
            .await;
        session.shutdown().await;
        return wait_for_reconnect(commands, to_ui, log_level).await;
    }
    session.shutdown().await;
    next
}

/// What a connection is doing for the UI: calls and errands (the library, opens, completions,
/// subscriptions, pings, the log level) run side by side; a listing of tools runs beside them,
/// never inside the loop's turn: a server that answers `tools/list` slowly must not hold up a
/// call's timeout or its cancel.
struct Work<'s> {
    session: &'s Session,
    to_ui: &'s mpsc::Sender<Msg>,
    asking: &'s Asking,
    /// The server, for the conduct checks that start copies of it or send raw HTTP.
    target: &'s Target,
    listings: FuturesUnordered<Errand<'s>>,
    /// Asked again while listing: once more when this one ends.
    list_again: bool,
    errands: FuturesUnordered<Errand<'s>>,
    /// How to cancel each call in flight, by id.
    cancels: HashMap<u64, oneshot::Sender<()>>,
    /// How to stop the verify or load run going on.
    trial_stop: Option<oneshot::Sender<()>>,
}

impl<'s> Work<'s> {
    fn new(
        session: &'s Session,
        to_ui: &'s mpsc::Sender<Msg>,
        asking: &'s Asking,
        target: &'s Target,
    ) -> Work<'s> {
        Work {
            session,
            to_ui,
            asking,
            target,
            listings: FuturesUnordered::new(),
            list_again: false,
            errands: FuturesUnordered::new(),
            cancels: HashMap::new(),
            trial_stop: None,
        }
    }

    /// The conduct checks, every one (see [`crate::conform`]); their findings come back whole.
    fn conform(&mut self, seen: crate::conform::Seen) {
        let (session, target) = (self.session, self.target);
        self.errands.push(Box::pin(async move {
            let selection = crate::conform::Selection::default();
            let found = crate::conform::run_all(
                session,
                Some(target),
                &selection,
                || seen,
                crate::conform::Early::none(),
            )
            .await;
            let words = target.words();
            Msg::Conformed(Ok(crate::conform::with_reproduce(
                found,
                &words,
                Some(target),
            )))
        }));
    }

    fn list_tools(&mut self) {
        let session = self.session;
        self.listings.push(Box::pin(async move {
            match session.list_tools().await {
                Ok(list) => Msg::ToolsListed(list),
                Err(e) => Msg::ListFailed(e),
            }
        }));
    }

    /// A verify or load run started (the one before it, if any, stopped: one at a time), or
    /// the one going on stopped.
    fn trial(&mut self, request: SessionRequest) {
        if let Some(stop) = self.trial_stop.take() {
            let _ = stop.send(());
        }
        let session = self.session;
        let to_ui = self.to_ui.clone();
        let (tx, stop) = oneshot::channel();
        match request {
            SessionRequest::Verify {
                run,
                tool,
                output,
                settings,
            } => {
                self.errands.push(Box::pin(async move {
                    let on = (run, session);
                    let tool = (&tool.0.tool, output);
                    super::trials::verify(on, tool, settings, to_ui, stop).await
                }));
            }
            SessionRequest::Load {
                run,
                tool,
                output,
                arguments,
                callers,
                duration,
            } => {
                self.errands.push(Box::pin(async move {
                    let how = (arguments, callers, duration);
                    let tool = (&tool.0.tool, output);
                    super::trials::load((run, session), tool, how, to_ui, stop).await
                }));
            }
            _ => return,
        }
        self.trial_stop = Some(tx);
    }

    /// Starts what the UI asks for; the connection's end when it asks to reconnect.
    fn take(
        &mut self,
        request: SessionRequest,
        log_level: &mut Option<&'static str>,
    ) -> Option<Next> {
        let session = self.session;
        match request {
            SessionRequest::Reconnect => return Some(Next::Reconnect),
            SessionRequest::ListTools if self.listings.is_empty() => self.list_tools(),
            SessionRequest::ListTools => self.list_again = true,
            SessionRequest::Call {
                tool,
                id,
                arguments,
                output,
                as_task,
            } => {
                let (tx, rx) = oneshot::channel();
                self.cancels.insert(id, tx);
                let request = (tool, id, arguments, output, as_task);
                let to_ui = self.to_ui.clone();
                self.errands.push(Box::pin(async move {
                    let (tool, id, outcome) = call(session, to_ui, request, rx).await;
                    Msg::CallFinished { tool, id, outcome }
                }));
            }
            SessionRequest::Cancel { id } => {
                if let Some(tx) = self.cancels.remove(&id) {
                    let _ = tx.send(());
                }
            }
            SessionRequest::Answer { id, result } => self.asking.answer(id, result),
            SessionRequest::SetRoots(entries) => {
                self.errands.push(Box::pin(set_roots(session, entries)))
            }
            trial @ (SessionRequest::Verify { .. }
            | SessionRequest::Load { .. }
            | SessionRequest::StopTrial) => self.trial(trial),
            SessionRequest::Rejudge {
                tool,
                output,
                calls,
            } => {
                let era = session.server.era;
                tokio::spawn(rejudge(tool, output, calls, era, self.to_ui.clone()));
            }
            SessionRequest::ListLibrary => self.errands.push(Box::pin(list_library(session))),
            SessionRequest::Open(open) => self.errands.push(Box::pin(open_item(session, open))),
            SessionRequest::Complete(completion) => {
                self.errands.push(Box::pin(complete(session, completion)));
            }
            SessionRequest::Subscribe { uri, on } => self.errands.push(Box::pin(async move {
                let outcome = session.subscribe(&uri, on).await;
                let outcome = outcome.map_err(|e| e.to_string());
                Msg::Subscribed { uri, on, outcome }
            })),
            SessionRequest::Ping => {
                self.errands
                    .push(Box::pin(async { Msg::Pinged(session.ping().await) }));
            }
            SessionRequest::Conform(seen) => self.conform(seen),
            SessionRequest::Any { method, params } => {
                self.errands.push(Box::pin(async move {
                    let result = session.any_request(&method, params).await;
                    Msg::Answered { method, result }
                }));
            }
            SessionRequest::SetLogLevel(level) => {
                // Asked again of the next connection, whatever this one answers.
                *log_level = Some(level);
                self.errands.push(Box::pin(async move {
                    let outcome = session.set_log_level(level).await;
                    Msg::LogLevelSet { level, outcome }
                }));
            }
        }
        None
    }
}

async fn wait_for_reconnect(
    commands: &mut mpsc::UnboundedReceiver<SessionRequest>,
    to_ui: &mpsc::Sender<Msg>,
    log_level: &mut Option<&'static str>,
) -> Next {
    let not_connected = || RequestError::Closed(vec!["not connected (r reconnects)".into()]);
    loop {
        match commands.recv().await {
            None => return Next::Stop,
            Some(SessionRequest::Reconnect) => return Next::Reconnect,
            Some(SessionRequest::Call { tool, id, .. }) => {
                let outcome = Err(not_connected());
                let _ = to_ui.send(Msg::CallFinished { tool, id, outcome }).await;
            }
            Some(SessionRequest::Ping) => {
                let _ = to_ui.send(Msg::Pinged(Err(not_connected()))).await;
            }
            Some(SessionRequest::Conform(_)) => {
                let why = "not connected (r reconnects)".to_string();
                let _ = to_ui.send(Msg::Conformed(Err(why))).await;
            }
            Some(SessionRequest::Any { method, .. }) => {
                let result = Err(not_connected());
                let _ = to_ui.send(Msg::Answered { method, result }).await;
            }
            Some(SessionRequest::SetLogLevel(level)) => *log_level = Some(level),
            Some(SessionRequest::SetRoots(entries)) => {
                let outcome = Err("not connected (r reconnects)".to_string());
                let _ = to_ui.send(Msg::RootsSet { entries, outcome }).await;
            }
            Some(SessionRequest::Verify { run, .. } | SessionRequest::Load { run, .. }) => {
                let why = "not connected (r reconnects)".into();
                let _ = to_ui.send(Msg::Trial(Update::Ended { run, why })).await;
            }
            Some(SessionRequest::Subscribe { uri, on }) => {
                let outcome = Err(not_connected().to_string());
                let _ = to_ui.send(Msg::Subscribed { uri, on, outcome }).await;
            }
            // The request was the lost connection's: nobody waits for its answer now.
            Some(SessionRequest::Open(open)) => {
                let result = Err("not connected (r reconnects)".to_string());
                let pictures = Vec::new();
                let _ = to_ui
                    .send(Msg::Opened {
                        open,
                        result,
                        pictures,
                    })
                    .await;
            }
            Some(
                SessionRequest::ListTools
                | SessionRequest::ListLibrary
                | SessionRequest::Complete(_)
                | SessionRequest::Cancel { .. }
                | SessionRequest::Answer { .. }
                | SessionRequest::Rejudge { .. }
                | SessionRequest::StopTrial,
            ) => {}
        }
    }
}
