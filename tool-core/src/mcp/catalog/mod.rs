//! What a server serves beside its tools: [`Prompts`] and [`Resources`], changed while it
//! serves through a [`PromptsHandle`] or a [`ResourcesHandle`] (copy on write, as tools),
//! and each session's resource subscriptions, which a handle's
//! [`updated`](ResourcesHandle::updated) answers with `notifications/resources/updated`
//! (`subscribe.rs`: the server's hook on them, and the subscribed set).

pub(in crate::mcp) mod completion;
pub(in crate::mcp) mod dynamic;
pub(in crate::mcp) mod prompts;
pub(in crate::mcp) mod requests;
pub(in crate::mcp) mod resources;
pub(in crate::mcp) mod subscribe;
pub(in crate::mcp) mod uri_template;

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use rmcp::RoleServer;
use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::service::Peer;

use crate::mcp::catalog::prompts::Prompts;
use crate::mcp::catalog::resources::Resources;
use crate::mcp::server::tools::Live;

/// The resources one session subscribed to.
pub(in crate::mcp) type Subscriptions = Arc<Mutex<HashSet<String>>>;

/// The prompts and resources of a server (each `None` when the server offers none, so it
/// declares no capability for them), and the sessions that subscribed to resources.
#[derive(Default)]
pub(in crate::mcp) struct Served {
    prompts: RwLock<Option<Arc<Prompts>>>,
    resources: RwLock<Option<Arc<Resources>>>,
    pub(in crate::mcp) subscribers: Mutex<Vec<Subscriber>>,
}

/// A session that subscribed to some resource: where to tell it, and what it asked for.
pub(in crate::mcp) struct Subscriber {
    pub(in crate::mcp) peer: Peer<RoleServer>,
    pub(in crate::mcp) uris: Subscriptions,
}

impl Served {
    /// Serves `prompts` from now on (in place: a handle taken before sees them).
    pub(in crate::mcp) fn set_prompts(&self, prompts: Prompts) {
        *self.prompts.write().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(prompts));
    }

    /// Serves `resources` from now on (in place: a handle taken before sees them).
    pub(in crate::mcp) fn set_resources(&self, resources: Resources) {
        *self.resources.write().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(resources));
    }

    /// The prompts served now, if the server offers prompts.
    pub(in crate::mcp) fn prompts(&self) -> Option<Arc<Prompts>> {
        self.prompts.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// The resources served now, if the server offers resources.
    pub(in crate::mcp) fn resources(&self) -> Option<Arc<Resources>> {
        self.resources.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Remembers that the session of `peer`, whose subscriptions are `uris`, subscribed to
    /// something (once per session).
    pub(in crate::mcp) fn subscribed(&self, peer: &Peer<RoleServer>, uris: &Subscriptions) {
        let mut subscribers = self.subscribers.lock().unwrap_or_else(PoisonError::into_inner);
        subscribers.retain(|subscriber| !subscriber.peer.is_transport_closed());
        if !subscribers.iter().any(|subscriber| Arc::ptr_eq(&subscriber.uris, uris)) {
            subscribers.push(Subscriber { peer: peer.clone(), uris: Arc::clone(uris) });
        }
    }

    /// The sessions subscribed to `uri`.
    fn subscribers_of(&self, uri: &str) -> Vec<Peer<RoleServer>> {
        let mut subscribers = self.subscribers.lock().unwrap_or_else(PoisonError::into_inner);
        subscribers.retain(|subscriber| !subscriber.peer.is_transport_closed());
        subscribers
            .iter()
            .filter(|subscriber| subscriber.uris.lock().unwrap_or_else(PoisonError::into_inner).contains(uri))
            .map(|subscriber| subscriber.peer.clone())
            .collect()
    }
}

/// Tells subscribed clients a resource changed, and changes a running
/// [`McpServer`](crate::mcp::McpServer)'s resources: every session sees the change at its next
/// request, and each connected client is sent `notifications/resources/list_changed`. Get one
/// with [`McpServer::resources_handle`](crate::mcp::McpServer::resources_handle).
#[derive(Clone)]
pub struct ResourcesHandle {
    served: Arc<Served>,
    live: Arc<Live>,
}

impl core::fmt::Debug for ResourcesHandle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ResourcesHandle").field("resources", &self.served.resources()).finish_non_exhaustive()
    }
}

impl ResourcesHandle {
    pub(in crate::mcp) fn new(served: Arc<Served>, live: Arc<Live>) -> Self {
        ResourcesHandle { served, live }
    }

    /// Sends `notifications/resources/updated` for `uri` to every session subscribed to it;
    /// how many were told.
    pub async fn updated(&self, uri: &str) -> usize {
        let mut told = 0;
        for peer in self.served.subscribers_of(uri) {
            // A client that left meanwhile is no error of the change.
            if peer.notify_resource_updated(ResourceUpdatedNotificationParam::new(uri)).await.is_ok() {
                told += 1;
            }
        }
        told
    }

    /// Changes the resources (a copy of the ones served; none yet is an empty
    /// [`Resources`]), serves the result and tells the clients. Reads in flight finish with
    /// the resources they started with.
    pub async fn update<R>(&self, change: impl FnOnce(&mut Resources) -> R) -> R {
        let result = {
            let mut served = self.served.resources.write().unwrap_or_else(PoisonError::into_inner);
            let mut resources = served.as_deref().cloned().unwrap_or_default();
            let result = change(&mut resources);
            *served = Some(Arc::new(resources));
            result
        };
        for peer in self.live.peers() {
            let _ = peer.notify_resource_list_changed().await;
        }
        result
    }
}

/// Changes a running [`McpServer`](crate::mcp::McpServer)'s prompts: every session sees the
/// change at its next request, and each connected client is sent
/// `notifications/prompts/list_changed`. Get one with
/// [`McpServer::prompts_handle`](crate::mcp::McpServer::prompts_handle).
#[derive(Clone)]
pub struct PromptsHandle {
    served: Arc<Served>,
    live: Arc<Live>,
}

impl core::fmt::Debug for PromptsHandle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PromptsHandle").field("prompts", &self.served.prompts()).finish_non_exhaustive()
    }
}

impl PromptsHandle {
    pub(in crate::mcp) fn new(served: Arc<Served>, live: Arc<Live>) -> Self {
        PromptsHandle { served, live }
    }

    /// Changes the prompts (a copy of the ones served; none yet is an empty [`Prompts`]),
    /// serves the result and tells the clients.
    pub async fn update<R>(&self, change: impl FnOnce(&mut Prompts) -> R) -> R {
        let result = {
            let mut served = self.served.prompts.write().unwrap_or_else(PoisonError::into_inner);
            let mut prompts = served.as_deref().cloned().unwrap_or_default();
            let result = change(&mut prompts);
            *served = Some(Arc::new(prompts));
            result
        };
        for peer in self.live.peers() {
            let _ = peer.notify_prompt_list_changed().await;
        }
        result
    }
}
