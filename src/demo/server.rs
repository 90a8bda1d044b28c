//! The demo server's behaviour (rmcp server side): lists the catalog for the client's era and
//! answers each tool, including progress, cancellation, stderr chatter and list changes.
// Logging is deprecated by SEP-2577 (2026-07-28), advisory only: it still works in both eras,
// and servers still log, so the demo shows it.
#![allow(deprecated)]

use super::{catalog, library, skills};
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult,
    CustomRequest, CustomResult, ErrorCode, ErrorData, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, Implementation, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, LoggingLevel, LoggingMessageNotificationParam,
    PaginatedRequestParams, ProgressNotificationParam, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, ResourceUpdatedNotificationParam, ServerCapabilities,
    ServerConfig, SetLevelRequestParams, SubscribeRequestParams, SubscriptionFilter, Tool,
    UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, RoleServer, SubscriptionContext};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

/// How the demo pages its tool list.
#[derive(Clone, Copy, Debug, Default)]
pub struct Paging {
    pub page_size: Option<usize>,
    /// Hostile: every page after the first names the same cursor.
    pub repeat_cursor: bool,
}

/// State shared by every connection to one demo server process.
#[derive(Clone)]
pub struct Demo {
    pub paging: Paging,
    extra: Arc<AtomicBool>,
    changes: broadcast::Sender<()>,
    /// How often the ticker resource has ticked.
    ticks: Arc<AtomicU64>,
    /// Ends the ticking of a legacy `resources/subscribe` to the ticker.
    ticking: Arc<std::sync::Mutex<Option<CancellationToken>>>,
    /// The least severe log level the client asked for with `logging/setLevel` (legacy era).
    log_level: Arc<std::sync::Mutex<Option<LoggingLevel>>>,
    /// Cancelled when the client closes stdin.
    pub closing: CancellationToken,
    /// Each tool's inputSchema compiled at the start, by era and name: every call is validated
    /// first.
    inputs: InputValidators,
}

/// Compiled inputSchemas by era (modern or not) and tool name.
type InputValidators = Arc<std::collections::HashMap<(bool, String), jsonschema::Validator>>;

/// Every tool's inputSchema compiled, in both eras, before the first call (the demo's own
/// schemas: the plain validator, no budgets needed).
fn input_validators() -> InputValidators {
    let mut all = std::collections::HashMap::new();
    for modern in [false, true] {
        for tool in catalog::tools(modern, true) {
            let name = tool["name"].as_str().unwrap_or_default().to_string();
            if let Ok(validator) = jsonschema::validator_for(&tool["inputSchema"]) {
                all.insert((modern, name), validator);
            }
        }
    }
    Arc::new(all)
}

impl Demo {
    pub fn new(paging: Paging) -> Demo {
        Demo {
            paging,
            extra: Arc::new(AtomicBool::new(false)),
            changes: broadcast::channel(16).0,
            log_level: Arc::default(),
            ticks: Arc::default(),
            ticking: Arc::default(),
            closing: CancellationToken::new(),
            inputs: input_validators(),
        }
    }
}

fn is_modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| v.to_string().as_str() >= "2026-07-28")
}

/// Builds a tool result from its JSON form (the demo writes results as the wire shows them).
impl Demo {
    /// Why `args` break tool `name`'s inputSchema, if they do (`None` for an unknown tool).
    fn invalid_input(
        &self,
        name: &str,
        args: &serde_json::Map<String, Value>,
        modern: bool,
    ) -> Option<String> {
        let compiled = self.inputs.get(&(modern, name.to_string()))?;
        let args = Value::Object(args.clone());
        let first = compiled.iter_errors(&args).next()?;
        let at = first.instance_path().to_string();
        let at = if at.is_empty() { "/".to_string() } else { at };
        Some(format!("invalid arguments: at {at}: {first}"))
    }
}

fn result(value: Value) -> Result<CallToolResponse, ErrorData> {
    typed::<CallToolResult>(value).map(CallToolResponse::from)
}

/// An rmcp result from its JSON form.
/// A result built as JSON, typed for rmcp. Each says `resultType: "complete"`, as a 2026-07-28
/// result must (rmcp leaves it out for a peer of an earlier version).
fn typed<T: serde::de::DeserializeOwned>(mut value: Value) -> Result<T, ErrorData> {
    if let Some(result) = value.as_object_mut() {
        result
            .entry("resultType")
            .or_insert_with(|| json!("complete"));
    }
    serde_json::from_value(value)
        .map_err(|e| ErrorData::internal_error(format!("demo built a bad result: {e}"), None))
}

