//! A fresh copy of a stdio server, spoken to line by line: for what no client library sends (a
//! protocol version from the future, an id past 2^53, a line that is not JSON, a notification
//! nobody defined, stdin closing). Started and ended as every server is (its own process group,
//! through the guard); every read bounded in bytes and in time.

use crate::config::target::Target;
use crate::mcp::session::events::{EventReceiver, EventSink};
use crate::mcp::transport::lines::{Line, read_line};
use crate::mcp::transport::raw::RawResponses;
use crate::mcp::transport::stdio::{ServerProcess, Unscreened, spawn_unscreened};
use serde_json::Value;
use std::time::Duration;
use tokio::io::{AsyncWriteExt, BufReader, DuplexStream};
use tokio::process::ChildStdout;

/// How long an answer may take (a server's first answer includes its start).
pub const WAIT: Duration = Duration::from_secs(10);
/// Longest line read whole; a longer one is skipped (no check here needs a long answer).
const MAX_LINE: usize = 1 << 20;
/// Messages read while waiting for one answer before giving up on it (a flooding server).
const MAX_MESSAGES: usize = 10_000;
/// Other responses, and server requests, kept for the judgements (the rest are read and
/// dropped: a server may flood megabyte answers).
const MAX_KEPT: usize = 64;

/// A running probe, ended with its process group when dropped.
pub struct Probe {
    process: ServerProcess,
    stdout: BufReader<ChildStdout>,
    to_server: DuplexStream,
    /// What the probe wrote, line by line, for the finding's reproduce line.
    pub wrote: Vec<String>,
    /// Requests the server sent us (methods), and whether `notifications/initialized` had been
    /// written when each came.
    pub requests: Vec<(String, bool)>,
    initialized: bool,
    _events: EventReceiver,
}

/// What came of waiting for an answer.
#[derive(Debug)]
pub enum Reply {
    /// The response with the id asked for.
    Answer(Value),
    /// Its stdout ended (the server exited).
    Ended,
    /// Nothing within the wait.
    Quiet,
}

/// What came of waiting for the next message.
#[derive(Debug)]
pub enum Next {
    Message(Value),
    Ended,
    Quiet,
}

/// Whether `message` answers a request (a result or an error).
pub fn is_response(message: &Value) -> bool {
    message.get("result").is_some() || message.get("error").is_some()
}

/// A reply, and the other responses read while waiting for it (ids not the one asked for).
#[derive(Debug)]
pub struct Waited {
    pub reply: Reply,
    pub others: Vec<Value>,
}

impl Probe {
    /// Starts the server `target` names, when it is a stdio one.
    pub fn start(target: &Target) -> Option<std::io::Result<Probe>> {
        let Target::Stdio {
            command,
            args,
            env,
            cwd,
        } = target
        else {
            return None;
        };
        let (events, receiver) = EventSink::new();
        let started = spawn_unscreened(
            (command, args, env, cwd.as_ref()),
            &events,
            &RawResponses::default(),
        );
        Some(started.map(|started| {
            let Unscreened {
                process,
                stdout,
                to_server,
            } = started;
            Probe {
                process,
                stdout,
                to_server,
                wrote: Vec::new(),
                requests: Vec::new(),
                initialized: false,
                _events: receiver,
            }
        }))
    }

    /// Writes one line (a `\n` added); false when the server's stdin is gone.
    pub async fn write(&mut self, line: &str) -> bool {
        self.wrote.push(line.to_string());
        if line.contains("\"notifications/initialized\"") {
            self.initialized = true;
        }
        let written = async {
            self.to_server.write_all(line.as_bytes()).await?;
            self.to_server.write_all(b"\n").await?;
            self.to_server.flush().await
        };
        written.await.is_ok()
    }

    /// Writes a request and waits for the response carrying `id` (compared as JSON values:
    /// with numbers kept as written, `9007199254740993` is not `9007199254740992`).
    pub async fn ask(&mut self, line: &str, id: &Value) -> Waited {
        if !self.write(line).await {
            return Waited {
                reply: Reply::Ended,
                others: Vec::new(),
            };
        }
        self.answer_to(id).await
    }

