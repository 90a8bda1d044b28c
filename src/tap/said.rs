//! A recorded JSON-RPC message in one line, for the live view: a request by its method (a
//! tool call by its tool and arguments), a notification by what it carries (progress,
//! cancellation, a log line), an answer by the request it answers. Cut, not yet escaped.

use serde_json::Value;

/// Characters of arguments, messages and data a line keeps.
const KEPT: usize = 160;

/// `message` in a line; `answers` is the method of the request it answers, when it is an answer.
pub fn message(message: &Value, answers: Option<&str>) -> String {
    let id = message.get("id").map(|id| cut(&id.to_string(), 40));
    match (message["method"].as_str(), id) {
        (Some(method), Some(id)) => format!("{} (id {id})", request(method, &message["params"])),
        (Some(method), None) => notification(method, &message["params"]),
        (None, id) => {
            let to = answers.unwrap_or("a request not seen");
            let id = id.unwrap_or_else(|| "none".into());
            match message.get("error") {
                Some(error) => format!(
                    "error {} to {to} (id {id}): {}",
                    cut(&error["code"].to_string(), 40),
                    cut(error["message"].as_str().unwrap_or_default(), KEPT)
                ),
                None => format!("result to {to} (id {id})"),
            }
        }
    }
}

fn request(method: &str, params: &Value) -> String {
    match method {
        "tools/call" => format!(
            "tools/call {} {}",
            cut(params["name"].as_str().unwrap_or_default(), 80),
            cut(&params["arguments"].to_string(), KEPT)
        ),
        "resources/read" | "resources/subscribe" => {
            format!(
                "{method} {}",
                cut(params["uri"].as_str().unwrap_or_default(), KEPT)
            )
        }
        "prompts/get" => format!(
            "{method} {}",
            cut(params["name"].as_str().unwrap_or_default(), 80)
        ),
        _ => method.to_string(),
    }
}

fn notification(method: &str, params: &Value) -> String {
    match method {
        "notifications/progress" => {
            let of = params
                .get("total")
                .map_or(String::new(), |t| format!("/{t}"));
            let said = params["message"]
                .as_str()
                .map_or(String::new(), |m| format!(" {}", cut(m, KEPT)));
            format!("progress {}{}{said}", params["progress"], cut(&of, 40))
        }
        "notifications/cancelled" => format!(
            "cancelled request {}{}",
            cut(&params["requestId"].to_string(), 40),
            params["reason"]
                .as_str()
                .map_or(String::new(), |r| format!(": {}", cut(r, KEPT)))
        ),
        "notifications/message" => format!(
            "log [{}] {}",
            cut(params["level"].as_str().unwrap_or("?"), 20),
            cut(&params["data"].to_string(), KEPT)
        ),
        _ => method.to_string(),
    }
}

fn cut(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_kind_of_message_in_a_line() {
        let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1}}});
        assert_eq!(message(&call, None), r#"tools/call add {"a":1} (id 3)"#);
        let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 2, "total": 10, "message": "step 2"}});
        assert_eq!(message(&progress, None), "progress 2/10 step 2");
        let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "x", "reason": "user"}});
        assert_eq!(message(&cancelled, None), r#"cancelled request "x": user"#);
        let error =
            json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32601, "message": "nope"}});
        assert_eq!(
            message(&error, Some("frobnicate")),
            "error -32601 to frobnicate (id 7): nope"
        );
        let result = json!({"jsonrpc": "2.0", "id": 8, "result": {}});
        assert_eq!(
            message(&result, None),
            "result to a request not seen (id 8)"
        );
        let huge = json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x".repeat(10_000)}});
        assert!(message(&huge, None).chars().count() < 200);
    }
}
