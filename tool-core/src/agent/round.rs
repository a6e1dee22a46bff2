//! The parts of one round that `rounds.rs`'s loop takes in turn, each short enough to read
//! alone: the [`Plan`] of an agent's rounds (what stays the same through them), a round's
//! start (a live registry read again, background results and steering joining the
//! conversation), the request to the model, what a turn with no calls means for a typed
//! answer ([`Judged`]), and what a batch's answers mean for the run ([`Next`]).

use std::sync::Arc;

use serde_json::Value;

use super::handoff::Handoff;
use super::model::{Api, ModelRequest};
use super::record::CallFacts;
use super::steps::{Batch, Progress, Run, Steps};
use super::taking::Taken;
use super::typed::{self, Expected, answer_calls};
use super::{Agent, Event, RunError, Settings, Tools};
use crate::provider::ToolCall;
use crate::registry::Registry;

/// What stays the same through one agent's rounds of a run.
pub(super) struct Plan<'a> {
    pub(super) settings: &'a Settings,
    pub(super) api: Api,
    pub(super) expected: Option<&'a Expected<'a>>,
    /// The answer tool's name, for a typed run that answers through a tool.
    pub(super) answer_tool: Option<&'a str>,
    /// The answer tool alone (a last round offers nothing else), and its definitions.
    answer_registry: Option<Arc<Registry>>,
    answer_only: Option<Value>,
    /// The system prompt, with the typed answer's instructions.
    system: Option<String>,
    /// The run's rounds when this agent took it.
    pub(super) first: usize,
}

/// The tools a round offers: read again at each round from a live registry or sources.
pub(super) struct Offered {
    /// What they were made from, to see whether it changed.
    source: Arc<Registry>,
    pub(super) registry: Arc<Registry>,
    tools: Option<Value>,
    tool_choice: Option<Value>,
}

/// What a turn means for the loop before any call runs.
pub(super) enum Judged {
    /// Run these calls.
    Run(Taken),
    /// Ask again (a corrected answer, a background result to wait for, a dropped turn).
    NextRound,
    /// The run is over.
    Done,
    /// The run failed.
    Failed(RunError),
}

/// What a batch's answers mean for the run.
pub(super) enum Next {
    /// The next round comes.
    Round,
    /// The run is over.
    Done,
    /// The run failed.
    Failed(RunError),
    /// The run goes on with another agent.
    HandOff(Box<Handoff>),
}

/// How the round that ran a batch was asked.
#[derive(Clone, Copy)]
pub(super) struct Asked {
    /// It was the last round.
    pub(super) last: bool,
    /// It offered the answer tool alone.
    pub(super) only_answer: bool,
    /// The answer came beside other calls, so it does not count.
    pub(super) beside_others: bool,
}

