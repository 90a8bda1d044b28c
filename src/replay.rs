//! `mcp-inspect replay FILE...`: recordings made with `--record` served as a stdio MCP server,
//! so a server's behaviour can be kept as an offline fixture. Each request is answered with
//! the recorded answer to the same method and params (`_meta` aside; `initialize` by method
//! alone), its id rewritten; the notifications the server sent while that request was the
//! newest one open (progress, logs) come first, a progress token rewritten to the new
//! request's. Notifications sent while no request was open, and requests from the server
//! (sampling, elicitation, roots), are not replayed. Repeated
//! requests take the recorded answers in turn, the last one again once they run out. A request
//! never recorded gets a JSON-RPC error that says so. Plain threads and blocking IO.

use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufWriter, Write};
use std::path::PathBuf;

/// One recorded exchange: the answer and what the server sent before it.
#[derive(Debug, Clone)]
struct Exchange {
    before: Vec<Value>,
    /// `{"result": …}` or `{"error": …}`.
    answer: Map<String, Value>,
    /// The recorded request's progress token, to be replaced by the new one's.
    token: Option<Value>,
}

/// A recorded request not yet answered, with the notifications that came while it was the
/// newest one open.
struct Open {
    id: String,
    method: String,
    /// Params as matched (see [`matchable`]).
    params: Value,
    token: Option<Value>,
    before: Vec<Value>,
}

/// Recorded exchanges by method and params, each list in recorded order.
#[derive(Debug, Default)]
struct Recording {
    exchanges: HashMap<String, Vec<(Value, Vec<Exchange>)>>,
}

/// Params without `_meta` (a progress token differs on every run), for matching.
fn matchable(method: &str, params: Option<&Value>) -> Value {
    if method == "initialize" {
        return Value::Null;
    }
    let mut params = params.cloned().unwrap_or(Value::Null);
    if let Value::Object(map) = &mut params {
        map.shift_remove("_meta");
    }
    params
}

fn progress_token(params: Option<&Value>) -> Option<Value> {
    params?.get("_meta")?.get("progressToken").cloned()
}

impl Recording {
    /// Reads recordings; a line that is not a recorded message is skipped.
    fn read(paths: &[PathBuf]) -> Result<Recording, String> {
        let mut recording = Recording::default();
        for path in paths {
            let file = std::fs::File::open(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            // Requests still open, oldest first.
            let mut open: Vec<Open> = Vec::new();
            for line in std::io::BufReader::new(file).lines() {
                let line = line.map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let Ok(entry) = serde_json::from_str::<Value>(&line) else {
                    continue;
                };
                let (Some(dir), Some(message)) = (entry["dir"].as_str(), entry.get("message"))
                else {
                    continue;
                };
                let id = message.get("id").map(Value::to_string);
                let method = message.get("method").and_then(Value::as_str);
                match (dir, id, method) {
                    ("out", Some(id), Some(method)) => {
                        let params = message.get("params");
                        open.push(Open {
                            id,
                            method: method.to_string(),
                            params: matchable(method, params),
                            token: progress_token(params),
                            before: Vec::new(),
                        });
                    }
                    ("in", None, Some(_)) => {
                        if let Some(newest) = open.last_mut() {
                            newest.before.push(message.clone());
                        }
                    }
                    ("in", Some(id), None) => {
                        let Some(at) = open.iter().position(|o| o.id == id) else {
                            continue;
                        };
                        let Open {
                            method,
                            params,
                            token,
                            before,
                            ..
                        } = open.remove(at);
                        let answer: Map<String, Value> = message
                            .as_object()
                            .into_iter()
                            .flatten()
                            .filter(|(k, _)| *k == "result" || *k == "error")
                            .map(|(k, v)| (k.clone(), v.clone()))
                            .collect();
                        recording.add(
                            method,
                            params,
                            Exchange {
                                before,
                                answer,
                                token,
                            },
                        );
                    }
                    _ => {}
                }
            }
        }
        Ok(recording)
    }

    fn add(&mut self, method: String, params: Value, exchange: Exchange) {
        let same = self.exchanges.entry(method).or_default();
        match same.iter_mut().find(|(p, _)| *p == params) {
            Some((_, list)) => list.push(exchange),
            None => same.push((params, vec![exchange])),
        }
    }

    /// The next recorded exchange for this request (the last one again once they run out).
    fn answer(&mut self, method: &str, params: &Value) -> Option<Exchange> {
        let list = &mut self
            .exchanges
            .get_mut(method)?
            .iter_mut()
            .find(|(p, _)| p == params)?
            .1;
        if list.len() > 1 {
            Some(list.remove(0))
        } else {
            list.first().cloned()
        }
    }
}

/// Serves the recordings on stdin/stdout until stdin closes; returns the exit code.
pub fn run(paths: &[PathBuf]) -> i32 {
    let mut recording = match Recording::read(paths) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {}", crate::untrusted::line(&e, 400));
            return 1;
        }
    };
    let stdin = std::io::stdin();
    let mut out = BufWriter::new(std::io::stdout());
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            break;
        };
        let Ok(request) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let (Some(id), Some(method)) = (
            request.get("id"),
            request.get("method").and_then(Value::as_str),
        ) else {
            // Notifications and answers from the client need no reply.
            continue;
        };
        let params = request.get("params");
        let replies = match recording.answer(method, &matchable(method, params)) {
            Some(exchange) => replay(exchange, id, progress_token(params)),
            None => vec![json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": {"code": -32601, "message": format!("not in the recording: {method} with these params")},
            })],
        };
        for reply in replies {
            if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
                return 0;
            }
        }
    }
    0
}

