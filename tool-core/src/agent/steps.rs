//! How a run takes its two kinds of step ([`Steps`]): the ordinary run (`Direct`) asks the
//! model and runs a batch concurrently (`direct.rs`); the durable run journals each request
//! and each call. What the round loop (`rounds.rs`) carries between rounds: the run so far
//! ([`Progress`]) and where it goes on ([`Run`]).

use core::future::Future;
use core::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

use super::background::Pending;
use super::driver::{Closed, Driver};
use super::model::{ModelRequest, ModelTurn, StopReason, Usage};
use super::record::CallFacts;
use super::typed::Expected;
use super::{Agent, Conversation, RunError, Settings, ToolRun};
use crate::context::CancellationToken;
use crate::provider::ToolCall;
use crate::registry::Registry;

/// A boxed future the loop awaits.
pub(super) type StepFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A batch's answers: the history items that answer its calls, each call's record, and the
/// error that stopped it partway (every call still answered).
pub(super) struct Batch<R> {
    pub(super) items: Vec<Value>,
    pub(super) records: Vec<R>,
    pub(super) error: Option<RunError>,
    /// The turn, when calls of it were handed back: its results wait in the conversation
    /// rather than join `items`.
    pub(super) handed_back: Option<super::deferred::Deferral>,
}

/// How a run takes its steps.
pub(super) trait Steps: Sync {
    /// What the run keeps of each call.
    type Record: CallFacts + Send;

    /// The settings `agent`'s rounds run with in a run whose settings are `run` (its events
    /// go to the run's sink).
    fn settings(&self, agent: &Agent, run: &Settings) -> Settings {
        let mut settings = agent.settings.clone();
        settings.events.clone_from(&run.events);
        settings.repeats = run.repeats.clone();
        settings
    }

    /// Whether a live registry is read again at each round.
    fn rereads_tools(&self) -> bool;

    /// Whether calls may start while the model writes (`driver.rs`).
    fn starts_early(&self) -> bool {
        false
    }

    /// One model request; the calls its stream closes go to `closed`, if given.
    fn model<'a>(
        &'a self,
        agent: &'a Agent,
        settings: &'a Settings,
        request: ModelRequest<'a>,
        round: usize,
        cancel: &'a CancellationToken,
        closed: Option<Arc<Closed>>,
    ) -> StepFuture<'a, Result<ModelTurn, RunError>>;

    /// One batch of calls, answered in call order; with `early`, those it started while the
    /// model wrote.
    #[expect(clippy::too_many_arguments, reason = "the run's parts, each borrowed on its own")]
    fn calls<'a>(
        &'a self,
        agent: &'a Agent,
        settings: &'a Settings,
        registry: &'a Arc<Registry>,
        calls: Vec<ToolCall>,
        cancel: &'a CancellationToken,
        pending: &'a mut Pending,
        early: Option<Driver<'a>>,
    ) -> StepFuture<'a, Batch<Self::Record>>;

    /// The record of a call that finished in the background.
    fn finished(&self, agent: &Agent, run: ToolRun) -> Self::Record;
}

/// A run so far.
pub(super) struct Progress<R> {
    /// The model's last text.
    pub(super) text: String,
    /// Rounds taken.
    pub(super) rounds: usize,
    /// Tokens used.
    pub(super) usage: Usage,
    /// Whether a batch asked to end the run.
    pub(super) terminated: bool,
    /// Every call, in order.
    pub(super) calls: Vec<R>,
    /// The agents the run was handed to.
    pub(super) handoffs: Vec<String>,
    /// Why the model's last turn ended.
    pub(super) stop: StopReason,
    /// The calls handed back to the application, which end the run.
    pub(super) deferred: Vec<ToolCall>,
    /// Why the loop ended the run, if it did.
    pub(super) stopped: Option<super::Stopped>,
    /// How many calls had been refused as repeats when the last batch ended.
    pub(super) repeats_told: usize,
}

impl Progress<ToolRun> {
    /// The outcome of a run that got this far.
    pub(super) fn into_outcome(self) -> super::RunOutcome {
        super::RunOutcome {
            text: self.text,
            rounds: self.rounds,
            usage: self.usage,
            terminated: self.terminated,
            tool_runs: self.calls,
            handoffs: self.handoffs,
            stop: self.stop,
            deferred: self.deferred,
            stopped: self.stopped,
        }
    }
}

impl<R> Default for Progress<R> {
    fn default() -> Self {
        Progress {
            text: String::new(),
            rounds: 0,
            usage: Usage::default(),
            terminated: false,
            calls: Vec::new(),
            handoffs: Vec::new(),
            stop: StopReason::EndTurn,
            deferred: Vec::new(),
            stopped: None,
            repeats_told: 0,
        }
    }
}

/// Where a run's rounds go on: its steps, its conversation, its cancellation and the form of
/// its answer.
pub(super) struct Run<'a, S: Steps> {
    pub(super) steps: &'a S,
    pub(super) conversation: &'a mut Conversation,
    pub(super) cancel: &'a CancellationToken,
    pub(super) expected: Option<&'a Expected<'a>>,
    pub(super) pending: Pending,
    /// The context loaded for this run ([`Agent::preload`](super::Agent::preload)).
    pub(super) preloaded: Option<String>,
}