fn text(s: impl Into<String>) -> Value {
    json!({"type": "text", "text": s.into()})
}

/// A structured result with its JSON text mirror, boxed for legacy clients when `box_legacy`.
fn structured(value: Value, modern: bool, box_legacy: bool) -> Result<CallToolResponse, ErrorData> {
    let sc = if box_legacy && !modern {
        json!({"result": value})
    } else {
        value.clone()
    };
    result(json!({"content": [text(value.to_string())], "structuredContent": sc, "isError": false}))
}

fn arg<'a>(args: &'a serde_json::Map<String, Value>, key: &str) -> Option<&'a Value> {
    args.get(key)
}

/// Methods rmcp reads typed: one of them handed to `on_custom_request` had params that do not
/// fit (the era-removed ones, `ping`, `initialize` and the like, are left out: in 2026-07-28
/// they are unknown methods).
const TYPED_METHODS: [&str; 8] = [
    "tools/call",
    "tools/list",
    "resources/read",
    "resources/list",
    "resources/templates/list",
    "prompts/get",
    "prompts/list",
    "completion/complete",
];

impl ServerHandler for Demo {
    /// rmcp hands a request of a method it knows here when its params do not fit the method's
    /// type: JSON-RPC names that -32602 (invalid params), where rmcp's default says -32601.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let method = request.method;
        if TYPED_METHODS.contains(&method.as_str()) {
            return Err(ErrorData::invalid_params(
                format!("the params of {method} do not fit its schema"),
                None,
            ));
        }
        Err(ErrorData::new(ErrorCode::METHOD_NOT_FOUND, method, None))
    }

    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_prompts()
            .enable_completions()
            .enable_logging()
            .build();
        let mut capabilities = capabilities;
        capabilities.extensions = Some(
            [(crate::skills::EXTENSION.to_string(), serde_json::Map::new())]
                .into_iter()
                .collect(),
        );
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("mcp-inspect-demo", env!("CARGO_PKG_VERSION")))
            .with_instructions("The built-in demo server of mcp-inspect: every tool shows something an inspector must handle.")
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        typed(json!({"resources": library::resources()}))
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        typed(json!({"resourceTemplates": library::templates()}))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri == library::TICKER {
            let ticks = self.ticks.load(Ordering::Relaxed);
            return typed::<ReadResourceResult>(library::ticker(ticks)).map(Into::into);
        }
        match library::read(&request.uri).or_else(|| skills::read(&request.uri)) {
            Some(contents) => typed::<ReadResourceResult>(contents).map(Into::into),
            // SEP-2164: the URI asked for goes in the error's data.
            None => Err(ErrorData::resource_not_found(
                format!("no resource {}", request.uri),
                Some(json!({"uri": request.uri})),
            )),
        }
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        typed(json!({"prompts": library::prompts()}))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let args = request.arguments.clone().unwrap_or_default();
        if request.name == "review_code" && !args.contains_key("code") {
            return Err(ErrorData::invalid_params("`code` is required", None));
        }
        match library::prompt(&request.name, &args) {
            Some(prompt) => typed::<GetPromptResult>(prompt).map(Into::into),
            None => Err(ErrorData::invalid_params(
                format!("no prompt {}", request.name),
                None,
            )),
        }
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let values = library::complete(&request.argument.name, &request.argument.value);
        typed(json!({"completion": {"values": values, "total": values.len(), "hasMore": false}}))
    }

    /// The skills extension (SEP-2640): one skill, listed and got with its digests.
    async fn list_skills(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListSkillsResult, ErrorData> {
        typed(skills::listed())
    }

    async fn get_skill(
        &self,
        request: rmcp::model::GetSkillRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetSkillResult, ErrorData> {
        match skills::got(&request.uri) {
            Some(result) => typed(result),
            None => Err(ErrorData::invalid_params(
                format!("no skill {}", request.uri),
                None,
            )),
        }
    }

    async fn list_tools(
        &self,
        params: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut tools = catalog::tools(is_modern(&context), self.extra.load(Ordering::Relaxed))
            .into_iter()
            .map(serde_json::from_value::<Tool>)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ErrorData::internal_error(format!("demo catalog: {e}"), None))?;
        let cursor = params.and_then(|p| p.cursor);
        let Some(size) = self.paging.page_size.filter(|s| *s > 0) else {
            // No page was handed out, so no cursor is one of ours.
            return match cursor {
                Some(c) => Err(ErrorData::invalid_params(format!("bad cursor {c}"), None)),
                None => Ok(ListToolsResult::with_all_items(tools)),
            };
        };
        // The cursor is the index of the page's first tool.
        let start = match cursor {
            None => 0,
            Some(c) => c
                .parse::<usize>()
                .map_err(|_| ErrorData::invalid_params(format!("bad cursor {c}"), None))?,
        };
        let total = tools.len();
        let end = (start + size).min(total);
        let page: Vec<Tool> = tools.drain(start.min(end)..end).collect();
        let mut result = ListToolsResult::with_all_items(page);
        result.next_cursor = match (end < total, self.paging.repeat_cursor) {
            (_, true) => Some(size.to_string()),
            (true, false) => Some(end.to_string()),
            (false, false) => None,
        };
        Ok(result)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let modern = is_modern(&context);
        let args = request.arguments.clone().unwrap_or_default();
        eprintln!(
            "demo: call {} {}",
            request.name,
            Value::Object(args.clone())
        );
        // Servers MUST validate tool inputs; the 2025-11-25 spec answers a bad one with a tool
        // error the model can read and correct.
        if let Some(problem) = self.invalid_input(&request.name, &args, modern) {
            return result(json!({"content": [text(problem)], "isError": true}));
        }
        if let Some(answer) = plain_tool(&request.name, &args, modern) {
            return answer;
        }
        match request.name.as_ref() {
            "slow" => self.slow(&args, &context).await,
            "toggle_extra" => {
                let now = !self.extra.fetch_xor(true, Ordering::Relaxed);
                let _ = self.changes.send(());
                if !modern {
                    let _ = context.peer.notify_tool_list_changed().await;
                }
                result(
                    json!({"content": [text(if now { "extra added" } else { "extra removed" })]}),
                )
            }
            "extra" if self.extra.load(Ordering::Relaxed) => {
                result(json!({"content": [text("here I am")]}))
            }
            other => Err(ErrorData::invalid_params(
                format!("unknown tool: {other}"),
                None,
            )),
        }
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        eprintln!("demo: log level {:?}", request.level);
        if let Ok(mut level) = self.log_level.lock() {
            *level = Some(request.level);
        }
        Ok(())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        eprintln!("demo: subscribe {}", request.uri);
        if request.uri != library::TICKER {
            // The other resources never change: nothing will ever be said of them.
            return match library::read(&request.uri) {
                Some(_) => Ok(()),
                None => Err(ErrorData::resource_not_found(
                    format!("no resource {}", request.uri),
                    Some(json!({"uri": request.uri})),
                )),
            };
        }
        let stop = CancellationToken::new();
        if let Ok(mut ticking) = self.ticking.lock()
            && let Some(old) = ticking.replace(stop.clone())
        {
            old.cancel();
        }
        let (demo, peer) = (self.clone(), context.peer);
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    () = stop.cancelled() => return,
                    () = demo.closing.cancelled() => return,
                    () = demo.tick() => {}
                }
                let updated = ResourceUpdatedNotificationParam::new(library::TICKER);
                if peer.notify_resource_updated(updated).await.is_err() {
                    return;
                }
            }
        });
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        eprintln!("demo: unsubscribe {}", request.uri);
        if request.uri == library::TICKER
            && let Ok(mut ticking) = self.ticking.lock()
            && let Some(stop) = ticking.take()
        {
            stop.cancel();
        }
        Ok(())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = SubscriptionFilter::builder().tools_list_changed().build();
        // Of the resources asked for, those the demo has.
        accepted.resource_subscriptions = requested.resource_subscriptions.as_ref().map(|uris| {
            uris.iter()
                .filter(|u| *u == library::TICKER || library::read(u).is_some())
                .cloned()
                .collect()
        });
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let mut changes = self.changes.subscribe();
        let ticker = context
            .accepted()
            .resource_subscriptions
            .as_ref()
            .is_some_and(|uris| uris.iter().any(|u| u == library::TICKER));
        loop {
            tokio::select! {
                () = context.cancelled() => return Ok(()),
                () = self.tick(), if ticker => {
                    let _ = context.sink().notify_resource_updated(library::TICKER).await;
                }
                // rmcp does not end a subscription when stdin closes, and an open one keeps the
                // process alive: the stdio pump says when the client has gone.
                () = self.closing.cancelled() => return Ok(()),
                change = changes.recv() => match change {
                    Ok(()) | Err(broadcast::error::RecvError::Lagged(_)) => {
                        let _ = context.sink().notify_tool_list_changed().await;
                    }
                    Err(broadcast::error::RecvError::Closed) => return Ok(()),
                },
            }
        }
    }
}

