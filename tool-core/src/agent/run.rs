//! Running an [`Agent`]: a run's entry points, its span, and the tools each round offers;
//! the rounds themselves are [`rounds`](super::rounds)'.

use std::sync::Arc;

use super::background::Pending;
use super::direct::Direct;
use super::model::Usage;
use super::steps::{Progress, Run};
use super::typed::Expected;
use super::{Agent, Conversation, Event, RunError, RunOutcome, Settings};
use crate::context::CancellationToken;
use crate::registry::Registry;
use crate::telemetry::{invoke_agent_span, record_usage, traced};

impl Agent {
    /// Adds `user` to the conversation and runs until the model answers without calls.
    ///
    /// # Errors
    /// [`RunError`]: the model failed, the round limit was reached, or the tool choice is
    /// invalid.
    pub async fn run(&self, conversation: &mut Conversation, user: &str) -> Result<RunOutcome, RunError> {
        self.run_until(conversation, user, &CancellationToken::new()).await
    }

    /// [`Agent::run`], stopped when `cancel` is: calls in flight hear of it through their
    /// context and are answered (within [`Agent::cancel_grace`]), then the run ends with
    /// [`RunError::Cancelled`], the conversation holding every answer.
    ///
    /// # Errors
    /// As [`Agent::run`], and [`RunError::Cancelled`].
    pub async fn run_until(
        &self,
        conversation: &mut Conversation,
        user: &str,
        cancel: &CancellationToken,
    ) -> Result<RunOutcome, RunError> {
        self.run_with(&self.settings, conversation, user, cancel, None).await
    }

    /// [`Agent::run_until`] with `settings` (this agent's, or, for an agent run as a tool,
    /// with its events relayed to the parent's sink too), for an answer of the form
    /// `expected` says when it says one.
    pub(crate) async fn run_with(
        &self,
        settings: &Settings,
        conversation: &mut Conversation,
        user: &str,
        cancel: &CancellationToken,
        expected: Option<&Expected<'_>>,
    ) -> Result<RunOutcome, RunError> {
        self.run_from(settings, conversation, Some(user), cancel, expected, (0, Usage::default())).await
    }

    /// [`Agent::run_with`] from a run's rounds and tokens so far (a resumed run's), with a
    /// user message first when there is one.
    pub(super) async fn run_from(
        &self,
        settings: &Settings,
        conversation: &mut Conversation,
        user: Option<&str>,
        cancel: &CancellationToken,
        expected: Option<&Expected<'_>>,
        (rounds, usage): (usize, Usage),
    ) -> Result<RunOutcome, RunError> {
        // The run's span, in the OpenTelemetry GenAI conventions: each model request is a
        // `chat` span inside it, each tool call an `execute_tool` span.
        let span = invoke_agent_span(self.model.api().provider_name());
        let settings = &settings.for_run();
        let run = async {
            conversation.settle()?;
            if let Some(user) = user {
                conversation.items.push(self.model.api().user(user));
            }
            settings.emit(Event::RunStarted);
            let preloaded = match user {
                Some(user) if !self.preloads.is_empty() => self.preloaded(settings, user).await,
                _ => None,
            };
            // Calls moved to the background; dropped (so cancelled) however the run ends.
            let pending = Pending::new(settings.cancel_grace);
            let run = Run { steps: &Direct, conversation, cancel, expected, pending, preloaded };
            let progress = self.rounds(settings, run, Progress { rounds, usage, ..Progress::default() }).await?;
            settings.emit(Event::RunFinished { rounds: progress.rounds, usage: progress.usage });
            Ok::<_, RunError>(progress.into_outcome())
        };
        traced(
            span,
            || run,
            |span, outcome| match outcome {
                Ok(outcome) => record_usage(span, outcome.usage.input_tokens, outcome.usage.output_tokens),
                Err(error) => {
                    span.record("error.type", error.kind());
                }
            },
        )
        .await
    }

    /// `registry` as this agent's runs call it: decoded as leniently as the agent says, and
    /// with the answer tool of a typed run. The registry itself is cloned only where it
    /// differs.
    pub(super) fn prepare(&self, registry: &Arc<Registry>, expected: Option<&Expected<'_>>) -> Arc<Registry> {
        let options = *registry.options();
        let registry = if options.lenient == self.lenient {
            Arc::clone(registry)
        } else {
            Arc::new((**registry).clone().with_options(options.lenient(self.lenient)))
        };
        match expected {
            Some(expected) => expected.with_tool(registry),
            None => registry,
        }
    }
}
