//! A live connection to one server: connects in the era it speaks, lists every tool across
//! pages, and calls tools with timeouts, progress and cancellation. Owns the server process.

pub(crate) mod call_clock;
pub mod client_side;
pub(crate) mod connect;
pub mod error;
pub mod events;
pub(crate) mod handler;
mod handshake;
pub(crate) mod input_required;
pub mod logging;
pub mod options;
pub mod requests;
mod skills;
pub(crate) mod subscriptions;
pub(crate) mod task_extension;
pub(crate) mod tasks;

use crate::mcp::session::error::RequestError;
use crate::mcp::session::events::EventSink;
use crate::mcp::session::handler::{Handler, token_text};
use crate::mcp::surface::result::CallResult;
use crate::mcp::surface::tool::{RejectedTool, Tool, decode_next_page};
use crate::mcp::transport::raw::RawResponses;
use crate::mcp::transport::salvage;
use crate::mcp::transport::stdio::ServerProcess;
use crate::schema::Era;
use crate::untrusted;
use rmcp::Peer;
use rmcp::model::{CancelledNotificationParam, ClientRequest, CustomRequest, ServerResult};
use rmcp::service::{PeerRequestOptions, RequestHandle, RoleClient, RunningService, ServiceError};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tasks::TaskState;

/// Pages of `tools/list` followed before the listing stops as runaway.
pub const MAX_PAGES: usize = 1_000;
/// What the pages of a listing may cost together (their bytes, and [`VALUE_COST`] for each
/// value they hold) before the listing stops as runaway.
///
/// [`VALUE_COST`]: crate::mcp::transport::lines::VALUE_COST
pub const MAX_LIST_BYTES: usize = 64 * 1024 * 1024;
/// Stderr lines quoted in a connection error.
pub(super) const STDERR_IN_ERRORS: usize = 12;

/// Who the server is and how we are talking to it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerSummary {
    pub name: String,
    pub title: Option<String>,
    pub version: String,
    pub protocol_version: String,
    pub era: Era,
    pub transport: &'static str,
    pub capabilities: Value,
    pub instructions: Option<String>,
    /// What this client declared to the server (`--roots`, `--no-sampling` …).
    pub client_capabilities: Value,
    /// The roots handed to the server when it asks (`None`: roots not declared).
    pub roots: Option<Vec<String>>,
    /// What the handshake's result held beyond what is read above, as sent: `serverInfo`'s
    /// other fields (under `serverInfo`), `_meta`, and any key this client does not know.
    /// `Null` when there is nothing more.
    #[serde(skip_serializing_if = "Value::is_null")]
    pub extras: Value,
}

/// Every tool across all pages, the ones rejected, and what stopped the listing early, if anything.
#[derive(Debug, Clone, Default)]
pub struct ToolList {
    pub tools: Vec<Tool>,
    pub rejected: Vec<RejectedTool>,
    pub pages: usize,
    pub problem: Option<String>,
}

impl ToolList {
    /// Whether the server listed a tool of this name more than once: which definition a call
    /// reaches (and so whose annotations hold) is the server's secret.
    pub fn listed_twice(&self, name: &str) -> bool {
        self.rejected.iter().any(|r| {
            r.name.as_deref() == Some(name) && r.reason == crate::mcp::surface::tool::LISTED_TWICE
        })
    }

    /// `unknown tool X (known: a, b, …)`, bounded and escaped.
    pub fn unknown(&self, name: &str) -> String {
        let known: Vec<String> = (self.tools.iter().take(20))
            .map(|t| untrusted::line(&t.name, 60).into_owned())
            .collect();
        format!(
            "unknown tool `{}` (known: {})",
            untrusted::line(name, 80),
            known.join(", ")
        )
    }
}

/// Every item of a paginated list, as sent, and why the listing stopped early if it did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Listing {
    pub items: Vec<Value>,
    pub pages: usize,
    pub problem: Option<String>,
}

/// The `_meta` key that carries the log level in the 2026 era (see `logging`).
const LOG_LEVEL_META: &str = "io.modelcontextprotocol/logLevel";

