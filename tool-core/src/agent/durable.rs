//! Durable runs on Restate (feature `restate`): [`Agent::run_durable`] runs the loop inside
//! a Restate handler, each model request and each tool call a journaled step
//! (`ctx.run`), so a process that dies mid-run resumes where it stopped, on any process,
//! without asking the model again or calling a finished tool again; a call that needs
//! approval waits on a Restate awakeable, for as long as it takes, across restarts.
//!
//! What runs when:
//! - **Exactly once** (journaled): a model request that answered, a tool call that
//!   returned (its result, an error result too, and what `after_call` made of it), an
//!   approver's verdict.
//! - **At least once**: a tool call whose process died before its result was journaled runs
//!   again when the run resumes; so does a model request cut short the same way.
//! - **Again on every replay** (the code between steps): `prepare`, `authorize` and
//!   `before_call`, the approval policy, and the conversation's bookkeeping. They must decide
//!   the same way each time, as workflow code must.
//!
//! The calls of a turn run one at a time, in call order: Restate's journal needs each step
//! awaited before the next begins. A model step that fails is retried ([`MODEL_ATTEMPTS`]
//! attempts in all), then the run fails with [`RunError::Model`]; Restate's cancellation of
//! the invocation ends the run with [`RunError::Cancelled`] at its next step.

use core::future::Future;
use core::pin::Pin;
use core::time::Duration;
use std::sync::Arc;

use restate_sdk::context::{
    ContextAwakeables, ContextReadState, ContextSideEffects, ContextWriteState, ObjectContext, RunFuture as _,
    RunRetryPolicy, SharedObjectContext, SharedWorkflowContext, WorkflowContext,
};
use restate_sdk::errors::{HandlerError, TerminalError};
use restate_sdk::serde::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::batch::{self, Gate, Screened};
use super::hooks::{ToolRun, Verdict};
use super::model::{Delta, ModelError, ModelRequest, ModelTurn, StopReason, Usage};
use super::{Agent, Conversation, Event, RoundLimit, RunError, Settings};
use crate::context::CancellationToken;
use crate::provider::{CallArguments, ToolCall};

/// Attempts of a model request before the run fails: the HTTP clients already retry rate
/// limits and dropped connections inside one attempt.
pub const MODEL_ATTEMPTS: u32 = 3;

/// The state key under which a run keeps the call that waits for approval
/// ([`PendingApproval`]); [`pending`] and [`decide`] read it.
pub const APPROVAL_KEY: &str = "tool_core.approval";

/// An approver's decision on a call, as it travels to the run (the awakeable's value).
///
/// In JSON: `{"verdict": "approve"}`, `{"verdict": "deny", "reason": ".."}`,
/// `{"verdict": "edit", "arguments": {..}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Decision {
    /// Run the call as it is.
    Approve,
    /// Do not run it; the model reads the reason.
    Deny {
        /// Why.
        reason: String,
    },
    /// Run it with these arguments instead.
    Edit {
        /// The arguments to run it with.
        arguments: Value,
    },
}

impl From<Decision> for Verdict {
    fn from(decision: Decision) -> Self {
        match decision {
            Decision::Approve => Verdict::Approve,
            Decision::Deny { reason } => Verdict::Deny(reason),
            Decision::Edit { arguments } => Verdict::Edit(CallArguments::Value(arguments)),
        }
    }
}

/// A decision on one call: what a run's approval handler takes ([`decide`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Approval {
    /// The call decided on ([`PendingApproval::call_id`]).
    pub call_id: String,
    /// The decision.
    #[serde(flatten)]
    pub decision: Decision,
}

/// The call a run waits on, kept in its state under [`APPROVAL_KEY`] while it waits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PendingApproval {
    /// The call's id.
    pub call_id: String,
    /// The tool it calls.
    pub tool: String,
    /// Its arguments (text that is no JSON stays a string).
    pub arguments: Value,
    /// The Restate awakeable the run waits on: resolve it with a [`Decision`] through
    /// [`decide`], or from outside through Restate's ingress
    /// (`POST /restate/awakeables/{id}/resolve`); rejecting it denies the call.
    pub awakeable: String,
}

