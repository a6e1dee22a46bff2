#![doc = include_str!("../../docs/agent.md")]

mod background;
mod batch;
mod builder;
#[cfg(feature = "clients")]
pub mod clients;
mod deferred;
mod direct;
mod driver;
#[cfg(feature = "restate")]
pub mod durable;
mod events;
mod handoff;
mod hooks;
mod model;
mod partial;
mod preload;
mod record;
mod repeats;
mod round;
mod rounds;
mod run;
mod scripted;
mod snapshot;
mod steps;
mod stop;
mod subagent;
mod taking;
mod typed;

use core::time::Duration;
use std::sync::Arc;

use serde_json::Value;

pub use builder::EarlyCalls;
pub use deferred::NotDeferred;
pub use events::Event;
pub use handoff::HandoffError;
pub use hooks::{ApprovalPolicy, Approver, Hooks, NoHooks, ToolRun, Verdict, VerdictFuture};
pub use model::{Api, Delta, DeltaSink, Model, ModelError, ModelFuture, ModelRequest, ModelTurn, StopReason, Usage};
pub use partial::PartialTurn;
pub use preload::{Preload, PreloadFuture};
pub use scripted::{ScriptedModel, SeenRequest};
pub use snapshot::{RunSnapshot, Steering};
pub use stop::{StopAfter, StopWhen, Stopped};
pub use typed::{Answer, OutputMode};

use crate::provider::{Sampling, ToolChoice};
use crate::registry::Registry;

/// What happens when the model still calls tools after the last round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum RoundLimit {
    /// The run fails with [`RunError::RoundLimit`].
    #[default]
    Fail,
    /// The model is asked once more, without tools, for a final answer.
    FinalAnswer,
}

/// A conversation in one [`Api`]'s shape, kept by the agent across runs; serializable
/// (`{"api": "openai_chat", "items": [..]}`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Conversation {
    api: Api,
    items: Vec<Value>,
    /// The last turn's results while some of its calls wait for the application.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    handed_back: Option<deferred::Deferral>,
}

impl Conversation {
    /// An empty conversation in `api`'s shape.
    #[must_use]
    pub fn new(api: Api) -> Self {
        Conversation { api, items: Vec::new(), handed_back: None }
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
#[non_exhaustive]
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
    /// Why the model's last turn ended: [`StopReason::MaxTokens`] when its answer was cut off
    /// at the output limit.
    pub stop: StopReason,
    /// The calls handed back to the application, which ended the run: calls to deferred tools
    /// ([`DynamicTool::deferred`](crate::DynamicTool::deferred)), with their arguments as
    /// checked. Answer each ([`Conversation::answer`]), then go on
    /// ([`Agent::resume`]); until then the conversation holds the turn's other results.
    pub deferred: Vec<crate::provider::ToolCall>,
    /// Why the loop ended the run rather than the model's answer, if it did: then `text` is
    /// the tools' outputs ([`Stopped::AfterTools`]), or the model's last text.
    pub stopped: Option<Stopped>,
}

/// Why a run did not end with an answer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RunError {
    /// The model failed; what it had written of its turn before it did is kept.
    Model {
        /// How it failed.
        error: ModelError,
        /// The text, reasoning and whole calls of the turn it failed in, as they had
        /// streamed.
        partial: PartialTurn,
    },
    /// The tools cannot be offered: a handoff's tool has the name of one of the agent's
    /// live tools (a name belongs to one source).
    Tools(crate::registry::ResolveError),
    /// The model still called tools after the last round.
    RoundLimit {
        /// Rounds taken.
        rounds: usize,
    },
    /// The run was cancelled (every call in flight was answered first).
    Cancelled,
    /// The tool choice names a tool the registry lacks.
    InvalidToolChoice(crate::ToolError),
    /// The tool choice asks for a call ([`ToolChoice::Required`], a tool, a list of tools)
    /// but the agent has no tools to offer.
    ToolChoiceWithoutTools,
    /// The model refused, or a content filter stopped its turn, before a typed run
    /// ([`Agent::run_for`]) got its answer; none of that turn's calls ran (but those that
    /// started early). A plain run ends `Ok` with [`StopReason::Refusal`] as its `stop`.
    Refused {
        /// What the model wrote, if anything.
        text: String,
    },
    /// A run cannot go on while calls handed back to the application wait for their
    /// answers ([`Conversation::answer`]).
    Unanswered {
        /// The ids of the calls that wait.
        calls: Vec<String>,
    },
    /// A typed run ([`Agent::run_for`]) ended with calls handed back to the application
    /// (deferred tools); its conversation holds the turn. Answer them
    /// ([`Conversation::answer`]) and go on with [`Agent::resume`], whose answer is text.
    Deferred {
        /// The calls handed back.
        calls: Vec<crate::provider::ToolCall>,
    },
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
    /// The variant's name in `snake_case` (`model`, `tools`, `round_limit`, `cancelled`,
    /// `invalid_tool_choice`, `tool_choice_without_tools`, `refused`, `unanswered`, `deferred`,
    /// `invalid_output`), for metrics and traces (OpenTelemetry's `error.type`).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            RunError::Model { .. } => "model",
            RunError::Tools(_) => "tools",
            RunError::RoundLimit { .. } => "round_limit",
            RunError::Cancelled => "cancelled",
            RunError::InvalidToolChoice(_) => "invalid_tool_choice",
            RunError::ToolChoiceWithoutTools => "tool_choice_without_tools",
            RunError::Refused { .. } => "refused",
            RunError::Unanswered { .. } => "unanswered",
            RunError::Deferred { .. } => "deferred",
            RunError::InvalidOutput { .. } => "invalid_output",
        }
    }
}

