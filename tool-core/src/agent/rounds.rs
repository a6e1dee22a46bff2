//! The round loop, written once for every kind of run: ask the model, take its turn, check a
//! typed answer, run its calls, answer them, follow a handoff. How a run takes its two kinds
//! of step is a [`Steps`]: the ordinary run (`Direct`) asks the model and runs a batch
//! concurrently (`direct.rs`); the durable run journals each request and each call.

use core::future::Future;
use core::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

use super::background::Pending;
use super::early::{Closed, Early};
use super::model::{ModelRequest, ModelTurn, StopReason, Usage};
use super::record::CallFacts;
use super::typed::{self, Expected, answer_calls};
use super::{Agent, Conversation, Event, RunError, Settings, ToolRun, Tools};
use crate::context::CancellationToken;
use crate::provider::{ToolCall, ToolChoice};
use crate::registry::Registry;

/// A boxed future the loop awaits.
pub(super) type StepFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A batch's answers: the history items that answer its calls, each call's record, and the
/// error that stopped it partway (every call still answered).
pub(super) struct Batch<R> {
    pub(super) items: Vec<Value>,
    pub(super) records: Vec<R>,
    pub(super) error: Option<RunError>,
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

    /// Whether calls may start while the model writes (`early.rs`).
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
        early: Option<Early<'a>>,
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
}

