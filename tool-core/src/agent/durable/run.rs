//! The durable loop: [`Agent::run_durable`]'s rounds, each model request and each call a
//! journaled step, approvals on awakeables, handoffs followed.

use core::time::Duration;
use std::sync::Arc;

use restate_sdk::context::RunRetryPolicy;
use restate_sdk::errors::HandlerError;
use restate_sdk::serde::Json;

use super::context::{RunContext, Step};
use super::journal::CallStep;
use super::{DurableOutcome, JournaledCall, MODEL_ATTEMPTS};
use crate::agent::background::Pending;
use crate::agent::driver::{Closed, Driver};
use crate::agent::hooks::ToolRun;
use crate::agent::model::{Delta, ModelError, ModelRequest, ModelTurn};
use crate::agent::record::CallFacts;
use crate::agent::steps::{Batch, Progress, Run, StepFuture, Steps};
use crate::agent::{Agent, Conversation, Event, RunError, Settings};
use crate::context::CancellationToken;
use crate::provider::ToolCall;
use crate::registry::Registry;
use crate::telemetry::{chat_span, invoke_agent_span, record_usage, traced};

impl Agent {
    /// [`Agent::run`] as a durable Restate run inside a handler of a workflow or a virtual
    /// object (`ctx`): each model request and tool call journaled, approvals as awakeables
    /// (see the [module docs](crate::agent::durable) for what runs once and what again).
    ///
    /// The agent's approver is not asked: a call that needs approval (the agent's
    /// [`ApprovalPolicy`](crate::agent::ApprovalPolicy)) waits until [`decide`](super::decide) (or Restate's ingress)
    /// resolves its awakeable, with no time limit but the run's cancellation. Calls never
    /// move to the background.
    ///
    /// # Errors
    /// As [`Agent::run`]; [`RunError::Cancelled`] when Restate cancels the invocation.
    pub async fn run_durable<C: RunContext>(
        &self,
        ctx: &C,
        conversation: &mut Conversation,
        user: &str,
    ) -> Result<DurableOutcome, RunError> {
        let api = self.model.api();
        conversation.items.push(api.user(user));
        self.settings.emit(Event::RunStarted);
        // The run's span, as an ordinary run's; a replay opens it again, while the steps it
        // replays (their `chat` and `execute_tool` spans) are read from the journal, not run.
        let span = invoke_agent_span(api.provider_name());
        let steps = Journaled { ctx };
        let settings = steps.settings(self, &self.settings.for_run());
        // Restate's cancellation reaches the run at its next step: no token fires.
        let cancel = CancellationToken::new();
        let run = Run {
            steps: &steps,
            conversation,
            cancel: &cancel,
            expected: None,
            pending: Pending::new(Duration::ZERO),
            preloaded: None,
        };
        let rounds = || self.rounds(&settings, run, Progress::default());
        let progress = traced(span, rounds, |span, outcome| match outcome {
            Ok(progress) => record_usage(span, progress.usage.input_tokens, progress.usage.output_tokens),
            Err(error) => {
                span.record("error.type", error.kind());
            }
        })
        .await?;
        self.settings.emit(Event::RunFinished { rounds: progress.rounds, usage: progress.usage });
        Ok(DurableOutcome {
            text: progress.text,
            rounds: progress.rounds,
            input_tokens: progress.usage.input_tokens,
            output_tokens: progress.usage.output_tokens,
            terminated: progress.terminated,
            calls: progress.calls,
            handoffs: progress.handoffs,
        })
    }
}

/// A durable run's steps: each model request and each call journaled (`batch.rs`),
/// none moved to the background, the tools read once per agent.
struct Journaled<'c, C> {
    ctx: &'c C,
}

impl CallFacts for JournaledCall {
    fn error(&self) -> Option<&crate::ToolError> {
        // A durable run has no typed answer to check, the one reader of the error.
        None
    }