/// The eight log levels, least severe first.
const LEVELS: [LoggingLevel; 8] = [
    LoggingLevel::Debug,
    LoggingLevel::Info,
    LoggingLevel::Notice,
    LoggingLevel::Warning,
    LoggingLevel::Error,
    LoggingLevel::Critical,
    LoggingLevel::Alert,
    LoggingLevel::Emergency,
];

impl Demo {
    /// Waits a second, then ticks the ticker resource.
    async fn tick(&self) {
        tokio::time::sleep(Duration::from_secs(1)).await;
        self.ticks.fetch_add(1, Ordering::Relaxed);
    }

    /// Whether a log at `level` goes out: at or above the level the request carries (2026
    /// era) or the client set (legacy); everything when none was asked for.
    fn logs_at(&self, level: LoggingLevel, context: &RequestContext<RoleServer>) -> bool {
        let asked = context
            .meta
            .log_level()
            .or_else(|| self.log_level.lock().ok().and_then(|l| *l));
        let rank = |l: LoggingLevel| LEVELS.iter().position(|x| *x == l).unwrap_or(0);
        asked.is_none_or(|asked| rank(level) >= rank(asked))
    }

    async fn slow(
        &self,
        args: &serde_json::Map<String, Value>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let seconds = arg(args, "seconds")
            .and_then(Value::as_f64)
            .unwrap_or(5.0)
            .clamp(0.0, 120.0);
        let steps = arg(args, "steps")
            .and_then(Value::as_u64)
            .unwrap_or(10)
            .clamp(1, 1000);
        let pause = Duration::from_secs_f64(seconds / steps as f64);
        let token = context.meta.get_progress_token();
        for step in 1..=steps {
            tokio::select! {
                () = context.ct.cancelled() => {
                    eprintln!("demo: slow cancelled at step {step}/{steps}");
                    return Err(ErrorData::internal_error("cancelled", None));
                }
                () = tokio::time::sleep(pause) => {}
            }
            if let Some(token) = &token {
                let mut p = ProgressNotificationParam::new(token.clone(), step as f64)
                    .with_total(steps as f64);
                p.message = Some(format!("step {step} of {steps}"));
                let _ = context.peer.notify_progress(p).await;
            }
            let level = LEVELS[(step as usize - 1) % LEVELS.len()];
            if self.logs_at(level, context) {
                let log = LoggingMessageNotificationParam::new(
                    level,
                    json!(format!("step {step} of {steps}")),
                )
                .with_logger("slow");
                let _ = context.peer.notify_logging_message(log).await;
            }
        }
        result(json!({"content": [text(format!("finished {steps} steps in {seconds}s"))]}))
    }
}

