//! The tool loop (feature `agent`): send the conversation and the tools to a [`Model`], run
//! the calls it makes, send the results back, until it stops calling tools.
//!
//! - **Loop**: it ends when the model answers without tool calls; after [`Agent::max_rounds`]
//!   it fails or asks once more without tools ([`RoundLimit`]). The history is kept in the
//!   model's own shape ([`Conversation`]), the assistant's tool calls included.
//! - **Batches**: the calls of one turn run concurrently, up to a bound, each on its own task
//!   with its own context (its call id, the registry's state, its progress, its
//!   cancellation); one at a time when the agent or a tool (`#[tool(sequential)]`) says so;
//!   under a per-call timeout. Every call gets exactly one result, in call order, whether it
//!   ran, failed, panicked, timed out, was denied or was cancelled; an unknown tool, bad JSON
//!   and invalid arguments become results the model can act on.
//! - **Hooks and approval** ([`Hooks`], [`ApprovalPolicy`], [`Approver`]) run one at a time,
//!   in call order; a call that needs approval and gets no verdict does not run.
//! - **Events** ([`Event`]) report the run as it goes; **results** carry details the model
//!   never sees and a `terminate` request (a batch ends the run when every result asks).

mod background;
mod batch;
#[cfg(feature = "clients")]
pub mod clients;
#[cfg(feature = "restate")]
pub mod durable;
mod events;
mod expected;
mod handoff;
mod hooks;
mod model;
mod output;
mod scripted;
mod subagent;

use core::future::Future;
use core::pin::Pin;
use core::time::Duration;
use std::sync::Arc;

use serde_json::Value;

pub use events::Event;
pub use handoff::HandoffError;
pub use hooks::{ApprovalPolicy, Approver, Hooks, NoHooks, ToolRun, Verdict, VerdictFuture};
pub use model::{Api, Delta, DeltaSink, Model, ModelError, ModelFuture, ModelRequest, ModelTurn, StopReason, Usage};
pub use output::Answer;
pub use scripted::{ScriptedModel, SeenRequest};

use self::background::Pending;
use self::expected::Expected;
use crate::context::CancellationToken;
use crate::provider::ToolChoice;
use crate::registry::Registry;

/// What happens when the model still calls tools after the last round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RoundLimit {
    /// The run fails with [`RunError::RoundLimit`].
    #[default]
    Fail,
    /// The model is asked once more, without tools, for a final answer.
    FinalAnswer,
}

/// A conversation in one [`Api`]'s shape, kept by the agent across runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Conversation {
    api: Api,
    items: Vec<Value>,
}

impl Conversation {
    /// An empty conversation in `api`'s shape.
    #[must_use]
    pub fn new(api: Api) -> Self {
        Conversation { api, items: Vec::new() }
    }

    /// The items, in the provider's shape, ready for its request.
    #[must_use]
    pub fn items(&self) -> &[Value] {
        &self.items
    }

    /// Adds an item the program made (earlier history, a note).
    pub fn push(&mut self, item: Value) {
        self.items.push(item);
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    /// The model's last text.
    pub text: String,
    /// Rounds taken.
    pub rounds: usize,
    /// Tokens used in all.
    pub usage: Usage,
    /// Whether a batch asked to end the run (every result in it did).
    pub terminated: bool,
    /// Every call of the run, in order.
    pub tool_runs: Vec<ToolRun>,
    /// The agents the run was handed to ([`Agent::handoff`]), in order: the last answered.
    pub handoffs: Vec<String>,
}

/// Why a run did not end with an answer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RunError {
    /// The model failed.
    Model(ModelError),
    /// The model still called tools after the last round.
    RoundLimit {
        /// Rounds taken.
        rounds: usize,
    },
    /// The run was cancelled (every call in flight was answered first).
    Cancelled,
    /// The tool choice names a tool the registry lacks.
    InvalidToolChoice(crate::ToolError),
    /// A typed run ([`Agent::run_for`]) never got a valid answer.
    InvalidOutput {
        /// Answers checked.
        attempts: usize,
        /// What was wrong with the last: [`ToolError::InvalidArguments`](crate::ToolError::InvalidArguments)
        /// with every violation, or [`ToolError::InvalidJson`](crate::ToolError::InvalidJson).
        error: crate::ToolError,
    },
}