impl Agent {
    /// The plan of this agent's rounds of a run that took `first` rounds so far: its tools
    /// (a failing source left out, said in an event), its system prompt, its answer tool.
    pub(super) async fn plan<'a>(
        &'a self,
        settings: &'a Settings,
        expected: Option<&'a Expected<'a>>,
        first: usize,
    ) -> Result<(Plan<'a>, Offered), RunError> {
        let api = self.model.api();
        if let Tools::Sources(sources) = &self.tools {
            for problem in sources.refresh().await.1 {
                settings.emit(Event::ToolSourceLeftOut { problem });
            }
        }
        if let Some(clash) = self.handoff_clash() {
            return Err(RunError::Tools(clash));
        }
        let source = self.tools_now();
        let registry = self.prepare(&source, expected);
        let answer_registry = expected.and_then(Expected::tool_only).map(Arc::new);
        let answer_only = answer_registry.as_deref().map(|only| api.tools(only, self.strict));
        let system = match expected.and_then(|expected| expected.instructions.as_deref()) {
            Some(instructions) => Some(match &self.system {
                Some(system) => format!("{system}\n\n{instructions}"),
                None => instructions.to_owned(),
            }),
            None => self.system.clone(),
        };
        let (tools, tool_choice) = self.offer(&registry)?;
        let answer_tool = expected.and_then(Expected::tool_name);
        let plan = Plan { settings, api, expected, answer_tool, answer_registry, answer_only, system, first };
        Ok((plan, Offered { source, registry, tools, tool_choice }))
    }

    /// A round's start: a live registry read again, the results of calls that finished in
    /// the background and the steering messages joining the conversation.
    pub(super) fn begin_round<S: Steps>(
        &self,
        plan: &Plan<'_>,
        offered: &mut Offered,
        run: &mut Run<'_, S>,
        progress: &mut Progress<S::Record>,
    ) -> Result<(), RunError> {
        if let Tools::Live(_) | Tools::Sources(_) = &self.tools
            && run.steps.rereads_tools()
        {
            let now = self.tools_now();
            if !Arc::ptr_eq(&now, &offered.source) {
                offered.registry = self.prepare(&now, plan.expected);
                (offered.tools, offered.tool_choice) = self.offer(&offered.registry)?;
                offered.source = now;
            }
        }
        for (finished, note) in run.pending.finished() {
            run.conversation.items.push(plan.api.user(&note));
            plan.settings.emit(Event::ToolFinished {
                id: finished.call.id.clone(),
                name: finished.call.name.clone(),
                is_error: finished.result.is_error(),
                elapsed: finished.elapsed,
                details: finished.details.clone(),
            });
            progress.calls.push(run.steps.finished(self, finished));
        }
        if let Some(steering) = &plan.settings.steering {
            for message in steering.take() {
                run.conversation.items.push(plan.api.user(&message));
            }
        }
        plan.settings.emit(Event::TurnStarted { round: progress.rounds });
        Ok(())
    }

    /// What a taken turn means before its calls run: a turn dropped or with no calls asks
    /// again, waits for a background result, checks a typed answer (the turn's `text`), or
    /// ends the run.
    pub(super) async fn judge<S: Steps>(
        &self,
        plan: &Plan<'_>,
        run: &mut Run<'_, S>,
        text: &str,
        taken: Option<Taken>,
        last_answer: bool,
        answers_checked: &mut usize,
    ) -> Judged {
        let Some(taken) = taken else {
            return if last_answer { Judged::Done } else { Judged::NextRound };
        };
        if !taken.calls.is_empty() {
            return Judged::Run(taken);
        }
        if taken.refused {
            // Refused, or stopped by a filter: the run ends with the turn's stop reason, not
            // an answer checked or asked again.
            return Judged::Done;
        }
        if !last_answer && !run.pending.is_empty() {
            // An answer while results are still to come: the model hears of the next one.
            if !run.pending.any_ended(run.cancel).await {
                return Judged::Failed(RunError::Cancelled);
            }
            return Judged::NextRound;
        }
        if let Some(expected) = plan.expected {
            *answers_checked += 1;
            if let Err(error) = (expected.check)(text) {
                if *answers_checked > expected.retries || last_answer {
                    return Judged::Failed(RunError::InvalidOutput { attempts: *answers_checked, error });
                }
                run.conversation.items.push(plan.api.user(&typed::correction(&error, plan.answer_tool)));
                return Judged::NextRound;
            }
        }
        Judged::Done
    }

    /// What the answers of a batch the round `asked` ran mean for the run: a snapshot is
    /// taken, then an error, a cancellation, an accepted or refused answer, the round limit,
    /// a tool's request to end the run or a handoff ends it, or the next round comes.
    pub(super) fn conclude<S: Steps>(
        &self,
        plan: &Plan<'_>,
        run: &mut Run<'_, S>,
        progress: &mut Progress<S::Record>,
        batch: Batch<S::Record>,
        asked: Asked,
        answers_checked: &mut usize,
    ) -> Next {
        run.conversation.items.extend(batch.items);
        if let Some(handed_back) = batch.handed_back {
            progress.deferred = handed_back.waiting().cloned().collect();
            run.conversation.handed_back = Some(handed_back);
        }
        if let Some(sink) = &plan.settings.snapshots {
            let conversation = run.conversation.clone();
            sink(&super::RunSnapshot { conversation, rounds: progress.rounds, usage: progress.usage });
        }
        let terminate = batch.records.iter().all(CallFacts::ends_run);
        let stop_text = plan.expected.is_none().then(|| plan.settings.stop_after.ends(&batch.records)).flatten();
        let answers = plan
            .answer_tool
            .filter(|_| !asked.beside_others)
            .map(|name| answer_calls(&batch.records, name))
            .unwrap_or_default();
        let handoff = self.handed_to(&batch.records).cloned();
        progress.calls.extend(batch.records);
        if let Some(error) = batch.error {
            return Next::Failed(error);
        }
        if run.cancel.is_cancelled() {
            run.conversation.cancel_deferred();
            return Next::Failed(RunError::Cancelled);
        }
        if !progress.deferred.is_empty() {
            // Handed back: the application answers, then the run goes on (`Agent::resume`).
            return Next::Done;
        }
        if answers.accepted {
            return Next::Done;
        }
        *answers_checked += answers.count;
        if let Some(error) = answers.refused
            && (asked.last || *answers_checked > plan.expected.map_or(0, |expected| expected.retries))
        {
            return Next::Failed(RunError::InvalidOutput { attempts: *answers_checked, error });
        }
        if asked.last && asked.only_answer {
            return Next::Failed(RunError::RoundLimit { rounds: progress.rounds });
        }
        if terminate {
            progress.terminated = true;
            return Next::Done;
        }
        if let Some(text) = stop_text {
            (progress.text, progress.stopped) = (text, Some(super::Stopped::AfterTools));
            return Next::Done;
        }
        // Told in an earlier batch that it has the result, the model repeated a call again:
        // the run ends rather than going round to the limit.
        let refused = plan.settings.repeats.refused();
        if progress.repeats_told > 0 && refused > progress.repeats_told && plan.expected.is_none() {
            progress.stopped = Some(super::Stopped::Repeats);
            return Next::Done;
        }
        progress.repeats_told = refused;
        handoff.map_or(Next::Round, |handoff| Next::HandOff(Box::new(handoff)))
    }
}