fn search(args: &serde_json::Map<String, Value>) -> Result<CallToolResponse, ErrorData> {
    let query = arg(args, "query")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_lowercase();
    let limit = arg(args, "limit").and_then(Value::as_u64).unwrap_or(10) as usize;
    let corpus = [
        ("Model Context Protocol", "https://modelcontextprotocol.io"),
        (
            "JSON Schema 2020-12",
            "https://json-schema.org/draft/2020-12",
        ),
        ("Ratatui", "https://ratatui.rs"),
    ];
    let results: Vec<Value> = corpus
        .iter()
        .filter(|(title, _)| query.split_whitespace().any(|w| title.to_lowercase().contains(w)))
        .take(limit)
        .enumerate()
        .map(|(i, (title, url))| json!({"title": title, "score": 1.0 / (i as f64 + 1.0), "url": url}))
        .collect();
    let out = json!({"results": results, "total": results.len()});
    // A link to one of the demo's resources, as servers point at what they hold.
    let link = json!({"type": "resource_link", "uri": "demo://readme", "name": "readme",
        "mimeType": "text/markdown", "description": "About the demo and its corpus"});
    result(json!({"content": [text(out.to_string()), link], "structuredContent": out}))
}

fn tree(name: &str, depth: u64) -> Value {
    let children: Vec<Value> = if depth == 0 {
        vec![]
    } else {
        (1..=2)
            .map(|i| tree(&format!("{name}.{i}"), depth - 1))
            .collect()
    };
    json!({"name": name, "children": children})
}

