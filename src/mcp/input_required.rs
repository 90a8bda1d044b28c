//! SEP-2322 (2026): a server may answer `tools/call`, `prompts/get` or `resources/read` with
//! `resultType: "input_required"`: requests for the client to fulfil (sampling, elicitation,
//! roots) and an opaque `requestState`. The client answers them as it answers the server's own
//! requests (the same policies, panels and log lines), then sends the request again with a new
//! id, the answers as `inputResponses` and the state exactly as given (none if none was given).

use super::error::RequestError;
use super::events::ServerEvent;
use super::handler::Handler;
use crate::untrusted;
use serde_json::{Map, Value};

/// Rounds before giving up (as the official SDKs): a server must not keep a request alive for
/// ever by asking again and again.
pub const MAX_ROUNDS: usize = 10;
/// Requests in one round; a server asking for more is refused.
const MAX_REQUESTS: usize = 16;

/// The methods whose answer may be `input_required`.
pub fn applies_to(method: &str) -> bool {
    matches!(method, "tools/call" | "prompts/get" | "resources/read")
}

/// Whether a result asks for input (a result without `resultType` is complete).
pub fn is_input_required(result: &Value) -> bool {
    result.get("resultType").and_then(Value::as_str) == Some("input_required")
}

/// Answers a round's requests and gives the next request's params: the original ones with
/// `inputResponses` and `requestState` (each only when there is one).
pub async fn next_round(
    handler: &Handler,
    method: &str,
    original: &Value,
    result: &Value,
    round: usize,
) -> Result<Value, RequestError> {
    let refuse = |why: String| Err(RequestError::InputRequired(why));
    if round > MAX_ROUNDS {
        return refuse(format!(
            "the server still asked for input after {MAX_ROUNDS} rounds: stopped"
        ));
    }
    let requests = match result.get("inputRequests") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(requests)) => requests.clone(),
        Some(_) => return refuse("`inputRequests` is not an object".into()),
    };
    let state = result.get("requestState");
    if requests.is_empty() && state.is_none() {
        return refuse("`input_required` with neither inputRequests nor requestState".into());
    }
    if requests.len() > MAX_REQUESTS {
        return refuse(format!(
            "the server asked for {} inputs at once (at most {MAX_REQUESTS} are answered)",
            requests.len()
        ));
    }
    let asked: Vec<String> = requests
        .iter()
        .map(|(key, r)| {
            let what = r.get("method").and_then(Value::as_str).unwrap_or("?");
            format!(
                "{}: {}",
                untrusted::line(key, 40),
                untrusted::line(what, 40)
            )
        })
        .collect();
    handler.events.send(ServerEvent::Request(format!(
        "{method}: the server asked for input (round {round}: {}); answering, then asking again",
        if asked.is_empty() {
            "state only".to_string()
        } else {
            asked.join(", ")
        }
    )));
    let mut answers = Map::new();
    for (key, request) in requests {
        let asked_method = request.get("method").and_then(Value::as_str).unwrap_or("");
        let params = request.get("params").cloned().unwrap_or(Value::Null);
        match handler.fulfil(asked_method, params).await {
            Ok(answer) => {
                answers.insert(key, answer);
            }
            Err(why) => {
                return refuse(format!(
                    "input `{}` ({}) was not given: {why}",
                    untrusted::line(&key, 40),
                    untrusted::line(asked_method, 40)
                ));
            }
        }
    }
    let mut params = match original {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    params.remove("inputResponses");
    params.remove("requestState");
    if !answers.is_empty() {
        params.insert("inputResponses".into(), Value::Object(answers));
    }
    if let Some(state) = state {
        params.insert("requestState".into(), state.clone());
    }
    Ok(Value::Object(params))
}
