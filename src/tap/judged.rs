//! A tapped session read back and judged: each `tools/call` the host made paired with the
//! server's answer, the result judged against the outputSchema the server last listed in that
//! same session (as the TUI judges it: boxing unwrapped, violations with their paths), errors and
//! calls never answered said, and lines that are not JSON-RPC flagged. Pure.

use crate::mcp::surface::result::CallResult;
use crate::schema::Compiled;
use crate::schema::verdict::{Era, Status};
use serde_json::Value;
use std::collections::HashMap;

/// One host call and what became of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// Milliseconds since the session began, when the host sent it.
    pub at: u64,
    pub tool: String,
    pub arguments: Value,
    /// How long the answer took, when it came.
    pub took: Option<u64>,
    pub outcome: Outcome,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Judged against the listed outputSchema (or none): the verdict's headline and its
    /// violations, briefly.
    Judged {
        status: Status,
        headline: String,
        violations: Vec<String>,
    },
    /// A JSON-RPC error.
    Error { code: Value, message: String },
    /// No answer in the recording.
    Unanswered,
}

/// What a session shows.
#[derive(Debug, Default, PartialEq)]
pub struct Session {
    pub calls: Vec<Call>,
    /// Lines the server wrote on stdout that are not JSON-RPC, each with when.
    pub stray: Vec<(u64, String)>,
    pub messages: usize,
}

/// Reads a recording's lines (JSON lines of `{t, dir, message}` or `{t, dir, notJsonRpc}`);
/// other lines are skipped. Calls are judged once the whole session is read: a server answers
/// concurrent requests in any order, so a call's answer may come before the listing's.
pub fn judge(text: &str) -> Session {
    let mut judging = Judging::deferred();
    for line in text.lines() {
        judging.push(line);
    }
    judging.finish()
}

/// Requests awaiting an answer kept at most (see [`Judging::push`]).
const MAX_UNANSWERED: usize = 65_536;

/// What one recorded line was, for a live view.
#[derive(Debug, Clone, PartialEq)]
pub enum Seen {
    /// A message: when, which way (`true` from the host), its size, and what it was in a line.
    Message {
        at: u64,
        from_host: bool,
        bytes: usize,
        what: String,
    },
    /// The answer to the host call at this index of [`Session::calls`], judged.
    Answered(usize),
    /// A line the server wrote on stdout that is not JSON-RPC.
    Stray(u64, String),
    /// Not a recorded line.
    Nothing,
}

/// A session judged line by line: live (each call judged when its answer comes, against the
/// listing seen so far) or deferred (judged at the end, against the session's last listing).
pub struct Judging {
    live: bool,
    session: Session,
    era: Era,
    schemas: HashMap<String, (Value, Compiled)>,
    /// Host calls waiting for their answer, by id: their index in the calls.
    waiting: HashMap<String, usize>,
    /// Requests waiting for their answer, by direction and id: their method.
    asked: HashMap<(bool, String), String>,
    answers: Vec<(usize, Value)>,
    /// The method of the request the last line answered, when it was an answer to one seen.
    answered: Option<String>,
}

impl Judging {
    pub fn live() -> Judging {
        Judging {
            live: true,
            ..Judging::deferred()
        }
    }

