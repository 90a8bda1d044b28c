//! The 2026-07-28 era's request headers over Streamable HTTP (SEP-2243): a server checks that
//! `Mcp-Method` names the body's method and `Mcp-Name` the tool called, and refuses a request
//! whose headers disagree with its body (400), and that each `Mcp-Param-*` header a tool's
//! `x-mcp-header` asks for carries the argument's value. Each case is a stateless request of its own,
//! with the era's `_meta`; a request with the headers right is sent first, so a refusal is
//! known to be the headers'. Only a read-only tool is named in a call.

use super::http_raw::{HttpSent, Outcome, Raw, json_headers};
use super::{Finding, Level, Status, finding};
use crate::config::target::Target;
use crate::mcp::Session;
use crate::mcp::surface::tool::Tool;
use crate::schema::Era;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value, json};

const HEADERS: &str = "basic/transports, 2026-07-28 (standard headers, SEP-2243)";
const MODERN: &str = "2026-07-28";

/// The ids of the checks here, in the order they run.
pub const IDS: [&str; 3] = [
    "http-method-header-checked",
    "http-name-header-checked",
    "http-param-header-checked",
];

fn checks() -> [Finding; 3] {
    [
        finding(
            IDS[0],
            "a request whose Mcp-Method header is missing or names another method is refused with 400",
            Level::Must,
            HEADERS,
        ),
        finding(
            IDS[1],
            "a tools/call whose Mcp-Name header names another tool is refused with 400",
            Level::Must,
            HEADERS,
        ),
        finding(
            IDS[2],
            "a tools/call whose Mcp-Param header (asked for by x-mcp-header) is missing or holds another value than the argument is refused with 400; its Base64 form is read as the value",
            Level::Must,
            HEADERS,
        ),
    ]
}

/// The checks here `selection` wants, on a Streamable HTTP server in the 2026-07-28 era.
pub async fn run(session: &Session, target: &Target, selection: &super::Selection) -> Vec<Finding> {
    let [method, name, param] = checks();
    let found = match target {
        Target::Http { url, headers, .. }
            if super::http_raw::speaks_streamable_http(target)
                && session.server.era == Era::Modern =>
        {
            let raw = Raw::new(url, headers);
            // Listed once for the two checks that pick a tool.
            let tools = (session.list_tools().await)
                .map(|list| Callable::of(list, selection))
                .map_err(|e| format!("tools/list failed: {e}"));
            vec![
                method_header(&raw, method).await,
                name_header(&raw, &tools, name).await,
                param_header(&raw, &tools, param).await,
            ]
        }
        Target::Http { .. } if super::http_raw::speaks_streamable_http(target) => {
            [method, name, param]
                .map(|c| {
                    c.not_applicable(
                        "the headers came with 2026-07-28; the server speaks an earlier version",
                    )
                })
                .into()
        }
        _ => [method, name, param]
            .map(|c| c.not_applicable("needs a Streamable HTTP server"))
            .into(),
    };
    found
        .into_iter()
        .filter(|f| selection.wants(f.id))
        .collect()
}

async fn method_header(raw: &Raw<'_>, check: Finding) -> Finding {
    let right = request("tools/list", json!({}), &[("Mcp-Method", "tools/list")]);
    let control = raw.send(&right, None).await;
    if !accepted(&control) {
        return check.not_applicable(&format!(
            "a tools/list with the headers right was refused too ({})",
            super::http_raw::answered(&control)
        ));
    }
    for (header, why) in [
        (Some("prompts/list"), "naming prompts/list"),
        (None, "missing"),
        (
            Some("TOOLS/LIST"),
            "in capitals (values are case-sensitive)",
        ),
    ] {
        let extra: Vec<(&str, &str)> = header.map(|h| ("Mcp-Method", h)).into_iter().collect();
        let sent = request("tools/list", json!({}), &extra);
        let got = raw.send(&sent, None).await;
        let (status, said) = refused_400(&got);
        if status == Status::Fail {
            let said = format!("Mcp-Method {why}: {said}");
            return check.judged_http(vec![right, sent], (status, said));
        }
    }
    let said = "400 for Mcp-Method naming another method, missing, and in capitals".to_string();
    check.judged_http(vec![right], (Status::Pass, said))
}

/// The tools listed (those the checks may call apart), or why they could not be.
type Listed = Result<Callable, String>;

struct Callable {
    all: Vec<Tool>,
    /// The tools a check may call (read-only ones, unless allowed): a server that ignores a
    /// header runs the tool the body names.
    callable: Vec<Tool>,
}