impl RunError {
    /// The variant's name in `snake_case` (`model`, `round_limit`, `cancelled`,
    /// `invalid_tool_choice`, `invalid_output`), for metrics and traces (OpenTelemetry's `error.type`).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            RunError::Model(_) => "model",
            RunError::RoundLimit { .. } => "round_limit",
            RunError::Cancelled => "cancelled",
            RunError::InvalidToolChoice(_) => "invalid_tool_choice",
            RunError::InvalidOutput { .. } => "invalid_output",
        }
    }
}

impl core::fmt::Display for RunError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RunError::Model(error) => error.fmt(f),
            RunError::RoundLimit { rounds } => write!(f, "the model still called tools after {rounds} rounds"),
            RunError::Cancelled => f.write_str("the run was cancelled"),
            RunError::InvalidToolChoice(error) => write!(f, "invalid tool choice: {error}"),
            RunError::InvalidOutput { attempts, error } => {
                write!(f, "the model gave no valid answer in {attempts} attempt(s); the last: {error}")
            }
        }
    }
}

impl std::error::Error for RunError {}

type EventSink = Arc<dyn Fn(&Event) + Send + Sync>;

/// What a batch needs of the agent.
#[derive(Clone)]
pub(crate) struct Settings {
    max_concurrency: usize,
    sequential: bool,
    call_timeout: Duration,
    cancel_grace: Duration,
    approval: ApprovalPolicy,
    approval_timeout: Duration,
    approver: Option<Arc<dyn Approver>>,
    hooks: Arc<dyn Hooks>,
    events: Option<EventSink>,
    background_after: Option<Duration>,
}

impl Settings {
    fn emit(&self, event: Event) {
        if let Some(events) = &self.events {
            events(&event);
        }
    }

    /// Takes a model's turn into the run (the ordinary loop's and the durable one's): its
    /// event, its items into the history, its text as the run's last. In the last round the
    /// model was offered no tools; any calls it made anyway each get a denial as their
    /// result and none is returned. Returns the calls to run.
    fn take_turn(
        &self,
        api: Api,
        conversation: &mut Conversation,
        text: &mut String,
        round: usize,
        turn: ModelTurn,
        last_answer: bool,
    ) -> Vec<crate::provider::ToolCall> {
        self.emit(Event::ModelResponse { round, stop: turn.stop.clone(), usage: turn.usage, calls: turn.calls.len() });
        conversation.items.extend(turn.items);
        *text = turn.text;
        if !last_answer {
            return turn.calls;
        }
        if !turn.calls.is_empty() {
            let denied: Vec<_> = turn.calls.iter().map(round_limit_denial).collect();
            conversation.items.extend(api.results(&denied));
        }
        Vec::new()
    }
}

