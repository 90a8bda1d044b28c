//! The TUI attached to a tap (`mcp-inspect attach` in a terminal): the tapped session's
//! recording followed as the tap writes it, from its start, and told to the UI as a
//! connection's task tells it: every message into the protocol pane (the host's as sent, the
//! server's as received), the handshake's answer as the server it connected to, each
//! `tools/list` answer as the tool list (and each list of resources, templates and prompts as
//! the library), each host call with its answer judged as a call made
//! here is, a line that is not JSON-RPC flagged. It only watches: a request from the UI (a
//! call, a read, a ping) is refused with why. The recording is the only link to the tap, so
//! nothing here can hold up the host or the server.

use crate::app::call::state::{HostCall, Judged};
use crate::app::effect::SessionRequest;
use crate::app::library::state::Item;
use crate::app::update::Msg;
use crate::mcp::surface::result::CallResult;
use crate::mcp::transport::wire::{Direction, Tap, WireLog};
use crate::mcp::{RequestError, ServerEvent, ServerSummary, ToolList};
use crate::schema::judge::Judge;
use crate::tap::follow::Following;
use crate::tap::judged::{Judging, Seen};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

use super::host_library::{self, HostLibrary};

/// Why a request from the UI is not sent.
pub const WATCHING: &str = "attached to a tap: the host drives this session and mcp-inspect only watches it (to call tools yourself, open the server: mcp-inspect -- COMMAND)";

/// What the host was last given: the tool list and the library, once it listed them.
#[derive(Default)]
struct Known {
    tools: Option<ToolList>,
    library: Option<(Vec<Item>, Vec<String>)>,
}

impl Known {
    /// Keeps what `msg` lists.
    fn note(&mut self, msg: &Msg) {
        match msg {
            Msg::ToolsListed(list) => self.tools = Some(list.clone()),
            Msg::LibraryListed { items, problems } => {
                self.library = Some((items.clone(), problems.clone()));
            }
            _ => {}
        }
    }
}

/// Follows `session` until it ends or the UI is gone, answering the UI's requests meanwhile.
pub async fn run(
    session: Following,
    mut requests: mpsc::UnboundedReceiver<SessionRequest>,
    to_ui: mpsc::Sender<Msg>,
    wire: WireLog,
) {
    let known: Arc<Mutex<Known>> = Arc::default();
    let reader = {
        let (known, to_ui) = (known.clone(), to_ui.clone());
        tokio::task::spawn_blocking(move || follow(session, &to_ui, &wire, &known))
    };
    loop {
        let request = tokio::select! {
            request = requests.recv() => request,
            () = to_ui.closed() => None,
        };
        let Some(request) = request else { break };
        let answer = match request {
            // The tool list is the host's: the last one it was given, once it was.
            SessionRequest::ListTools => match known.lock().ok().and_then(|k| k.tools.clone()) {
                Some(list) => Msg::ToolsListed(list),
                None => continue,
            },
            // So is the library.
            SessionRequest::ListLibrary => {
                let (items, problems) = (known.lock().ok())
                    .and_then(|k| k.library.clone())
                    .unwrap_or_else(|| (Vec::new(), vec![host_library::NOT_YET.into()]));
                Msg::LibraryListed { items, problems }
            }
            other => super::carrier::refusal(other, WATCHING),
        };
        if to_ui.send(answer).await.is_err() {
            break;
        }
    }
    drop(reader);
}

/// Reads the recording on this blocking thread, line by line, until the tap ends or the UI
/// is gone; says how the session ended.
fn follow(mut session: Following, to_ui: &mpsc::Sender<Msg>, wire: &WireLog, known: &Mutex<Known>) {
    let tap = Tap {
        recorder: None,
        log: Some(wire.clone()),
    };
    let mut seeing = Seeing::new(Instant::now());
    if !session.is_live() {
        let _ = to_ui.blocking_send(Msg::Server(ServerEvent::Notice(format!(
            "{} ended before it was attached: shown as it was recorded",
            crate::untrusted::label(&session.name())
        ))));
    }
    while let Some(lines) = session.next_lines(|| !to_ui.is_closed()) {
        for line in lines {
            let said = seeing.line(&String::from_utf8_lossy(&line), &tap);
            if let Ok(mut known) = known.lock() {
                said.iter().for_each(|msg| known.note(msg));
            }
            for msg in said {
                if to_ui.blocking_send(msg).is_err() {
                    return;
                }
            }
        }
    }
    let session_seen = seeing.judging.session();
    let why = session.failed.clone().unwrap_or_else(|| {
        format!(
            "the tapped session ended: {}, {}, {} violating",
            crate::plural::count(session_seen.messages, "message"),
            crate::plural::count(session_seen.calls.len(), "host call"),
            crate::tap::show::broken(session_seen)
        )
    });
    let _ = to_ui.blocking_send(Msg::Server(ServerEvent::Closed(why)));
}

