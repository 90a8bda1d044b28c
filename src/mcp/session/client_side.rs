//! What mcp-inspect declares as a client (roots, sampling, elicitation) and how it answers the
//! requests a server sends back: roots from `--roots`, sampling and elicitation by the policies
//! the user chose (headless: decline by default; the TUI asks the user). Every request and its
//! answer is told as an event, so nothing a server asks is answered out of sight.

use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

/// How `elicitation/create` is answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ElicitationPolicy {
    /// The user answers, in the TUI's panel.
    Ask,
    Decline,
    Cancel,
    /// Accept with the default of every requested field that has one (SEP-1034).
    Defaults,
    /// Answer with the JSON result in this file.
    File(PathBuf),
}

/// How `sampling/createMessage` is answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SamplingPolicy {
    /// The user answers, in the TUI's panel.
    Ask,
    Reject,
    /// Answer with the JSON result in this file.
    File(PathBuf),
}

/// The client side of a connection: what is declared, and the policies behind it. A capability
/// that is off is neither declared nor answered (the server gets "method not found").
#[derive(Debug, Clone)]
pub struct ClientSide {
    /// `file://` URIs; `None` when roots are not declared.
    pub roots: Option<Roots>,
    pub sampling: Option<SamplingPolicy>,
    pub elicitation: Option<ElicitationPolicy>,
    /// The requests waiting for the user's answer (the `Ask` policies).
    pub asking: Arc<Asking>,
}

/// The roots handed to the server, shared by every connection made from the same options: the
/// TUI edits them (and tells the server), and the next `roots/list` answers the new list.
#[derive(Debug, Clone, Default)]
pub struct Roots(Arc<Mutex<Vec<String>>>);

impl Roots {
    pub fn new(uris: Vec<String>) -> Roots {
        Roots(Arc::new(Mutex::new(uris)))
    }

    pub fn get(&self) -> Vec<String> {
        self.0.lock().map(|r| r.clone()).unwrap_or_default()
    }

    pub fn set(&self, uris: Vec<String>) {
        if let Ok(mut roots) = self.0.lock() {
            *roots = uris;
        }
    }
}

/// Requests put to the user, each waiting for its answer by number.
#[derive(Debug, Default)]
pub struct Asking {
    next: AtomicU64,
    waiting: Mutex<HashMap<u64, oneshot::Sender<Result<Value, String>>>>,
}

impl Asking {
    /// A number for a new request, and where its answer will arrive.
    pub fn open(&self) -> (u64, oneshot::Receiver<Result<Value, String>>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let (tx, rx) = oneshot::channel();
        if let Ok(mut waiting) = self.waiting.lock() {
            waiting.insert(id, tx);
        }
        (id, rx)
    }

    /// Whether a request waits for the user's answer now.
    pub fn pending(&self) -> bool {
        self.waiting.lock().is_ok_and(|w| !w.is_empty())
    }

    /// Gives request `id` its answer (a request no longer waiting is ignored).
    pub fn answer(&self, id: u64, result: Result<Value, String>) {
        let waiting = self.waiting.lock().ok().and_then(|mut w| w.remove(&id));
        if let Some(tx) = waiting {
            let _ = tx.send(result);
        }
    }
}

/// How the user's answer to a request reads in the log.
pub fn told_answer(result: &Result<Value, String>) -> String {
    use crate::untrusted::{json as escaped, line};
    match result {
        Err(e) => format!("refused by you ({})", line(e, 120)),
        Ok(v) => match v.get("action").and_then(Value::as_str) {
            Some("accept") => {
                let content = escaped(v.get("content").unwrap_or(&Value::Null), false);
                format!("accepted by you with {}", line(&content, 200))
            }
            Some(action) => format!("{} by you", line(action, 20)),
            None => "answered by you".to_string(),
        },
    }
}

impl Default for ClientSide {
    /// Everything declared, nothing handed over: roots declared with an empty list (the server
    /// gets no directory the user did not name with `--roots`; a server such as
    /// server-filesystem keeps its own list when the client's is empty), sampling rejected,
    /// elicitation declined.
    fn default() -> ClientSide {
        ClientSide {
            roots: Some(Roots::default()),
            sampling: Some(SamplingPolicy::Reject),
            elicitation: Some(ElicitationPolicy::Decline),
            asking: Arc::default(),
        }
    }
}

/// Roots as the user wrote them (directories, or `file://` URIs kept as given) as `file://`
/// URIs; a directory that does not exist, or is not one, is refused by name.
pub fn root_uris(entries: &[String]) -> Result<Vec<String>, String> {
    let mut uris = Vec::new();
    for entry in entries {
        if entry.starts_with("file://") {
            uris.push(entry.clone());
            continue;
        }
        let shown = crate::untrusted::line(entry, 200);
        let path = std::path::absolute(entry).map_err(|e| format!("{shown}: {e}"))?;
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => uris.push(file_uri(&path)),
            Ok(_) => return Err(format!("{shown} is not a directory")),
            Err(e) => return Err(format!("{shown}: {e}")),
        }
    }
    Ok(uris)
}