/// A call of a durable run and its one result, as the run journaled it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct JournaledCall {
    /// The call's id.
    pub id: String,
    /// The tool called.
    pub name: String,
    /// The arguments it ran with (text that is no JSON stays a string).
    pub arguments: Value,
    /// Whether it failed in any way.
    pub is_error: bool,
    /// How it failed ([`ToolError::kind`](crate::ToolError::kind)), when it did.
    pub error: Option<String>,
    /// The text the model read.
    pub text: String,
    /// What `after_call` kept about it for the program.
    pub details: Option<Value>,
    /// Whether its result asked to end the run.
    pub terminate: bool,
}

/// How a durable run ended: [`RunOutcome`](super::RunOutcome)'s facts, in a form Restate
/// can journal and a handler can return.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct DurableOutcome {
    /// The model's last text.
    pub text: String,
    /// Rounds taken.
    pub rounds: usize,
    /// Tokens read, in all.
    pub input_tokens: u64,
    /// Tokens written, in all.
    pub output_tokens: u64,
    /// Whether a batch asked to end the run.
    pub terminated: bool,
    /// Every call of the run, in order.
    pub calls: Vec<JournaledCall>,
    /// The agents the run was handed to, in order: the last answered.
    pub handoffs: Vec<String>,
}

/// The call the run behind `ctx` waits on for approval, if any: for a shared handler beside
/// the run (a workflow's, a virtual object's).
///
/// # Errors
/// Restate's, reading the state.
pub async fn pending<C: ApprovalContext>(ctx: &C) -> Result<Option<PendingApproval>, TerminalError> {
    Ok(ctx.__pending().await?.map(Json::into_inner))
}

/// Hands `approval` to the run behind `ctx`, which resumes with it: for a shared handler
/// beside the run.
///
/// # Errors
/// A terminal error (404) when no call, or another call, waits for approval.
pub async fn decide<C: ApprovalContext>(ctx: &C, approval: Approval) -> Result<(), TerminalError> {
    match pending(ctx).await? {
        Some(waiting) if waiting.call_id == approval.call_id => {
            ctx.__resolve(&waiting.awakeable, approval.decision);
            Ok(())
        }
        Some(waiting) => Err(TerminalError::new_with_code(
            404,
            format!("call {:?} does not wait for approval; call {:?} does", approval.call_id, waiting.call_id),
        )),
        None => {
            Err(TerminalError::new_with_code(404, format!("call {:?} does not wait for approval", approval.call_id)))
        }
    }
}

/// The Restate contexts that read a run's waiting call and resolve its awakeable: those of a
/// workflow and of a virtual object, shared or exclusive.
pub trait ApprovalContext: Sync + sealed::Sealed {
    #[doc(hidden)]
    fn __pending(&self) -> Journaled<'_, Option<Json<PendingApproval>>>;

    #[doc(hidden)]
    fn __resolve(&self, awakeable: &str, decision: Decision);
}

macro_rules! approval_context {
    ($($context:ident),*) => {$(
        impl ApprovalContext for $context<'_> {
            fn __pending(&self) -> Journaled<'_, Option<Json<PendingApproval>>> {
                Box::pin(self.get::<Json<PendingApproval>>(APPROVAL_KEY))
            }

            fn __resolve(&self, awakeable: &str, decision: Decision) {
                self.resolve_awakeable(awakeable, Json(decision));
            }
        }
    )*};
}

approval_context!(WorkflowContext, SharedWorkflowContext, ObjectContext, SharedObjectContext);

/// A future of a context's operation, boxed so that a run's future is `Send` for whatever
/// lifetime the handler's context has.
#[doc(hidden)]
pub type Journaled<'a, T> = Pin<Box<dyn Future<Output = Result<T, TerminalError>> + Send + 'a>>;