fn primes(count: usize) -> Vec<u64> {
    let mut found = Vec::with_capacity(count);
    let mut n = 2u64;
    while found.len() < count {
        if found
            .iter()
            .take_while(|p| *p * *p <= n)
            .all(|p| !n.is_multiple_of(*p))
        {
            found.push(n);
        }
        n += 1;
    }
    found
}

/// The demo's tools that need nothing but their arguments; `None` for the others.
fn plain_tool(
    name: &str,
    args: &serde_json::Map<String, Value>,
    modern: bool,
) -> Option<Result<CallToolResponse, ErrorData>> {
    Some(match name {
        "echo" => result(
            json!({"content": [text(arg(args, "message").and_then(Value::as_str).unwrap_or_default())]}),
        ),
        "search" => search(args),
        "configure" => result(
            json!({"content": [text("applied")], "structuredContent": {"applied": true, "summary": format!("{} keys", args.len())}}),
        ),
        "build_tree" => {
            let depth = arg(args, "depth")
                .and_then(Value::as_u64)
                .unwrap_or(2)
                .min(5);
            let tree = tree("root", depth);
            result(json!({"content": [text(tree.to_string())], "structuredContent": tree}))
        }
        "lookup_user" => {
            let id = arg(args, "id")
                .and_then(Value::as_str)
                .unwrap_or("00000000-0000-4000-8000-000000000000");
            let user = json!({"user": {"id": id, "email": "ada@example.com", "role": "admin",
                "manager": {"id": "11111111-1111-4111-8111-111111111111", "email": "grace@example.com", "role": "member", "manager": null}}});
            result(json!({"content": [text(user.to_string())], "structuredContent": user}))
        }
        "word_count" => {
            let count = arg(args, "text")
                .and_then(Value::as_str)
                .map(|t| t.split_whitespace().count())
                .unwrap_or(0);
            result(
                json!({"content": [text(count.to_string())], "structuredContent": {"count": count}}),
            )
        }
        "bad_output" => result(
            json!({"content": [text("look closely")], "structuredContent": {"count": -3, "status": "unknown", "items": ["a", 2]}}),
        ),
        "dangling_ref" => result(json!({"content": [], "structuredContent": {"value": 1}})),
        "fail" => {
            let reason = arg(args, "reason")
                .and_then(Value::as_str)
                .unwrap_or("the demo says no");
            result(
                json!({"content": [text(format!("the operation failed: {reason}"))], "isError": true}),
            )
        }
        "delete_everything" => {
            result(json!({"content": [text("nothing was deleted: this is a demo")]}))
        }
        _ => return boxing_tool(name, args, modern),
    })
}

/// The demo's tools whose results a server boxes (`{"result": x}`) or gives as scalars.
fn boxing_tool(
    name: &str,
    args: &serde_json::Map<String, Value>,
    modern: bool,
) -> Option<Result<CallToolResponse, ErrorData>> {
    Some(match name {
        "add" => {
            let sum = ["a", "b"]
                .iter()
                .filter_map(|k| arg(args, k).and_then(Value::as_i64))
                .fold(0i64, i64::saturating_add);
            result(
                json!({"content": [text(sum.to_string())], "structuredContent": {"result": sum}, "_meta": {"fastmcp": {"wrap_result": true}}}),
            )
        }
        "is_even" => {
            let even = arg(args, "n")
                .and_then(Value::as_i64)
                .is_some_and(|n| n % 2 == 0);
            result(
                json!({"content": [text(even.to_string())], "structuredContent": {"result": even}}),
            )
        }
        "primes" => {
            let count = arg(args, "count")
                .and_then(Value::as_u64)
                .unwrap_or(5)
                .min(100) as usize;
            structured(json!(primes(count)), modern, true)
        }
        "pi" => structured(json!(std::f64::consts::PI), modern, true),
        "falsy" => {
            let value = match arg(args, "kind").and_then(Value::as_str) {
                Some("false") => json!(false),
                Some("empty") => json!(""),
                Some("null") => Value::Null,
                _ => json!(0),
            };
            structured(value, modern, true)
        }
        _ => return None,
    })
}
