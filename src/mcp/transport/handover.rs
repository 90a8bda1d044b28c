//! rmcp's side of a stdio server. What the server sent reaches rmcp already typed, through a
//! channel: the screen has read each line once, and the stub of an answer held whole is built
//! here, never parsed (handing rmcp text to read again was the largest cost of a call after
//! the server's own). What rmcp sends is written as JSON lines for the stdin pump.

use crate::mcp::transport::raw::{self, RawResponses};
use rmcp::model::{ClientJsonRpcMessage, ErrorData, RequestId, ServerJsonRpcMessage, ServerResult};
use rmcp::service::RoleClient;
use rmcp::transport::Transport;
use std::sync::Arc;
use tokio::io::{AsyncWriteExt, DuplexStream};
use tokio::sync::{Mutex, OwnedSemaphorePermit, Semaphore, mpsc};

/// Messages from the server waiting for rmcp at most; the screen waits past it, as it waited
/// on a full pipe before.
const WAITING: usize = 256;
/// Bytes (as the server wrote them) of the messages waiting for rmcp at most; a larger message
/// waits alone. A server flooding large messages faster than rmcp takes them (40 log messages
/// of 15 MB before its handshake answer) holds the screen back, never memory.
pub const WAITING_BYTES: usize = 4 << 20;

/// A message waiting for rmcp, holding its bytes' room until rmcp takes it.
pub struct Waiting {
    message: ServerJsonRpcMessage,
    _room: OwnedSemaphorePermit,
}

/// The screen's side of the handover: messages wait in it, bounded in number and in bytes.
pub struct ToRmcp {
    sender: mpsc::Sender<Waiting>,
    room: Arc<Semaphore>,
}

impl ToRmcp {
    /// Hands `message`, `size` bytes as the server wrote it, to rmcp once there is room; false
    /// when rmcp's side is gone.
    pub async fn send(&self, message: ServerJsonRpcMessage, size: usize) -> bool {
        let bytes = u32::try_from(size.clamp(1, WAITING_BYTES)).unwrap_or(u32::MAX);
        let Ok(room) = Arc::clone(&self.room).acquire_many_owned(bytes).await else {
            return false;
        };
        let waiting = Waiting {
            message,
            _room: room,
        };
        self.sender.send(waiting).await.is_ok()
    }
}

/// The channel from the screen to rmcp.
pub fn channel() -> (ToRmcp, mpsc::Receiver<Waiting>) {
    let (sender, receiver) = mpsc::channel(WAITING);
    let room = Arc::new(Semaphore::new(WAITING_BYTES));
    (ToRmcp { sender, room }, receiver)
}

/// The transport rmcp's client runs over for a stdio server.
pub struct Handover {
    from_server: mpsc::Receiver<Waiting>,
    /// Written to the stdin pump; dropped when rmcp closes the transport, which ends the pump
    /// and closes the server's stdin.
    to_server: Arc<Mutex<Option<DuplexStream>>>,
    /// Told of each message before it is written (the stdin pump only taps them).
    raw: RawResponses,
}

impl Handover {
    pub fn new(
        from_server: mpsc::Receiver<Waiting>,
        to_server: DuplexStream,
        raw: RawResponses,
    ) -> Handover {
        Handover {
            from_server,
            to_server: Arc::new(Mutex::new(Some(to_server))),
            raw,
        }
    }
}