/// The Restate contexts a durable run can go on in: a workflow's `run` handler
/// ([`WorkflowContext`]) and a virtual object's exclusive handler ([`ObjectContext`]), which
/// journal steps, wait on awakeables and keep the waiting call in their state.
pub trait RunContext: Sync + sealed::Sealed {
    #[doc(hidden)]
    fn __journal<T>(&self, name: String, retry: Option<RunRetryPolicy>, step: Step<T>) -> Journaled<'_, Json<T>>
    where
        T: Serialize + serde::de::DeserializeOwned + Send + 'static;

    #[doc(hidden)]
    fn __awakeable(&self) -> (String, Journaled<'_, Json<Decision>>);

    #[doc(hidden)]
    fn __keep(&self, waiting: PendingApproval);

    #[doc(hidden)]
    fn __forget(&self);
}

mod sealed {
    pub trait Sealed {}
}

impl sealed::Sealed for SharedWorkflowContext<'_> {}
impl sealed::Sealed for SharedObjectContext<'_> {}

macro_rules! run_context {
    ($context:ident) => {
        impl sealed::Sealed for $context<'_> {}

        impl RunContext for $context<'_> {
            fn __journal<T>(&self, name: String, retry: Option<RunRetryPolicy>, step: Step<T>) -> Journaled<'_, Json<T>>
            where
                T: Serialize + serde::de::DeserializeOwned + Send + 'static,
            {
                let run = self.run(move || step).name(name);
                match retry {
                    Some(retry) => Box::pin(run.retry_policy(retry)),
                    None => Box::pin(run),
                }
            }

            fn __awakeable(&self) -> (String, Journaled<'_, Json<Decision>>) {
                let (id, verdict) = self.awakeable::<Json<Decision>>();
                (id, Box::pin(verdict))
            }

            fn __keep(&self, waiting: PendingApproval) {
                self.set(APPROVAL_KEY, Json(waiting));
            }

            fn __forget(&self) {
                self.clear(APPROVAL_KEY);
            }
        }
    };
}

run_context!(WorkflowContext);
run_context!(ObjectContext);

impl From<RunError> for TerminalError {
    /// A run's error as the handler's terminal error (409 for a cancelled run, 500 for the
    /// rest), so Restate does not retry a run that failed as a whole. Return it with
    /// `.map_err(TerminalError::from)?`: `?` alone would make a retryable error of it.
    fn from(error: RunError) -> Self {
        let code = if matches!(error, RunError::Cancelled) { 409 } else { 500 };
        TerminalError::new_with_code(code, error.to_string())
    }
}