impl Callable {
    fn of(list: crate::mcp::ToolList, selection: &super::Selection) -> Callable {
        let callable = (list.tools.iter())
            .filter(|t| selection.may_call(&list, t))
            .cloned()
            .collect();
        Callable {
            all: list.tools,
            callable,
        }
    }
}

async fn name_header(raw: &Raw<'_>, tools: &Listed, check: Finding) -> Finding {
    let tools = match tools {
        Ok(tools) => tools,
        Err(why) => return check.not_applicable(why),
    };
    let Some(tool) = tools.callable.first() else {
        let why = format!("no tool it may name ({})", super::NO_TOOL_ALLOWED);
        return check.not_applicable(&why);
    };
    let params = json!({"name": tool.name, "arguments": {}});
    let wrong = [
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "mcp-inspect-conform-no-such-tool"),
    ];
    let sent = request("tools/call", params, &wrong);
    let got = raw.send(&sent, None).await;
    check.judged_http(vec![sent], refused_400(&got))
}

/// A tool (of those a check may call) with a string argument whose `x-mcp-header` asks for
/// an `Mcp-Param-*` header (the tool's header annotations all valid), and a call of it whose
/// arguments hold a value of ours there: the tool, the header's name and those arguments.
fn param_target(tools: &[Tool]) -> Option<(&Tool, String, Value)> {
    (tools.iter())
        .filter(|t| crate::schema::headers::header_problems(&t.input_schema).is_empty())
        .find_map(|tool| {
            let (argument, header) =
                headed_arguments(tool).find_map(|(name, schema, header)| {
                    (schema.get("type")? == "string").then_some((name, header))
                })?;
            let mut arguments = crate::schema::generate::skeleton(&tool.input_schema);
            arguments[argument] = json!(PARAM_VALUE);
            Some((tool, format!("Mcp-Param-{header}"), arguments))
        })
}

/// A tool's arguments (top-level properties) that ask for a header: name, schema, header.
fn headed_arguments(tool: &Tool) -> impl Iterator<Item = (&String, &Value, &str)> {
    let properties = tool
        .input_schema
        .get("properties")
        .and_then(Value::as_object);
    (properties.into_iter().flatten()).filter_map(|(name, schema)| {
        let header = schema.get("x-mcp-header")?.as_str()?;
        Some((name, schema, header))
    })
}

/// The argument's value in the call, and another.
const PARAM_VALUE: &str = "mcp-inspect-a";
const OTHER_VALUE: &str = "mcp-inspect-b";

async fn param_header(raw: &Raw<'_>, tools: &Listed, check: Finding) -> Finding {
    let tools = match tools {
        Ok(tools) => tools,
        Err(why) => return check.not_applicable(why),
    };
    let Some((tool, header, arguments)) = param_target(&tools.callable) else {
        let declared = (tools.all.iter()).any(|t| headed_arguments(t).next().is_some());
        return check.not_applicable(&match declared {
            true => format!(
                "no tool it may call has a string argument with x-mcp-header ({})",
                super::NO_TOOL_ALLOWED
            ),
            false => "the server declares no tool argument with x-mcp-header".into(),
        });
    };
    let params = json!({"name": tool.name, "arguments": arguments});
    let named = [
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", tool.name.as_str()),
    ];
    let with = |value: Option<&str>| {
        let mut headers = named.to_vec();
        headers.extend(value.map(|v| (header.as_str(), v)));
        request("tools/call", params.clone(), &headers)
    };
    let right = with(Some(PARAM_VALUE));
    let control = raw.send(&right, None).await;
    if !accepted(&control) {
        return check.not_applicable(&format!(
            "a call of {} with the headers right was refused too ({})",
            crate::untrusted::label(&tool.name),
            super::http_raw::answered(&control)
        ));
    }
    // The same value Base64-encoded (the form a value unsafe in a header takes) is the same.
    let encoded = format!("=?base64?{}?=", BASE64.encode(PARAM_VALUE));
    let sent = with(Some(&encoded));
    let got = raw.send(&sent, None).await;
    if !accepted(&got) {
        let said = format!(
            "{header} holding the argument Base64-encoded ({encoded}) was refused: {}",
            super::http_raw::answered(&got)
        );
        return check.judged_http(vec![right, sent], (Status::Fail, said));
    }
    for (value, why) in [
        (Some(OTHER_VALUE), "holding another value"),
        (None, "missing"),
    ] {
        let sent = with(value);
        let got = raw.send(&sent, None).await;
        let (status, said) = refused_400(&got);
        if status == Status::Fail {
            let said = format!("{header} {why}: {said}");
            return check.judged_http(vec![right, sent], (status, said));
        }
    }
    let said =
        format!("400 for {header} holding another value, and missing; its Base64 form accepted");
    check.judged_http(vec![right], (Status::Pass, said))
}

