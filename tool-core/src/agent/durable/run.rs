//! The durable loop: [`Agent::run_durable`]'s rounds, each model request and each call a
//! journaled step, approvals on awakeables, handoffs followed.

use core::future::Future;
use core::pin::Pin;
use core::time::Duration;
use std::sync::Arc;

use restate_sdk::context::RunRetryPolicy;
use restate_sdk::errors::HandlerError;
use restate_sdk::serde::Json;
use serde_json::Value;

use super::context::{RunContext, Step};
use super::journal::{CallStep, TurnRecord, arguments_value};
use super::{DurableOutcome, MODEL_ATTEMPTS, PendingApproval};
use crate::agent::batch::{self, Gate, Screened};
use crate::agent::hooks::Verdict;
use crate::agent::model::{Delta, ModelError, ModelRequest, ModelTurn, Usage};
use crate::agent::{Agent, Api, Conversation, Event, RunError, Settings, chat_span, invoke_agent_span};
use crate::context::CancellationToken;
use crate::provider::ToolCall;

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
        let outcome = DurableOutcome {
            text: String::new(),
            rounds: 0,
            input_tokens: 0,
            output_tokens: 0,
            terminated: false,
            calls: Vec::new(),
            handoffs: Vec::new(),
        };
        // The run's span, as an ordinary run's; a replay opens it again, while the steps it
        // replays (their `chat` and `execute_tool` spans) are read from the journal, not run.
        let span = invoke_agent_span(api);
        let run = self.durable_rounds(ctx, &self.settings, conversation, outcome);
        let outcome = match tracing::Instrument::instrument(run, span.clone()).await {
            Ok(outcome) => outcome,
            Err(error) => {
                span.record("error.type", error.kind());
                return Err(error);
            }
        };
        span.record("gen_ai.usage.input_tokens", outcome.input_tokens);
        span.record("gen_ai.usage.output_tokens", outcome.output_tokens);
        let usage = Usage { input_tokens: outcome.input_tokens, output_tokens: outcome.output_tokens };
        self.settings.emit(Event::RunFinished { rounds: outcome.rounds, usage });
        Ok(outcome)
    }

    /// This agent's rounds of a durable run, from where `outcome` says it is; after a
    /// handoff, the other agent's, with the run's event sink.
    fn durable_rounds<'a, C: RunContext>(
        &'a self,
        ctx: &'a C,
        run_settings: &'a Settings,
        conversation: &'a mut Conversation,
        mut outcome: DurableOutcome,
    ) -> Pin<Box<dyn Future<Output = Result<DurableOutcome, RunError>> + Send + 'a>> {
        Box::pin(async move {
            let mut settings = self.settings.clone();
            settings.background_after = None;
            settings.events.clone_from(&run_settings.events);
            let settings = &settings;
            let api = self.model.api();
            let registry = self.tools_now();
            let (tools, tool_choice) = self.offer(&registry)?;
            let first = outcome.rounds;
            loop {
                let last_answer = self.last_round(outcome.rounds - first, outcome.rounds)?;
                outcome.rounds += 1;
                let round = outcome.rounds;
                settings.emit(Event::TurnStarted { round });
                let offered = if last_answer { None } else { tools.clone() };
                settings.emit(Event::ModelRequest { round, with_tools: offered.is_some() });
                let turn = self.model_step(ctx, settings, conversation, offered, tool_choice.clone(), round).await?;
                outcome.input_tokens += turn.usage.input_tokens;
                outcome.output_tokens += turn.usage.output_tokens;
                let calls = settings.take_turn(api, conversation, &mut outcome.text, round, turn, last_answer);
                if calls.is_empty() {
                    return Ok(outcome);
                }
                let mut items = Vec::with_capacity(calls.len());
                let mut terminate = true;
                let mut handoff = None;
                let mut calls = calls.into_iter();
                while let Some(call) = calls.next() {
                    let step = match call_step(ctx, settings, api, &registry, call).await {
                        Ok(step) => step,
                        Err(error) => {
                            // Cancelled: the calls not run are answered so, and the run ends.
                            let cancelled: Vec<_> = calls.map(cancelled).collect();
                            items.push(api.results(&cancelled));
                            conversation.items.extend(api.join_results(items));
                            return Err(error);
                        }
                    };
                    terminate &= step.call.terminate;
                    if handoff.is_none() && !step.call.is_error {
                        handoff = self.handoffs.iter().find(|handoff| handoff.name == step.call.name);
                    }
                    items.push(step.items);
                    outcome.calls.push(step.call);
                }
                conversation.items.extend(api.join_results(items));
                if terminate {
                    outcome.terminated = true;
                    return Ok(outcome);
                }
                if let Some(handoff) = handoff {
                    settings.emit(Event::HandedOff { to: handoff.name.clone() });
                    outcome.handoffs.push(handoff.name.clone());
                    return handoff.agent.durable_rounds(ctx, run_settings, conversation, outcome).await;
                }
            }
        })
    }

    /// One model request as a journaled step.
    async fn model_step<C: RunContext>(
        &self,
        ctx: &C,
        settings: &Settings,
        conversation: &Conversation,
        tools: Option<Value>,
        tool_choice: Option<Value>,
        round: usize,
    ) -> Result<ModelTurn, RunError> {
        // The step may outlive this call's borrows (Restate holds it for the context's
        // lifetime), so it owns what it sends.
        let model = Arc::clone(&self.model);
        let system = self.system.clone();
        let history = conversation.items.clone();
        let events = settings.events.clone();
        let request: Step<TurnRecord> = Box::pin(async move {
            let on_delta = move |delta: Delta<'_>| {
                if let Some(events) = &events {
                    events(&Event::from_delta(delta));
                }
            };
            let request = ModelRequest {
                system: system.as_deref(),
                history: &history,
                tools: tools.as_ref(),
                tool_choice: tools.as_ref().and(tool_choice.as_ref()),
                output: None,
            };
            let chat = chat_span(model.api());
            match tracing::Instrument::instrument(model.respond(request, &on_delta), chat.clone()).await {
                Ok(turn) => {
                    chat.record("gen_ai.usage.input_tokens", turn.usage.input_tokens);
                    chat.record("gen_ai.usage.output_tokens", turn.usage.output_tokens);
                    Ok(Json(TurnRecord::from(turn)))
                }
                Err(error) => {
                    chat.record("error.type", "model_error");
                    Err(HandlerError::from(error))
                }
            }
        });
        let retry = RunRetryPolicy::default().initial_delay(Duration::from_millis(200)).max_attempts(MODEL_ATTEMPTS);
        match ctx.__journal(format!("model round {round}"), Some(retry), request).await {
            Ok(Json(turn)) => Ok(turn.into()),
            Err(error) if error.code() == 409 => Err(RunError::Cancelled),
            Err(error) => Err(RunError::Model(ModelError::Http { status: None, message: error.message().to_owned() })),
        }
    }
}

