//! `conform`: a server's protocol conduct held against the spec, one request per check, each
//! finding with the rule it comes from (MUST or SHOULD), what was sent, what came back, and
//! the request that reproduces it. Only read-only tools are called unless allowed. The checks that apply to
//! any transport and era; each judged by a pure function of the answer (tested apart).

mod caching;
mod http_headers;
mod http_lines;
mod http_raw;
mod http_stream;
mod hygiene;
mod in_flight;
mod modern;
mod over_http;
mod probe;
pub mod reproduce;
mod resumption;
mod tasks;
mod tasks_extension;
mod templates;

pub use http_raw::HttpSent;
pub use hygiene::run as run_raw;
pub use in_flight::Early;
pub use over_http::run as run_http;

use crate::mcp::surface::tool::Tool;
use crate::mcp::{RequestError, Session};
use crate::schema::Era;
use serde::Serialize;
use serde_json::{Value, json};

/// How binding the rule a check holds the server to is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Level {
    Must,
    Should,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pass,
    Fail,
    /// The check does not apply to this server (its era, transport or capabilities).
    NotApplicable,
}

/// One check's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub id: &'static str,
    /// What the rule asks, in a line.
    pub rule: &'static str,
    pub level: Level,
    /// Where the rule is written.
    pub spec: &'static str,
    pub status: Status,
    /// What came back (or why the check does not apply).
    pub said: String,
    /// The request sent, when one was: method and params (for a reproduce line).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sent: Option<(String, Value)>,
    /// The lines written to a fresh copy of a stdio server, when the check spoke raw JSON-RPC
    /// (see [`hygiene`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub wrote: Vec<String>,
    /// The HTTP requests sent apart from the session, when the check needed raw HTTP (see
    /// [`over_http`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub http: Vec<HttpSent>,
    /// The command that shows it again (see [`reproduce`]), once the connection's words are
    /// known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reproduce: Option<String>,
}

/// What the connection noticed on the way that a check judges: lines on stdout that are not
/// JSON-RPC (counted, the first few kept).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seen {
    pub non_json_lines: usize,
    pub first_non_json: Option<String>,
    pub stdio: bool,
}

const JSON_RPC_ERRORS: &str = "JSON-RPC 2.0 §5.1 (error object codes)";
const LIFECYCLE_PING: &str = "basic/utilities/ping";
const TOOLS_ERRORS: &str = "server/tools#error-handling";
const TOOLS_INPUTS: &str = "server/tools#security-considerations (MUST validate all tool inputs)";
const PAGINATION: &str = "server/utilities/pagination#error-handling";
const LOGGING: &str = "server/utilities/logging";
const RESOURCES_ERRORS: &str = "server/resources#error-handling";
const STDIO: &str = "basic/transports#stdio";

/// A name no server has (a method, a tool, a cursor, a resource).
const NOBODY: &str = "mcp-inspect-conform-no-such";

/// The checks made in the session, in the order they run.
const IN_SESSION: [&str; 18] = [
    "unknown-method",
    "ping",
    "server-discover",
    "tools-list",
    "resources-list",
    "prompts-list",
    "undeclared-capability",
    "invalid-cursor",
    "unknown-tool",
    "invalid-params",
    "invalid-arguments",
    "logging-set-level",
    "unknown-resource",
    "completion",
    "resource-templates",
    "template-read",
    "caching-hints",
    "stdout-only-json-rpc",
];

/// The id of every check, in the order they run: `--only` and `--skip` name them.
pub fn checks() -> impl Iterator<Item = &'static str> {
    (IN_SESSION.into_iter())
        .chain(tasks::IDS)
        .chain(tasks_extension::IDS)
        .chain(hygiene::IDS)
        .chain(in_flight::IDS)
        .chain(over_http::IDS)
        .chain(http_headers::IDS)
        .chain(resumption::IDS)
        .chain(modern::IDS)
}

/// Which checks run (`--only`, `--skip`): a check left out sends nothing.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub only: Vec<String>,
    pub skip: Vec<String>,
    /// Tools beyond read-only ones the checks may call (`--allow-writes`, as `verify`).
    pub allow: crate::verify::plan::Allow,
}