/// The resources subscribed to, and (2026 era) the stream that carries the changes.
#[derive(Default)]
pub struct Subscriptions {
    pub resources: std::collections::BTreeSet<String>,
    pub stream: Option<tokio::task::JoinHandle<()>>,
}

impl Drop for Subscriptions {
    fn drop(&mut self) {
        if let Some(stream) = self.stream.take() {
            stream.abort();
        }
    }
}

pub struct Session {
    pub(super) service: RunningService<RoleClient, Handler>,
    pub(super) process: Option<ServerProcess>,
    pub(super) raw: RawResponses,
    pub server: ServerSummary,
    pub(super) timeout: Duration,
    /// A tool call's time limit in all (`--max-time`).
    pub(super) max_time: Duration,
    /// The log level asked of the server (see [`crate::mcp::session::logging`]).
    pub(super) log_level: Mutex<Option<&'static str>>,
    /// The resources subscribed to, and the `subscriptions/listen` stream of a modern
    /// connection (one change at a time: the lock is held while a stream is replaced).
    pub(super) subscriptions: tokio::sync::Mutex<Subscriptions>,
    /// Where the session's own notices go (and a 2026 stream's changes).
    pub(super) events: EventSink,
}

impl Session {
    pub fn peer(&self) -> &Peer<RoleClient> {
        self.service.peer()
    }

    /// The answers the server sent that nothing claimed (duplicates, unknown ids, late).
    pub fn unclaimed_answers(&self) -> crate::mcp::transport::raw::Unclaimed {
        self.raw.unclaimed()
    }

    /// The last lines the server wrote to stderr (stdio only).
    pub fn stderr_tail(&self, n: usize) -> Vec<String> {
        self.process
            .as_ref()
            .map(|p| p.stderr.last(n))
            .unwrap_or_default()
    }

    /// Sends a request and returns its raw result (exactly as sent, where the transport is ours).
    pub(in crate::mcp) async fn request(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> Result<Value, RequestError> {
        let handle = self
            .send(
                method,
                params.clone(),
                PeerRequestOptions::with_timeout(self.timeout),
            )
            .await?;
        let result = self.finish(handle).await?;
        self.settle(method, params.unwrap_or(Value::Null), result)
            .await
    }

    /// The final result of a request the server may answer `input_required` (SEP-2322): each
    /// round's inputs are given and the request sent again, until it completes.
    async fn settle(
        &self,
        method: &str,
        params: Value,
        mut result: Value,
    ) -> Result<Value, RequestError> {
        if !input_required::applies_to(method) {
            return Ok(result);
        }
        let mut round = 0;
        while input_required::is_input_required(&result) {
            round += 1;
            let handler = self.service.service();
            let next = input_required::next_round(handler, method, &params, &result, round).await?;
            let options =
                PeerRequestOptions::with_timeout(self.timeout).reset_timeout_on_progress();
            let handle = self.send(method, Some(next), options).await?;
            result = self.finish(handle).await?;
        }
        Ok(result)
    }

    async fn send(
        &self,
        method: &str,
        params: Option<Value>,
        mut options: PeerRequestOptions,
    ) -> Result<RequestHandle<RoleClient>, RequestError> {
        if self.server.era == Era::Modern
            && let Some(level) = self.log_level()
        {
            let mut meta = options.meta.take().unwrap_or_default();
            meta.insert(LOG_LEVEL_META.to_string(), json!(level));
            options = options.with_meta(meta);
        }
        let request = ClientRequest::CustomRequest(CustomRequest::new(method, params));
        match self.peer().send_request_with_option(request, options).await {
            Ok(handle) => Ok(handle),
            Err(e) => Err(self.settled_error(e).await),
        }
    }

    async fn finish(&self, handle: RequestHandle<RoleClient>) -> Result<Value, RequestError> {
        let id = serde_json::to_string(&handle.id).unwrap_or_default();
        let result = match handle.await_response().await {
            Ok(result) => result,
            Err(e) => return Err(self.settled_error(e).await),
        };
        self.raw_result(&id, result)
    }

    /// [`Session::request_error`], once a closed stdio server's last stderr lines are read (at
    /// most 300 ms): they say why it went.
    async fn settled_error(&self, e: ServiceError) -> RequestError {
        if matches!(
            e,
            ServiceError::TransportClosed | ServiceError::TransportSend(_)
        ) && let Some(process) = &self.process
        {
            process.stderr.settled(Duration::from_millis(300)).await;
        }
        self.request_error(e)
    }

    /// The result as the server sent it, moved out of its message (never copied: it may be
    /// megabytes); rmcp's typed one only where no transport of ours kept it.
    fn raw_result(&self, id: &str, typed: ServerResult) -> Result<Value, RequestError> {
        match self.raw.take(id) {
            Ok(Some(Value::Object(mut message))) => {
                Ok(message.remove("result").unwrap_or_default())
            }
            Ok(_) => Ok(serde_json::to_value(typed).unwrap_or(Value::Null)),
            Err(crate::mcp::transport::raw::NotKept) => Err(RequestError::Malformed(
                "the answer came after more than 64 others were waiting to be read, and was let go"
                    .into(),
            )),
        }
    }

    fn request_error(&self, e: ServiceError) -> RequestError {
        match e {
            ServiceError::McpError(err) if err.code.0 == salvage::UNREADABLE => {
                RequestError::Unreadable(untrusted::line(&err.message, 500).into_owned())
            }
            ServiceError::McpError(err) => RequestError::Server {
                code: i64::from(err.code.0),
                message: untrusted::line(&err.message, 500).into_owned(),
                data: err.data,
            },
            ServiceError::Timeout { timeout } => RequestError::Timeout(timeout),
            ServiceError::Cancelled { .. } => RequestError::Cancelled,
            ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
                RequestError::Closed(self.stderr_tail(STDERR_IN_ERRORS))
            }
            other => RequestError::Malformed(other.to_string()),
        }
    }

