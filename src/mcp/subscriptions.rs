//! What the server says changed: its lists, and the resources subscribed to. In the legacy era
//! these come as plain notifications (the handler passes them on) and a resource is subscribed
//! with `resources/subscribe`. In the 2026 era they come only on a `subscriptions/listen`
//! stream whose filter names what is wanted, so a new subscription opens a new stream with the
//! resource added, and the old stream is cancelled once the new one is acknowledged.

use super::events::{EventSink, ServerEvent};
use rmcp::Peer;
use rmcp::model::{ServerNotification, SubscriptionFilter};
use rmcp::service::RoleClient;
use std::collections::BTreeSet;
use std::time::Duration;
use tokio::task::JoinHandle;

/// The resources subscribed to, and (2026 era) the stream that carries the changes.
#[derive(Default)]
pub struct Subscriptions {
    pub resources: BTreeSet<String>,
    pub stream: Option<JoinHandle<()>>,
}

impl Drop for Subscriptions {
    fn drop(&mut self) {
        if let Some(stream) = self.stream.take() {
            stream.abort();
        }
    }
}

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