impl core::fmt::Display for RunError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RunError::Model { error, .. } => error.fmt(f),
            RunError::Tools(error) => error.fmt(f),
            RunError::RoundLimit { rounds } => write!(f, "the model still called tools after {rounds} rounds"),
            RunError::Cancelled => f.write_str("the run was cancelled"),
            RunError::InvalidToolChoice(error) => write!(f, "invalid tool choice: {error}"),
            RunError::ToolChoiceWithoutTools => {
                f.write_str("the tool choice asks for a tool call, but there are no tools")
            }
            RunError::Refused { text } if text.is_empty() => {
                f.write_str("the model refused, or a content filter stopped it, before answering")
            }
            // The model's words are data: quoted, not followed.
            RunError::Refused { text } => write!(
                f,
                "the model refused, or a content filter stopped it, before answering; it wrote {}",
                crate::validate::violation::preview(&Value::from(text.as_str()))
            ),
            RunError::Unanswered { calls } => {
                write!(f, "the run cannot go on: the deferred call(s) {calls:?} wait for the application's answer")
            }
            RunError::Deferred { calls } => {
                let ids: Vec<&str> = calls.iter().map(|call| call.id.as_str()).collect();
                write!(f, "the run handed call(s) {ids:?} back to the application before it answered")
            }
            // An answer's violations, not a tool call's: no tool name, no "call it again".
            RunError::InvalidOutput { attempts, error: crate::ToolError::InvalidArguments { violations, .. } } => {
                write!(f, "the model gave no valid answer in {attempts} attempt(s); the last:\n{violations}")
            }
            RunError::InvalidOutput { attempts, error } => {
                write!(f, "the model gave no valid answer in {attempts} attempt(s); the last: {error}")
            }
        }
    }
}

impl std::error::Error for RunError {}

type EventSink = Arc<dyn Fn(&Event) + Send + Sync>;
type SnapshotSink = Arc<dyn Fn(&RunSnapshot) + Send + Sync>;

/// What a batch needs of the agent.
#[derive(Clone)]
pub(crate) struct Settings {
    max_concurrency: usize,
    sequential: bool,
    early_calls: EarlyCalls,
    call_timeout: Duration,
    cancel_grace: Duration,
    approval: ApprovalPolicy,
    approval_timeout: Duration,
    approver: Option<Arc<dyn Approver>>,
    hooks: Arc<dyn Hooks>,
    events: Option<EventSink>,
    background_after: Option<Duration>,
    max_repeats: usize,
    stop_after: StopAfter,
    /// The run's calls so far (see [`Settings::for_run`]).
    repeats: repeats::Repeats,
    snapshots: Option<SnapshotSink>,
    steering: Option<Steering>,
    host: Option<Arc<dyn crate::context::Host>>,
}

impl Settings {
    /// These settings for a new run: its own count of repeated calls.
    fn for_run(&self) -> Settings {
        Settings { repeats: repeats::Repeats::default(), ..self.clone() }
    }

    fn emit(&self, event: Event) {
        if let Some(events) = &self.events {
            events(&event);
        }
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
    /// Instructions written for each round from the run's state.
    instructions: Option<Instructions>,
    max_rounds: usize,
    round_limit: RoundLimit,
    strict: bool,
    tool_choice: Option<ToolChoice>,
    sampling: Option<Sampling>,
    output_mode: OutputMode,
    lenient: bool,
    settings: Settings,
    /// The agents the model may hand the conversation to, each with its tool.
    handoffs: Arc<Vec<handoff::Handoff>>,
    /// What loads context before a run ([`Agent::preload`]).
    preloads: Arc<Vec<Arc<dyn Preload>>>,
}

/// Writes a round's instructions from the run's state ([`Agent::instructions`]).
type Instructions = Arc<dyn Fn(&TurnState<'_>) -> Option<String> + Send + Sync>;

/// What a round's instructions are written from ([`Agent::instructions`]).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct TurnState<'a> {
    /// The round about to be asked (1 for the first).
    pub round: usize,
    /// The conversation so far, in the model's [`Api`] shape: the user's message, and every
    /// turn and result before this round.
    pub history: &'a [Value],
}

/// Where an agent's tools come from.
#[derive(Clone)]
enum Tools {
    Fixed(Arc<Registry>),
    Live(Arc<dyn Fn() -> Arc<Registry> + Send + Sync>),
    /// Resolved from the sources at the start of each run.
    Sources(Arc<crate::registry::ToolSources>),
}

impl Tools {
    fn current(&self) -> Arc<Registry> {
        match self {
            Tools::Fixed(registry) => Arc::clone(registry),
            Tools::Live(source) => source(),
            Tools::Sources(sources) => sources.current(),
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