/// One call: screened and approved as workflow code, run as a journaled step.
async fn call_step<C: RunContext>(
    ctx: &C,
    settings: &Settings,
    api: Api,
    registry: &Arc<crate::registry::Registry>,
    call: ToolCall,
) -> Result<CallStep, RunError> {
    // Restate's cancellation reaches the run at its next step, not inside one.
    let cancel = CancellationToken::new();
    let gate = match batch::screen(settings, registry, call, &cancel) {
        Screened::Answered(call, error) => Gate::Answered(call, error),
        Screened::Ready { call, entry, ask: false } => batch::settle(settings, call, entry, None),
        Screened::Ready { call, entry, ask: true } => {
            let verdict = wait_for_verdict(ctx, &call).await?;
            batch::settle(settings, call, entry, Some(verdict))
        }
    };
    let (call, entry) = match gate {
        Gate::Answered(call, error) => {
            let mut run = batch::answered(call, Err(error), Duration::ZERO);
            batch::finish(settings, &mut run);
            return Ok(CallStep::of(api, &run));
        }
        Gate::Run(call, entry) => (call, entry),
    };
    let name = format!("tool {} {}", call.name, call.id);
    let (settings, registry) = (settings.clone(), Arc::clone(registry));
    let step: Step<CallStep> = Box::pin(async move {
        let (mut run, _) = batch::execute(&settings, &registry, call, &entry, &cancel).await;
        batch::finish(&settings, &mut run);
        Ok(Json(CallStep::of(api, &run)))
    });
    match ctx.__journal(name, None, step).await {
        Ok(Json(step)) => Ok(step),
        Err(error) if error.code() == 409 => Err(RunError::Cancelled),
        // A step that never fails fails only as the journal does.
        Err(error) => Err(RunError::Model(ModelError::Http { status: None, message: error.message().to_owned() })),
    }
}

/// Waits on an awakeable for the verdict on `call`, with the call kept in the run's state
/// meanwhile. A rejected awakeable denies the call.
async fn wait_for_verdict<C: RunContext>(ctx: &C, call: &ToolCall) -> Result<Result<Verdict, String>, RunError> {
    let (awakeable, verdict) = ctx.__awakeable();
    let waiting = PendingApproval {
        call_id: call.id.clone(),
        tool: call.name.clone(),
        arguments: arguments_value(&call.arguments),
        awakeable,
    };
    ctx.__keep(waiting);
    let verdict = verdict.await;
    ctx.__forget();
    match verdict {
        Ok(Json(decision)) => Ok(Ok(decision.into())),
        Err(error) if error.code() == 409 => Err(RunError::Cancelled),
        Err(error) => Ok(Err(format!("the approver said no: {}", error.message()))),
    }
}

fn cancelled(call: ToolCall) -> crate::provider::CallResult {
    crate::provider::CallResult {
        outcome: Err(crate::ToolError::Cancelled { tool: call.name.clone() }),
        id: call.id,
        name: call.name,
    }
}
