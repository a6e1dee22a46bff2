//! The [`Client`] of a request, read from what rmcp knows of it: `_meta` from 2026-07-28,
//! the session's `initialize` before.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ClientCapabilities as Declared, Implementation, ProtocolVersion};
use rmcp::service::RequestContext;

use crate::context::{Client, ClientCapabilities};

/// The client of `context`'s request, when it named itself.
pub(in crate::mcp) fn client(context: &RequestContext<RoleServer>) -> Option<Arc<Client>> {
    client_of(context.client_info(), context.client_capabilities().as_ref(), context.protocol_version())
}

/// The client from its parts, when it named itself.
pub(in crate::mcp) fn client_of(
    info: Option<Implementation>,
    declared: Option<&Declared>,
    version: Option<ProtocolVersion>,
) -> Option<Arc<Client>> {
    let info = info?;
    let mut client = Client::new(info.name, info.version).with_capabilities(capabilities_of(declared));
    if let Some(title) = info.title {
        client = client.with_title(title);
    }
    if let Some(version) = version {
        client = client.with_protocol_version(version.as_str());
    }
    Some(Arc::new(client))
}

/// What a client may be asked, from what it declared. An empty `elicitation` object is form
/// mode (2025-06-18 had no other); `url` alone is URL mode only.
pub(in crate::mcp) fn capabilities_of(declared: Option<&Declared>) -> ClientCapabilities {
    let mut capabilities = ClientCapabilities::default();
    let Some(declared) = declared else { return capabilities };
    capabilities.sampling = declared.sampling.is_some();
    if let Some(elicitation) = &declared.elicitation {
        capabilities.elicitation = elicitation.form.is_some() || elicitation.url.is_none();
        capabilities.url_elicitation = elicitation.url.is_some();
    }
    if let Some(roots) = &declared.roots {
        capabilities.roots = true;
        capabilities.roots_list_changed = roots.list_changed == Some(true);
    }
    capabilities.tasks = declared.supports_tasks();
    // 2025-11-25's `tasks`, which rmcp does not model, is kept beside (`transport/kept.rs`).
    let requests = declared.experimental.as_ref().and_then(|kept| kept.get(crate::mcp::transport::kept::CLIENT_TASKS));
    let requests = requests.and_then(|tasks| tasks.get("requests"));
    let asks_for =
        |kind: &str, method: &str| requests.and_then(|r| r.get(kind)).is_some_and(|k| k.get(method).is_some());
    capabilities.sampling_as_task = asks_for("sampling", "createMessage");
    capabilities.elicitation_as_task = asks_for("elicitation", "create");
    capabilities
}