    fn tool(&self) -> &str {
        &self.name
    }

    fn failed(&self) -> bool {
        self.is_error
    }

    fn ends_run(&self) -> bool {
        self.terminate
    }

    fn text(&self) -> String {
        self.text.clone()
    }

    fn run(&self) -> Option<&ToolRun> {
        None
    }
}

impl<C: RunContext> Steps for Journaled<'_, C> {
    type Record = JournaledCall;

    fn settings(&self, agent: &Agent, run: &Settings) -> Settings {
        let mut settings = agent.settings.clone();
        settings.background_after = None;
        settings.events.clone_from(&run.events);
        settings.repeats = run.repeats.clone();
        settings
    }

    fn rereads_tools(&self) -> bool {
        false
    }

    fn model<'a>(
        &'a self,
        agent: &'a Agent,
        settings: &'a Settings,
        request: ModelRequest<'a>,
        round: usize,
        _cancel: &'a CancellationToken,
        _closed: Option<Arc<Closed>>,
    ) -> StepFuture<'a, Result<ModelTurn, RunError>> {
        Box::pin(model_step(self.ctx, agent, settings, request, round))
    }

    fn calls<'a>(
        &'a self,
        agent: &'a Agent,
        settings: &'a Settings,
        registry: &'a Arc<Registry>,
        calls: Vec<ToolCall>,
        _cancel: &'a CancellationToken,
        _pending: &'a mut Pending,
        _early: Option<Driver<'a>>,
    ) -> StepFuture<'a, Batch<JournaledCall>> {
        Box::pin(super::batch::run(self.ctx, settings, agent.model.api(), registry, calls))
    }

    fn finished(&self, agent: &Agent, run: ToolRun) -> JournaledCall {
        CallStep::of(agent.model.api(), &run).call
    }
}

/// One model request as a journaled step.
async fn model_step<C: RunContext>(
    ctx: &C,
    agent: &Agent,
    settings: &Settings,
    request: ModelRequest<'_>,
    round: usize,
) -> Result<ModelTurn, RunError> {
    // The step may outlive this call's borrows (Restate holds it for the context's
    // lifetime), so it owns what it sends.
    let model = Arc::clone(&agent.model);
    let system = request.system.map(str::to_owned);
    let history = request.history.to_vec();
    let tools = request.tools.cloned();
    let tool_choice = request.tool_choice.cloned();
    let output = request.output.cloned();
    let sampling = request.sampling.cloned();
    let events = settings.events.clone();
    let request: Step<ModelTurn> = Box::pin(async move {
        let on_delta = move |delta: Delta<'_>| {
            if let Some(events) = &events
                && let Some(event) = Event::from_delta(delta)
            {
                events(&event);
            }
        };
        let request = ModelRequest {
            system: system.as_deref(),
            history: &history,
            tools: tools.as_ref(),
            tool_choice: tool_choice.as_ref(),
            output: output.as_ref(),
            sampling: sampling.as_ref(),
        };
        let chat = chat_span(model.api().provider_name());
        let turn = traced(
            chat,
            || model.respond(request, &on_delta),
            |span, turn| match turn {
                Ok(turn) => record_usage(span, turn.usage.input_tokens, turn.usage.output_tokens),
                Err(_) => {
                    span.record("error.type", "model_error");
                }
            },
        );
        turn.await.map(Json).map_err(HandlerError::from)
    });
    let retry = RunRetryPolicy::default().initial_delay(Duration::from_millis(200)).max_attempts(MODEL_ATTEMPTS);
    match ctx.__journal(format!("model round {round}"), Some(retry), request).await {
        Ok(Json(turn)) => Ok(turn),
        Err(error) if error.code() == 409 => Err(RunError::Cancelled),
        Err(error) => Err(RunError::Model {
            error: ModelError::Http { status: None, message: error.message().to_owned() },
            partial: crate::agent::PartialTurn::default(),
        }),
    }
}
