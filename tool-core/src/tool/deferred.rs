//! Deferred tools: a name, a description and a schema the model may call, with no handler.
//! An agent run hands their calls back to the application (a browser-side action, a person's
//! answer, a job on another machine), which answers them and resumes the run
//! ([`Conversation::answer`](crate::agent::Conversation::answer)). The arguments of a call are
//! checked as any tool's are before it is handed back: the application only ever reads
//! arguments its schema accepts.

use super::dynamic::DynamicTool;
use crate::error::RegistryError;
use crate::param::ToolArgs;

/// What a deferred tool answers when something other than an agent run calls it (a
/// [`Registry::call_async`](crate::Registry::call_async), an MCP client): it has no handler to run.
fn no_handler(tool: &str) -> String {
    format!("tool `{tool}` is answered by the application that defined it; it cannot run here")
}

impl DynamicTool {
    /// A deferred tool whose arguments are `A` (deriving `ToolArgs`): listed and validated as
    /// [`DynamicTool::typed`]'s, but with no handler. An agent run ends when the model calls
    /// it, the call handed back to the application through
    /// [`RunOutcome::deferred`](crate::agent::RunOutcome::deferred).
    ///
    /// Its calls never start early, and anything else that calls it (a registry call, an MCP
    /// client) is answered with a failure saying it cannot run there.
    ///
    /// # Errors
    /// [`RegistryError::InvalidName`] for a name some provider refuses.
    pub fn deferred_typed<A: ToolArgs + Send + 'static>(
        name: impl Into<String>,
        description: impl Into<String>,
    ) -> Result<Self, RegistryError> {
        let name = name.into();
        let message = no_handler(&name);
        let tool = DynamicTool::typed(name, description, move |_context, _args: A| {
            let refused: Result<(), String> = Err(message.clone());
            async move { refused }
        })?;
        Ok(tool.into_deferred())
    }

    /// A deferred tool whose arguments follow the JSON Schema `parameters`: listed and
    /// validated as [`DynamicTool::new`]'s, but with no handler (see
    /// [`DynamicTool::deferred_typed`]).
    ///
    /// # Errors
    /// As [`DynamicTool::new`].
    #[cfg(feature = "runtime-schema")]
    pub fn deferred(
        name: impl Into<String>,
        description: impl Into<String>,
        parameters: &str,
    ) -> Result<Self, RegistryError> {
        let name = name.into();
        let message = no_handler(&name);
        let tool = std::sync::Arc::<str>::from(name.as_str());
        let made = DynamicTool::new(name, description, parameters, move |_context, _arguments| {
            let refused = Err(crate::ToolError::Failed { tool: tool.to_string(), message: message.clone() });
            async move { refused }
        })?;
        Ok(made.into_deferred())
    }

    fn into_deferred(mut self) -> Self {
        self.deferred = true;
        self
    }

    /// Whether its calls are answered by the application rather than run
    /// ([`DynamicTool::deferred`]).
    #[must_use]
    pub fn is_deferred(&self) -> bool {
        self.deferred
    }
}
