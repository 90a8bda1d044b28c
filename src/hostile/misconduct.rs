//! `--hostile=misconduct`: the protocol rules no other attack breaks, each broken once, so that
//! every `conform` check has a server that fails it: a request sent before the handshake's answer, ping
//! refused (its id echoed without its non-ASCII characters), prompts declared but their first
//! listing refused, completions past 100 values and not strings, a resource template that is
//! not RFC 6570, an unknown resource read as empty, any call served whatever its arguments, a
//! second `server/discover` without capabilities (with `modern`), and a read-only tool whose
//! argument asks for an `Mcp-Param-Region` header (which it never checks).
//! `--hostile=hollow`: tools, resources and prompts declared, none of their lists served.

use super::wire::Wire;
use super::{Attack, Options};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Requests of a kind answered so far (some are answered well the first time only, or after).
static PROMPT_LISTS: AtomicUsize = AtomicUsize::new(0);
static DISCOVERS: AtomicUsize = AtomicUsize::new(0);

/// The tool whose argument asks for a header.
pub fn regional_tool() -> Value {
    json!({"name": "regional", "description": "Names a region in a header it never checks.",
        "inputSchema": {"type": "object", "required": ["region"], "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"}}},
        "annotations": {"readOnlyHint": true}})
}

/// Answers `method` as `misconduct` or `hollow` would; false when they have nothing to say
/// of it.
pub fn answered(wire: &Wire, options: &Options, method: &str, id: &Value, params: &Value) -> bool {
    (options.has(Attack::Hollow) && hollow(wire, method, id, params))
        || (options.has(Attack::Misconduct) && misconduct(wire, method, id, params))
}

/// Declares what it does not serve: every list method is "not found".
fn hollow(wire: &Wire, method: &str, id: &Value, params: &Value) -> bool {
    match method {
        "initialize" => wire.result(id, declaring(params, &["resources", "prompts"])),
        "tools/list" | "resources/list" | "prompts/list" => {
            wire.error(id, -32601, &format!("method not found: {method}"))
        }
        _ => return false,
    }
    true
}

fn misconduct(wire: &Wire, method: &str, id: &Value, params: &Value) -> bool {
    match method {
        "initialize" => {
            let result = declaring(params, &["prompts", "completions", "resources"]);
            // Before `initialized` came (before the handshake is even answered).
            wire.send(&json!({"jsonrpc": "2.0", "id": "hostile-early", "method": "roots/list"}));
            wire.result(id, result);
        }
        "server/discover" if DISCOVERS.fetch_add(1, Ordering::Relaxed) > 0 => {
            let mut result = super::discover(&super::Options::default());
            if let Some(r) = result.as_object_mut() {
                r.remove("capabilities");
            }
            wire.result(id, result);
        }
        "ping" => wire.error(&ascii_only(id), -32603, "ping refused"),
        "prompts/list" if PROMPT_LISTS.fetch_add(1, Ordering::Relaxed) == 0 => {
            wire.error(id, -32603, "prompts are not ready")
        }
        "prompts/list" => wire.result(
            id,
            json!({"prompts": [{"name": "greet",
            "arguments": [{"name": "who", "required": true}]}]}),
        ),
        "completion/complete" => {
            let values: Vec<u32> = (0..150).collect();
            wire.result(id, json!({"completion": {"values": values, "total": 150}}))
        }
        "resources/list" => wire.result(id, json!({"resources": []})),
        "resources/templates/list" => wire.result(
            id,
            json!({"resourceTemplates": [{"uriTemplate": "hostile://{id", "name": "unclosed"}]}),
        ),
        "resources/read" => wire.result(id, json!({"contents": []})),
        "tools/call" => wire.result(
            id,
            json!({"content": [{"type": "text", "text": "served, whatever the arguments"}]}),
        ),
        _ => return false,
    }
    true
}

/// The handshake's answer, declaring `capabilities` too.
fn declaring(params: &Value, capabilities: &[&str]) -> Value {
    let mut result = super::initialize(params, false);
    for capability in capabilities {
        result["capabilities"][*capability] = json!({});
    }
    result
}

/// A string id with its non-ASCII characters left out (a server that mangles what it echoes).
fn ascii_only(id: &Value) -> Value {
    match id.as_str() {
        Some(text) => json!(text.chars().filter(char::is_ascii).collect::<String>()),
        None => id.clone(),
    }
}
