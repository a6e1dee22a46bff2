//! Prompts served beside the tools (`prompts/list`, `prompts/get`): a `#[prompt]` fn is a
//! tool definition whose arguments come from the same derive and pass the same validation,
//! and whose result is messages. MCP sends every prompt argument as a string, so a
//! [`Prompts`] collection decodes leniently (`"3"` for a `u32`), and refuses what the schema
//! refuses with -32602 naming the argument and the rule.

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{GetPromptResult, Prompt, PromptArgument};
use serde_json::{Map, Value, json};

use crate::content::Content;
use crate::context::{Role, ToolContext};
use crate::dispatch::{Arguments, DecodeOptions};
use crate::error::{RegistryError, ToolError};
use crate::mcp::catalog::completion::{Completer, Completers};
use crate::output::{IntoToolOutput, ToolOutput};
use crate::registry::RunPlace;
use crate::registry::layer::ToolLayer;
use crate::registry::{Entry, Registry};
use crate::tool::set::{IntoToolSet, ToolSet as _};
use crate::tool::{Receiver, ToolDef};

/// A prompt's definition: implemented by the type `#[prompt]` writes beside a fn
/// (`code_review` → `CodeReviewPrompt`); add it to [`Prompts`].
pub trait PromptFn {
    /// The definition: name, description, the arguments' schema and the shim that calls
    /// the fn.
    fn def(&self) -> &'static ToolDef;
}

/// One message of a prompt's result.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PromptMessage {
    /// Who says it.
    pub role: Role,
    /// What it says: text, an image, audio, an embedded resource or a resource link.
    pub content: Content,
}

impl PromptMessage {
    /// A message of `role` with `content`.
    #[must_use]
    pub fn new(role: Role, content: impl Into<Content>) -> Self {
        PromptMessage { role, content: content.into() }
    }

    /// A message from the user.
    #[must_use]
    pub fn user(content: impl Into<Content>) -> Self {
        PromptMessage::new(Role::User, content)
    }

    /// A message from the model.
    #[must_use]
    pub fn assistant(content: impl Into<Content>) -> Self {
        PromptMessage::new(Role::Assistant, content)
    }
}

/// Where a result's roles ride beside its blocks: a prompt's result goes through the tool
/// call path, whose output is blocks; a result without it is all the user's.
const ROLES: &str = "mcp.prompt.roles";

/// The messages' contents as blocks, their roles in the details.
impl IntoToolOutput for Vec<PromptMessage> {
    fn into_tool_output(self) -> Result<ToolOutput, String> {
        let roles: Vec<&str> = self.iter().map(|message| role_name(message.role)).collect();
        let details = json!({ ROLES: roles });
        Ok(ToolOutput::new(self.into_iter().map(|message| message.content)).with_details(details))
    }
}

impl IntoToolOutput for PromptMessage {
    fn into_tool_output(self) -> Result<ToolOutput, String> {
        vec![self].into_tool_output()
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Assistant => "assistant",
    }
}

/// The prompts a server offers, in the order they were added.
///
/// ```
/// # #[cfg(feature = "macros")] {
/// use tool_core::mcp::{PromptMessage, Prompts, prompt};
///
/// /// Review a piece of code
/// ///
/// /// # Arguments
/// /// * `code` - The code to review
/// #[prompt]
/// fn code_review(code: String) -> Vec<PromptMessage> {
///     vec![PromptMessage::user(format!("Review this code:\n{code}"))]
/// }
///
/// let mut prompts = Prompts::new();
/// prompts.add(CodeReviewPrompt).unwrap();
/// # }
/// ```
#[derive(Clone)]
pub struct Prompts {
    // Shared: a call holds it to its end, as the tool path does (`Registry::start_call`).
    registry: Arc<Registry>,
    completers: Completers,
}

impl Default for Prompts {
    fn default() -> Self {
        Prompts::new()
    }
}

impl core::fmt::Debug for Prompts {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.registry.iter().map(Entry::name)).finish()
    }
}

impl Prompts {
    /// No prompts.
    #[must_use]
    pub fn new() -> Self {
        // Every argument arrives as a string: `"3"` must reach a `u32` as 3.
        let registry = Arc::new(Registry::new().with_options(DecodeOptions::default().lenient(true)));
        Prompts { registry, completers: Completers::default() }
    }

    /// Adds a prompt.
    ///
    /// # Errors
    /// [`RegistryError::DuplicateName`] when a prompt of that name is there already.
    pub fn add(&mut self, prompt: impl PromptFn) -> Result<&mut Self, RegistryError> {
        Arc::make_mut(&mut self.registry).add(prompt.def())?;
        Ok(self)
    }

    /// Adds every `#[prompt]` method of a `#[tools]` block, each called on `prompts` (shared,
    /// so an `Arc<S>` the caller keeps, and also gives `Registry::add_all`, is accepted).
    ///
    /// # Errors
    /// [`RegistryError::DuplicateName`] when a prompt of that name is there already; the
    /// prompts before it stay added.
    pub fn add_all<S: IntoToolSet>(&mut self, prompts: S) -> Result<&mut Self, RegistryError> {
        let receiver: Arc<Receiver> = prompts.into_shared();
        for def in S::Set::__prompt_defs() {
            Arc::make_mut(&mut self.registry).add_method(def, Arc::clone(&receiver))?;
        }
        Ok(self)
    }

