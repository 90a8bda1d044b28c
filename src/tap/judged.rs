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
/// other lines are skipped.
pub fn judge(text: &str) -> Session {
    let mut session = Session::default();
    let mut era = Era::Legacy;
    let mut schemas: HashMap<String, (Value, Compiled)> = HashMap::new();
    let mut waiting: HashMap<String, usize> = HashMap::new();
    let mut asked: HashMap<String, String> = HashMap::new();
    let mut answers: Vec<(usize, Value)> = Vec::new();
    for entry in text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
    {
        let at = entry["t"].as_u64().unwrap_or(0);
        if let Some(stray) = entry["notJsonRpc"].as_str() {
            session.stray.push((at, stray.to_string()));
            continue;
        }
        let message = &entry["message"];
        if !message.is_object() {
            continue;
        }
        session.messages += 1;
        let id = message.get("id").map(Value::to_string);
        match (entry["dir"].as_str(), message["method"].as_str(), id) {
            (Some("out"), Some(method), Some(id)) => {
                asked.insert(id.clone(), method.to_string());
                if method == "tools/call" {
                    waiting.insert(id, session.calls.len());
                    session.calls.push(Call {
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
            (Some("in"), None, Some(id)) => {
                match asked.remove(&id).as_deref() {
                    Some("initialize") => era = era_of(&message["result"]),
                    Some("tools/list") => listed(&message["result"], &mut schemas),
                    _ => {}
                }
                if let Some(i) = waiting.remove(&id)
                    && let Some(call) = session.calls.get_mut(i)
                {
                    call.took = Some(at.saturating_sub(call.at));
                    answers.push((i, message.clone()));
                }
            }
            _ => {}
        }
    }
    // Judged once the whole session is read: a server answers concurrent requests in any
    // order, so a call's answer may come before the listing's.
    for (i, message) in answers {
        let call = &mut session.calls[i];
        call.outcome = answered(&message, schemas.get(&call.tool), era);
    }
    session
}

/// The era the server chose, by the version it answered `initialize` with.
fn era_of(result: &Value) -> Era {
    match result["protocolVersion"].as_str() {
        Some(v) if v >= "2026-07-28" => Era::Modern,
        _ => Era::Legacy,
    }
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
