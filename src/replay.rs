//! `mcp-inspect replay FILE...`: recordings made with `--record` served as a stdio MCP server,
//! so a server's behaviour can be kept as an offline fixture. Each request is answered with
//! the recorded answer to the same method and params (`_meta` aside; `initialize` by method
//! alone), its id rewritten; the notifications the server sent while that request was the
//! newest one open (progress, logs) come first, a progress token rewritten to the new
//! request's. Notifications sent while no request was open, and requests from the server
//! (sampling, elicitation, roots), are not replayed. Repeated
//! requests take the recorded answers in turn, the last one again once they run out. A request
//! never recorded gets a JSON-RPC error that says so. A list-changed notification is replayed
//! with its exchange once, not every time the last answer is given again (a client that lists
//! again on every change would loop). Every line read, from a file or from the client, is
//! bounded like a message on the wire; a longer one is skipped with a note. Plain threads and
//! blocking IO.

use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufWriter, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;

/// The longest line kept: a recorded message (at most the wire's bound) escaped, and its envelope.
pub const MAX_LINE_BYTES: usize = 2 * crate::mcp::MAX_MESSAGE_BYTES + 4096;
/// Bytes read from all the files together: a recording stops at [`record::MAX_BYTES`], so more
/// is not a recording of ours; the rest is left unread (with a note), never read without end.
///
/// [`record::MAX_BYTES`]: crate::mcp::transport::record::MAX_BYTES
pub const MAX_TOTAL_BYTES: u64 = crate::mcp::transport::record::MAX_BYTES + MAX_LINE_BYTES as u64;

/// One line of at most `max` bytes: `Ok(Some(Ok(line)))`, or `Ok(Some(Err(total)))` for a
/// longer line read to its end and dropped (it costs `max` at most), `Ok(None)` at the end.
/// `budget` is what may still be read in all; reading stops (as at the end) when it runs out.
fn read_line(
    reader: &mut impl BufRead,
    max: usize,
    budget: &mut u64,
) -> std::io::Result<Option<Result<Vec<u8>, u64>>> {
    let mut line = Vec::new();
    let mut total = 0u64;
    loop {
        if *budget == 0 {
            return Ok(None);
        }
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(match (total, total > max as u64) {
                (0, _) => None,
                (_, false) => Some(Ok(line)),
                (_, true) => Some(Err(total)),
            });
        }
        let newline = available.iter().position(|b| *b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        let chunk = &chunk[..chunk
            .len()
            .min(usize::try_from(*budget).unwrap_or(usize::MAX))];
        let taken = chunk.len();
        if total + (taken as u64) <= max as u64 {
            line.extend_from_slice(chunk);
        } else {
            line = Vec::new();
        }
        total += taken as u64;
        let ends = newline == Some(taken);
        let consumed = taken + usize::from(ends);
        reader.consume(consumed);
        *budget = budget.saturating_sub(consumed as u64);
        if ends {
            return Ok(Some(if total > max as u64 {
                Err(total)
            } else {
                Ok(line)
            }));
        }
    }
}

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
        let mut budget = MAX_TOTAL_BYTES;
        for path in paths {
            let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
            // Never blocking on a FIFO: refused below as not a regular file.
            let file = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(nix::libc::O_NONBLOCK)
                .open(path)
                .map_err(cannot)?;
            if !file.metadata().map_err(cannot)?.is_file() {
                return Err(format!(
                    "cannot read {}: not a regular file",
                    path.display()
                ));
            }
            // Requests still open, oldest first.
            let mut open: Vec<Open> = Vec::new();
            let mut reader = std::io::BufReader::new(file);
            let mut number = 0u64;
            while let Some(line) =
                read_line(&mut reader, MAX_LINE_BYTES, &mut budget).map_err(cannot)?
            {
                number += 1;
                let line = match line {
                    Ok(line) => line,
                    Err(total) => {
                        eprintln!(
                            "note: {} line {number}: {total} bytes, over the {MAX_LINE_BYTES}-byte bound for a line; skipped",
                            crate::untrusted::line(&path.display().to_string(), 200),
                        );
                        continue;
                    }
                };
                let Ok(entry) = serde_json::from_slice::<Value>(&line) else {
                    continue;
                };
                recording.take(&mut open, &entry);
            }
            if budget == 0 {
                eprintln!(
                    "note: the recordings hold over {MAX_TOTAL_BYTES} bytes (a recording stops at {}); the rest is not read",
                    crate::mcp::transport::record::MAX_BYTES
                );
                break;
            }
        }
        Ok(recording)
    }

    /// One recorded message: a request opens an exchange, a notification joins the newest
    /// open one, an answer closes its request's exchange and keeps it.
    fn take(&mut self, open: &mut Vec<Open>, entry: &Value) {
        let (Some(dir), Some(message)) = (entry["dir"].as_str(), entry.get("message")) else {
            return;
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
                    return;
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
                self.add(
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
            return Some(list.remove(0));
        }
        let last = list.first_mut()?;
        let given = last.clone();
        // Given again from now on: without the list changes it announced the first time.
        last.before.retain(|note| {
            !note["method"]
                .as_str()
                .is_some_and(|m| m.ends_with("/list_changed"))
        });
        Some(given)
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
    let mut stdin = stdin.lock();
    let mut out = BufWriter::new(std::io::stdout());
    let mut unlimited = u64::MAX;
    while let Ok(Some(line)) = read_line(&mut stdin, crate::mcp::MAX_MESSAGE_BYTES, &mut unlimited)
    {
        let Ok(request) = serde_json::from_slice::<Value>(&line.unwrap_or_default()) else {
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
        // One file per call: the tests run side by side in one process.
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("replay-{}-{n}.jsonl", std::process::id());
        let path = std::env::temp_dir().join(name);
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

    #[test]
    fn a_list_change_is_replayed_once_not_with_every_answer_given_again() {
        let mut r = recording(&[
            json!({"t": 0, "dir": "out", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}}),
            json!({"t": 1, "dir": "in", "message": {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}}),
            json!({"t": 2, "dir": "in", "message": {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}}),
        ]);
        let first = r.answer("tools/list", &Value::Null).expect("recorded");
        assert_eq!(first.before.len(), 1);
        let again = r.answer("tools/list", &Value::Null).expect("recorded");
        assert!(again.before.is_empty());
    }

    #[test]
    fn lines_are_bounded_and_reading_stops_at_the_budget() {
        let text = b"short\n0123456789abcdef\nend";
        let mut budget = u64::MAX;
        let mut reader = &text[..];
        let mut lines = Vec::new();
        while let Some(line) = read_line(&mut reader, 8, &mut budget).expect("read") {
            lines.push(line);
        }
        assert_eq!(lines, [Ok(b"short".to_vec()), Err(16), Ok(b"end".to_vec())]);
        // An endless line stops when the budget does.
        let mut endless = std::io::repeat(b'x');
        let mut reader = std::io::BufReader::new(&mut endless);
        let mut budget = 1 << 20;
        assert_eq!(read_line(&mut reader, 8, &mut budget).expect("read"), None);
        assert_eq!(budget, 0);
    }
}
