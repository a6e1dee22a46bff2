//! Resource subscriptions seen from the server: a hook on each `resources/subscribe` and
//! `resources/unsubscribe`, the set of URIs some session is subscribed to, and list-changed
//! notifications sent on the server's word (for a catalog that changes outside its handles,
//! such as a template's resources).

use std::collections::BTreeSet;
use std::sync::PoisonError;

use crate::mcp::catalog::{PromptsHandle, ResourcesHandle};

/// A session's change to its resource subscriptions, as
/// [`McpServer::on_subscription`](crate::mcp::McpServer::on_subscription) hears it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Subscription {
    /// It subscribed to the resource at this URI (which the server serves).
    Subscribed(String),
    /// It unsubscribed from the resource at this URI.
    Unsubscribed(String),
}

impl Subscription {
    /// The resource's URI.
    #[must_use]
    pub fn uri(&self) -> &str {
        match self {
            Subscription::Subscribed(uri) | Subscription::Unsubscribed(uri) => uri,
        }
    }
}

impl ResourcesHandle {
    /// The URIs some connected session is subscribed to, each once, in order.
    #[must_use]
    pub fn subscribed(&self) -> Vec<String> {
        let mut subscribers = self.served.subscribers.lock().unwrap_or_else(PoisonError::into_inner);
        subscribers.retain(|subscriber| !subscriber.peer.is_transport_closed());
        let uris: BTreeSet<String> = subscribers
            .iter()
            .flat_map(|subscriber| subscriber.uris.lock().unwrap_or_else(PoisonError::into_inner).clone())
            .collect();
        uris.into_iter().collect()
    }

    /// Sends `notifications/resources/list_changed` to every connected client, the
    /// resources unchanged here (what a template lists changed at its source); how many
    /// were told. [`update`](ResourcesHandle::update) sends it itself.
    pub async fn list_changed(&self) -> usize {
        let mut told = 0;
        for peer in self.live.peers() {
            told += usize::from(peer.notify_resource_list_changed().await.is_ok());
        }
        told
    }
}

impl PromptsHandle {
    /// Sends `notifications/prompts/list_changed` to every connected client, the prompts
    /// unchanged here; how many were told. [`update`](PromptsHandle::update) sends it itself.
    pub async fn list_changed(&self) -> usize {
        let mut told = 0;
        for peer in self.live.peers() {
            told += usize::from(peer.notify_prompt_list_changed().await.is_ok());
        }
        told
    }
}