/// Why a check found no tool to call, when only some may be.
const NO_TOOL_ALLOWED: &str = "only read-only tools are called unless --allow-writes, --allow-destructive TOOL or --allow-all allows more";

impl Selection {
    /// Whether the checks may call `tool` of `list`: a read-only one always, others as
    /// `verify` would with the same flags.
    pub fn may_call(&self, list: &crate::mcp::ToolList, tool: &Tool) -> bool {
        crate::verify::plan::refusal(list, tool, &self.allow).is_none()
    }

    pub fn wants(&self, id: &str) -> bool {
        (self.only.is_empty() || self.only.iter().any(|o| o == id))
            && !self.skip.iter().any(|s| s == id)
    }

    /// A name given that is no check's id.
    pub fn unknown(&self) -> Option<&str> {
        self.only
            .iter()
            .chain(&self.skip)
            .find(|id| !checks().any(|c| c == id.as_str()))
            .map(String::as_str)
    }
}

/// Every check `selection` wants: those on `session`, then, when the server's `target` is
/// known, those that start copies of a stdio server or send raw HTTP.
pub async fn run_all(
    session: &Session,
    target: Option<&crate::config::target::Target>,
    selection: &Selection,
    seen: impl FnOnce() -> Seen,
    early: Early,
) -> Vec<Finding> {
    // The calls in flight are watched on a copy (or a session) of their own, beside the rest.
    let in_flight = async {
        match target {
            Some(target) => in_flight::run(session, target, selection, early).await,
            None => {
                early.discard().await;
                Vec::new()
            }
        }
    };
    let rest = async {
        let mut findings = run(session, selection, seen).await;
        if let Some(target) = target {
            findings.extend(run_raw(target, selection).await);
            let server = &session.server;
            let version = &server.protocol_version;
            findings.extend(run_http(target, version, server.era, selection).await);
            findings.extend(http_headers::run(session, target, selection).await);
            findings.extend(resumption::run(session, target, selection).await);
            findings.extend(modern::run(target, server.era, selection).await);
        }
        findings
    };
    let (mut findings, in_flight) = tokio::join!(rest, in_flight);
    findings.extend(in_flight);
    // In the order `checks` lists them, whichever came back first.
    findings.sort_by_key(|f| checks().position(|id| id == f.id));
    findings
}

/// `found`, each failure with the command that reproduces it over the connection `words` name
/// (`target` for the checks that started the server or sent raw HTTP).
pub fn with_reproduce(
    mut found: Vec<Finding>,
    words: &[String],
    target: Option<&crate::config::target::Target>,
) -> Vec<Finding> {
    for finding in found
        .iter_mut()
        .filter(|f| f.status != Status::NotApplicable)
    {
        finding.reproduce = reproduce::line(finding, words, target);
    }
    found
}

/// Runs the checks `selection` wants on `session`; `seen` is what the connection noticed
/// meanwhile (read after the requests, so lines written while they ran count too).
pub async fn run(
    session: &Session,
    selection: &Selection,
    seen: impl FnOnce() -> Seen,
) -> Vec<Finding> {
    let wants = |id: &str| selection.wants(id);
    let mut found = Vec::new();
    if wants("unknown-method") {
        found.push(unknown_method(session).await);
    }
    if wants("ping") {
        found.push(ping(session).await);
    }
    if wants("server-discover") {
        found.push(server_discover(session).await);
    }
    found.extend(listings(session, selection).await);
    if wants("undeclared-capability") {
        found.push(undeclared_capability(session).await);
    }
    if wants("invalid-cursor") {
        found.push(invalid_cursor(session).await);
    }
    if wants("unknown-tool") {
        found.push(unknown_tool(session).await);
    }
    if wants("invalid-params") {
        found.push(invalid_params(session).await);
    }
    if wants("invalid-arguments") {
        found.push(invalid_arguments(session, selection).await);
    }
    if wants("logging-set-level") {
        found.push(logging(session).await);
    }
    if wants("unknown-resource") {
        found.push(unknown_resource(session).await);
    }
    if wants("completion") {
        found.push(completion(session).await);
    }
    if wants("resource-templates") {
        found.push(templates::check(session).await);
    }
    if wants("template-read") {
        found.push(templates::read_check(session).await);
    }
    if wants("caching-hints") {
        found.push(caching::check(session).await);
    }
    found.extend(tasks::run(session, selection).await);
    found.extend(tasks_extension::run(session, selection).await);
    if wants("stdout-only-json-rpc") {
        found.push(stdout_only_json_rpc(&seen()));
    }
    found
}

