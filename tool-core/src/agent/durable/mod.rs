//! Durable runs on Restate (feature `restate`): [`Agent::run_durable`](crate::agent::Agent::run_durable) runs the loop inside
//! a Restate handler, each model request and each tool call a journaled step
//! (`ctx.run`), so a process that dies mid-run resumes where it stopped, on any process,
//! without asking the model again or calling a finished tool again; a call that needs
//! approval waits on a Restate awakeable, for as long as it takes, across restarts.
//!
//! The calls of a turn run as in [`Agent::run`](crate::agent::Agent::run): each call through
//! `prepare`, `authorize`, approval and `before_call` in call order; then all of them
//! together, up to the agent's [`max_concurrency`](crate::agent::Agent::max_concurrency)
//! (one at a time when it or a tool says `sequential`); then `after_call` and
//! [`Event::ToolFinished`](crate::agent::Event::ToolFinished) for each, in call order, once
//! every call has ended.
//!
//! Their results are journaled in call order: Restate's Rust SDK journals a step only when it
//! is awaited alone, so a call that ends while an earlier one still runs waits for it to be
//! journaled.
//!
//! What runs when:
//! - **Exactly once** (journaled): a model request that answered, a tool call whose result
//!   was journaled (an error result too), the batch's `after_call`s (one step, on the
//!   results as the journal keeps them), an approver's verdict.
//! - **At least once**: a tool call whose process died before its result was journaled runs
//!   again when the run resumes (one that ended while an earlier call still ran, too); so
//!   does a model request cut short the same way.
//! - **Again on every replay** (the code between steps): `prepare`, `authorize` and
//!   `before_call`, the approval policy, [`Event::ToolStarted`](crate::agent::Event::ToolStarted),
//!   and the conversation's bookkeeping. They must decide the same way each time, as
//!   workflow code must.
//!
//! A model step that fails is retried ([`MODEL_ATTEMPTS`] attempts in all), then the run
//! fails with [`RunError::Model`]; Restate's cancellation of the invocation ends the run
//! with [`RunError::Cancelled`] at its next step.

mod batch;
mod context;
mod journal;
mod run;

use restate_sdk::errors::TerminalError;
use restate_sdk::serde::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use context::{ApprovalContext, RunContext};
#[doc(hidden)]
pub use context::{Journaled, Step};

use super::RunError;
use super::hooks::Verdict;
use crate::provider::Arguments;

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
            Decision::Edit { arguments } => Verdict::Edit(Arguments::Value(arguments)),
        }
    }
}

/// A decision on one call: what a run's approval handler takes ([`decide`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Approval {
    /// The call decided on ([`PendingApproval::call_id`]).
    pub call_id: String,
    /// The decision.
    #[serde(flatten)]
    pub decision: Decision,
}

impl Approval {
    /// `decision` on the call `call_id`.
    #[must_use]
    pub fn new(call_id: impl Into<String>, decision: Decision) -> Self {
        Approval { call_id: call_id.into(), decision }
    }
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

/// The state key under which a run keeps the deferred call it waits on ([`DeferredCall`]);
/// [`deferred`] and [`answer`] read it.
pub const DEFERRED_KEY: &str = "tool_core.deferred";

/// A call to a deferred tool ([`DynamicTool::deferred`](crate::DynamicTool::deferred)) that a
/// durable run waits on, kept in its state under [`DEFERRED_KEY`] while it waits: the run
/// goes on when the application answers it, however long that takes, across restarts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct DeferredCall {
    /// The call's id.
    pub call_id: String,
    /// The tool it calls.
    pub tool: String,
    /// Its arguments, as the tool's schema checked them.
    pub arguments: Value,
    /// The Restate awakeable the run waits on: resolve it with a [`DeferredAnswer`] through
    /// [`answer`], or from outside through Restate's ingress
    /// (`POST /restate/awakeables/{id}/resolve`); rejecting it fails the call.
    pub awakeable: String,
}

/// The application's answer to a deferred call, as it travels to the run (the awakeable's
/// value). In JSON: `{"call_id": "..", "output": "Confirmed."}`, or with
/// `"is_error": true` for the call's failure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct DeferredAnswer {
    /// The call answered ([`DeferredCall::call_id`]).
    pub call_id: String,
    /// What the model reads: text, or any JSON value.
    pub output: Value,
    /// Whether the answer is the call's failure.
    #[serde(default)]
    pub is_error: bool,
}

impl DeferredAnswer {
    /// `output` as the answer to the call `call_id`.
    #[must_use]
    pub fn new(call_id: impl Into<String>, output: impl Into<Value>) -> Self {
        DeferredAnswer { call_id: call_id.into(), output: output.into(), is_error: false }
    }

    /// The answer as the call's failure.
    #[must_use]
    pub fn failed(mut self) -> Self {
        self.is_error = true;
        self
    }

    /// The call's result, for the tool `tool`.
    pub(super) fn into_outcome(self, tool: &str) -> Result<crate::ToolOutput, crate::ToolError> {
        let text = |value: Value| match value {
            Value::String(text) => text,
            other => other.to_string(),
        };
        if self.is_error {
            return Err(crate::ToolError::Failed { tool: tool.to_owned(), message: text(self.output) });
        }
        Ok(match self.output {
            Value::String(text) => crate::ToolOutput::text(text),
            other => crate::output::IntoToolOutput::into_tool_output(other).unwrap_or_else(crate::ToolOutput::text),
        })
    }
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

/// The deferred call the run behind `ctx` waits on, if any: for a shared handler beside the
/// run.
///
/// # Errors
/// Restate's, reading the state.
pub async fn deferred<C: ApprovalContext>(ctx: &C) -> Result<Option<DeferredCall>, TerminalError> {
    Ok(ctx.__deferred().await?.map(Json::into_inner))
}

/// Hands `answer` to the run behind `ctx`, which goes on with it: for a shared handler beside
/// the run.
///
/// # Errors
/// A terminal error (404) when no deferred call, or another one, waits.
pub async fn answer<C: ApprovalContext>(ctx: &C, answer: DeferredAnswer) -> Result<(), TerminalError> {
    match deferred(ctx).await? {
        Some(waiting) if waiting.call_id == answer.call_id => {
            ctx.__answer(&waiting.awakeable, answer);
            Ok(())
        }
        Some(waiting) => Err(TerminalError::new_with_code(
            404,
            format!("call {:?} does not wait for an answer; call {:?} does", answer.call_id, waiting.call_id),
        )),
        None => {
            Err(TerminalError::new_with_code(404, format!("call {:?} does not wait for an answer", answer.call_id)))
        }
    }
}

impl From<RunError> for TerminalError {
    /// A run's error as the handler's terminal error (409 for a cancelled run, 500 for the
    /// rest), so Restate does not retry a run that failed as a whole. Return it with
    /// `.map_err(TerminalError::from)?`: `?` alone would make a retryable error of it.
    fn from(error: RunError) -> Self {
        let code = if matches!(error, RunError::Cancelled) { 409 } else { 500 };
        TerminalError::new_with_code(code, error.to_string())
    }
}