impl Transport<RoleClient> for Handover {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        // Before it is written: the answer may come back before the pump has written it all.
        self.raw.sending(&item);
        let to_server = Arc::clone(&self.to_server);
        async move {
            let mut line = serde_json::to_vec(&item).map_err(std::io::Error::other)?;
            line.push(b'\n');
            match to_server.lock().await.as_mut() {
                Some(pipe) => pipe.write_all(&line).await,
                None => Err(std::io::Error::new(
                    std::io::ErrorKind::NotConnected,
                    "the transport is closed",
                )),
            }
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<ServerJsonRpcMessage>> + Send {
        let from_server = &mut self.from_server;
        // Its room is freed as rmcp takes it.
        async move { from_server.recv().await.map(|waiting| waiting.message) }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        drop(self.to_server.lock().await.take());
        Ok(())
    }
}

/// A line the screen let through, typed for rmcp; `None` when rmcp could not take it. As
/// rmcp's own stdio transport does, a request or an answer of the wrong shape is answered
/// "Invalid request" (queued for the stdin pump); a notification of the wrong shape is
/// dropped without a word (JSON-RPC never answers one).
pub fn typed(line: &[u8], raw: &RawResponses) -> Option<ServerJsonRpcMessage> {
    if let Some(id) = raw::held_stub_id(line).and_then(|id| serde_json::from_slice(id).ok()) {
        return Some(held(id));
    }
    match serde_json::from_slice(line) {
        Ok(message) => Some(message),
        Err(e) => {
            let notification = serde_json::from_slice::<serde_json::Value>(line)
                .is_ok_and(|v| v.get("id").is_none() && v.get("method").is_some());
            if e.classify() == serde_json::error::Category::Data && !notification {
                let error = ErrorData::invalid_request("Invalid request", None);
                let answer = ClientJsonRpcMessage::error(error, None);
                if let Ok(mut answer) = serde_json::to_vec(&answer) {
                    answer.push(b'\n');
                    raw.answer_server(answer);
                }
            }
            None
        }
    }
}

/// What rmcp gets for an answer held whole: the empty result its stub reads as.
fn held(id: RequestId) -> ServerJsonRpcMessage {
    ServerJsonRpcMessage::response(ServerResult::empty(()), id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_answers_stub_is_built_as_rmcp_would_read_it() {
        for id in [r#"7"#, r#""a-1""#] {
            let stub = raw::held_stub(id);
            let read: ServerJsonRpcMessage = serde_json::from_str(&stub).expect("rmcp reads it");
            let built = typed(stub.as_bytes(), &RawResponses::default()).expect("typed");
            assert_eq!(
                serde_json::to_value(&built).ok(),
                serde_json::to_value(&read).ok()
            );
        }
    }

    /// Messages wait for rmcp bounded in bytes, not only in number: a server writing large
    /// messages faster than rmcp takes them is held back once [`WAITING_BYTES`] wait.
    #[tokio::test]
    async fn messages_waiting_for_rmcp_are_bounded_in_bytes() {
        use futures::FutureExt;
        let note = || {
            ServerJsonRpcMessage::notification(
                rmcp::model::ServerNotification::ToolListChangedNotification(Default::default()),
            )
        };
        let (to_rmcp, receiver) = channel();
        let (_pipe, to_server) = tokio::io::duplex(64);
        let mut handover = Handover::new(receiver, to_server, RawResponses::default());
        let quarter = WAITING_BYTES / 4;
        for _ in 0..4 {
            let sent = to_rmcp.send(note(), quarter).now_or_never();
            assert_eq!(sent, Some(true), "room for four quarters");
        }
        let fifth = to_rmcp.send(note(), quarter);
        tokio::pin!(fifth);
        assert!((&mut fifth).now_or_never().is_none(), "the fifth waits");
        assert!(handover.receive().await.is_some());
        assert!(fifth.await, "room once rmcp took one");
        // A message larger than the whole room waits alone, and goes once the room is empty.
        let huge = to_rmcp.send(note(), 10 * WAITING_BYTES);
        tokio::pin!(huge);
        assert!((&mut huge).now_or_never().is_none());
        for _ in 0..4 {
            assert!(handover.receive().await.is_some());
        }
        assert!(huge.await);
    }

    #[test]
    fn a_request_of_the_wrong_shape_is_answered_and_a_notification_is_not() {
        let raw = RawResponses::default();
        let bad = br#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":7}"#;
        assert!(typed(bad, &raw).is_none());
        let answers = raw.take_refusals();
        assert_eq!(answers.len(), 1);
        assert!(String::from_utf8_lossy(&answers[0]).contains("-32600"));
        let note = br#"{"jsonrpc":"2.0","method":"notifications/progress","params":7}"#;
        assert!(typed(note, &raw).is_none());
        assert!(raw.take_refusals().is_empty());
    }
}
