//! The tools a running server lists and calls, changed while it serves: a [`ToolsHandle`]
//! swaps in a new registry (copy on write, so calls in flight finish with the one they
//! started with), hides and shows tools, and tells every connected client with
//! `notifications/tools/list_changed`.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use rmcp::RoleServer;
use rmcp::model::Tool;
use rmcp::service::Peer;

use crate::mcp::server::wire;
use crate::registry::{Entry, Registry};

/// What is served now: the registry and its tool list as rmcp's model, converted once per
/// change.
#[derive(Clone)]
pub(in crate::mcp) struct Catalog {
    pub(in crate::mcp) registry: Arc<Registry>,
    /// In the order the tools were added.
    pub(in crate::mcp) tools: Arc<[Tool]>,
    /// Where each tool is in `tools`, by name.
    pub(in crate::mcp) positions: Arc<HashMap<String, usize>>,
    /// Whether some tool requires OAuth scopes (the OAuth layer then reads which tool a
    /// `tools/call` names); found once per change, not per request.
    #[cfg_attr(not(feature = "oauth"), expect(dead_code, reason = "read when listing per token (feature `oauth`)"))]
    pub(in crate::mcp) scoped: bool,
    /// Whether some tool may run as a task (the server then declares the extension).
    pub(in crate::mcp) tasks: bool,
}

impl Catalog {
    /// # Panics
    /// Never for tools a registry accepts: their MCP definitions are written from their
    /// schemas in the form rmcp reads (a `DynamicTool`'s is checked to be an object schema).
    pub(in crate::mcp) fn new(registry: Arc<Registry>) -> Catalog {
        let tools =
            wire::tools(&registry).expect("the MCP tool list written from the registry is the shape rmcp reads");
        let scoped = registry.iter().any(|entry| entry.scopes().next().is_some());
        let tasks = registry.iter().any(|entry| entry.task_support() != crate::TaskSupport::Forbidden);
        let positions =
            Arc::new(tools.iter().enumerate().map(|(index, tool)| (tool.name.to_string(), index)).collect());
        Catalog { registry, tools, positions, scoped, tasks }
    }
}

/// The catalog every session of a server shares, and the clients to tell of a change.
pub(in crate::mcp) struct Live {
    current: RwLock<Catalog>,
    /// Held through each change's read, edit and swap, so two changes at once both land.
    changing: Mutex<()>,
    disabled: Mutex<BTreeMap<String, Entry>>,
    peers: Mutex<Vec<Peer<RoleServer>>>,
}

impl Live {
    pub(in crate::mcp) fn new(registry: Registry) -> Live {
        Live {
            current: RwLock::new(Catalog::new(Arc::new(registry))),
            changing: Mutex::default(),
            disabled: Mutex::default(),
            peers: Mutex::default(),
        }
    }

    /// What is served now (two `Arc` clones).
    pub(in crate::mcp) fn current(&self) -> Catalog {
        self.current.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Remembers a client to tell of changes (a session that finished `initialize`).
    pub(in crate::mcp) fn connected(&self, peer: Peer<RoleServer>) {
        let mut peers = self.peers.lock().unwrap_or_else(PoisonError::into_inner);
        peers.retain(|peer| !peer.is_transport_closed());
        peers.push(peer);
    }

    /// Applies `change` to a copy of the registry served and serves the copy; whether to
    /// tell the clients is `change`'s second answer.
    fn change<R>(&self, change: impl FnOnce(&mut Registry) -> (R, bool)) -> (R, bool) {
        let _changing = self.changing.lock().unwrap_or_else(PoisonError::into_inner);
        let mut registry = Registry::clone(&self.current().registry);
        let (result, changed) = change(&mut registry);
        if changed {
            let catalog = Catalog::new(Arc::new(registry));
            *self.current.write().unwrap_or_else(PoisonError::into_inner) = catalog;
        }
        (result, changed)
    }

    /// The clients connected now; forgets the ones gone.
    pub(in crate::mcp) fn peers(&self) -> Vec<Peer<RoleServer>> {
        let mut peers = self.peers.lock().unwrap_or_else(PoisonError::into_inner);
        peers.retain(|peer| !peer.is_transport_closed());
        peers.clone()
    }

    /// Tells every connected client that the list changed.
    async fn notify(&self) {
        for peer in self.peers() {
            // A client that left meanwhile is no error of the change.
            let _ = peer.notify_tool_list_changed().await;
        }
    }
}

/// Changes a running [`McpServer`](crate::mcp::McpServer)'s tools: every session sees the change
/// at its next request, and each connected client is sent `notifications/tools/list_changed`
/// (the server declares `tools.listChanged`). Get one with
/// [`McpServer::tools_handle`](crate::mcp::McpServer::tools_handle); clones change the same server.
#[derive(Clone)]
pub struct ToolsHandle {
    pub(in crate::mcp) live: Arc<Live>,
}

impl core::fmt::Debug for ToolsHandle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ToolsHandle").field("tools", &self.live.current().tools.len()).finish_non_exhaustive()
    }
}

impl ToolsHandle {
    /// The registry served now.
    #[must_use]
    pub fn registry(&self) -> Arc<Registry> {
        self.live.current().registry
    }

    /// Changes the registry (add, remove, merge: a copy of the one served), serves the result
    /// and tells the clients. Calls in flight finish with the registry they started with.
    pub async fn update<R>(&self, change: impl FnOnce(&mut Registry) -> R) -> R {
        let (result, _) = self.live.change(|registry| (change(registry), true));
        self.live.notify().await;
        result
    }

    /// Hides the tool `name` from the list and refuses its calls as unknown, until
    /// [`ToolsHandle::enable`]. `false` when no tool served has that name.
    pub async fn disable(&self, name: &str) -> bool {
        let (removed, changed) = self.live.change(|registry| {
            let removed = registry.remove(name);
            let changed = removed.is_some();
            (removed, changed)
        });
        let Some(entry) = removed else { return false };
        self.live.disabled.lock().unwrap_or_else(PoisonError::into_inner).insert(name.to_owned(), entry);
        if changed {
            self.live.notify().await;
        }
        true
    }

    /// Serves a tool [`ToolsHandle::disable`] hid. `false` when no hidden tool has that name,
    /// or a tool of that name was added meanwhile.
    pub async fn enable(&self, name: &str) -> bool {
        let Some(entry) = self.live.disabled.lock().unwrap_or_else(PoisonError::into_inner).remove(name) else {
            return false;
        };
        let (refused, restored) = self.live.change(|registry| match registry.restore(entry.clone()) {
            Ok(()) => (None, true),
            Err(_) => (Some(entry), false),
        });
        if let Some(entry) = refused {
            // A tool of that name came meanwhile: this one stays hidden, not lost.
            self.live.disabled.lock().unwrap_or_else(PoisonError::into_inner).insert(name.to_owned(), entry);
        }
        if restored {
            self.live.notify().await;
        }
        restored
    }

    /// The names of the hidden tools, sorted.
    #[must_use]
    pub fn disabled(&self) -> Vec<String> {
        self.live.disabled.lock().unwrap_or_else(PoisonError::into_inner).keys().cloned().collect()
    }
}