impl Plan<'_> {
    /// The request of a round (the last one offers the answer tool alone, or no tool), with
    /// the round's own system prompt if it has one (`written`).
    pub(super) fn request<'r, S: Steps>(
        &'r self,
        agent: &'r Agent,
        offered: &'r Offered,
        run: &'r Run<'_, S>,
        last_answer: bool,
        written: Option<&'r str>,
    ) -> ModelRequest<'r> {
        let offered_tools = if last_answer { self.answer_only.as_ref() } else { offered.tools.as_ref() };
        ModelRequest {
            system: written.or(self.system.as_deref()),
            history: &run.conversation.items,
            tools: offered_tools,
            tool_choice: offered_tools.and(offered.tool_choice.as_ref()),
            output: self.expected.and_then(|expected| expected.format.as_ref()),
            sampling: agent.sampling.as_ref(),
        }
    }

    /// The system prompt of every round, with the typed answer's instructions.
    pub(super) fn system(&self) -> Option<&str> {
        self.system.as_deref()
    }

    /// Whether a last round offers the answer tool alone.
    pub(super) fn answers_alone(&self, last_answer: bool) -> bool {
        last_answer && self.answer_only.is_some()
    }

    /// Whether `calls` hold an answer beside other calls: written before their results, so
    /// refused (by the tool) and not counted; in a last round that offers the answer tool
    /// alone no other call can run, and the answer is taken.
    pub(super) fn beside_others(&self, calls: &[ToolCall], only_answer: bool) -> bool {
        !only_answer
            && self.answer_tool.is_some_and(|name| {
                calls.iter().any(|call| call.name == name) && calls.iter().any(|call| call.name != name)
            })
    }

    /// The registry a batch runs against: the answer tool alone in a last round that offers
    /// only it (a call to another tool is answered as unknown), else the round's.
    pub(super) fn batch_registry<'r>(&'r self, offered: &'r Offered, only_answer: bool) -> &'r Arc<Registry> {
        match &self.answer_registry {
            Some(only) if only_answer => only,
            _ => &offered.registry,
        }
    }
}
