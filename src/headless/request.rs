//! `request METHOD [--params JSON]`: any request, its result printed as the server sent it
//! (escaped for the terminal). The params are checked before anything is sent.

use super::output::Report;
use crate::cli::Format;
use crate::headless::exit;
use crate::mcp::Session;
use serde_json::Value;

/// Bytes of `--params` read at most (what a command line can hold anyway).
const MAX_PARAMS: usize = 1024 * 1024;

pub async fn run(session: &Session, method: &str, params: Option<&str>, report: &Report) -> i32 {
    if let Err(why) = usable_method(method) {
        return report.error(&why, exit::ERROR);
    }
    let params = match params.map(parse_params).transpose() {
        Ok(params) => params,
        Err(why) => return report.error(&why, exit::ERROR),
    };
    match session.any_request(method, params).await {
        Ok(result) => {
            match report.format {
                Format::Text => report.json(&result),
                Format::Json => report.line(&crate::untrusted::json(&result, false)),
            }
            exit::OK
        }
        Err(e) => {
            if session.server.era == crate::schema::verdict::Era::Modern
                && REMOVED_IN_2026.contains(&method)
            {
                report.note(&format!(
                    "{method} does not exist in the 2026-07-28 era this server speaks \
                     (--protocol legacy speaks the older one)"
                ));
            }
            super::failed(method, e, report)
        }
    }
}

/// Requests of the sessionful era that the 2026-07-28 era removed: a server of that era
/// answers them "method not found", which reads like its own fault without this note.
const REMOVED_IN_2026: [&str; 2] = ["ping", "logging/setLevel"];

/// A method a request can carry: not empty, no control characters, not a notification.
fn usable_method(method: &str) -> Result<(), String> {
    if method.trim().is_empty() {
        return Err("the method is empty".into());
    }
    if method.chars().any(char::is_control) {
        return Err("the method holds control characters".into());
    }
    if method.starts_with("notifications/") {
        return Err(format!(
            "{method} is a notification: it has no result, and `request` waits for one"
        ));
    }
    Ok(())
}

/// `--params`: a JSON object (JSON-RPC params by name; `null` sends none).
fn parse_params(text: &str) -> Result<Value, String> {
    if text.len() > MAX_PARAMS {
        return Err(format!("--params is over {MAX_PARAMS} bytes"));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(other) => Err(format!(
            "--params must be a JSON object, not {}",
            crate::schema::verdict::kind_of(&other)
        )),
        Err(e) => Err(format!("--params is not JSON: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_and_methods_are_checked_before_anything_is_sent() {
        assert!(parse_params(r#"{"name": "add"}"#).is_ok());
        assert!(
            parse_params("[1]")
                .expect_err("refused")
                .contains("JSON object")
        );
        assert!(parse_params("{").expect_err("refused").contains("not JSON"));
        assert!(usable_method("tools/list").is_ok());
        assert!(usable_method("").is_err());
        assert!(usable_method("a\u{1b}[2J").is_err());
        assert!(
            usable_method("notifications/initialized")
                .expect_err("refused")
                .contains("notification")
        );
    }
}