/// A tapped session's lines turned into what the UI is told. Pure but for the protocol
/// pane's log it notes messages into.
struct Seeing {
    judging: Judging,
    /// When the session began, as this process counts time: a message's time is its offset.
    began: Instant,
    era: crate::schema::Era,
    /// The compiled outputSchema of each tool the server last listed.
    judges: HashMap<String, Arc<Judge>>,
    /// The tools listed so far, and whether the last page said more follow.
    tools: ToolList,
    more_pages: bool,
    /// What the host declared in its `initialize`.
    host_capabilities: Value,
    /// The resources, templates and prompts the host was given.
    library: HostLibrary,
}

impl Seeing {
    fn new(began: Instant) -> Seeing {
        Seeing {
            judging: Judging::live(),
            began,
            era: crate::schema::Era::Legacy,
            judges: HashMap::new(),
            tools: ToolList::default(),
            more_pages: false,
            host_capabilities: Value::Null,
            library: HostLibrary::default(),
        }
    }

    /// What one recorded line tells the UI.
    fn line(&mut self, line: &str, tap: &Tap) -> Vec<Msg> {
        let Ok(entry) = serde_json::from_str::<Value>(line) else {
            return Vec::new();
        };
        let seen = self.judging.push_entry(&entry);
        let answered = self.judging.answered().map(String::from);
        let mut said = Vec::new();
        if let Seen::Stray(_, stray) = &seen {
            said.push(Msg::Server(ServerEvent::Notice(format!(
                "{} (a strict host fails here): {}",
                crate::mcp::transport::stdio::NON_JSON_LINE,
                crate::untrusted::line(stray, 300)
            ))));
        }
        let (message, from_host) = (&entry["message"], entry["dir"].as_str() == Some("out"));
        if !message.is_object() {
            return said;
        }
        let direction = match from_host {
            true => Direction::Out,
            false => Direction::In,
        };
        let at = self.began + Duration::from_millis(entry["t"].as_u64().unwrap_or(0));
        tap.note_http(direction, message, &message.to_string(), at, None);
        if from_host && message["method"] == "initialize" {
            self.host_capabilities = message["params"]["capabilities"].clone();
        }
        match (answered.as_deref(), from_host) {
            (Some("initialize"), false) => {
                let mut server = ServerSummary::of_sent(&message["result"], "stdio, tapped");
                server.client_capabilities = self.host_capabilities.clone();
                self.era = server.era;
                said.push(Msg::Connected(server));
            }
            (Some("tools/list"), false) => {
                said.push(Msg::ToolsListed(self.listed(&message["result"])))
            }
            (Some(method), false) if message.get("result").is_some() => {
                said.extend(self.library.answered(method, &message["result"]));
            }
            _ => {}
        }
        if let Seen::Answered(i) = seen
            && let Some(call) = self.judging.session().calls.get(i)
        {
            said.push(Msg::HostCalled(Box::new(self.host_call(call, message))));
        }
        said
    }

    /// A `tools/list` page: the tools so far (a page after one that said more follow adds
    /// to them), each one's outputSchema compiled for the calls to come.
    fn listed(&mut self, result: &Value) -> ToolList {
        if !self.more_pages {
            self.tools = ToolList::default();
            self.judges.clear();
        }
        let mut seen = self.tools.tools.iter().map(|t| t.name.clone()).collect();
        match crate::mcp::surface::tool::decode_next_page(result, &mut seen) {
            Ok(page) => {
                self.more_pages = page.next_cursor.is_some();
                for tool in &page.tools {
                    if let Some(schema) = tool.schemas().output {
                        let judge = Arc::new(Judge::new(schema));
                        self.judges.insert(tool.name.clone(), judge);
                    }
                }
                self.tools.tools.extend(page.tools);
                self.tools.rejected.extend(page.rejected);
                self.tools.pages += 1;
            }
            Err(why) => {
                self.more_pages = false;
                self.tools.problem = Some(why);
            }
        }
        self.tools.clone()
    }

    /// A host call and its answer, judged against the tool's listed outputSchema.
    fn host_call(&self, call: &crate::tap::judged::Call, message: &Value) -> HostCall {
        let outcome = match (message.get("error"), &message["result"]) {
            (Some(error), _) => Err(error_as_sent(error)),
            (None, result) => match CallResult::check_shape(result) {
                Ok(()) => Ok(Box::new(Judged::new(
                    CallResult::decode(result.clone()),
                    self.judges.get(&call.tool).map(Arc::as_ref),
                    self.era,
                ))),
                Err(why) => Err(RequestError::Malformed(why)),
            },
        };
        HostCall {
            tool: call.tool.clone(),
            request: message["id"].to_string(),
            arguments: call.arguments.clone(),
            took: Duration::from_millis(call.took.unwrap_or(0)),
            outcome,
        }
    }
}

