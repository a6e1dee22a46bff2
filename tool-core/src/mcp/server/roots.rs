//! The client's roots as they change: after `initialized` and at each
//! `notifications/roots/list_changed`, a server with a hook asks the client for its roots
//! (`roots/list`) and hands them to the hook. A tool asks for them itself with
//! [`ToolContext::roots`](crate::ToolContext::roots).

use std::sync::Arc;

use rmcp::{Peer, RoleServer};

use crate::context::{Client, Root};
use crate::mcp::McpServer;
use crate::mcp::server::client::client_of;
use crate::mcp::server::{Shared, wire};

impl McpServer {
    /// Calls `hook` with a client's roots once its session starts, and again each time it
    /// says they changed (`notifications/roots/list_changed`), for clients that declared
    /// roots. The hook runs on a task of its own; a client that fails to list its roots is
    /// not called about (the failure is traced).
    ///
    /// ```
    /// # #[cfg(feature = "mcp")] {
    /// use tool_core::{Registry, mcp::McpServer};
    /// let server = McpServer::new(Registry::new()).on_roots_changed(|client, roots| {
    ///     eprintln!("{} lets us see {} roots", client.name(), roots.len());
    /// });
    /// # }
    /// ```
    #[must_use]
    pub fn on_roots_changed(self, hook: impl Fn(&Client, Vec<Root>) + Send + Sync + 'static) -> Self {
        let shared = Shared { roots: Some(Arc::new(hook)), ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), session: self.session }
    }

    /// Lists `peer`'s roots for the hook, if there is one and the client has roots.
    pub(in crate::mcp) fn roots_changed(&self, peer: &Peer<RoleServer>) {
        let Some(hook) = self.shared.roots.clone() else { return };
        let Some(info) = peer.peer_info() else { return };
        let Some(client) = client_of(Some(info.client_info.clone()), Some(&info.capabilities), None) else { return };
        if !client.capabilities().roots {
            return;
        }
        let peer = peer.clone();
        // Not on the notification's task: the answer comes through the same connection.
        tokio::spawn(async move {
            #[expect(deprecated, reason = "SEP-2577 deprecates roots; 2025 clients use them")]
            match peer.list_roots().await {
                Ok(result) => hook(&client, wire::roots(result)),
                Err(error) => tracing::warn!(client = client.name(), %error, "the client did not list its roots"),
            }
        });
    }
}
