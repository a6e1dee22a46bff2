//! [`Event`]: what a run reports as it goes, for user interfaces and logs.

use core::time::Duration;

use serde_json::Value;

use super::model::{Delta, StopReason, Usage};
use crate::context::Progress;

/// One thing that happened in a run, in order.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// The run began.
    RunStarted,
    /// A tool source was left out of this run (it failed to list its tools, or would take a
    /// name another source has); the other sources' tools are offered.
    ToolSourceLeftOut {
        /// What went wrong.
        problem: crate::registry::ResolveError,
    },
    /// A source of context ([`Agent::preload`](super::Agent::preload)) failed; the run goes on
    /// without its text.
    PreloadFailed {
        /// What went wrong.
        problem: String,
    },
    /// A round began: a model request and, if it asks, a batch of calls.
    TurnStarted {
        /// The round, from 1.
        round: usize,
    },
    /// The model is being asked.
    ModelRequest {
        /// The round.
        round: usize,
        /// Whether tools are offered (not in a last answer after the round limit).
        with_tools: bool,
    },
    /// Text as the model streams it.
    TextDelta(String),
    /// What the model writes while it reasons, as it streams it (Anthropic's thinking, the
    /// Responses API's reasoning summaries, Gemini's thoughts, `reasoning_content`).
    ReasoningDelta(String),
    /// What the model wrote while it reasoned in a turn, whole, once the turn is in
    /// ([`ModelTurn::reasoning`](crate::provider::ModelTurn::reasoning)); streamed or not.
    Reasoning {
        /// The round (1 for the first).
        round: usize,
        /// The reasoning's text.
        text: String,
    },
    /// A tool call as the model streams it (for a UI showing `get_weather(city: "Par…`):
    /// everything known of it so far. The call may start once the stream closes it
    /// ([`Agent::early_calls`](super::Agent::early_calls)), or else once the turn is whole.
    ToolCallDelta {
        /// Its place among the turn's calls.
        index: usize,
        /// Its id (empty until the stream has named it).
        id: String,
        /// The tool (empty until the stream has named it).
        name: String,
        /// The argument text so far.
        arguments: String,
        /// The arguments so far as a value, closed where the text stops (`{"city": "Par` reads
        /// as `{"city": "Par"}`; a key not yet given a value is left out, so `{"ci` reads as
        /// `{}`); `None` while nothing can be made of them.
        partial: Option<Value>,
    },
    /// The model answered.
    ModelResponse {
        /// The round.
        round: usize,
        /// Why it stopped.
        stop: StopReason,
        /// What it used.
        usage: Usage,
        /// How many calls it made.
        calls: usize,
    },
    /// A call has been through its hooks and approval and is about to run: every call of a
    /// turn gets one, in call order, before it runs (a refused call too; its
    /// [`Event::ToolFinished`] carries the refusal). With [`Agent::early_calls`](super::Agent::early_calls),
    /// a call may start while the model still writes the next one; without, every call of a
    /// turn gets its event before any of them runs.
    ToolStarted {
        /// The call's id.
        id: String,
        /// The tool.
        name: String,
    },
    /// A call to a deferred tool ([`DynamicTool::deferred`](crate::DynamicTool::deferred))
    /// was handed back to the application: it does not run, and the run ends once the turn's
    /// other calls are answered ([`RunOutcome::deferred`](super::RunOutcome::deferred)).
    ToolDeferred {
        /// The call's id.
        id: String,
        /// The tool.
        name: String,
    },
    /// A call to a task-capable tool outlasted [`Agent::background_after`](super::Agent::background_after):
    /// the model is told it goes on, and its result comes in a later round (then
    /// [`Event::ToolFinished`]).
    ToolBackgrounded {
        /// The call's id.
        id: String,
        /// The tool.
        name: String,
    },
    /// An event of an agent run as a tool of this one ([`Agent::into_tool`](super::Agent::into_tool)),
    /// under the call that runs it.
    Nested {
        /// The id of this run's call that runs the other agent.
        call_id: String,
        /// What happened in that agent's run.
        event: Box<Event>,
    },
    /// A running call reported progress.
    ToolProgress(Progress),
    /// A call has its result (it ran, or was denied, timed out or was cancelled).
    ToolFinished {
        /// The call's id.
        id: String,
        /// The tool.
        name: String,
        /// Whether the result is an error.
        is_error: bool,
        /// How long it ran.
        elapsed: Duration,
        /// What the program keeps about the call and never sends to the model
        /// ([`ToolOutput::with_details`](crate::ToolOutput::with_details), or `after_call`'s).
        details: Option<Value>,
    },
    /// The model handed the conversation to another agent ([`Agent::handoff`](super::Agent::handoff)),
    /// which answers from the next round.
    HandedOff {
        /// The handoff's tool name.
        to: String,
    },
    /// The run ended.
    RunFinished {
        /// Rounds taken.
        rounds: usize,
        /// Tokens used in all.
        usage: Usage,
    },
}

impl Event {
    /// The event a model's [`Delta`] makes, if any (a closed call is told by
    /// [`Event::ToolStarted`] when it starts).
    pub(super) fn from_delta(delta: Delta<'_>) -> Option<Event> {
        Some(match delta {
            Delta::Text(text) => Event::TextDelta(text.to_owned()),
            Delta::Reasoning(text) => Event::ReasoningDelta(text.to_owned()),
            Delta::ToolCall { index, id, name, arguments } => {
                let partial = crate::provider::parse_arguments(arguments).value;
                Event::ToolCallDelta {
                    index,
                    id: id.to_owned(),
                    name: name.to_owned(),
                    arguments: arguments.to_owned(),
                    partial,
                }
            }
            _ => return None,
        })
    }
}