fn finding(id: &'static str, rule: &'static str, level: Level, spec: &'static str) -> Finding {
    Finding {
        id,
        rule,
        level,
        spec,
        status: Status::NotApplicable,
        said: String::new(),
        sent: None,
        wrote: Vec::new(),
        http: Vec::new(),
        reproduce: None,
    }
}

impl Finding {
    fn not_applicable(mut self, why: &str) -> Finding {
        self.said = why.into();
        self
    }

    /// Judged without a request of its own to show (the verdict sums up several, or none).
    fn concluded(mut self, verdict: (Status, String)) -> Finding {
        (self.status, self.said) = verdict;
        self
    }

    fn judged(mut self, sent: (&str, Value), verdict: (Status, String)) -> Finding {
        self.sent = Some((sent.0.to_string(), sent.1));
        (self.status, self.said) = verdict;
        self
    }
}

/// Characters of an answer a finding keeps (a read-only tool may answer with megabytes).
const SAID_CHARS: usize = 1_000;

/// What an answer was, in words, cut at [`SAID_CHARS`].
fn answered(outcome: &Result<Value, RequestError>) -> String {
    let said = match outcome {
        Ok(result) => format!("a result: {}", crate::untrusted::json(result, false)),
        Err(RequestError::Server { code, message, .. }) => format!("error {code}: {message}"),
        Err(e) => e.to_string(),
    };
    cut(said)
}

/// `said` cut at [`SAID_CHARS`].
fn cut(said: String) -> String {
    match said.char_indices().nth(SAID_CHARS) {
        Some((at, _)) => format!("{}…", &said[..at]),
        None => said,
    }
}

/// Passes on a JSON-RPC error with `code`; fails on anything else.
pub fn expects_error(outcome: &Result<Value, RequestError>, code: i64) -> (Status, String) {
    let status = match outcome {
        Err(RequestError::Server { code: c, .. }) if *c == code => Status::Pass,
        _ => Status::Fail,
    };
    (status, answered(outcome))
}

/// Passes on a result; fails on an error or no answer.
pub fn expects_result(outcome: &Result<Value, RequestError>) -> (Status, String) {
    let status = match outcome {
        Ok(_) => Status::Pass,
        Err(_) => Status::Fail,
    };
    (status, answered(outcome))
}

/// Passes on a tool error (`isError: true`) or -32602; fails on a success or anything else.
pub fn expects_refusal(outcome: &Result<Value, RequestError>) -> (Status, String) {
    let status = match outcome {
        Ok(result) if result.get("isError") == Some(&Value::Bool(true)) => Status::Pass,
        Err(RequestError::Server { code: -32602, .. }) => Status::Pass,
        _ => Status::Fail,
    };
    (status, answered(outcome))
}

/// Passes on any JSON-RPC error (the code named when it is not the era's own); fails on a
/// result or no answer.
pub fn expects_not_found(outcome: &Result<Value, RequestError>) -> (Status, String) {
    let status = match outcome {
        Err(RequestError::Server { .. }) => Status::Pass,
        _ => Status::Fail,
    };
    (status, answered(outcome))
}

async fn unknown_method(session: &Session) -> Finding {
    let check = finding(
        "unknown-method",
        "an unknown method is answered with error -32601 (method not found)",
        Level::Must,
        JSON_RPC_ERRORS,
    );
    let method = format!("{NOBODY}/method");
    let outcome = session.any_request(&method, None).await;
    check.judged((&method, Value::Null), expects_error(&outcome, -32601))
}