impl Agent {
    /// This agent's rounds of `run` (with `settings`), from where `progress` says the run is;
    /// after a handoff, the other agent's.
    pub(super) fn rounds<'a, S: Steps>(
        &'a self,
        settings: &'a Settings,
        mut run: Run<'a, S>,
        mut progress: Progress<S::Record>,
    ) -> StepFuture<'a, Result<Progress<S::Record>, RunError>> {
        Box::pin(async move {
            let mut answers_checked = 0;
            let api = self.model.api();
            let answer_tool = run.expected.and_then(Expected::tool_name);
            if let Tools::Sources(sources) = &self.tools {
                // A source that fails now is left out of this run, said in an event; the
                // others' tools are offered.
                for problem in sources.refresh().await.1 {
                    settings.emit(Event::ToolSourceLeftOut { problem });
                }
            }
            if let Some(clash) = self.handoff_clash() {
                return Err(RunError::Tools(clash));
            }
            let mut source = self.tools_now();
            let with_answer = |registry: &Arc<Registry>| self.prepare(registry, run.expected);
            let mut registry = with_answer(&source);
            let answer_registry = run.expected.and_then(Expected::tool_only).map(Arc::new);
            let answer_only = answer_registry.as_deref().map(|only| api.tools(only, self.strict));
            let system = match run.expected.and_then(|expected| expected.instructions.as_deref()) {
                Some(instructions) => Some(match &self.system {
                    Some(system) => format!("{system}\n\n{instructions}"),
                    None => instructions.to_owned(),
                }),
                None => self.system.clone(),
            };
            let (mut tools, mut tool_choice) = self.offer(&registry)?;
            let first = progress.rounds;
            loop {
                let last_answer = self.last_round(progress.rounds - first, progress.rounds)?;
                progress.rounds += 1;
                let round = progress.rounds;
                if let Tools::Live(_) | Tools::Sources(_) = &self.tools
                    && run.steps.rereads_tools()
                {
                    let now = self.tools_now();
                    if !Arc::ptr_eq(&now, &source) {
                        registry = with_answer(&now);
                        (tools, tool_choice) = self.offer(&registry)?;
                        source = now;
                    }
                }
                for (finished, note) in run.pending.finished() {
                    run.conversation.items.push(api.user(&note));
                    settings.emit(Event::ToolFinished {
                        id: finished.call.id.clone(),
                        name: finished.call.name.clone(),
                        is_error: finished.result.is_error(),
                        elapsed: finished.elapsed,
                        details: finished.details.clone(),
                    });
                    progress.calls.push(run.steps.finished(self, finished));
                }
                if let Some(steering) = &settings.steering {
                    for message in steering.take() {
                        run.conversation.items.push(api.user(&message));
                    }
                }
                settings.emit(Event::TurnStarted { round });
                let offered = if last_answer { answer_only.as_ref() } else { tools.as_ref() };
                settings.emit(Event::ModelRequest { round, with_tools: offered.is_some() });
                let request = ModelRequest {
                    system: system.as_deref(),
                    history: &run.conversation.items,
                    tools: offered,
                    tool_choice: offered.and(tool_choice.as_ref()),
                    output: run.expected.and_then(|expected| expected.format.as_ref()),
                    sampling: self.sampling.as_ref(),
                };
                // Calls may start while the model writes, but not in a last round (its calls
                // are denied, or run against the answer tool alone).
                let turn_cancel = CancellationToken::new();
                let mut early = (settings.early_calls && run.steps.starts_early() && !last_answer)
                    .then(|| Early::new(settings, &registry, run.cancel, &turn_cancel, answer_tool));
                let step = run.steps.model(self, settings, request, round, run.cancel, early.as_ref().map(Early::sink));
                let turn = match &mut early {
                    Some(early) => early.alongside(step).await,
                    None => step.await,
                };
                let turn = match (turn, early.take()) {
                    (Ok(turn), taken) => {
                        early = taken;
                        turn
                    }
                    (Err(error), Some(started)) => {
                        for abandoned in started.abandon().await {
                            progress.calls.push(run.steps.finished(self, abandoned));
                        }
                        return Err(error);
                    }
                    (Err(error), None) => return Err(error),
                };
                progress.usage += turn.usage;
                // A last round of a run with an answer tool offers that tool alone, and runs
                // the calls against it alone: a call to another tool is answered as unknown.
                let only_answer = last_answer && answer_only.is_some();
                let denies = last_answer && !only_answer;
                let started = early.as_ref().map_or(0, Early::taken);
                let taken = settings.take_turn(api, run.conversation, &mut progress, round, turn, denies, started);
                let Some(taken) = taken else {
                    if last_answer {
                        return Ok(progress);
                    }
                    continue;
                };
                let (calls, cut_off) = (taken.calls, taken.cut_off);
                if calls.is_empty() && !last_answer && !run.pending.is_empty() {
                    // An answer while results are still to come: the model hears of the next one.
                    if !run.pending.any_ended(run.cancel).await {
                        return Err(RunError::Cancelled);
                    }
                    continue;
                }
                if let Some(expected) = run.expected
                    && calls.is_empty()
                {
                    answers_checked += 1;
                    if let Err(error) = (expected.check)(&progress.text) {
                        if answers_checked > expected.retries || last_answer {
                            return Err(RunError::InvalidOutput { attempts: answers_checked, error });
                        }
                        run.conversation.items.push(api.user(&typed::correction(&error, answer_tool)));
                        continue;
                    }
                }
                if calls.is_empty() {
                    return Ok(progress);
                }
                // An answer beside other calls was written before their results: refused
                // (by the tool), and not counted as an answer; in the last round no other
                // call can run, and it is taken.
                let beside_others = !only_answer
                    && answer_tool.is_some_and(|name| {
                        calls.iter().any(|call| call.name == name) && calls.iter().any(|call| call.name != name)
                    });
                if let Some(expected) = run.expected {
                    expected.alone.store(!beside_others, core::sync::atomic::Ordering::Relaxed);
                }
                let batch_registry = match &answer_registry {
                    Some(only) if only_answer => only,
                    _ => &registry,
                };
                let batch =
                    run.steps.calls(self, settings, batch_registry, calls, run.cancel, &mut run.pending, early).await;
                run.conversation.items.extend(batch.items);
                run.conversation.items.extend(cut_off);
                if let Some(sink) = &settings.snapshots {
                    let conversation = run.conversation.clone();
                    sink(&super::RunSnapshot { conversation, rounds: progress.rounds, usage: progress.usage });
                }
                let terminate = batch.records.iter().all(CallFacts::ends_run);
                let answers = answer_tool
                    .filter(|_| !beside_others)
                    .map(|name| answer_calls(&batch.records, name))
                    .unwrap_or_default();
                let handoff = self.handed_to(&batch.records).cloned();
                progress.calls.extend(batch.records);
                if let Some(error) = batch.error {
                    return Err(error);
                }
                if run.cancel.is_cancelled() {
                    return Err(RunError::Cancelled);
                }
                if answers.accepted {
                    return Ok(progress);
                }
                answers_checked += answers.count;
                if let Some(error) = answers.refused
                    && (last_answer || answers_checked > run.expected.map_or(0, |expected| expected.retries))
                {
                    return Err(RunError::InvalidOutput { attempts: answers_checked, error });
                }
                if last_answer && only_answer {
                    return Err(RunError::RoundLimit { rounds: progress.rounds });
                }
                if terminate {
                    progress.terminated = true;
                    return Ok(progress);
                }
                if let Some(handoff) = handoff {
                    settings.emit(Event::HandedOff { to: handoff.name.clone() });
                    progress.handoffs.push(handoff.name);
                    let next = run.steps.settings(&handoff.agent, settings);
                    return handoff.agent.rounds(&next, run, progress).await;
                }
            }
        })
    }

    /// The tool definitions and tool choice a round sends, for `registry`.
    fn offer(&self, registry: &Registry) -> Result<(Option<Value>, Option<Value>), RunError> {
        let api = self.model.api();
        let mut tools = (!registry.is_empty()).then(|| api.tools(registry, self.strict));
        // A call that may go on in the background answers at once: the model is told so.
        if let (Some(tools), Some(_)) = (&mut tools, self.settings.background_after) {
            let task_capable =
                registry.iter().filter(|entry| entry.task_support() != crate::tool::TaskSupport::Forbidden);
            for entry in task_capable {
                api.add_to_description(tools, entry.name(), super::background::LONG_RUNNING_NOTE);
            }
        }
        let tool_choice = match &self.tool_choice {
            None => None,
            // Without tools there is nothing to choose among, and nothing to send.
            Some(ToolChoice::Auto | ToolChoice::None) if tools.is_none() => None,
            Some(_) if tools.is_none() => return Err(RunError::ToolChoiceWithoutTools),
            Some(choice) => Some(api.tool_choice(choice, registry).map_err(RunError::InvalidToolChoice)?),
        };
        Ok((tools, tool_choice))
    }

    /// Whether the round after `done` rounds of this agent (`total` in the run) is its last,
    /// asked without tools; past the limit with [`RoundLimit::Fail`](super::RoundLimit::Fail),
    /// the run's error.
    fn last_round(&self, done: usize, total: usize) -> Result<bool, RunError> {
        let last_answer = done == self.max_rounds;
        if last_answer && self.round_limit == super::RoundLimit::Fail {
            return Err(RunError::RoundLimit { rounds: total });
        }
        Ok(last_answer)
    }
}
