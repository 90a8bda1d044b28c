//! Requests of the user's own from the protocol pane: a form for the method and its params,
//! sent as they are, and what came back said (the exchange itself is in the pane).

use crate::app::asked::state::AskPanel;
use crate::app::effect::{Effect, SessionRequest};
use crate::app::model::{LogKind, Model};
use crate::mcp::RequestError;
use crate::untrusted;
use serde_json::Value;

/// `n` in the protocol pane: the form for a request.
pub fn compose(model: &mut Model) {
    model.asked.push_back(AskPanel::for_request());
}

/// The form answered: the request goes when its params are an object (or left out).
pub fn send(model: &mut Model, answer: Result<Value, String>) -> Vec<Effect> {
    let accepted = answer.ok().filter(|a| a["action"] == "accept");
    let Some(content) = accepted.as_ref().map(|a| &a["content"]) else {
        return Vec::new();
    };
    let Some(method) = content["method"]
        .as_str()
        .map(str::trim)
        .filter(|m| !m.is_empty())
    else {
        return Vec::new();
    };
    let params = match content.get("params") {
        None | Some(Value::Null) => None,
        Some(Value::Object(p)) => Some(Value::Object(p.clone())),
        Some(_) => {
            model.view.status = Some("not sent: params must be a JSON object".into());
            return Vec::new();
        }
    };
    model.view.status = Some(format!("{} sent…", untrusted::line(method, 100)));
    vec![Effect::Session(SessionRequest::Any {
        method: method.to_string(),
        params,
    })]
}

/// What the request got: said in the status line and the log.
pub fn answered(model: &mut Model, method: &str, result: Result<Value, RequestError>) {
    let method = untrusted::line(method, 100).into_owned();
    let (kind, said) = match result {
        Ok(_) => (
            LogKind::Event,
            format!("{method}: answered (the protocol pane shows it)"),
        ),
        Err(e) => (LogKind::Problem, format!("{method} failed: {e}")),
    };
    model.view.status = Some(untrusted::line(&said, 300).into_owned());
    model.push_log(kind, untrusted::block(&said));
}
