//! What the server says changed: its lists, and the resources subscribed to. In the legacy era
//! these come as plain notifications (the handler passes them on) and a resource is subscribed
//! with `resources/subscribe`. In the 2026 era they come only on a `subscriptions/listen`
//! stream whose filter names what is wanted, so a new subscription opens a new stream with the
//! resource added, and the old stream is cancelled once the new one is acknowledged.

use crate::mcp::session::Session;
use crate::mcp::session::error::RequestError;
use crate::mcp::session::events::{EventSink, ServerEvent};
use crate::schema::Era;
use crate::untrusted;
use rmcp::Peer;
use rmcp::model::{ServerNotification, SubscriptionFilter};
use rmcp::service::RoleClient;
use serde_json::json;
use std::collections::BTreeSet;
use std::time::Duration;
use tokio::task::JoinHandle;

/// Opens a `subscriptions/listen` stream for every list change and for `resources`, and
/// passes what comes on it to `events`. Returns the task and the filter the server accepted,
/// or why it could not be opened within `within`.
pub async fn listen(
    peer: &Peer<RoleClient>,
    events: &EventSink,
    resources: &BTreeSet<String>,
    within: Duration,
) -> Result<(JoinHandle<()>, SubscriptionFilter), String> {
    let mut filter = SubscriptionFilter::builder()
        .tools_list_changed()
        .prompts_list_changed()
        .resources_list_changed()
        .build();
    if !resources.is_empty() {
        filter.resource_subscriptions = Some(resources.iter().cloned().collect());
    }
    let mut subscription = match tokio::time::timeout(within, peer.listen(filter)).await {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => return Err(e.to_string()),
        Err(_) => return Err("no acknowledgment within the timeout".into()),
    };
    let accepted = subscription.acknowledged().clone();
    let events = events.clone();
    let task = tokio::spawn(async move {
        while let Ok(Some(notification)) = subscription.next().await {
            match notification {
                ServerNotification::ToolListChangedNotification(_) => {
                    events.send(ServerEvent::ToolsChanged);
                }
                ServerNotification::PromptListChangedNotification(_)
                | ServerNotification::ResourceListChangedNotification(_) => {
                    events.send(ServerEvent::LibraryChanged);
                }
                ServerNotification::ResourceUpdatedNotification(update) => {
                    events.send(ServerEvent::ResourceUpdated(update.params.uri));
                }
                _ => {}
            }
        }
    });
    Ok((task, accepted))
}

impl Session {
    /// Subscribes to `uri` (`on`) or ends the subscription: `resources/subscribe` and
    /// `resources/unsubscribe` in the legacy era; in the 2026 era a new `subscriptions/listen`
    /// stream with the resource added or left out, which the server must acknowledge.
    pub async fn subscribe(&self, uri: &str, on: bool) -> Result<(), RequestError> {
        let mut state = self.subscriptions.lock().await;
        let mut wanted = state.resources.clone();
        if on {
            wanted.insert(uri.to_string());
        } else {
            wanted.remove(uri);
        }
        match self.server.era {
            Era::Legacy => {
                let method = if on {
                    "resources/subscribe"
                } else {
                    "resources/unsubscribe"
                };
                self.request(method, Some(json!({"uri": uri}))).await?;
            }
            Era::Modern => {
                let within = self.timeout;
                let (stream, accepted) = listen(self.peer(), &self.events, &wanted, within)
                    .await
                    .map_err(|why| {
                    RequestError::Refused(format!("subscriptions/listen failed: {why}"))
                })?;
                let taken = accepted
                    .resource_subscriptions
                    .as_ref()
                    .is_some_and(|uris| uris.iter().any(|u| u == uri));
                if on && !taken {
                    stream.abort();
                    return Err(RequestError::Refused(format!(
                        "the server's acknowledgment leaves out {}: it does not take the subscription",
                        untrusted::line(uri, 200)
                    )));
                }
                if let Some(old) = state.stream.replace(stream) {
                    old.abort();
                }
            }
        }
        state.resources = wanted;
        Ok(())
    }
}