/// The messages that answer one request: the notifications sent meanwhile, then the answer.
fn replay(exchange: Exchange, id: &Value, token: Option<Value>) -> Vec<Value> {
    let mut replies = Vec::new();
    for mut note in exchange.before {
        let recorded_token = note.pointer("/params/progressToken").cloned();
        if recorded_token.is_some() {
            // Progress for this request only, under the token the new request gave.
            match (&recorded_token, &exchange.token, &token) {
                (Some(r), Some(t), Some(new)) if r == t => {
                    note["params"]["progressToken"] = new.clone();
                }
                _ => continue,
            }
        }
        replies.push(note);
    }
    let mut answer = Map::new();
    answer.insert("jsonrpc".into(), json!("2.0"));
    answer.insert("id".into(), id.clone());
    answer.extend(exchange.answer);
    replies.push(Value::Object(answer));
    replies
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recording(lines: &[Value]) -> Recording {
        let path = std::env::temp_dir().join(format!("replay-{}.jsonl", std::process::id()));
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&path, text).expect("write");
        let r = Recording::read(std::slice::from_ref(&path)).expect("read");
        let _ = std::fs::remove_file(&path);
        r
    }

    #[test]
    fn answers_by_method_and_params_with_the_new_id_and_token() {
        let mut r = recording(&[
            json!({"t": 0, "dir": "out", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "slow", "_meta": {"progressToken": 7}}}}),
            json!({"t": 1, "dir": "in", "message": {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 7, "progress": 1}}}),
            json!({"t": 2, "dir": "in", "message": {"jsonrpc": "2.0", "id": 1, "result": {"content": [], "x-extra": 1}}}),
            json!({"t": 3, "dir": "out", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "other"}}}),
            json!({"t": 4, "dir": "in", "message": {"jsonrpc": "2.0", "id": 2, "error": {"code": -1, "message": "no"}}}),
        ]);
        let params = matchable(
            "tools/call",
            Some(&json!({"name": "slow", "_meta": {"progressToken": "new"}})),
        );
        let exchange = r.answer("tools/call", &params).expect("recorded");
        let replies = replay(exchange, &json!("req-9"), Some(json!("new")));
        assert_eq!(replies[0]["params"]["progressToken"], "new");
        assert_eq!(replies[1]["id"], "req-9");
        assert_eq!(replies[1]["result"]["x-extra"], 1);
        let other = r
            .answer("tools/call", &json!({"name": "other"}))
            .expect("recorded");
        assert_eq!(replay(other, &json!(3), None)[0]["error"]["message"], "no");
        assert!(r.answer("tools/call", &json!({"name": "never"})).is_none());
    }
}