    /// Every tool on every page (see [`Session::pages`] for the bounds).
    pub async fn list_tools(&self) -> Result<ToolList, RequestError> {
        let mut list = ToolList::default();
        let mut names = HashSet::new();
        let (pages, problem) = self
            .pages("tools/list", "tools", |result| {
                let page =
                    decode_next_page(&result, &mut names).map_err(RequestError::Malformed)?;
                let offset = list.tools.len() + list.rejected.len();
                list.tools.extend(page.tools);
                list.rejected.extend(page.rejected.into_iter().map(|mut r| {
                    r.index += offset;
                    r
                }));
                Ok(())
            })
            .await?;
        list.pages = pages;
        list.problem = problem;
        Ok(list)
    }

    /// Every item of a paginated list (`resources/list` → `resources`, …), as sent.
    pub(in crate::mcp) async fn list_all(
        &self,
        method: &str,
        field: &str,
    ) -> Result<Listing, RequestError> {
        let mut items = Vec::new();
        let (pages, problem) = self
            .pages(method, field, |mut result| match result.get_mut(field) {
                Some(Value::Array(page)) => {
                    items.append(page);
                    Ok(())
                }
                _ => Err(RequestError::Malformed(format!(
                    "the {method} result has no `{field}` array"
                ))),
            })
            .await?;
        Ok(Listing {
            items,
            pages,
            problem,
        })
    }

