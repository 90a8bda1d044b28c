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
use tokio::sync::{Mutex, mpsc};

/// Messages from the server waiting for rmcp at most; the screen waits past it, as it waited
/// on a full pipe before.
pub const WAITING: usize = 256;

/// The transport rmcp's client runs over for a stdio server.
pub struct Handover {
    from_server: mpsc::Receiver<ServerJsonRpcMessage>,
    /// Written to the stdin pump; dropped when rmcp closes the transport, which ends the pump
    /// and closes the server's stdin.
    to_server: Arc<Mutex<Option<DuplexStream>>>,
}

impl Handover {
    pub fn new(
        from_server: mpsc::Receiver<ServerJsonRpcMessage>,
        to_server: DuplexStream,
    ) -> Handover {
        Handover {
            from_server,
            to_server: Arc::new(Mutex::new(Some(to_server))),
        }
    }
}

impl Transport<RoleClient> for Handover {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
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
        self.from_server.recv()
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