    pub fn deferred() -> Judging {
        Judging {
            live: false,
            session: Session::default(),
            era: Era::Legacy,
            schemas: HashMap::new(),
            waiting: HashMap::new(),
            asked: HashMap::new(),
            answers: Vec::new(),
            answered: None,
        }
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The method of the request the last line pushed answered (asked the other way), if it
    /// was an answer to a request seen.
    pub fn answered(&self) -> Option<&str> {
        self.answered.as_deref()
    }

    /// Takes one recorded line; says what it was.
    pub fn push(&mut self, line: &str) -> Seen {
        match serde_json::from_str::<Value>(line) {
            Ok(entry) => self.push_entry(&entry),
            Err(_) => {
                self.answered = None;
                Seen::Nothing
            }
        }
    }

    /// [`Judging::push`] for a line already parsed.
    pub fn push_entry(&mut self, entry: &Value) -> Seen {
        self.answered = None;
        let at = entry["t"].as_u64().unwrap_or(0);
        if let Some(stray) = entry["notJsonRpc"].as_str() {
            self.session.stray.push((at, stray.to_string()));
            return Seen::Stray(at, stray.to_string());
        }
        let message = &entry["message"];
        if !message.is_object() {
            return Seen::Nothing;
        }
        self.session.messages += 1;
        let from_host = entry["dir"].as_str() == Some("out");
        let id = message.get("id").map(Value::to_string);
        let method = message["method"].as_str();
        if let (Some(method), Some(id)) = (method, &id) {
            // Requests never answered (a flood of them) are forgotten past a bound: their
            // answers, should they come, are told as answers to a request not seen.
            if self.asked.len() >= MAX_UNANSWERED {
                self.asked.clear();
            }
            self.asked
                .insert((from_host, id.clone()), method.to_string());
            if from_host && method == "tools/call" {
                self.waiting.insert(id.clone(), self.session.calls.len());
                self.session.calls.push(Call {
                    at,
                    tool: message["params"]["name"]
                        .as_str()
                        .unwrap_or_default()
                        .into(),
                    arguments: message["params"]["arguments"].clone(),
                    took: None,
                    outcome: Outcome::Unanswered,
                });
            }
        }
        // An answer: the request it answers, asked the other way.
        let answers = match (method, &id) {
            (None, Some(id)) => self.asked.remove(&(!from_host, id.clone())),
            _ => None,
        };
        let answered = match (&answers, &id) {
            (Some(asked), Some(id)) if !from_host => self.answer(asked, id, message, at),
            _ => None,
        };
        self.answered.clone_from(&answers);
        match answered {
            Some(i) if self.live => Seen::Answered(i),
            _ => Seen::Message {
                at,
                from_host,
                bytes: message.to_string().len(),
                what: super::said::message(message, answers.as_deref()),
            },
        }
    }

    /// The server's answer to the host's `asked`: a listing or a handshake read, a host call
    /// paired (judged now when live). Returns the call's index when it answered one.
    fn answer(&mut self, asked: &str, id: &str, message: &Value, at: u64) -> Option<usize> {
        match asked {
            "initialize" => self.era = era_of(&message["result"]),
            "tools/list" => listed(&message["result"], &mut self.schemas),
            _ => {}
        }
        let i = self.waiting.remove(id)?;
        let call = self.session.calls.get_mut(i)?;
        call.took = Some(at.saturating_sub(call.at));
        match self.live {
            true => call.outcome = answered(message, self.schemas.get(&call.tool), self.era),
            false => self.answers.push((i, message.clone())),
        }
        Some(i)
    }

    /// The session, every call judged.
    pub fn finish(mut self) -> Session {
        for (i, message) in std::mem::take(&mut self.answers) {
            let call = &mut self.session.calls[i];
            call.outcome = answered(&message, self.schemas.get(&call.tool), self.era);
        }
        self.session
    }
}

/// The era the server chose, by the version it answered `initialize` with.
fn era_of(result: &Value) -> Era {
    Era::of(result["protocolVersion"].as_str().unwrap_or_default())
}

/// Each listed tool's outputSchema, compiled once (the session's last listing wins).
fn listed(result: &Value, schemas: &mut HashMap<String, (Value, Compiled)>) {
    for tool in result["tools"].as_array().into_iter().flatten() {
        let (Some(name), Some(schema)) = (tool["name"].as_str(), tool.get("outputSchema")) else {
            continue;
        };
        schemas.insert(name.to_string(), (schema.clone(), Compiled::new(schema)));
    }
}

/// The answer to a call: an error as sent, or the result judged.
fn answered(message: &Value, schema: Option<&(Value, Compiled)>, era: Era) -> Outcome {
    if let Some(error) = message.get("error") {
        return Outcome::Error {
            code: error["code"].clone(),
            message: error["message"].as_str().unwrap_or_default().to_string(),
        };
    }
    let result = CallResult::decode(message["result"].clone());
    let verdict = result.verdict(schema.map(|(s, c)| (s, c)), era);
    Outcome::Judged {
        status: verdict.status,
        headline: verdict.headline(),
        violations: verdict.violations.iter().map(|v| v.brief()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn line(t: u64, dir: &str, message: Value) -> String {
        json!({"t": t, "dir": dir, "message": message}).to_string()
    }

    #[test]
    fn each_call_is_paired_with_its_answer_and_judged_by_the_listed_schema() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": 10}}, "required": ["n"]});
        let text = [
            line(0, "out", json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})),
            line(3, "in", json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18"}})),
            line(5, "out", json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})),
            line(6, "in", json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "count", "inputSchema": {"type": "object"}, "outputSchema": schema}]}})),
            line(10, "out", json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "count", "arguments": {"a": 1}}})),
            line(10, "out", json!({"jsonrpc": "2.0", "id": "x", "method": "tools/call", "params": {"name": "count", "arguments": {}}})),
            line(12, "out", json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "gone"}})),
            json!({"t": 13, "dir": "in", "notJsonRpc": "Server started!", "note": "…"}).to_string(),
            line(14, "in", json!({"jsonrpc": "2.0", "id": 3, "result": {"content": [], "structuredContent": {"n": 11}}})),
            line(15, "in", json!({"jsonrpc": "2.0", "id": "x", "result": {"content": [], "structuredContent": {"n": 2}}})),
            "not a recorded line".to_string(),
        ]
        .join("\n");
        let session = judge(&text);
        assert_eq!(session.messages, 9);
        assert_eq!(session.stray, [(13, "Server started!".to_string())]);
        let [first, second, third] = &session.calls[..] else {
            panic!("{:?}", session.calls);
        };
        assert_eq!((first.tool.as_str(), first.took), ("count", Some(4)));
        let Outcome::Judged {
            status, violations, ..
        } = &first.outcome
        else {
            panic!("{:?}", first.outcome);
        };
        assert_eq!(*status, Status::Violations);
        assert!(violations[0].contains("/n"), "{violations:?}");
        assert!(
            matches!(
                &second.outcome,
                Outcome::Judged {
                    status: Status::Conforms,
                    ..
                }
            ),
            "ids are matched as sent (a string id too): {:?}",
            second.outcome
        );
        assert_eq!(third.outcome, Outcome::Unanswered);
    }
}