    /// Requests every page of `method`, handing each result to `page`; returns the pages read
    /// and why the listing stopped early, if it did. A repeated cursor, more than
    /// [`MAX_PAGES`] pages or [`MAX_LIST_BYTES`] bytes, or a listing longer than the timeout
    /// (all pages together: it is one wait the user sees) stops it with what was found so far.
    async fn pages(
        &self,
        method: &str,
        what: &str,
        mut page: impl FnMut(Value) -> Result<(), RequestError>,
    ) -> Result<(usize, Option<String>), RequestError> {
        let mut pages = 0;
        let mut cursor: Option<String> = None;
        let mut seen = HashSet::new();
        let deadline = tokio::time::Instant::now() + self.timeout;
        let mut bytes = 0usize;
        loop {
            let params = cursor.as_ref().map(|c| json!({ "cursor": c }));
            let result = match tokio::time::timeout_at(deadline, self.request(method, params)).await
            {
                Ok(result) => result?,
                Err(_) if pages == 0 => return Err(RequestError::Timeout(self.timeout)),
                Err(_) => {
                    let problem = format!(
                        "the listing took longer than {}s ({pages} pages): stopped, the {what} so far are shown",
                        self.timeout.as_secs_f32(),
                    );
                    return Ok((pages, Some(problem)));
                }
            };
            // Charged as it costs kept: its bytes and its structure (`_meta` and unknown
            // fields included), so 1,000 pages of many tiny values stop as soon as bytes would.
            bytes += crate::mcp::session::events::json_bytes(&result)
                + crate::schema::budget::count_values(&result, usize::MAX)
                    * crate::mcp::transport::lines::VALUE_COST;
            let next = match result.get("nextCursor") {
                Some(Value::String(c)) => Some(c.clone()),
                _ => None,
            };
            page(result)?;
            pages += 1;
            let Some(next) = next else {
                return Ok((pages, None));
            };
            let problem = if !seen.insert(next.clone()) {
                format!(
                    "the server repeated the cursor `{}` after {pages} pages: listing stopped",
                    untrusted::line(&next, 80),
                )
            } else if bytes > MAX_LIST_BYTES {
                format!(
                    "more than {} MiB of {what} (bytes and structure) in {pages} pages: listing stopped",
                    MAX_LIST_BYTES >> 20,
                )
            } else if pages >= MAX_PAGES {
                format!("more than {MAX_PAGES} pages of {what}: listing stopped")
            } else {
                cursor = Some(next);
                continue;
            };
            return Ok((pages, Some(problem)));
        }
    }

