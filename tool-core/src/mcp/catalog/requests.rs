//! The answers to prompt, resource and completion requests, for `handler.rs`, with what the
//! caller may see: a prompt or resource that requires scopes its token lacks is neither
//! listed nor served.

use std::sync::{Arc, PoisonError};

use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceRequestParams, ReadResourceResult, Reference,
    RequestId,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Map, Value};

use crate::context::ToolContext;
use crate::mcp::McpServer;
use crate::mcp::catalog::completion::complete;
use crate::mcp::catalog::subscribe::Subscription;
use crate::mcp::server::client::capabilities_of;
use crate::mcp::server::host::{McpHost, Outbox};
use crate::mcp::server::{ToolFilter, caller, caller_of};
use crate::registry::Entry;

impl McpServer {
    pub(in crate::mcp) fn list_prompts_for(&self, context: RequestContext<RoleServer>) -> ListPromptsResult {
        let caller = self.content_caller(context);
        let prompts = self
            .shared
            .served
            .prompts()
            .map(|prompts| prompts.list(|entry| offered(self.shared.prompt_filter.as_ref(), entry, &caller)));
        ListPromptsResult::with_all_items(prompts.unwrap_or_default())
    }

    pub(in crate::mcp) async fn get_prompt_for(
        &self,
        request: GetPromptRequestParams,
        caller: ToolContext,
    ) -> Result<GetPromptResult, ErrorData> {
        let prompts = self.shared.served.prompts().ok_or_else(|| unknown("prompt", &request.name))?;
        let entry =
            prompts.get(&request.name).filter(|entry| offered(self.shared.prompt_filter.as_ref(), entry, &caller));
        let entry = entry.ok_or_else(|| unknown("prompt", &request.name))?;
        let arguments = request.arguments.unwrap_or_default();
        prompts.run(entry, arguments, &caller).await
    }

    pub(in crate::mcp) fn list_resources_for(&self, context: RequestContext<RoleServer>) -> ListResourcesResult {
        let caller = self.content_caller(context);
        let resources = self.shared.served.resources();
        let listed = resources
            .map(|resources| resources.list(|entry| offered(self.shared.resource_filter.as_ref(), entry, &caller)));
        ListResourcesResult::with_all_items(listed.unwrap_or_default())
    }

    pub(in crate::mcp) fn list_templates_for(
        &self,
        context: RequestContext<RoleServer>,
    ) -> ListResourceTemplatesResult {
        let caller = self.content_caller(context);
        let resources = self.shared.served.resources();
        let listed = resources.map(|resources| {
            resources.templates(|entry| offered(self.shared.resource_filter.as_ref(), entry, &caller))
        });
        ListResourceTemplatesResult::with_all_items(listed.unwrap_or_default())
    }

    pub(in crate::mcp) async fn read_resource_for(
        &self,
        request: ReadResourceRequestParams,
        caller: ToolContext,
    ) -> Result<ReadResourceResult, ErrorData> {
        let resources = self.shared.served.resources().ok_or_else(|| not_found(&request.uri))?;
        let (entry, arguments) = resources
            .find(&request.uri)
            .filter(|(entry, _)| offered(self.shared.resource_filter.as_ref(), entry, &caller))
            .ok_or_else(|| not_found(&request.uri))?;
        resources.read(&request.uri, entry, arguments, &caller).await
    }

    /// Subscribes the session to `uri` (one the server serves), or unsubscribes it.
    pub(in crate::mcp) fn subscription(
        &self,
        uri: &str,
        subscribe: bool,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let peer = context.peer.clone();
        // A hook may log to the session (subscriptions exist only in sessions); without one,
        // no host is made.
        let host = self.shared.subscription.as_ref().map(|_| {
            let logging = self.logging(&context, false);
            let capabilities = capabilities_of(context.client_capabilities().as_ref());
            let outbox = Outbox::new(&peer, context.protocol_version());
            Arc::new(McpHost::new(peer.clone(), None, logging, capabilities, outbox, None))
        });
        let caller = self.content_caller(context);
        let caller = match host {
            Some(host) => caller.with_host(host),
            None => caller,
        };
        let subscriptions = &self.session.subscriptions;
        let change = if subscribe {
            let resources = self.shared.served.resources().ok_or_else(|| not_found(uri))?;
            let found =
                resources.find(uri).filter(|(entry, _)| offered(self.shared.resource_filter.as_ref(), entry, &caller));
            found.ok_or_else(|| not_found(uri))?;
            subscriptions.lock().unwrap_or_else(PoisonError::into_inner).insert(uri.to_owned());
            self.shared.served.subscribed(&peer, subscriptions);
            Subscription::Subscribed(uri.to_owned())
        } else {
            subscriptions.lock().unwrap_or_else(PoisonError::into_inner).remove(uri);
            Subscription::Unsubscribed(uri.to_owned())
        };
        if let Some(hook) = &self.shared.subscription {
            hook(&caller, &change);
        }
        Ok(())
    }