async fn ping(session: &Session) -> Finding {
    let check = finding(
        "ping",
        "ping is answered promptly with an empty result",
        Level::Must,
        LIFECYCLE_PING,
    );
    if session.server.era == Era::Modern {
        return check.not_applicable("the 2026-07-28 era has no ping");
    }
    let outcome = session.any_request("ping", None).await;
    check.judged(("ping", Value::Null), expects_result(&outcome))
}

/// In the 2026-07-28 era, `server/discover` says which versions the server speaks (the one
/// negotiated among them) and what it can do.
async fn server_discover(session: &Session) -> Finding {
    let check = finding(
        "server-discover",
        "server/discover is answered with the versions the server speaks (the negotiated one among them) and its capabilities",
        Level::Must,
        "basic/lifecycle, 2026-07-28 (server/discover)",
    );
    if session.server.era != Era::Modern {
        return check.not_applicable(
            "server/discover came with 2026-07-28; the server speaks an earlier version",
        );
    }
    let outcome = session
        .any_request("server/discover", Some(json!({})))
        .await;
    let verdict = discovered(&outcome, &session.server.protocol_version);
    check.judged(("server/discover", json!({})), verdict)
}

/// Passes on a result with `supportedVersions` naming `version` and a `capabilities` object.
pub fn discovered(outcome: &Result<Value, RequestError>, version: &str) -> (Status, String) {
    let Ok(result) = outcome else {
        return (Status::Fail, answered(outcome));
    };
    let versions: Vec<&str> = (result["supportedVersions"].as_array().into_iter().flatten())
        .filter_map(Value::as_str)
        .collect();
    let why = match (
        versions.contains(&version),
        result["capabilities"].is_object(),
    ) {
        (true, true) => {
            return (
                Status::Pass,
                format!("supportedVersions {}", versions.join(", ")),
            );
        }
        (false, _) => format!("supportedVersions does not name {version}"),
        (true, false) => "no capabilities object".to_string(),
    };
    (Status::Fail, cut(format!("{why}: {}", answered(outcome))))
}

/// Each declared capability's list method works.
async fn listings(session: &Session, selection: &Selection) -> Vec<Finding> {
    let mut found = Vec::new();
    for (capability, method, id) in [
        ("tools", "tools/list", "tools-list"),
        ("resources", "resources/list", "resources-list"),
        ("prompts", "prompts/list", "prompts-list"),
    ] {
        if !selection.wants(id) {
            continue;
        }
        let check = finding(
            id,
            "a capability the server declares has its list method answered",
            Level::Must,
            "basic/lifecycle#capability-negotiation",
        );
        if !session.server.declares(capability) {
            found.push(check.not_applicable(&format!("`{capability}` is not declared")));
            continue;
        }
        let outcome = session.any_request(method, Some(json!({}))).await;
        let (status, said) = expects_result(&outcome);
        // The list itself is long: what matters is that it came.
        let said = if status == Status::Pass {
            "a result".to_string()
        } else {
            said
        };
        found.push(check.judged((method, json!({})), (status, said)));
    }
    found
}

/// A capability the server does not declare: its methods answered -32601, not served.
async fn undeclared_capability(session: &Session) -> Finding {
    let check = finding(
        "undeclared-capability",
        "a method of a capability the server does not declare is answered with error -32601, not served",
        Level::Should,
        "basic/lifecycle#capability-negotiation",
    );
    let mut asked = Vec::new();
    for (capability, method, params) in [
        ("tools", "tools/list", json!({})),
        ("resources", "resources/list", json!({})),
        ("prompts", "prompts/list", json!({})),
        ("logging", "logging/setLevel", json!({"level": "warning"})),
    ] {
        if session.server.declares(capability)
            || (capability == "logging" && session.server.era == Era::Modern)
        {
            continue;
        }
        let outcome = session.any_request(method, Some(params.clone())).await;
        let (status, said) = expects_error(&outcome, -32601);
        if status == Status::Fail {
            let said = format!("`{capability}` is not declared, yet {method} got {said}");
            return check.judged((method, params), (status, said));
        }
        asked.push(method);
    }
    check.concluded(match asked.is_empty() {
        true => (
            Status::NotApplicable,
            "every capability asked about is declared".into(),
        ),
        false => (Status::Pass, format!("-32601 for {}", asked.join(", "))),
    })
}

