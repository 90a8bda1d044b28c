//! SEP-2322 (2026): a server may answer `tools/call`, `prompts/get` or `resources/read` with
//! `resultType: "input_required"`: requests for the client to fulfil (sampling, elicitation,
//! roots) and an opaque `requestState`. The client answers them as it answers the server's own
//! requests (the same policies, panels and log lines), then sends the request again with a new
//! id, the answers as `inputResponses` and the state exactly as given (none if none was given).

use crate::mcp::session::error::RequestError;
use crate::mcp::session::events::ServerEvent;
use crate::mcp::session::handler::Handler;
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
    tell_asked(handler, method, round, &requests);
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

/// Says in the log what a round asks for, and what is done with the answers.
fn tell_asked(handler: &Handler, method: &str, round: usize, requests: &Map<String, Value>) {
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
    let asked = if asked.is_empty() {
        "state only".to_string()
    } else {
        asked.join(", ")
    };
    handler.events.send(ServerEvent::Request(match method {
        // A task of the tasks extension (SEP-2663) is answered, not asked again.
        "tasks/update" => {
            format!("for input in a task (round {round}: {asked}); answered with tasks/update")
        }
        _ => format!(
            "for input in {method} (round {round}: {asked}); answered, then {method} sent again"
        ),
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::session::client_side::ClientSide;
    use crate::mcp::session::events::EventSink;
    use rmcp::model::ProtocolVersion;
    use serde_json::json;
    use std::sync::Arc;

    fn handler() -> Handler {
        let client = ClientSide {
            roots: Some(crate::mcp::session::client_side::Roots::new(vec![
                "file:///work".into(),
            ])),
            ..ClientSide::default()
        };
        Handler {
            events: EventSink::new().0,
            protocol_version: ProtocolVersion::LATEST,
            client: Arc::new(client),
        }
    }

    fn asked(inputs: Value, state: Option<&str>) -> Value {
        let mut result = json!({"resultType": "input_required", "inputRequests": inputs});
        if let Some(state) = state {
            result["requestState"] = json!(state);
        }
        result
    }

    #[tokio::test]
    async fn answers_go_back_with_the_state_exactly_as_given() {
        let original = json!({"name": "t", "arguments": {"a": 1}});
        let inputs = json!({"where": {"method": "roots/list", "params": {}}});
        let state = " opaque\u{1}state ";
        let next = next_round(
            &handler(),
            "tools/call",
            &original,
            &asked(inputs.clone(), Some(state)),
            1,
        )
        .await
        .expect("next round");
        assert_eq!(next["arguments"], json!({"a": 1}));
        assert_eq!(next["requestState"], json!(state));
        assert_eq!(
            next["inputResponses"]["where"]["roots"][0]["uri"],
            "file:///work"
        );
        let stateless = next_round(&handler(), "tools/call", &next, &asked(inputs, None), 2)
            .await
            .expect("next round");
        assert!(
            stateless.get("requestState").is_none(),
            "no state, none sent"
        );
    }

    #[tokio::test]
    async fn a_server_that_keeps_asking_or_asks_badly_is_refused() {
        let h = handler();
        let original = json!({});
        let roots = json!({"k": {"method": "roots/list"}});
        let refused = |r: Result<Value, RequestError>| match r {
            Err(RequestError::InputRequired(why)) => why,
            other => panic!("{other:?}"),
        };
        let why = refused(
            next_round(
                &h,
                "tools/call",
                &original,
                &asked(roots, None),
                MAX_ROUNDS + 1,
            )
            .await,
        );
        assert!(why.contains("after 10 rounds"), "{why}");
        let nothing = json!({"resultType": "input_required"});
        assert!(
            refused(next_round(&h, "tools/call", &original, &nothing, 1).await).contains("neither")
        );
        let many: Map<String, Value> = (0..=MAX_REQUESTS)
            .map(|i| (i.to_string(), json!({"method": "roots/list"})))
            .collect();
        let why = refused(
            next_round(
                &h,
                "tools/call",
                &original,
                &asked(Value::Object(many), None),
                1,
            )
            .await,
        );
        assert!(why.contains("17 inputs"), "{why}");
        let ping = json!({"k": {"method": "ping"}});
        let why = refused(next_round(&h, "tools/call", &original, &asked(ping, None), 1).await);
        assert!(why.contains("`ping` cannot be asked"), "{why}");
    }
}