    /// Starts a tool call, as a task when `as_task` (see [`tasks`]). The timeout restarts on
    /// every progress notification.
    pub async fn start_call(
        &self,
        name: &str,
        arguments: Value,
        as_task: bool,
    ) -> Result<PendingCall<'_>, RequestError> {
        self.start_call_waiting(name, arguments, as_task, self.timeout)
            .await
    }

    /// [`Session::start_call`] with its own wait for an answer (`verify --call-timeout`): a
    /// progress notification restarts it, up to the call's time limit in all (`--max-time`).
    pub async fn start_call_waiting(
        &self,
        name: &str,
        arguments: Value,
        as_task: bool,
        wait: Duration,
    ) -> Result<PendingCall<'_>, RequestError> {
        // Timed here, not by rmcp: a call is not timed out while the user answers the server
        // (see `result_or_cancel`).
        let mut options = PeerRequestOptions::default();
        let mut params = json!({"name": name, "arguments": arguments});
        if self.tasks_extension() {
            // The server decides which calls become tasks; the call only says it can follow one.
            options = self.declaring(options, task_extension::EXTENSION);
        } else if as_task {
            params["task"] = json!({});
        }
        let handle = self
            .send("tools/call", Some(params.clone()), options)
            .await?;
        let progress_token = token_text(&handle.progress_token);
        self.service.service().events.clocks.start(&progress_token);
        Ok(PendingCall {
            deadline: tokio::time::Instant::now() + self.max_time,
            wait,
            progress_token,
            request_id: serde_json::to_value(&handle.id)
                .map_or_else(|_| String::new(), |v| v.to_string()),
            session: self,
            handle,
            params,
            task: Arc::default(),
        })
    }

    /// Calls a tool (as a task when `as_task`) and waits for its result.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Value,
        as_task: bool,
    ) -> Result<CallResult, RequestError> {
        self.start_call(name, arguments, as_task)
            .await?
            .result()
            .await
    }

    /// Follows a task to its result: `tasks/get` at its poll interval, each change told as the
    /// call's progress, then `tasks/result`. A task whose status stays the same for the
    /// timeout is given up (as a call without progress is), and any task at the call's time
    /// limit (`--max-time`, in [`PendingCall::result_or_cancel`]).
    async fn follow_task(&self, mut task: TaskState, token: &str) -> Result<Value, RequestError> {
        if self.tasks_extension() {
            return self.follow_extension_task(task, token).await;
        }
        let events = &self.service.service().events;
        let mut teller = tasks::Teller::new(events, token);
        teller.tell(&task);
        let mut changed = std::time::Instant::now();
        while !task.settled() {
            self.poll_task(&mut task, &mut teller, &mut changed).await?;
        }
        let options = PeerRequestOptions::with_timeout(self.timeout).reset_timeout_on_progress();
        let handle = self
            .send("tasks/result", Some(json!({"taskId": task.id})), options)
            .await?;
        self.finish(handle).await
    }

    /// One step of following a task, in either era: its interval waited, `tasks/get` asked
    /// (declaring the extension where the server has it), a changed status told as the call's
    /// progress; a task whose status stays the same for the timeout is given up, as a call
    /// without progress is. The answer as sent.
    async fn poll_task(
        &self,
        task: &mut TaskState,
        teller: &mut tasks::Teller<'_>,
        changed: &mut std::time::Instant,
    ) -> Result<Value, RequestError> {
        if changed.elapsed() > self.timeout {
            return Err(RequestError::Timeout(self.timeout));
        }
        tokio::time::sleep(task.poll).await;
        let polled = (self.task_request("tasks/get", json!({"taskId": task.id}))).await?;
        let next = tasks::polled(&polled)?;
        if next.told() != task.told() {
            *changed = std::time::Instant::now();
        }
        *task = next;
        teller.tell(task);
        Ok(polled)
    }

    /// The round trip of the cheapest request: `ping`, or in the 2026 era (which has none)
    /// `server/discover`. Returns the time and the method used.
    pub async fn ping(&self) -> Result<(Duration, &'static str), RequestError> {
        let method = match self.server.era {
            Era::Legacy => "ping",
            Era::Modern => "server/discover",
        };
        let started = std::time::Instant::now();
        self.request(method, None).await?;
        Ok((started.elapsed(), method))
    }

    /// Whether the connection has ended (the server exited or the transport closed).
    pub fn is_closed(&self) -> bool {
        self.peer().is_transport_closed()
    }

    /// Why the connection ended, with the server's exit status and last stderr lines.
    pub fn close_reason(&mut self) -> String {
        let tail = self.stderr_tail(3);
        let mut reason = match self.process.as_mut().and_then(|p| p.exit_status()) {
            Some(status) => format!("the server exited ({status})"),
            None => "the connection closed".to_string(),
        };
        if !tail.is_empty() {
            reason.push_str(&format!("; last stderr: {}", tail.join(" | ")));
        }
        reason
    }

    /// Closes the connection: stdin first, then a short grace, then the process group is ended.
    pub async fn shutdown(self) {
        let Session {
            service,
            process,
            subscriptions,
            ..
        } = self;
        drop(subscriptions);
        let _ = tokio::time::timeout(Duration::from_millis(500), service.cancel()).await;
        if let Some(p) = process {
            p.shutdown().await;
        }
    }
}

/// A tool call in flight.
pub struct PendingCall<'s> {
    session: &'s Session,
    handle: RequestHandle<RoleClient>,
    /// The progress token our progress events carry.
    pub progress_token: String,
    /// The JSON-RPC id of the `tools/call` request, as the protocol pane shows ids.
    pub request_id: String,
    /// What was asked, for a request the server answers `input_required`.
    params: Value,
    /// The task the server made of the call, once it has (for `tasks/cancel`).
    task: Arc<Mutex<Option<String>>>,
    /// When the call is given up however much progress it reports (`--max-time`).
    deadline: tokio::time::Instant,
    /// How long the call may show no life (no progress, nobody being asked) before it times out.
    wait: Duration,
}