async fn invalid_cursor(session: &Session) -> Finding {
    let check = finding(
        "invalid-cursor",
        "a list request with an invalid cursor is answered with error -32602",
        Level::Should,
        PAGINATION,
    );
    if !session.server.declares("tools") {
        return check.not_applicable("`tools` is not declared");
    }
    let params = json!({"cursor": format!("{NOBODY}-cursor")});
    let outcome = session
        .any_request("tools/list", Some(params.clone()))
        .await;
    let (status, said) = expects_error(&outcome, -32602);
    let said = match (&outcome, status) {
        (Ok(_), Status::Fail) => "a result (the cursor was not refused)".to_string(),
        _ => said,
    };
    check.judged(("tools/list", params), (status, said))
}

async fn unknown_tool(session: &Session) -> Finding {
    let check = finding(
        "unknown-tool",
        "a call of a tool that does not exist is answered with error -32602",
        Level::Should,
        TOOLS_ERRORS,
    );
    if !session.server.declares("tools") {
        return check.not_applicable("`tools` is not declared");
    }
    let params = json!({"name": format!("{NOBODY}-tool"), "arguments": {}});
    let outcome = session
        .any_request("tools/call", Some(params.clone()))
        .await;
    check.judged(("tools/call", params), expects_error(&outcome, -32602))
}

/// A request whose params lack what its method requires (a `tools/call` without a tool's
/// name): -32602, not an internal error, not "method not found", never served.
async fn invalid_params(session: &Session) -> Finding {
    let check = finding(
        "invalid-params",
        "a request whose params lack what the method requires (a tools/call without a name, a resources/read without a uri) is answered with error -32602",
        Level::Should,
        JSON_RPC_ERRORS,
    );
    let Some((method, _)) = [
        ("tools/call", "tools"),
        ("resources/read", "resources"),
        ("prompts/get", "prompts"),
    ]
    .into_iter()
    .find(|(_, capability)| session.server.declares(capability)) else {
        return check.not_applicable("none of tools, resources and prompts is declared");
    };
    let outcome = session.any_request(method, Some(json!({}))).await;
    check.judged((method, json!({})), expects_error(&outcome, -32602))
}

/// A tool it may call (read-only, unless allowed) called with arguments its inputSchema
/// refuses: refused as a tool error or -32602, never run as if they were valid.
async fn invalid_arguments(session: &Session, selection: &Selection) -> Finding {
    let check = finding(
        "invalid-arguments",
        "a call whose arguments break the tool's inputSchema is refused (isError or -32602)",
        Level::Must,
        TOOLS_INPUTS,
    );
    if !session.server.declares("tools") {
        return check.not_applicable("`tools` is not declared");
    }
    let list = match session.list_tools().await {
        Ok(list) => list,
        Err(e) => return check.not_applicable(&format!("tools/list failed: {e}")),
    };
    let mut callable = (list.tools.iter()).filter(|t| selection.may_call(&list, t));
    let Some((tool, arguments)) = callable.find_map(refused_input) else {
        return check.not_applicable(&format!(
            "no tool it may call has an inputSchema that refuses some input ({NO_TOOL_ALLOWED})"
        ));
    };
    let params = json!({"name": tool.name, "arguments": arguments});
    let outcome = session
        .any_request("tools/call", Some(params.clone()))
        .await;
    check.judged(("tools/call", params), expects_refusal(&outcome))
}

/// An argument object `tool`'s inputSchema refuses (one mistake away from a typical one),
/// checked against the schema itself.
fn refused_input(tool: &Tool) -> Option<(&Tool, Value)> {
    let generator = crate::schema::generate::Gen::new(&tool.input_schema);
    let compiled = crate::schema::Compiled::new(&tool.input_schema);
    let refused = generator
        .invalid()
        .take(20)
        .find(|v| compiled.check(v).is_ok_and(|c| !c.violations.is_empty()))?;
    Some((tool, refused))
}

