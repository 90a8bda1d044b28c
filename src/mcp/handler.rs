//! The rmcp client handler: declares who we are and turns server notifications into
//! [`ServerEvent`]s. Every rmcp callback ends here and nowhere else.

use super::events::{EventSink, ServerEvent};
use rmcp::ClientHandler;
#[allow(deprecated)]
use rmcp::model::LoggingMessageNotificationParam;
use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, ProgressNotificationParam, ProgressToken,
    ProtocolVersion,
};
use rmcp::service::{NotificationContext, RoleClient};

pub struct Handler {
    pub events: EventSink,
    pub protocol_version: ProtocolVersion,
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
        let mut info = ClientConfig::new(
            ClientCapabilities::default(),
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

    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.events.send(ServerEvent::ToolsChanged);
    }
}
