//! Resource subscriptions seen from the server: a hook on each `resources/subscribe` and
//! `resources/unsubscribe`, the set of URIs some session is subscribed to, and list-changed
//! notifications sent on the server's word (for a catalog that changes outside its handles,
//! such as a template's resources).

use std::collections::BTreeSet;
use std::sync::{Arc, PoisonError};

use crate::context::ToolContext;
use crate::mcp::McpServer;
use crate::mcp::catalog::{PromptsHandle, ResourcesHandle};

/// A session's change to its resource subscriptions, as
/// [`McpServer::on_subscription`] hears it.
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

/// What a server does when a session's subscriptions change.
pub(in crate::mcp) type SubscriptionHook = Arc<dyn Fn(&ToolContext, &Subscription) + Send + Sync>;

impl McpServer {
    /// Calls `hook` with the caller (its client, claims and HTTP request) at each accepted
    /// `resources/subscribe` and each `resources/unsubscribe`, after the session's set
    /// changed: a server that polls a source only while someone watches starts and stops
    /// there, and tells subscribers with
    /// [`ResourcesHandle::updated`](crate::mcp::ResourcesHandle::updated).
    #[must_use]
    pub fn on_subscription(self, hook: impl Fn(&ToolContext, &Subscription) + Send + Sync + 'static) -> Self {
        let shared = crate::mcp::server::Shared { subscription: Some(Arc::new(hook)), ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), session: self.session }
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