/// A directory as a `file://` URI, each byte outside the unreserved set percent-encoded.
pub fn file_uri(dir: &std::path::Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut uri = String::from("file://");
    for &b in dir.as_os_str().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

/// An answer to a server's request: the result to send, or an error, and a line for the user.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub result: Result<Value, String>,
    pub told: String,
}

impl ClientSide {
    /// The `capabilities` object of `initialize` (and of the 2026 era's `_meta`).
    pub fn capabilities(&self) -> Value {
        let mut caps = Map::new();
        if self.roots.is_some() {
            caps.insert("roots".into(), json!({"listChanged": true}));
        }
        if self.sampling.is_some() {
            caps.insert("sampling".into(), json!({}));
        }
        if self.elicitation.is_some() {
            caps.insert("elicitation".into(), json!({"form": {}, "url": {}}));
        }
        Value::Object(caps)
    }

    /// The answer to `roots/list`.
    pub fn list_roots(&self) -> Answer {
        let roots = self.roots.as_ref().map(Roots::get).unwrap_or_default();
        let told = match roots.as_slice() {
            [] => "roots/list: answered no roots".to_string(),
            list => format!("roots/list: answered {}", list.join(", ")),
        };
        Answer {
            result: Ok(
                json!({"roots": roots.iter().map(|uri| json!({"uri": uri})).collect::<Vec<_>>()}),
            ),
            told,
        }
    }

    /// The answer to `elicitation/create` with these params.
    pub fn elicit(&self, params: &Value) -> Answer {
        let message = params.get("message").and_then(Value::as_str).unwrap_or("");
        let mode = params.get("mode").and_then(Value::as_str).unwrap_or("form");
        // A URL request names where the user would go: the note says it (escaped, never opened).
        let url = match params.get("url").and_then(Value::as_str) {
            Some(url) if mode == "url" => format!(" <{}>", crate::untrusted::line(url, 300)),
            _ => String::new(),
        };
        let asked = format!(
            "elicitation/create ({}) {}{url}",
            crate::untrusted::line(mode, 20),
            crate::untrusted::line(message, 120)
        );
        let (result, how) = match self.elicitation.as_ref() {
            // `Ask` is answered by the user through `Asking`; here nobody can: declined.
            None | Some(ElicitationPolicy::Decline | ElicitationPolicy::Ask) => {
                (Ok(json!({"action": "decline"})), "declined".to_string())
            }
            // A URL request has no fields, so no defaults: accepting it would claim the user
            // went there.
            Some(ElicitationPolicy::Defaults) if mode == "url" => (
                Ok(json!({"action": "decline"})),
                "declined (a URL request has no defaults)".to_string(),
            ),
            Some(ElicitationPolicy::Cancel) => {
                (Ok(json!({"action": "cancel"})), "cancelled".to_string())
            }
            Some(ElicitationPolicy::Defaults) => {
                let schema = params.get("requestedSchema");
                let content = defaults_of(schema);
                // A required field with no default cannot be answered by defaults: accepting
                // without it would send a form the server's own schema refuses.
                let missing = required_without_default(schema, &content);
                if missing.is_empty() {
                    let how = format!(
                        "accepted with the defaults {}",
                        crate::untrusted::json(&content, false)
                    );
                    (Ok(json!({"action": "accept", "content": content})), how)
                } else {
                    let how = format!(
                        "declined: required {} no default ({})",
                        if missing.len() == 1 {
                            "field has"
                        } else {
                            "fields have"
                        },
                        missing.join(", ")
                    );
                    (Ok(json!({"action": "decline"})), how)
                }
            }
            Some(ElicitationPolicy::File(path)) => from_file(path),
        };
        Answer {
            told: format!("{asked}: {how}"),
            result,
        }
    }

    /// The answer to `sampling/createMessage`.
    pub fn sample(&self, params: &Value) -> Answer {
        let messages = params
            .get("messages")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        let asked = format!(
            "sampling/createMessage ({})",
            crate::plural::count(messages, "message")
        );
        let (result, how) = match self.sampling.as_ref() {
            None | Some(SamplingPolicy::Reject | SamplingPolicy::Ask) => (
                Err(
                    "mcp-inspect has no model: sampling rejected (answer with --on-sampling FILE)"
                        .to_string(),
                ),
                "rejected".to_string(),
            ),
            Some(SamplingPolicy::File(path)) => from_file(path),
        };
        Answer {
            told: format!("{asked}: {how}"),
            result,
        }
    }
}

