//! The one task that owns the connection: connects (and reconnects), lists tools on request and
//! forwards server events, all as messages to the UI loop. The UI never awaits the server.

use super::update::Msg;
use crate::mcp::{ConnectOptions, EventSink, ServerEvent, Session};
use std::time::Duration;
use tokio::sync::mpsc;

#[derive(Debug)]
pub enum Command {
    ListTools,
    Reconnect,
}

/// How often a quiet connection is checked for having ended.
const LIVENESS: Duration = Duration::from_millis(250);

pub async fn run(
    options: ConnectOptions,
    mut commands: mpsc::Receiver<Command>,
    to_ui: mpsc::Sender<Msg>,
) {
    loop {
        let (events, mut event_rx) = EventSink::new();
        let forward = to_ui.clone();
        let forwarder = tokio::spawn(async move {
            while let Some(e) = event_rx.recv().await {
                if forward.send(Msg::Server(e)).await.is_err() {
                    return;
                }
            }
        });
        let connected = Session::connect(&options, &events).await;
        let outcome = match connected {
            Ok(session) => serve(session, &mut commands, &to_ui).await,
            Err(e) => {
                let _ = to_ui.send(Msg::ConnectFailed(e.to_string())).await;
                wait_for_reconnect(&mut commands).await
            }
        };
        forwarder.abort();
        if outcome == Next::Stop {
            return;
        }
    }
}

#[derive(PartialEq, Eq)]
enum Next {
    Reconnect,
    Stop,
}

async fn serve(
    mut session: Session,
    commands: &mut mpsc::Receiver<Command>,
    to_ui: &mpsc::Sender<Msg>,
) -> Next {
    let _ = to_ui.send(Msg::Connected(session.server.clone())).await;
    let mut liveness = tokio::time::interval(LIVENESS);
    let mut lost = false;
    loop {
        tokio::select! {
            command = commands.recv() => match command {
                None => {
                    session.shutdown().await;
                    return Next::Stop;
                }
                Some(Command::Reconnect) => {
                    session.shutdown().await;
                    return Next::Reconnect;
                }
                Some(Command::ListTools) => {
                    let msg = match session.list_tools().await {
                        Ok(list) => Msg::ToolsListed(list),
                        Err(e) => Msg::ListFailed(format!("tools/list failed: {e}")),
                    };
                    let _ = to_ui.send(msg).await;
                }
            },
            _ = liveness.tick(), if !lost => {
                if session.is_closed() {
                    lost = true;
                    let _ = to_ui.send(Msg::Server(ServerEvent::Closed(session.close_reason()))).await;
                }
            }
        }
    }
}

async fn wait_for_reconnect(commands: &mut mpsc::Receiver<Command>) -> Next {
    loop {
        match commands.recv().await {
            None => return Next::Stop,
            Some(Command::Reconnect) => return Next::Reconnect,
            Some(Command::ListTools) => {}
        }
    }
}