impl Agent {
    /// [`Agent::run`] as a durable Restate run inside a handler of a workflow or a virtual
    /// object (`ctx`): each model request and tool call journaled, approvals as awakeables
    /// (see the [module docs](self) for what runs once and what again).
    ///
    /// The agent's approver is not asked: a call that needs approval (the agent's
    /// [`ApprovalPolicy`](super::ApprovalPolicy)) waits until [`decide`] (or Restate's ingress)
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
        let outcome = self.durable_rounds(ctx, &self.settings, conversation, outcome).await?;
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
                let last_answer = outcome.rounds - first == self.max_rounds;
                if last_answer && self.round_limit == RoundLimit::Fail {
                    return Err(RunError::RoundLimit { rounds: outcome.rounds });
                }
                outcome.rounds += 1;
                let round = outcome.rounds;
                settings.emit(Event::TurnStarted { round });
                let offered = if last_answer { None } else { tools.clone() };
                settings.emit(Event::ModelRequest { round, with_tools: offered.is_some() });
                let turn = self.model_step(ctx, settings, conversation, offered, tool_choice.clone(), round).await?;
                outcome.input_tokens += turn.usage.input_tokens;
                outcome.output_tokens += turn.usage.output_tokens;
                settings.emit(Event::ModelResponse {
                    round,
                    stop: turn.stop.clone(),
                    usage: turn.usage,
                    calls: turn.calls.len(),
                });
                conversation.items.extend(turn.items);
                outcome.text = turn.text;
                if turn.calls.is_empty() || last_answer {
                    if !turn.calls.is_empty() {
                        // Offered no tools, it called some anyway: each still gets its one result.
                        let denied: Vec<_> = turn.calls.into_iter().map(round_limit_denial).collect();
                        conversation.items.extend(api.results(&denied));
                    }
                    return Ok(outcome);
                }
                let mut items = Vec::with_capacity(turn.calls.len());
                let mut terminate = true;
                let mut handoff = None;
                let mut calls = turn.calls.into_iter();
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
            match model.respond(request, &on_delta).await {
                Ok(turn) => Ok(Json(TurnRecord::from(turn))),
                Err(error) => Err(HandlerError::from(error)),
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

/// A step's work. Boxed: an `async` block inside a fn generic over the context's lifetime
/// would make the handler's future `Send` only for that one lifetime (rust-lang/rust#100013),
/// which Restate's handler macros cannot use.
#[doc(hidden)]
pub type Step<T> = Pin<Box<dyn Future<Output = Result<Json<T>, HandlerError>> + Send>>;

/// A call's journaled result: what the program keeps, and its items in the conversation.
#[derive(Serialize, Deserialize)]
struct CallStep {
    call: JournaledCall,
    items: Vec<Value>,
}

impl CallStep {
    fn of(api: super::Api, run: &ToolRun) -> Self {
        let error = run.result.outcome.as_ref().err();
        CallStep {
            call: JournaledCall {
                id: run.call.id.clone(),
                name: run.call.name.clone(),
                arguments: arguments_value(&run.call.arguments),
                is_error: error.is_some(),
                error: error.map(|error| error.kind().to_owned()),
                text: run.result.text(),
                details: run.details.clone(),
                terminate: run.terminate,
            },
            items: api.results(core::slice::from_ref(&run.result)),
        }
    }
}

/// One call: screened and approved as workflow code, run as a journaled step.
async fn call_step<C: RunContext>(
    ctx: &C,
    settings: &Settings,
    api: super::Api,
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

fn arguments_value(arguments: &CallArguments) -> Value {
    match arguments {
        CallArguments::Value(value) => value.clone(),
        CallArguments::Text(text) => serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.clone())),
    }
}

fn round_limit_denial(call: ToolCall) -> crate::provider::CallResult {
    let reason = "the round limit was reached; answer without tools".to_owned();
    crate::provider::CallResult {
        outcome: Err(crate::ToolError::Denied { tool: call.name.clone(), reason }),
        id: call.id,
        name: call.name,
    }
}

fn cancelled(call: ToolCall) -> crate::provider::CallResult {
    crate::provider::CallResult {
        outcome: Err(crate::ToolError::Cancelled { tool: call.name.clone() }),
        id: call.id,
        name: call.name,
    }
}

/// A model turn as the journal keeps it.
#[derive(Serialize, Deserialize)]
struct TurnRecord {
    text: String,
    calls: Vec<CallRecord>,
    stop: StopRecord,
    input_tokens: u64,
    output_tokens: u64,
    items: Vec<Value>,
}

#[derive(Serialize, Deserialize)]
struct CallRecord {
    id: String,
    name: String,
    arguments: ArgumentsRecord,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ArgumentsRecord {
    Text(String),
    Value(Value),
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum StopRecord {
    EndTurn,
    ToolUse,
    MaxTokens,
    Refusal,
    Other(String),
}

impl From<ModelTurn> for TurnRecord {
    fn from(turn: ModelTurn) -> Self {
        TurnRecord {
            text: turn.text,
            calls: turn
                .calls
                .into_iter()
                .map(|call| CallRecord {
                    id: call.id,
                    name: call.name,
                    arguments: match call.arguments {
                        CallArguments::Text(text) => ArgumentsRecord::Text(text),
                        CallArguments::Value(value) => ArgumentsRecord::Value(value),
                    },
                })
                .collect(),
            stop: match turn.stop {
                StopReason::EndTurn => StopRecord::EndTurn,
                StopReason::ToolUse => StopRecord::ToolUse,
                StopReason::MaxTokens => StopRecord::MaxTokens,
                StopReason::Refusal => StopRecord::Refusal,
                StopReason::Other(other) => StopRecord::Other(other),
            },
            input_tokens: turn.usage.input_tokens,
            output_tokens: turn.usage.output_tokens,
            items: turn.items,
        }
    }
}

impl From<TurnRecord> for ModelTurn {
    fn from(turn: TurnRecord) -> Self {
        ModelTurn {
            text: turn.text,
            calls: turn
                .calls
                .into_iter()
                .map(|call| ToolCall {
                    id: call.id,
                    name: call.name,
                    arguments: match call.arguments {
                        ArgumentsRecord::Text(text) => CallArguments::Text(text),
                        ArgumentsRecord::Value(value) => CallArguments::Value(value),
                    },
                })
                .collect(),
            stop: match turn.stop {
                StopRecord::EndTurn => StopReason::EndTurn,
                StopRecord::ToolUse => StopReason::ToolUse,
                StopRecord::MaxTokens => StopReason::MaxTokens,
                StopRecord::Refusal => StopReason::Refusal,
                StopRecord::Other(other) => StopReason::Other(other),
            },
            usage: Usage { input_tokens: turn.input_tokens, output_tokens: turn.output_tokens },
            items: turn.items,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::Api;
    use super::{CallStep, ModelTurn, TurnRecord};
    use crate::ToolError;
    use crate::output::ToolOutput;
    use crate::provider::{CallArguments, CallResult, ToolCall};

    fn results() -> Vec<CallResult> {
        vec![
            CallResult { id: "a".into(), name: "one".into(), outcome: Ok(ToolOutput::text("first")) },
            CallResult {
                id: "b".into(),
                name: "two".into(),
                outcome: Err(ToolError::Failed { tool: "two".into(), message: "no".into() }),
            },
            CallResult {
                id: "c".into(),
                name: "three".into(),
                outcome: Ok(ToolOutput::text("third").with_structured(json!({"n": 3}))),
            },
        ]
    }

    #[test]
    fn each_calls_items_joined_are_the_batchs_items_in_every_api() {
        for api in [Api::OpenAiChat, Api::OpenAiResponses, Api::Anthropic, Api::Gemini] {
            let results = results();
            let per_call = results.iter().map(|result| api.results(core::slice::from_ref(result))).collect();
            assert_eq!(api.join_results(per_call), api.results(&results), "{api:?}");
        }
    }

    #[test]
    fn a_turn_reads_back_from_the_journal_as_it_was() {
        let turn = ModelTurn {
            text: "calling".into(),
            calls: vec![
                ToolCall { id: "1".into(), name: "t".into(), arguments: CallArguments::Text("{\"a\": 1".into()) },
                ToolCall { id: "2".into(), name: "u".into(), arguments: CallArguments::Value(json!({"b": [2]})) },
            ],
            stop: super::StopReason::Other("pause_turn".into()),
            usage: super::Usage { input_tokens: 7, output_tokens: 9 },
            items: vec![json!({"role": "assistant", "content": "calling"})],
        };
        let journaled = serde_json::to_string(&TurnRecord::from(turn.clone())).unwrap();
        let read: TurnRecord = serde_json::from_str(&journaled).unwrap();
        assert_eq!(ModelTurn::from(read), turn);
    }

    #[test]
    fn a_call_step_keeps_what_the_model_read() {
        let call = ToolCall { id: "b".into(), name: "two".into(), arguments: CallArguments::Text("not json".into()) };
        let result = results().remove(1);
        let run = super::ToolRun {
            call,
            result,
            details: Some(json!({"k": 1})),
            terminate: true,
            elapsed: core::time::Duration::ZERO,
        };
        let step = CallStep::of(Api::Anthropic, &run);
        assert_eq!(step.items, Api::Anthropic.results(core::slice::from_ref(&run.result)));
        assert_eq!(step.call.arguments, json!("not json"));
        assert_eq!(step.call.error.as_deref(), Some("failed"));
        assert_eq!(step.call.text, "tool \"two\" failed: no");
        assert!(step.call.is_error && step.call.terminate);
    }
}