    /// Waits for the response carrying `id`, keeping the other responses read meanwhile and
    /// noting the server's requests.
    pub async fn answer_to(&mut self, id: &Value) -> Waited {
        let mut others = Vec::new();
        let reply = self.read_until(Some(id), &mut others, WAIT).await;
        Waited { reply, others }
    }

    /// Reads until the response carrying `id` (`None`: until `within` is over).
    async fn read_until(
        &mut self,
        id: Option<&Value>,
        others: &mut Vec<Value>,
        within: Duration,
    ) -> Reply {
        let deadline = tokio::time::Instant::now() + within;
        for _ in 0..MAX_MESSAGES {
            let message = match self.next_message(deadline).await {
                Next::Quiet => return Reply::Quiet,
                Next::Ended => return Reply::Ended,
                Next::Message(message) => message,
            };
            // A batch answered: each response kept as if it came alone.
            if let Value::Array(items) = message {
                let room = MAX_KEPT.saturating_sub(others.len());
                others.extend(items.into_iter().filter(|m| m.is_object()).take(room));
                continue;
            }
            if !is_response(&message) {
                continue;
            }
            if id.is_some() && message.get("id") == id {
                return Reply::Answer(message);
            }
            if others.len() < MAX_KEPT {
                others.push(message);
            }
        }
        Reply::Quiet
    }

    /// The next JSON message the server writes before `deadline` (a line that is not JSON, or
    /// longer than [`MAX_LINE`], skipped); the server's requests are noted on the way.
    pub async fn next_message(&mut self, deadline: tokio::time::Instant) -> Next {
        loop {
            let line = tokio::time::timeout_at(deadline, read_line(&mut self.stdout, MAX_LINE));
            let bytes = match line.await {
                Err(_) => return Next::Quiet,
                Ok(Ok(Line::Complete(bytes))) => bytes,
                Ok(Ok(Line::TooLong { .. })) => continue,
                Ok(Ok(Line::Eof) | Err(_)) => return Next::Ended,
            };
            let Ok(message) = serde_json::from_slice::<Value>(&bytes) else {
                continue;
            };
            if let (Some(method), Some(_)) = (message.get("method"), message.get("id"))
                && self.requests.len() < MAX_KEPT
            {
                let method = method.as_str().unwrap_or("?").to_string();
                self.requests.push((method, self.initialized));
            }
            return Next::Message(message);
        }
    }

    /// The responses that come within `within` (a server may answer out of order).
    pub async fn responses_within(&mut self, within: Duration) -> Vec<Value> {
        let mut others = Vec::new();
        let _ = self.read_until(None, &mut others, within).await;
        others
    }

    /// Closes the server's stdin and waits up to `within` for it to exit: whether it did.
    pub async fn close_stdin(&mut self, within: Duration) -> bool {
        let _ = self.to_server.shutdown().await;
        self.process.wait_briefly(within).await.is_some()
    }

    /// Ends the server (its whole process group) now.
    pub async fn end(self) {
        self.process.shutdown().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_id_is_matched_exactly_and_other_answers_are_kept() {
        let script = r#"read a; echo 'not json'; echo '{"jsonrpc":"2.0","id":9007199254740992,"result":{}}'; echo '{"jsonrpc":"2.0","id":1,"method":"roots/list"}'; echo '{"jsonrpc":"2.0","id":9007199254740993,"result":{"x":1}}'; read b"#;
        let target = Target::Stdio {
            command: "sh".into(),
            args: vec!["-c".into(), script.into()],
            env: Vec::new(),
            cwd: None,
        };
        let mut probe = Probe::start(&target).expect("stdio").expect("starts");
        let id: Value = serde_json::from_str("9007199254740993").expect("json");
        let Waited {
            reply: Reply::Answer(answer),
            others,
        } = probe.ask("{}", &id).await
        else {
            panic!("no answer");
        };
        assert_eq!(answer["result"]["x"], 1);
        assert_eq!(others.len(), 1, "the rounded id is another answer");
        assert_eq!(probe.requests, vec![("roots/list".to_string(), false)]);
        assert!(
            probe.close_stdin(WAIT).await,
            "sh exits when its stdin ends"
        );
        probe.end().await;
    }
}