async fn logging(session: &Session) -> Finding {
    let check = finding(
        "logging-set-level",
        "a server that declares `logging` answers logging/setLevel",
        Level::Must,
        LOGGING,
    );
    if !session.server.declares("logging") {
        return check.not_applicable("`logging` is not declared");
    }
    if session.server.era == Era::Modern {
        return check.not_applicable("the 2026-07-28 era sends the level with every request");
    }
    let params = json!({"level": "warning"});
    let outcome = session
        .any_request("logging/setLevel", Some(params.clone()))
        .await;
    check.judged(("logging/setLevel", params), expects_result(&outcome))
}

async fn unknown_resource(session: &Session) -> Finding {
    let check = finding(
        "unknown-resource",
        "reading a resource that does not exist is answered with an error (-32002 in the 2025 eras)",
        Level::Should,
        RESOURCES_ERRORS,
    );
    if !session.server.declares("resources") {
        return check.not_applicable("`resources` is not declared");
    }
    let params = json!({"uri": format!("{NOBODY}://resource")});
    let outcome = session
        .any_request("resources/read", Some(params.clone()))
        .await;
    check.judged(("resources/read", params), expects_not_found(&outcome))
}

/// A server that declares `completions` completes a prompt's argument: at most 100 values,
/// all strings, `total` no fewer than the values given.
async fn completion(session: &Session) -> Finding {
    let check = finding(
        "completion",
        "a server that declares `completions` answers completion/complete for a prompt argument with at most 100 string values",
        Level::Must,
        "server/utilities/completion",
    );
    if !session.server.declares("completions") {
        return check.not_applicable("`completions` is not declared");
    }
    let prompts = session.any_request("prompts/list", Some(json!({}))).await;
    let argument = prompts.ok().and_then(|listed| {
        (listed["prompts"].as_array().into_iter().flatten()).find_map(|p| {
            let name = p["name"].as_str()?;
            let argument = p["arguments"].as_array()?.first()?["name"].as_str()?;
            Some((name.to_string(), argument.to_string()))
        })
    });
    let Some((prompt, argument)) = argument else {
        return check.not_applicable("no prompt with an argument to complete");
    };
    let params = json!({"ref": {"type": "ref/prompt", "name": prompt},
        "argument": {"name": argument, "value": ""}});
    let outcome = session
        .any_request("completion/complete", Some(params.clone()))
        .await;
    check.judged(("completion/complete", params), completed(&outcome))
}

/// Passes on `completion.values`: at most 100 strings, `total` (when given) no fewer.
pub fn completed(outcome: &Result<Value, RequestError>) -> (Status, String) {
    let Ok(result) = outcome else {
        return (Status::Fail, answered(outcome));
    };
    let completion = &result["completion"];
    let Some(values) = completion["values"].as_array() else {
        return (
            Status::Fail,
            cut(format!("no completion.values: {}", answered(outcome))),
        );
    };
    let why = if values.len() > 100 {
        format!("{} values (at most 100)", values.len())
    } else if !values.iter().all(Value::is_string) {
        "a value that is not a string".to_string()
    } else if completion["total"]
        .as_u64()
        .is_some_and(|t| t < values.len() as u64)
    {
        format!(
            "total {} is fewer than the {} values",
            completion["total"],
            values.len()
        )
    } else {
        return (Status::Pass, crate::plural::count(values.len(), "value"));
    };
    (Status::Fail, why)
}

