//! The rmcp client handler: declares who we are and turns server notifications into
//! [`ServerEvent`]s. Every rmcp callback ends here and nowhere else.

use crate::mcp::session::client_side::{
    Answer, ClientSide, ElicitationPolicy, SamplingPolicy, told_answer,
};
use crate::mcp::session::events::{EventSink, ServerEvent};
use rmcp::ClientHandler;
#[allow(deprecated)]
use rmcp::model::LoggingMessageNotificationParam;
use std::sync::Arc;
// Roots and sampling are deprecated by SEP-2577, but servers still ask for them and an author
// needs to see what they do when a client answers.
use rmcp::ErrorData;
#[allow(deprecated)]
use rmcp::model::{
    ClientCapabilities, ClientConfig, CreateMessageRequestParams, CreateMessageResult,
    ElicitRequestParams, ElicitResult, ErrorCode, Implementation, ListRootsResult,
    ProgressNotificationParam, ProgressToken, ProtocolVersion,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient};
use serde::Serialize;
use serde::de::DeserializeOwned;

pub struct Handler {
    pub events: EventSink,
    pub protocol_version: ProtocolVersion,
    pub client: Arc<ClientSide>,
}

impl Handler {
    /// Tells the user what the server asked and what was answered, then gives the answer in
    /// rmcp's type. A capability not declared is answered "method not found".
    fn answer<T: DeserializeOwned>(
        &self,
        method: &str,
        declared: bool,
        answer: impl FnOnce() -> Answer,
    ) -> Result<T, ErrorData> {
        if !declared {
            self.events.send(ServerEvent::Request(format!(
                "{method}: not declared by this client, answered method not found"
            )));
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                method.to_string(),
                None,
            ));
        }
        let Answer { result, told } = answer();
        self.events.send(ServerEvent::Request(told));
        let refused = |message: String| ErrorData::new(ErrorCode(-1), message, None);
        let value = result.map_err(refused)?;
        serde_json::from_value(value)
            .map_err(|e| refused(format!("the answer is not a valid {method} result: {e}")))
    }
}

/// How long a request put to the user waits for an answer: a person may be away, but a request
/// must not wait for ever (the server has its own timeout too).
const ASK_LIMIT: std::time::Duration = std::time::Duration::from_secs(600);

impl Handler {
    /// Answers a request the user answers (`ask`, the TUI's panel) or a policy does.
    async fn ask_or_answer<T: DeserializeOwned>(
        &self,
        method: &str,
        declared: bool,
        ask: bool,
        params: serde_json::Value,
        policy: impl FnOnce(&serde_json::Value) -> Answer,
    ) -> Result<T, ErrorData> {
        let asked = match ask {
            true => Some(self.ask(method, params.clone()).await),
            false => None,
        };
        self.answer(method, declared, || {
            asked.unwrap_or_else(|| policy(&params))
        })
    }

    /// Puts a request to the user (the TUI's panel) and waits for the answer.
    async fn ask(&self, method: &str, params: serde_json::Value) -> Answer {
        let (id, answered) = self.client.asking.open();
        let asked = ServerEvent::Asked {
            id,
            method: method.to_string(),
            params,
        };
        let result = if !self.events.send_control(asked) {
            Err(format!(
                "{} requests already wait for the user",
                crate::mcp::session::events::CONTROL_BUFFER
            ))
        } else {
            match tokio::time::timeout(ASK_LIMIT, answered).await {
                Ok(Ok(result)) => result,
                Ok(Err(_)) => Err("the inspector closed before anyone answered".into()),
                Err(_) => Err(format!(
                    "nobody answered within {} minutes",
                    ASK_LIMIT.as_secs() / 60
                )),
            }
        };
        // No longer waiting, whatever ended it.
        self.client.asking.answer(id, Err(String::new()));
        Answer {
            told: format!("{method}: {}", told_answer(&result)),
            result,
        }
    }
}

impl Handler {
    /// Answers one request of an `input_required` result (SEP-2322) the way the same request
    /// from the server is answered: the policies, the panel, the log line.
    pub async fn fulfil(
        &self,
        method: &str,
        params: serde_json::Value,
    ) -> Result<serde_json::Value, String> {
        let client = &self.client;
        let answered = match method {
            "roots/list" => {
                self.answer("roots/list", client.roots.is_some(), || client.list_roots())
            }
            "sampling/createMessage" => {
                let ask = matches!(client.sampling, Some(SamplingPolicy::Ask));
                self.ask_or_answer(method, client.sampling.is_some(), ask, params, |p| {
                    client.sample(p)
                })
                .await
            }
            "elicitation/create" => {
                let ask = matches!(client.elicitation, Some(ElicitationPolicy::Ask));
                self.ask_or_answer(method, client.elicitation.is_some(), ask, params, |p| {
                    client.elicit(p)
                })
                .await
            }
            other => {
                return Err(format!(
                    "`{}` cannot be asked for this way",
                    crate::untrusted::line(other, 60)
                ));
            }
        };
        answered.map_err(|e| e.message.to_string())
    }
}

/// Request params as JSON, for the policies (which never see rmcp types).
fn as_json(params: &impl Serialize) -> serde_json::Value {
    serde_json::to_value(params).unwrap_or_default()
}

/// A progress token as a plain string, so events and requests compare without rmcp types.
pub fn token_text(token: &ProgressToken) -> String {
    match serde_json::to_value(token) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

// `notifications/message` is deprecated by SEP-2577, but servers still send it and a user
// debugging one needs to see it.
#[allow(deprecated)]
impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        let capabilities: ClientCapabilities =
            serde_json::from_value(self.client.capabilities()).unwrap_or_default();
        let mut info = ClientConfig::new(
            capabilities,
            Implementation::new("mcp-inspect", env!("CARGO_PKG_VERSION")),
        );
        info.protocol_version = self.protocol_version.clone();
        info
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.events.send(ServerEvent::Progress {
            token: token_text(&params.progress_token),
            progress: params.progress,
            total: params.total,
            message: params.message,
        });
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        let level = serde_json::to_value(params.level)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_else(|| "info".into());
        self.events.send(ServerEvent::Log {
            level,
            logger: params.logger,
            data: params.data,
        });
    }

    async fn list_roots(
        &self,
        _: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        let client = &self.client;
        self.answer("roots/list", client.roots.is_some(), || client.list_roots())
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let client = &self.client;
        let ask = matches!(client.sampling, Some(SamplingPolicy::Ask));
        let declared = client.sampling.is_some();
        self.ask_or_answer(
            "sampling/createMessage",
            declared,
            ask,
            as_json(&params),
            |p| client.sample(p),
        )
        .await
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let client = &self.client;
        let ask = matches!(client.elicitation, Some(ElicitationPolicy::Ask));
        let declared = client.elicitation.is_some();
        self.ask_or_answer(
            "elicitation/create",
            declared,
            ask,
            as_json(&request),
            |p| client.elicit(p),
        )
        .await
    }

    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.events.send(ServerEvent::ToolsChanged);
    }

    async fn on_resource_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.events.send(ServerEvent::LibraryChanged);
    }

    async fn on_resource_updated(
        &self,
        params: rmcp::model::ResourceUpdatedNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.events.send(ServerEvent::ResourceUpdated(params.uri));
    }

    async fn on_prompt_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.events.send(ServerEvent::LibraryChanged);
    }
}