impl<'s> PendingCall<'s> {
    pub async fn result(self) -> Result<CallResult, RequestError> {
        self.result_or_cancel(std::future::pending()).await
    }

    /// Resolves once the call shows life after it began: a progress notification, its task's
    /// status told, or a question of the server's waiting for an answer. Never, once the call
    /// is over.
    pub fn shows_life(&self) -> impl Future<Output = ()> + Send + 's {
        let handler = self.session.service.service();
        let token = self.progress_token.clone();
        let began = handler.events.clocks.last(&token);
        async move {
            loop {
                let now = handler.events.clocks.last(&token);
                if now.is_some() && (now != began || handler.client.asking.pending()) {
                    return;
                }
                tokio::time::sleep(call_clock::LOOK_EVERY).await;
            }
        }
    }

    /// The result, through any `input_required` rounds and the task the server made of it.
    async fn outcome(self) -> Result<CallResult, RequestError> {
        let first = self.session.finish(self.handle).await?;
        let mut raw = self
            .session
            .settle("tools/call", self.params, first)
            .await?;
        if let Some(task) = TaskState::created(&raw) {
            if let Ok(mut id) = self.task.lock() {
                *id = Some(task.id.clone());
            }
            raw = self.session.follow_task(task, &self.progress_token).await?;
        }
        CallResult::check_shape(&raw).map_err(RequestError::Malformed)?;
        Ok(CallResult::decode(raw))
    }

    /// Waits for the result unless `cancel` resolves or the call's time limit passes first;
    /// then the server is told (`notifications/cancelled`, and `tasks/cancel` for a task).
    pub async fn result_or_cancel(
        self,
        cancel: impl Future<Output = ()>,
    ) -> Result<CallResult, RequestError> {
        let id = self.handle.id.clone();
        let peer = self.handle.peer.clone();
        let raw = self.session.raw.clone();
        let task = self.task.clone();
        let session = self.session;
        let deadline = self.deadline;
        let (token, wait) = (self.progress_token.clone(), self.wait);
        let clocks = session.service.service().events.clocks.clone();
        let _timed = EndsClock(&clocks, &token);
        let (reason, error) = tokio::select! {
            r = self.outcome() => return r,
            () = cancel => ("cancelled by the user", RequestError::Cancelled),
            () = silent(session, &token, wait) => ("request timeout", RequestError::Timeout(wait)),
            () = tokio::time::sleep_until(deadline) => (
                "the inspector's time limit for the call passed",
                RequestError::TooLong(session.max_time),
            ),
        };
        raw.mark_cancelled(&serde_json::to_string(&id).unwrap_or_default());
        let _ = peer
            .notify_cancelled(CancelledNotificationParam::new(
                Some(id),
                Some(reason.into()),
            ))
            .await;
        let task = task.lock().ok().and_then(|t| t.clone());
        if let Some(task) = task {
            // The task goes on unless told to stop; its answer is not waited for long.
            let cancel = session.task_request("tasks/cancel", json!({"taskId": task}));
            let _ = tokio::time::timeout(Duration::from_secs(2), cancel).await;
        }
        Err(error)
    }
}

/// Ends a call's clock however its wait ends.
struct EndsClock<'a>(&'a call_clock::CallClocks, &'a str);

impl Drop for EndsClock<'_> {
    fn drop(&mut self) {
        self.0.end(self.1);
    }
}

/// Resolves once the call with `token` has shown no life for `wait`: no progress, and nobody
/// asked anything by the server meanwhile (a question waiting for the user keeps every call
/// alive; the wait starts again once it is answered).
async fn silent(session: &Session, token: &str, wait: Duration) {
    let handler = session.service.service();
    loop {
        if handler.client.asking.pending() {
            handler.events.clocks.touch(token);
        }
        let now = tokio::time::Instant::now();
        let due = handler.events.clocks.last(token).unwrap_or(now) + wait;
        if now >= due {
            return;
        }
        tokio::time::sleep((due - now).min(call_clock::LOOK_EVERY)).await;
    }
}