fn stdout_only_json_rpc(seen: &Seen) -> Finding {
    let check = finding(
        "stdout-only-json-rpc",
        "a stdio server writes nothing but JSON-RPC messages on stdout (logs go to stderr)",
        Level::Must,
        STDIO,
    );
    if !seen.stdio {
        return check.not_applicable("not a stdio server");
    }
    check.concluded(match (&seen.first_non_json, seen.non_json_lines) {
        (None, _) => (Status::Pass, "every line was JSON-RPC".into()),
        (Some(first), n) => (
            Status::Fail,
            format!(
                "{} not JSON-RPC, the first: {first}",
                crate::plural::count(n, "line")
            ),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server_error(code: i64) -> Result<Value, RequestError> {
        Err(RequestError::Server {
            code,
            message: "no".into(),
            data: None,
        })
    }

    /// Each judgement can fail: the wrong code, a result where an error belongs, no answer.
    #[test]
    fn every_judgement_passes_only_on_what_the_rule_asks() {
        assert_eq!(expects_error(&server_error(-32601), -32601).0, Status::Pass);
        assert_eq!(expects_error(&server_error(-32603), -32601).0, Status::Fail);
        assert_eq!(expects_error(&Ok(json!({})), -32601).0, Status::Fail);
        let timeout = Err(RequestError::Timeout(std::time::Duration::from_secs(1)));
        assert_eq!(expects_error(&timeout, -32601).0, Status::Fail);
        assert_eq!(expects_result(&Ok(json!({}))).0, Status::Pass);
        assert_eq!(expects_result(&server_error(-32601)).0, Status::Fail);
        assert_eq!(
            expects_refusal(&Ok(json!({"isError": true, "content": []}))).0,
            Status::Pass
        );
        assert_eq!(expects_refusal(&server_error(-32602)).0, Status::Pass);
        assert_eq!(expects_refusal(&Ok(json!({"content": []}))).0, Status::Fail);
        assert_eq!(expects_refusal(&server_error(-32603)).0, Status::Fail);
        assert_eq!(expects_not_found(&server_error(-32002)).0, Status::Pass);
        assert_eq!(
            expects_not_found(&Ok(json!({"contents": []}))).0,
            Status::Fail
        );
        assert_eq!(expects_not_found(&timeout).0, Status::Fail);
        let discover =
            |versions: Value| Ok(json!({"supportedVersions": versions, "capabilities": {}}));
        assert_eq!(
            discovered(&discover(json!(["2026-07-28"])), "2026-07-28").0,
            Status::Pass
        );
        assert_eq!(
            discovered(&discover(json!(["2025-11-25"])), "2026-07-28").0,
            Status::Fail
        );
        assert_eq!(
            discovered(
                &Ok(json!({"supportedVersions": ["2026-07-28"]})),
                "2026-07-28"
            )
            .0,
            Status::Fail
        );
        assert_eq!(
            discovered(&server_error(-32601), "2026-07-28").0,
            Status::Fail
        );
        let values = |v: Value| Ok(json!({"completion": v}));
        assert_eq!(
            completed(&values(json!({"values": ["a"], "total": 1}))).0,
            Status::Pass
        );
        let many: Vec<String> = (0..101).map(|i| i.to_string()).collect();
        assert_eq!(completed(&values(json!({"values": many}))).0, Status::Fail);
        assert_eq!(completed(&values(json!({"values": [1]}))).0, Status::Fail);
        assert_eq!(
            completed(&values(json!({"values": ["a", "b"], "total": 1}))).0,
            Status::Fail
        );
        assert_eq!(completed(&Ok(json!({}))).0, Status::Fail);
    }

    #[test]
    fn a_huge_answer_is_kept_cut() {
        let huge = Ok(json!({"content": [{"type": "text", "text": "é".repeat(100_000)}]}));
        let (_, said) = expects_refusal(&huge);
        assert_eq!(said.chars().count(), SAID_CHARS + 1);
        assert!(said.ends_with('…'));
    }

    #[test]
    fn a_line_that_is_not_json_rpc_fails_a_stdio_server_only() {
        let clean = Seen {
            stdio: true,
            ..Seen::default()
        };
        assert_eq!(stdout_only_json_rpc(&clean).status, Status::Pass);
        let banner = Seen {
            non_json_lines: 2,
            first_non_json: Some("Server started".into()),
            stdio: true,
        };
        let failed = stdout_only_json_rpc(&banner);
        assert_eq!(failed.status, Status::Fail);
        assert!(
            failed
                .said
                .contains("2 lines not JSON-RPC, the first: Server started")
        );
        let http = Seen::default();
        assert_eq!(stdout_only_json_rpc(&http).status, Status::NotApplicable);
    }
}