/// A stateless request of the 2026-07-28 era: the version header, the era's `_meta`, `extra`
/// headers.
fn request(method: &str, mut params: Value, extra: &[(&str, &str)]) -> HttpSent {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "mcp-inspect conform", "version": env!("CARGO_PKG_VERSION")},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let mut headers = json_headers();
    headers.push(("MCP-Protocol-Version".into(), MODERN.into()));
    headers.extend(extra.iter().map(|(n, v)| (n.to_string(), v.to_string())));
    HttpSent {
        method: "POST",
        headers,
        body: Some(body.to_string()),
        with_session: false,
    }
}

fn accepted(got: &Outcome) -> bool {
    got.as_ref().is_ok_and(|g| (200..300).contains(&g.status))
}

/// Passes on 400 (saying whether the body's error was -32020, HeaderMismatch).
pub fn refused_400(got: &Outcome) -> (Status, String) {
    match got {
        Ok(g) if g.status == 400 => {
            let code = serde_json::from_str::<Value>(&g.body)
                .ok()
                .and_then(|b| b.pointer("/error/code").and_then(Value::as_i64));
            let said = match code {
                Some(-32020) => "HTTP 400 with -32020 (HeaderMismatch)".to_string(),
                Some(code) => format!("HTTP 400 with {code} (the era names -32020)"),
                None => "HTTP 400".to_string(),
            };
            (Status::Pass, said)
        }
        _ => (Status::Fail, super::http_raw::answered(got)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::http_raw::answered_with as got;
    use super::*;

    #[test]
    fn a_mismatch_must_be_refused_with_400() {
        let mismatch =
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"HeaderMismatch"}}"#;
        assert_eq!(refused_400(&got(400, mismatch)).0, Status::Pass);
        assert_eq!(refused_400(&got(200, r#"{"result":{}}"#)).0, Status::Fail);
        assert_eq!(refused_400(&got(403, "")).0, Status::Fail);
        assert_eq!(refused_400(&Err("timed out".into())).0, Status::Fail);
    }

    #[test]
    fn the_param_header_is_checked_on_a_tool_it_may_call_with_a_string_argument() {
        let tool = |name: &str, read_only: bool, header: Value, kind: &str| {
            crate::mcp::surface::tool::decode_tool(&json!({"name": name,
                "annotations": {"readOnlyHint": read_only},
                "inputSchema": {"type": "object", "required": ["region", "n"], "properties": {
                    "region": {"type": kind, "x-mcp-header": header},
                    "n": {"type": "integer"}}}}))
            .expect("a tool")
        };
        let tools = [
            tool("writes", false, json!("Region"), "string"),
            tool("broken", true, json!("Has Space"), "string"),
            tool("number", true, json!("Region"), "integer"),
            tool("regional", true, json!("Region"), "string"),
        ];
        let list = |tools: &[Tool]| crate::mcp::ToolList {
            tools: tools.to_vec(),
            rejected: Vec::new(),
            pages: 1,
            problem: None,
        };
        let read_only = Callable::of(list(&tools), &super::super::Selection::default());
        let (picked, header, arguments) = param_target(&read_only.callable).expect("a target");
        assert_eq!(
            (picked.name.as_str(), header.as_str()),
            ("regional", "Mcp-Param-Region")
        );
        assert_eq!(arguments["region"], PARAM_VALUE);
        assert!(
            arguments["n"].is_i64(),
            "the other required arguments filled: {arguments}"
        );
        let read_only = Callable::of(list(&tools[..3]), &super::super::Selection::default());
        assert!(param_target(&read_only.callable).is_none());
        // `--allow-all`: the tool that writes may be named too.
        let mut all = super::super::Selection::default();
        all.allow.all = true;
        let every = Callable::of(list(&tools), &all);
        let (picked, ..) = param_target(&every.callable).expect("a target");
        assert_eq!(picked.name, "writes");
    }

    #[test]
    fn a_request_carries_the_eras_meta_and_its_headers() {
        let sent = request("tools/list", json!({}), &[("Mcp-Method", "tools/list")]);
        let body: Value = serde_json::from_str(sent.body.as_deref().unwrap_or("")).expect("json");
        assert_eq!(
            body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
            MODERN
        );
        assert!(
            sent.headers
                .contains(&("Mcp-Method".into(), "tools/list".into()))
        );
    }
}