/// A model, the tools it may call, and how its calls are run.
///
/// ```
/// # use tool_core::agent::{Agent, Api, Conversation, ScriptedModel};
/// # use tool_core::Registry;
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let model = ScriptedModel::new(Api::OpenAiChat, [serde_json::json!({
///     "choices": [{"message": {"role": "assistant", "content": "Hello!"}, "finish_reason": "stop"}]
/// })]);
/// let agent = Agent::new(model, Registry::new());
/// let mut conversation = Conversation::new(Api::OpenAiChat);
/// let outcome = agent.run(&mut conversation, "Hi").await.unwrap();
/// assert_eq!(outcome.text, "Hello!");
/// # }
/// ```
#[derive(Clone)]
pub struct Agent {
    model: Arc<dyn Model>,
    tools: Tools,
    system: Option<String>,
    max_rounds: usize,
    round_limit: RoundLimit,
    strict: bool,
    tool_choice: Option<ToolChoice>,
    settings: Settings,
    /// The agents the model may hand the conversation to, each with its tool.
    handoffs: Arc<Vec<handoff::Handoff>>,
}

/// Where an agent's tools come from.
#[derive(Clone)]
enum Tools {
    Fixed(Arc<Registry>),
    Live(Arc<dyn Fn() -> Arc<Registry> + Send + Sync>),
}

impl Tools {
    fn current(&self) -> Arc<Registry> {
        match self {
            Tools::Fixed(registry) => Arc::clone(registry),
            Tools::Live(source) => source(),
        }
    }
}

impl core::fmt::Debug for Agent {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Agent")
            .field("api", &self.model.api())
            .field("tools", &self.tools.current().len())
            .field("max_rounds", &self.max_rounds)
            .finish_non_exhaustive()
    }
}

impl Agent {
    /// An agent with defaults: 10 rounds, then fail; 8 calls at a time; 60 s per call; tools
    /// marked `requires_approval` need an approver; strict schemas where they exist.
    pub fn new(model: impl Model + 'static, registry: impl Into<Arc<Registry>>) -> Self {
        Agent {
            model: Arc::new(model),
            tools: Tools::Fixed(registry.into()),
            system: None,
            max_rounds: 10,
            round_limit: RoundLimit::Fail,
            strict: true,
            tool_choice: None,
            settings: Settings {
                max_concurrency: 8,
                sequential: false,
                call_timeout: Duration::from_mins(1),
                cancel_grace: Duration::from_secs(1),
                approval: ApprovalPolicy::PerTool,
                approval_timeout: Duration::from_mins(5),
                approver: None,
                hooks: Arc::new(NoHooks),
                events: None,
                background_after: None,
            },
            handoffs: Arc::new(Vec::new()),
        }
    }

    /// Instructions for the whole conversation.
    #[must_use]
    pub fn system(mut self, text: impl Into<String>) -> Self {
        self.system = Some(text.into());
        self
    }

    /// The most rounds (model turns with tool calls) in one run.
    #[must_use]
    pub fn max_rounds(mut self, rounds: usize) -> Self {
        self.max_rounds = rounds;
        self
    }

    /// What happens when the model still calls tools after the last round.
    #[must_use]
    pub fn on_round_limit(mut self, limit: RoundLimit) -> Self {
        self.round_limit = limit;
        self
    }

    /// The most calls of one batch running at once.
    #[must_use]
    pub fn max_concurrency(mut self, calls: usize) -> Self {
        self.settings.max_concurrency = calls;
        self
    }

    /// Runs every batch one call at a time.
    #[must_use]
    pub fn sequential(mut self, sequential: bool) -> Self {
        self.settings.sequential = sequential;
        self
    }

    /// How long a call may run before it is stopped and answered `TimedOut`.
    #[must_use]
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.settings.call_timeout = timeout;
        self
    }

    /// Moves a call to a task-capable tool (`#[tool(task = "..")]`) that is still running
    /// `after` into it to the background: the model is told it goes on and may carry on
    /// meanwhile; its result comes as a message at the start of a later round (a model that
    /// answers while calls are in the background is asked again when the next one ends). The
    /// call stays bounded by [`Agent::call_timeout`]; calls still in the background when the
    /// run ends are cancelled. Off by default: every call is awaited in its own round.
    ///
    /// [`RunOutcome::tool_runs`] holds such a call twice: with the note the model got, then
    /// with its result.
    #[must_use]
    pub fn background_after(mut self, after: Duration) -> Self {
        self.settings.background_after = Some(after);
        self
    }

    /// How long calls in flight have to finish after the run is cancelled.
    #[must_use]
    pub fn cancel_grace(mut self, grace: Duration) -> Self {
        self.settings.cancel_grace = grace;
        self
    }

    /// Whether tool schemas are sent strict where the provider and the schema allow.
    #[must_use]
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Which tools the model may or must call.
    #[must_use]
    pub fn tool_choice(mut self, choice: ToolChoice) -> Self {
        self.tool_choice = Some(choice);
        self
    }

    /// Callbacks around every call.
    #[must_use]
    pub fn hooks(mut self, hooks: impl Hooks + 'static) -> Self {
        self.settings.hooks = Arc::new(hooks);
        self
    }

    /// Which calls need approval, who gives it, and how long it may take.
    #[must_use]
    pub fn approval(mut self, policy: ApprovalPolicy, approver: impl Approver + 'static, timeout: Duration) -> Self {
        self.settings.approval = policy;
        self.settings.approver = Some(Arc::new(approver));
        self.settings.approval_timeout = timeout;
        self
    }

    /// Receives every [`Event`] as it happens.
    #[must_use]
    pub fn on_event(mut self, sink: impl Fn(&Event) + Send + Sync + 'static) -> Self {
        self.settings.events = Some(Arc::new(sink));
        self
    }

    /// An empty conversation in the model's shape.
    #[must_use]
    pub fn conversation(&self) -> Conversation {
        Conversation::new(self.model.api())
    }

    /// The tools, as the next round will offer them.
    #[must_use]
    pub fn registry(&self) -> Arc<Registry> {
        self.tools_now()
    }

    /// Reads the tools from `source` at the start of every round, so tools added, removed
    /// or described anew while a run goes on are offered from its next round (a call in
    /// flight finishes with the registry it started with). With a running MCP server's
    /// tools: `agent.live_tools(move || handle.registry())` for its
    /// [`ToolsHandle`](crate::mcp::ToolsHandle) `handle`.
    #[must_use]
    pub fn live_tools(mut self, source: impl Fn() -> Arc<Registry> + Send + Sync + 'static) -> Self {
        self.tools = Tools::Live(Arc::new(source));
        self
    }

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
        // The run's span, in the OpenTelemetry GenAI conventions: each model request is a
        // `chat` span inside it, each tool call an `execute_tool` span.
        let span = invoke_agent_span(self.model.api());
        let outcome = tracing::Instrument::instrument(
            self.run_rounds(settings, conversation, user, cancel, expected),
            span.clone(),
        )
        .await;
        match &outcome {
            Ok(outcome) => {
                span.record("gen_ai.usage.input_tokens", outcome.usage.input_tokens);
                span.record("gen_ai.usage.output_tokens", outcome.usage.output_tokens);
            }
            Err(error) => {
                span.record("error.type", error.kind());
            }
        }
        outcome
    }

    /// The tool definitions and tool choice a round sends, for `registry`.
    fn offer(&self, registry: &Registry) -> Result<(Option<Value>, Option<Value>), RunError> {
        let api = self.model.api();
        let tools = (!registry.is_empty()).then(|| api.tools(registry, self.strict));
        let tool_choice = match &self.tool_choice {
            Some(choice) => Some(api.tool_choice(choice, registry).map_err(RunError::InvalidToolChoice)?),
            None => None,
        };
        Ok((tools, tool_choice))
    }

    async fn run_rounds(
        &self,
        settings: &Settings,
        conversation: &mut Conversation,
        user: &str,
        cancel: &CancellationToken,
        expected: Option<&Expected<'_>>,
    ) -> Result<RunOutcome, RunError> {
        conversation.items.push(self.model.api().user(user));
        settings.emit(Event::RunStarted);
        let outcome = RunOutcome {
            text: String::new(),
            rounds: 0,
            usage: Usage::default(),
            terminated: false,
            tool_runs: Vec::new(),
            handoffs: Vec::new(),
        };
        // Calls moved to the background; dropped (so cancelled) however the run ends.
        let pending = Pending::new(settings.cancel_grace);
        let outcome = self.rounds(settings, conversation, cancel, expected, outcome, pending).await?;
        settings.emit(Event::RunFinished { rounds: outcome.rounds, usage: outcome.usage });
        Ok(outcome)
    }

    /// This agent's rounds of a run, from where `outcome` says the run is; after a handoff, the
    /// other agent's, with the run's event sink.
    fn rounds<'a>(
        &'a self,
        settings: &'a Settings,
        conversation: &'a mut Conversation,
        cancel: &'a CancellationToken,
        expected: Option<&'a Expected<'a>>,
        mut outcome: RunOutcome,
        mut pending: Pending,
    ) -> Pin<Box<dyn Future<Output = Result<RunOutcome, RunError>> + Send + 'a>> {
        Box::pin(async move {
            let mut answers_checked = 0;
            let api = self.model.api();
            let mut registry = self.tools_now();
            let (mut tools, mut tool_choice) = self.offer(&registry)?;
            let first = outcome.rounds;
            loop {
                let last_answer = self.last_round(outcome.rounds - first, outcome.rounds)?;
                outcome.rounds += 1;
                let round = outcome.rounds;
                if let Tools::Live(_) = &self.tools {
                    let now = self.tools_now();
                    if !Arc::ptr_eq(&now, &registry) {
                        (tools, tool_choice) = self.offer(&now)?;
                        registry = now;
                    }
                }
                for (run, note) in pending.finished() {
                    conversation.items.push(api.user(&note));
                    settings.emit(Event::ToolFinished {
                        id: run.call.id.clone(),
                        name: run.call.name.clone(),
                        is_error: run.result.is_error(),
                        elapsed: run.elapsed,
                    });
                    outcome.tool_runs.push(run);
                }
                settings.emit(Event::TurnStarted { round });
                let offered = if last_answer { None } else { tools.as_ref() };
                settings.emit(Event::ModelRequest { round, with_tools: offered.is_some() });
                let request = ModelRequest {
                    system: self.system.as_deref(),
                    history: &conversation.items,
                    tools: offered,
                    tool_choice: offered.and(tool_choice.as_ref()),
                    output: expected.map(|expected| &expected.format),
                };
                let events = settings.events.clone();
                let on_delta = move |delta: Delta<'_>| {
                    if let Some(events) = &events {
                        events(&Event::from_delta(delta));
                    }
                };
                let chat = chat_span(api);
                let respond = tracing::Instrument::instrument(self.model.respond(request, &on_delta), chat.clone());
                let turn = tokio::select! {
                    turn = respond => turn.map_err(|error| {
                        chat.record("error.type", "model_error");
                        RunError::Model(error)
                    })?,
                    () = cancel.cancelled() => return Err(RunError::Cancelled),
                };
                chat.record("gen_ai.usage.input_tokens", turn.usage.input_tokens);
                chat.record("gen_ai.usage.output_tokens", turn.usage.output_tokens);
                outcome.usage += turn.usage;
                let calls = settings.take_turn(api, conversation, &mut outcome.text, round, turn, last_answer);
                if calls.is_empty() && !last_answer && !pending.is_empty() {
                    // An answer while results are still to come: the model hears of the next one.
                    if !pending.any_ended(cancel).await {
                        return Err(RunError::Cancelled);
                    }
                    continue;
                }
                if let Some(expected) = expected
                    && calls.is_empty()
                {
                    answers_checked += 1;
                    if let Err(error) = (expected.check)(&outcome.text) {
                        if answers_checked > expected.retries || last_answer {
                            return Err(RunError::InvalidOutput { attempts: answers_checked, error });
                        }
                        conversation.items.push(api.user(&expected::correction(&error)));
                        continue;
                    }
                }
                if calls.is_empty() {
                    return Ok(outcome);
                }
                let runs = batch::run(settings, &registry, calls, cancel, &mut pending).await;
                let results: Vec<_> = runs.iter().map(|run| run.result.clone()).collect();
                conversation.items.extend(api.results(&results));
                let terminate = runs.iter().all(|run| run.terminate);
                let handoff = self.handed_to(&runs).cloned();
                outcome.tool_runs.extend(runs);
                if cancel.is_cancelled() {
                    return Err(RunError::Cancelled);
                }
                if terminate {
                    outcome.terminated = true;
                    return Ok(outcome);
                }
                if let Some(handoff) = handoff {
                    settings.emit(Event::HandedOff { to: handoff.name.clone() });
                    outcome.handoffs.push(handoff.name);
                    let mut next = handoff.agent.settings.clone();
                    next.events.clone_from(&settings.events);
                    return handoff.agent.rounds(&next, conversation, cancel, expected, outcome, pending).await;
                }
            }
        })
    }

    /// Whether the round after `done` rounds of this agent (`total` in the run) is its last,
    /// asked without tools; past the limit with [`RoundLimit::Fail`], the run's error. Shared
    /// by the ordinary and the durable loop.
    fn last_round(&self, done: usize, total: usize) -> Result<bool, RunError> {
        let last_answer = done == self.max_rounds;
        if last_answer && self.round_limit == RoundLimit::Fail {
            return Err(RunError::RoundLimit { rounds: total });
        }
        Ok(last_answer)
    }
}