/// `{field: default}` for each property of a requested schema that has a default.
fn defaults_of(schema: Option<&Value>) -> Value {
    let mut content = Map::new();
    if let Some(props) = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
    {
        for (name, prop) in props {
            if let Some(default) = prop.get("default") {
                content.insert(name.clone(), default.clone());
            }
        }
    }
    Value::Object(content)
}

/// The required fields of a requested schema that `content` (its defaults) leaves out, named
/// escaped and in backticks; at most ten, then how many more.
fn required_without_default(schema: Option<&Value>, content: &Value) -> Vec<String> {
    let required = schema
        .and_then(|s| s.get("required"))
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let missing: Vec<&str> = required
        .iter()
        .filter_map(Value::as_str)
        .filter(|name| content.get(name).is_none())
        .collect();
    let mut named: Vec<String> = (missing.iter().take(10))
        .map(|name| format!("`{}`", crate::untrusted::line(name, 60)))
        .collect();
    if missing.len() > 10 {
        named.push(format!("{} more", missing.len() - 10));
    }
    named
}

/// A result read from the user's file, or why not.
fn from_file(path: &std::path::Path) -> (Result<Value, String>, String) {
    let read = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
        .and_then(|text| {
            serde_json::from_str::<Value>(&text)
                .map_err(|e| format!("{} is not JSON: {e}", path.display()))
        });
    match read {
        Ok(value) => (Ok(value), format!("answered from {}", path.display())),
        Err(e) => (Err(e.clone()), e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everything_is_declared_by_default_and_each_can_be_off() {
        let all = ClientSide::default();
        assert_eq!(
            all.capabilities(),
            json!({"roots": {"listChanged": true}, "sampling": {}, "elicitation": {"form": {}, "url": {}}})
        );
        let none = ClientSide {
            roots: None,
            sampling: None,
            elicitation: None,
            asking: Arc::default(),
        };
        assert_eq!(none.capabilities(), json!({}));
    }

    #[test]
    fn roots_are_file_uris() {
        assert_eq!(
            file_uri(std::path::Path::new("/srv/my dir/ä")),
            "file:///srv/my%20dir/%C3%A4"
        );
        let side = ClientSide {
            roots: Some(Roots::new(vec!["file:///srv".into()])),
            ..ClientSide::default()
        };
        let answer = side.list_roots();
        assert_eq!(
            answer.result,
            Ok(json!({"roots": [{"uri": "file:///srv"}]}))
        );
        assert_eq!(answer.told, "roots/list: answered file:///srv");
    }

    #[test]
    fn elicitation_is_declined_by_default_or_filled_with_defaults() {
        let params = json!({"message": "Your name?", "requestedSchema": {"type": "object", "properties": {
            "name": {"type": "string", "default": "Ada"}, "age": {"type": "integer"}, "ok": {"type": "boolean", "default": true}}}});
        let declined = ClientSide::default().elicit(&params);
        assert_eq!(declined.result, Ok(json!({"action": "decline"})));
        assert_eq!(
            declined.told,
            "elicitation/create (form) Your name?: declined"
        );
        let side = ClientSide {
            elicitation: Some(ElicitationPolicy::Defaults),
            ..ClientSide::default()
        };
        assert_eq!(
            side.elicit(&params).result,
            Ok(json!({"action": "accept", "content": {"name": "Ada", "ok": true}}))
        );
        // A required field with no default: declined, and said.
        let required = json!({"message": "Who?", "requestedSchema": {"type": "object", "properties": {
            "name": {"type": "string", "default": "Ada"}, "age": {"type": "integer"}}, "required": ["name", "age"]}});
        let answered = side.elicit(&required);
        assert_eq!(answered.result, Ok(json!({"action": "decline"})));
        assert_eq!(
            answered.told,
            "elicitation/create (form) Who?: declined: required field has no default (`age`)"
        );
        let url = json!({"mode": "url", "message": "Sign in", "url": "https://example.com/auth?x=\u{1b}[2J", "elicitationId": "e1"});
        let answered = side.elicit(&url);
        assert_eq!(answered.result, Ok(json!({"action": "decline"})));
        assert_eq!(
            answered.told,
            "elicitation/create (url) Sign in <https://example.com/auth?x=\\e[2J>: declined (a URL request has no defaults)"
        );
    }

    #[test]
    fn sampling_is_rejected_by_default() {
        let answer = ClientSide::default().sample(&json!({"messages": [{"role": "user"}]}));
        assert!(answer.result.is_err());
        assert_eq!(answer.told, "sampling/createMessage (1 message): rejected");
    }
}