    /// Wraps every prompt's call in a tower `layer`, as [`Registry::layer`] wraps tools' (a
    /// timeout, a concurrency limit): its rejection is the prompt request's error (-32603).
    pub fn layer<L>(&mut self, layer: L) -> &mut Self
    where
        L: ToolLayer,
    {
        Arc::make_mut(&mut self.registry).layer(layer);
        self
    }

    /// Completes the value of `argument` of `prompt` with what `complete` offers for the
    /// text typed so far and the arguments already given (`completion/complete`). An
    /// argument whose type is an enum is completed from its values without this.
    pub fn complete(
        &mut self,
        prompt: &str,
        argument: &str,
        complete: impl Fn(&str, &Map<String, Value>) -> Vec<String> + Send + Sync + 'static,
    ) -> &mut Self {
        self.completers.insert(prompt, argument, Arc::new(complete));
        self
    }

    /// How many prompts there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.registry.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.registry.is_empty()
    }

    /// The listing of the prompts `visible` keeps.
    pub(in crate::mcp) fn list(&self, visible: impl Fn(&Entry) -> bool) -> Vec<Prompt> {
        self.registry.in_added_order().into_iter().filter(|entry| visible(entry)).map(listed).collect()
    }

    /// Every prompt.
    #[cfg(feature = "oauth")]
    pub(in crate::mcp) fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.registry.iter()
    }

    /// The prompt `name`, if there is one.
    pub(in crate::mcp) fn get(&self, name: &str) -> Option<&Entry> {
        self.registry.get(name)
    }

    /// The completer of `argument` of `prompt`, and the prompt's parameters.
    pub(in crate::mcp) fn completion(&self, prompt: &str, argument: &str) -> Option<(Option<&Completer>, &str)> {
        let entry = self.registry.get(prompt)?;
        Some((self.completers.get(prompt, argument), entry.parameters_json()))
    }

    /// Runs prompt `entry` with `arguments` in `context`.
    pub(in crate::mcp) async fn run(
        &self,
        entry: &Entry,
        arguments: Map<String, Value>,
        context: &ToolContext,
    ) -> Result<GetPromptResult, ErrorData> {
        let output = self
            .registry
            .start_call(entry, context.clone(), Arguments::Value(Value::Object(arguments)), RunPlace::Alone)
            .await
            .map_err(|error| failed("prompt", &error))?;
        let description = Some(entry.description()).filter(|text| !text.is_empty());
        let roles = output.details().and_then(|details| details.get(ROLES)).and_then(Value::as_array);
        let messages: Vec<Value> = output
            .content()
            .iter()
            .enumerate()
            .map(|(index, block)| {
                let role = roles.and_then(|roles| roles.get(index)).cloned().unwrap_or_else(|| json!("user"));
                json!({"role": role, "content": crate::provider::mcp_json::content_block(block)})
            })
            .collect();
        // 2026-07-28 requires the discriminator; rmcp drops it for the revisions before.
        let result = json!({"resultType": "complete", "description": description, "messages": messages});
        serde_json::from_value(result).map_err(|error| ErrorData::internal_error(error.to_string(), None))
    }
}

/// A prompt's listing: its arguments are its schema's top-level properties, in order.
fn listed(entry: &Entry) -> Prompt {
    let arguments = arguments(entry.parameters_json());
    let description = Some(entry.description().to_owned()).filter(|text| !text.is_empty());
    let mut prompt = Prompt::new(entry.name(), description, Some(arguments).filter(|a: &Vec<_>| !a.is_empty()));
    prompt.title = entry.title().map(ToOwned::to_owned);
    prompt
}

/// The arguments a parameters schema names.
fn arguments(parameters: &str) -> Vec<PromptArgument> {
    let Ok(schema) = serde_json::from_str::<Value>(parameters) else { return Vec::new() };
    let required: Vec<&str> =
        schema["required"].as_array().map(|names| names.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    let Some(properties) = schema["properties"].as_object() else { return Vec::new() };
    properties
        .iter()
        .map(|(name, property)| {
            let mut argument = PromptArgument::new(name.as_str());
            argument.description = property["description"].as_str().map(ToOwned::to_owned);
            argument.required = Some(required.contains(&name.as_str()));
            argument
        })
        .collect()
}

/// A prompt's or a resource's failure as the protocol's error: arguments the schema refuses
/// are invalid params (-32602, each violation in `data`), anything else is the server's
/// (-32603). The message names the prompt or resource, each argument and rule, or is the fn's
/// own text.
pub(in crate::mcp) fn failed(what: &str, error: &ToolError) -> ErrorData {
    match error {
        ToolError::InvalidArguments { tool, violations } => {
            let data = serde_json::to_value(violations.as_slice()).ok().map(|list| json!({ "violations": list }));
            ErrorData::invalid_params(format!("invalid arguments for {what} {tool:?}:\n{violations}"), data)
        }
        ToolError::InvalidJson { message } => ErrorData::invalid_params(message.clone(), None),
        ToolError::Failed { message, .. } => ErrorData::internal_error(message.clone(), None),
        other => ErrorData::internal_error(other.to_string(), None),
    }
}