/// The result of a call made after the round limit, when the model was offered no tools:
/// every call still gets one result.
fn round_limit_denial(call: &crate::provider::ToolCall) -> crate::provider::CallResult {
    let reason = "the round limit was reached; answer without tools".to_owned();
    let outcome = Err(crate::ToolError::Denied { tool: call.name.clone(), reason });
    crate::provider::CallResult { id: call.id.clone(), name: call.name.clone(), outcome }
}

/// A run's span, in the OpenTelemetry gen-AI conventions: its token usage and `error.type`
/// are recorded when it ends.
fn invoke_agent_span(api: Api) -> tracing::Span {
    tracing::info_span!(
        "invoke_agent",
        otel.name = "invoke_agent",
        gen_ai.operation.name = "invoke_agent",
        gen_ai.provider.name = api.provider_name(),
        gen_ai.usage.input_tokens = tracing::field::Empty,
        gen_ai.usage.output_tokens = tracing::field::Empty,
        error.type = tracing::field::Empty,
    )
}

/// A model request's span, inside its run's.
fn chat_span(api: Api) -> tracing::Span {
    tracing::info_span!(
        "chat",
        otel.name = "chat",
        otel.kind = "client",
        gen_ai.operation.name = "chat",
        gen_ai.provider.name = api.provider_name(),
        gen_ai.usage.input_tokens = tracing::field::Empty,
        gen_ai.usage.output_tokens = tracing::field::Empty,
        error.type = tracing::field::Empty,
    )
}
