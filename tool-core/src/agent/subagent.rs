//! An agent as a tool of another ([`Agent::into_tool`]): its own model, tools and limits, its
//! input a derived type, its answer the tool's result, its events relayed to the parent
//! run's sink under the call that runs it, its run cancelled with that call.

use std::sync::Arc;

use super::events::Event;
use super::{Agent, Conversation, EventSink, RunError};
use crate::context::ToolContext;
use crate::error::RegistryError;
use crate::param::ToolArgs;
use crate::tool::dynamic::DynamicTool;

/// The parent run of a call, as its context carries it: where its events go, and which call
/// this is.
pub(super) struct ParentRun {
    pub(super) call_id: String,
    pub(super) events: EventSink,
}

impl Agent {
    /// This agent as a tool of another, named `name` and described by `description` for the
    /// parent's model. The model calls it with an `I` (derived like tool arguments, so its
    /// schema, validation and every provider's dialect are those of any tool); `prompt`
    /// turns it into the user message of a fresh conversation, and the run's final text is
    /// the tool's result (a run error is an error result the parent's model reads).
    ///
    /// The run keeps this agent's model, tools, limits, hooks and approval. Its events go to
    /// its own sink and, wrapped in [`Event::Nested`] with the parent's call id, to the
    /// parent's; cancelling the parent's call (or run) cancels it; its spans sit under the
    /// parent's `execute_tool` span.
    ///
    /// ```
    /// # use tool_core::agent::{Agent, Api, ScriptedModel};
    /// # use tool_core::{Registry, ToolArgs};
    /// #[derive(ToolArgs)]
    /// struct Topic {
    ///     /// What to research
    ///     #[param(min_length = 1)]
    ///     topic: String,
    /// }
    /// # let model = ScriptedModel::new(Api::OpenAiChat, []);
    /// let researcher = Agent::new(model, Registry::new()).system("You research topics.");
    /// let tool = researcher.into_tool("research", "Researches a topic", |input: Topic| {
    ///     format!("Research {}", input.topic)
    /// })?;
    /// let mut tools = Registry::new();
    /// tools.add_dynamic(tool)?;
    /// # Ok::<(), tool_core::RegistryError>(())
    /// ```
    ///
    /// # Errors
    /// [`RegistryError::InvalidName`] for a name some provider refuses.
    pub fn into_tool<I>(
        self,
        name: impl Into<String>,
        description: impl Into<String>,
        prompt: impl Fn(I) -> String + Send + Sync + 'static,
    ) -> Result<DynamicTool, RegistryError>
    where
        I: ToolArgs + Send + 'static,
    {
        let agent = Arc::new(self);
        DynamicTool::typed(name, description, move |context: ToolContext, input: I| {
            let agent = Arc::clone(&agent);
            let user = prompt(input);
            async move { agent.run_as_tool(&context, &user).await }
        })
    }

    /// One run for a call of the parent's.
    async fn run_as_tool(&self, context: &ToolContext, user: &str) -> Result<String, String> {
        let mut settings = self.settings.clone();
        if let Some(parent) = context.run().and_then(|run| run.downcast_ref::<ParentRun>()) {
            let own = settings.events.take();
            let (call_id, relay) = (parent.call_id.clone(), Arc::clone(&parent.events));
            settings.events = Some(Arc::new(move |event: &Event| {
                if let Some(own) = &own {
                    own(event);
                }
                relay(&Event::Nested { call_id: call_id.clone(), event: Box::new(event.clone()) });
            }));
        }
        let cancel = context.cancellation().cloned().unwrap_or_default();
        let mut conversation = Conversation::new(self.model.api());
        match self.run_with(&settings, &mut conversation, user, &cancel, None).await {
            // No one can answer a call handed back inside a tool's run.
            Ok(outcome) if !outcome.deferred.is_empty() => {
                Err(RunError::Deferred { calls: outcome.deferred }.to_string())
            }
            Ok(outcome) => Ok(outcome.text),
            Err(error) => Err(error.to_string()),
        }
    }
}