    pub(in crate::mcp) fn complete_for(
        &self,
        request: &CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let caller = self.content_caller(context);
        let arguments: Map<String, Value> = request
            .context
            .as_ref()
            .and_then(|context| context.arguments.as_ref())
            .map(|given| given.iter().map(|(name, value)| (name.clone(), Value::String(value.clone()))).collect())
            .unwrap_or_default();
        let argument = &request.argument;
        let info = match &request.r#ref {
            Reference::Prompt(reference) => {
                let prompts = self.shared.served.prompts().ok_or_else(|| unknown("prompt", &reference.name))?;
                let entry = prompts
                    .get(&reference.name)
                    .filter(|entry| offered(self.shared.prompt_filter.as_ref(), entry, &caller));
                entry.ok_or_else(|| unknown("prompt", &reference.name))?;
                let (completer, parameters) = prompts
                    .completion(&reference.name, &argument.name)
                    .ok_or_else(|| unknown("prompt", &reference.name))?;
                complete(completer, parameters, &argument.name, &argument.value, &arguments)
            }
            Reference::Resource(reference) => {
                let resources = self.shared.served.resources().ok_or_else(|| not_found(&reference.uri))?;
                let (_, completer, parameters) = resources
                    .completion(&reference.uri, &argument.name)
                    .filter(|(entry, _, _)| offered(self.shared.resource_filter.as_ref(), entry, &caller))
                    .ok_or_else(|| not_found(&reference.uri))?;
                complete(completer, parameters, &argument.name, &argument.value, &arguments)
            }
            _ => return Err(ErrorData::invalid_params("a reference this server cannot complete", None)),
        };
        Ok(CompleteResult::new(info))
    }

    /// `oauth`'s metadata document for what this server serves: its tools', prompts' and
    /// resources' scopes.
    #[cfg(feature = "oauth")]
    pub(in crate::mcp) fn oauth_metadata(&self, oauth: &crate::oauth::ResourceServer) -> Value {
        let registry = self.registry();
        let (prompts, resources) = (self.shared.served.prompts(), self.shared.served.resources());
        let served =
            prompts.iter().flat_map(|prompts| prompts.entries()).chain(resources.iter().flat_map(|r| r.entries()));
        oauth.metadata_of(registry.iter().chain(served))
    }

    /// The caller, with the tool registry's state (which prompts and resources share).
    pub(in crate::mcp) fn content_caller(&self, context: RequestContext<RoleServer>) -> ToolContext {
        let mut context = context;
        let caller = caller(&mut context).with_call_id(context.id.to_string());
        caller.with_state(Arc::clone(self.registry().state()))
    }

    /// [`McpServer::content_caller`] from a request's extensions and id.
    pub(in crate::mcp) fn content_caller_of(
        &self,
        extensions: &mut rmcp::model::Extensions,
        id: &RequestId,
    ) -> ToolContext {
        let caller = caller_of(extensions).with_call_id(id.to_string());
        caller.with_state(Arc::clone(self.registry().state()))
    }
}

/// Whether `caller` sees `entry`: its claims permit it (a caller without claims is permitted
/// everything: no OAuth, or a transport without tokens), and `filter` keeps it.
fn offered(filter: Option<&ToolFilter>, entry: &Entry, caller: &ToolContext) -> bool {
    caller.claims().is_none_or(|claims| entry.permits(claims).is_ok())
        && filter.is_none_or(|filter| filter(entry, caller))
}

/// A prompt the server does not have or hides from the caller: invalid params (-32602), as
/// the specification says.
fn unknown(what: &str, name: &str) -> ErrorData {
    ErrorData::invalid_params(format!("Unknown {what}: {name}"), None)
}

/// A resource the server does not have: -32002, with the URI.
fn not_found(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(format!("Resource not found: {uri}"), Some(serde_json::json!({ "uri": uri })))
}
