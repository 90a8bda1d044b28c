//! The one task that owns the connection: connects (and reconnects), lists tools, runs tool calls
//! concurrently (each cancellable) and forwards server events, all as messages to the UI loop.
//! The UI never awaits the server.

use crate::app::call::state::{Judged, OutputCheck};
use crate::app::effect::SessionRequest;
use crate::app::library::state::{Item, Kind, Open};
use crate::app::update::Msg;
use crate::mcp::session::client_side::Asking;
use crate::mcp::session::requests::{Completion, LibraryList};
use crate::mcp::{ConnectOptions, EventSink, RequestError, ServerEvent, Session};
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
    mut commands: mpsc::Receiver<SessionRequest>,
    to_ui: mpsc::Sender<Msg>,
) {
    loop {
        let (events, event_rx) = EventSink::new();
        let forwarder = tokio::spawn(forward(events.clone(), event_rx, to_ui.clone()));
        let outcome = match crate::mcp::connect(&options, &events).await {
            Ok(session) => {
                let asking = &options.client.asking;
                serve(
                    session,
                    &mut commands,
                    &to_ui,
                    asking,
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
type CallRequest = (
    String,
    u64,
    serde_json::Value,
    Option<Arc<OutputCheck>>,
    bool,
);

/// Results kept from an earlier session, judged again on a blocking thread against the
/// output schema listed now; a result that is no longer a tool result is left out.
async fn rejudge(
    tool: String,
    output: Option<Arc<OutputCheck>>,
    calls: Vec<crate::app::saved::state::SavedCall>,
    era: crate::schema::Era,
    to_ui: mpsc::Sender<Msg>,
) {
    use crate::app::call::state::{Outcome, Record};
    let judged = tokio::task::spawn_blocking(move || {
        calls
            .into_iter()
            .filter(|c| crate::mcp::surface::result::CallResult::check_shape(&c.result).is_ok())
            .map(|c| {
                let result = crate::mcp::surface::result::CallResult::decode(c.result);
                let Judged { result, verdict } = Judged::new(result, output.as_deref(), era);
                Record {
                    id: 0,
                    arguments: c.arguments,
                    elapsed: std::time::Duration::from_millis(c.elapsed_ms),
                    outcome: Outcome::Result {
                        text: Box::new(crate::app::call::result_text::ResultText::new(&result)),
                        result: Box::new(result),
                        verdict: Box::new(verdict),
                    },
                    restored: true,
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

/// A request beside the calls whose answer is one message to the UI.
type Errand<'s> = std::pin::Pin<Box<dyn std::future::Future<Output = Msg> + Send + 's>>;

/// Lists what the server declares of resources, templates and prompts.
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
    Msg::LibraryListed { items, problems }
}

/// Reads a resource or gets a prompt.
async fn open_item(session: &Session, open: Open) -> Msg {
    let result = session.open(&open.request).await.map_err(|e| e.to_string());
    Msg::Opened { open, result }
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
    commands: &mut mpsc::Receiver<SessionRequest>,
    to_ui: &mpsc::Sender<Msg>,
    asking: &Asking,
    log_level: &mut Option<&'static str>,
) -> Next {
    let _ = to_ui.send(Msg::Connected(session.server.clone())).await;
    let mut liveness = tokio::time::interval(LIVENESS);
    let mut lost = false;
    let mut cancels: HashMap<u64, oneshot::Sender<()>> = HashMap::new();
    let next = {
        let session_ref = &session;
        let mut calls = FuturesUnordered::new();
        // A listing runs beside the calls, never inside this loop's turn: a server that
        // answers `tools/list` slowly must not hold up a call's timeout or its cancel.
        let mut listings = FuturesUnordered::new();
        let mut list_again = false;
        // Resources, templates and prompts listed and opened, pings, the log level: beside
        // everything else too.
        let mut errands = FuturesUnordered::new();
        loop {
            tokio::select! {
                command = commands.recv() => match command {
                    None => break Next::Stop,
                    Some(SessionRequest::Reconnect) => break Next::Reconnect,
                    Some(SessionRequest::ListTools) if listings.is_empty() => {
                        listings.push(session_ref.list_tools());
                    }
                    // Asked again while listing: once more when this one ends.
                    Some(SessionRequest::ListTools) => list_again = true,
                    Some(SessionRequest::Call { tool, id, arguments, output, as_task }) => {
                        let (tx, rx) = oneshot::channel();
                        cancels.insert(id, tx);
                        let request = (tool, id, arguments, output, as_task);
                        calls.push(call(session_ref, to_ui.clone(), request, rx));
                    }
                    Some(SessionRequest::Answer { id, result }) => asking.answer(id, result),
                    Some(SessionRequest::Rejudge { tool, output, calls }) => {
                        let era = session_ref.server.era;
                        tokio::spawn(rejudge(tool, output, calls, era, to_ui.clone()));
                    }
                    Some(SessionRequest::ListLibrary) => {
                        errands.push(Box::pin(list_library(session_ref)) as Errand<'_>);
                    }
                    Some(SessionRequest::Open(open)) => {
                        errands.push(Box::pin(open_item(session_ref, open)));
                    }
                    Some(SessionRequest::Complete(completion)) => {
                        errands.push(Box::pin(complete(session_ref, completion)));
                    }
                    Some(SessionRequest::Subscribe { uri, on }) => {
                        errands.push(Box::pin(async move {
                            let outcome = session_ref.subscribe(&uri, on).await;
                            let outcome = outcome.map_err(|e| e.to_string());
                            Msg::Subscribed { uri, on, outcome }
                        }));
                    }
                    Some(SessionRequest::Ping) => {
                        errands.push(Box::pin(async { Msg::Pinged(session_ref.ping().await) }));
                    }
                    Some(SessionRequest::SetLogLevel(level)) => {
                        // Asked again of the next connection, whatever this one answers.
                        *log_level = Some(level);
                        errands.push(Box::pin(async move {
                            let outcome = session_ref.set_log_level(level).await;
                            Msg::LogLevelSet { level, outcome }
                        }));
                    }
                    Some(SessionRequest::Cancel { id }) => {
                        if let Some(tx) = cancels.remove(&id) {
                            let _ = tx.send(());
                        }
                    }
                },
                Some(listed) = listings.next(), if !listings.is_empty() => {
                    let msg = match listed {
                        Ok(list) => Msg::ToolsListed(list),
                        Err(e) => Msg::ListFailed(e),
                    };
                    let _ = to_ui.send(msg).await;
                    if std::mem::take(&mut list_again) {
                        listings.push(session_ref.list_tools());
                    }
                }
                Some(msg) = errands.next(), if !errands.is_empty() => {
                    let _ = to_ui.send(msg).await;
                }
                Some((tool, id, outcome)) = calls.next(), if !calls.is_empty() => {
                    cancels.remove(&id);
                    let _ = to_ui.send(Msg::CallFinished { tool, id, outcome }).await;
                }
                _ = liveness.tick(), if !lost => {
                    if session_ref.is_closed() {
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

async fn wait_for_reconnect(
    commands: &mut mpsc::Receiver<SessionRequest>,
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
            Some(SessionRequest::SetLogLevel(level)) => *log_level = Some(level),
            Some(SessionRequest::Subscribe { uri, on }) => {
                let outcome = Err(not_connected().to_string());
                let _ = to_ui.send(Msg::Subscribed { uri, on, outcome }).await;
            }
            // The request was the lost connection's: nobody waits for its answer now.
            Some(SessionRequest::Open(open)) => {
                let result = Err("not connected (r reconnects)".to_string());
                let _ = to_ui.send(Msg::Opened { open, result }).await;
            }
            Some(
                SessionRequest::ListTools
                | SessionRequest::ListLibrary
                | SessionRequest::Complete(_)
                | SessionRequest::Cancel { .. }
                | SessionRequest::Answer { .. }
                | SessionRequest::Rejudge { .. },
            ) => {}
        }
    }
}