/// A JSON-RPC error as the server sent it: a code that is not a 64-bit integer is said as sent.
fn error_as_sent(error: &Value) -> RequestError {
    let message = error["message"].as_str().unwrap_or_default().to_string();
    match error["code"].as_i64() {
        Some(code) => RequestError::Server {
            code,
            message,
            data: error.get("data").cloned(),
        },
        None => RequestError::Refused(format!(
            "the server answered with error {}: {message}",
            crate::untrusted::line(&error["code"].to_string(), 60)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn line(t: u64, dir: &str, message: Value) -> String {
        json!({"t": t, "dir": dir, "message": message}).to_string()
    }

    /// A tapped session as the UI is told it: the handshake as a connection, a banner flagged,
    /// a listing of two pages as one list, a host call judged against the listed schema, an
    /// error whose code is no 64-bit integer said as sent, every message in the protocol pane.
    #[test]
    fn a_tapped_session_tells_the_ui_what_a_connection_would() {
        let schema =
            json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": 10}}});
        let lines = [
            line(0, "out", json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"capabilities": {"sampling": {}}}})),
            line(2, "in", json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18",
                "serverInfo": {"name": "s", "version": "1"}, "capabilities": {"tools": {}}}})),
            json!({"t": 3, "dir": "in", "notJsonRpc": "Server started!\u{1b}[2J"}).to_string(),
            line(4, "out", json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})),
            line(5, "in", json!({"jsonrpc": "2.0", "id": 2, "result": {"nextCursor": "p2", "tools": [
                {"name": "a", "inputSchema": {"type": "object"}, "outputSchema": schema}]}})),
            line(6, "out", json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"cursor": "p2"}})),
            line(7, "in", json!({"jsonrpc": "2.0", "id": 3, "result": {"tools": [
                {"name": "b", "inputSchema": {"type": "object"}}]}})),
            line(8, "out", json!({"jsonrpc": "2.0", "id": "x", "method": "tools/call",
                "params": {"name": "a", "arguments": {"n": 11}}})),
            line(9, "out", json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "b"}})),
            line(12, "in", json!({"jsonrpc": "2.0", "id": "x", "result": {"content": [], "structuredContent": {"n": 11}}})),
            r#"{"t":13,"dir":"in","message":{"jsonrpc":"2.0","id":5,"error":{"code":1e300,"message":"no"}}}"#.to_string(),
            line(14, "out", json!({"jsonrpc": "2.0", "id": 6, "method": "prompts/list"})),
            line(15, "in", json!({"jsonrpc": "2.0", "id": 6, "result": {"prompts": [{"name": "review"}]}})),
        ];
        let wire = WireLog::default();
        let tap = Tap {
            recorder: None,
            log: Some(wire.clone()),
        };
        let mut seeing = Seeing::new(Instant::now());
        let mut told = Vec::new();
        let mut known = Known::default();
        for l in &lines {
            let said = seeing.line(l, &tap);
            said.iter().for_each(|msg| known.note(msg));
            told.extend(said);
        }
        let Some(Msg::Connected(server)) = told.iter().find(|m| matches!(m, Msg::Connected(_)))
        else {
            panic!("{told:?}");
        };
        assert_eq!(
            (server.name.as_str(), server.protocol_version.as_str()),
            ("s", "2025-06-18")
        );
        assert_eq!(server.client_capabilities, json!({"sampling": {}}));
        let notices: Vec<&String> = (told.iter())
            .filter_map(|m| match m {
                Msg::Server(ServerEvent::Notice(text)) => Some(text),
                _ => None,
            })
            .collect();
        assert!(
            notices[0].starts_with(crate::mcp::transport::stdio::NON_JSON_LINE),
            "{notices:?}"
        );
        assert!(notices[0].contains("Server started!") && !notices[0].contains('\u{1b}'));
        let list = known.tools.expect("listed");
        let (items, _) = known.library.expect("the prompts the host was given");
        assert_eq!(items[0].json["name"], "review");
        let names: Vec<&str> = (list.tools.iter()).map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["a", "b"], "a second page adds to the first");
        let calls: Vec<&HostCall> = (told.iter())
            .filter_map(|m| match m {
                Msg::HostCalled(call) => Some(call.as_ref()),
                _ => None,
            })
            .collect();
        let [a, b] = calls[..] else {
            panic!("{calls:?}")
        };
        assert_eq!((a.tool.as_str(), a.request.as_str()), ("a", "\"x\""));
        assert_eq!(a.took, Duration::from_millis(4));
        let Ok(judged) = &a.outcome else {
            panic!("{:?}", a.outcome)
        };
        assert_eq!(judged.verdict.status, crate::schema::Status::Violations);
        let Err(RequestError::Refused(why)) = &b.outcome else {
            panic!("{:?}", b.outcome)
        };
        assert!(why.contains("300") && why.contains(": no"), "{why}");
        let (messages, dropped) = wire.take();
        assert_eq!(
            (messages.len(), dropped),
            (12, 0),
            "every message but the stray line"
        );
        assert_eq!(messages[0].direction, Direction::Out);
        assert_eq!(messages[1].direction, Direction::In);
    }
}
