//! The round loop, written once for every kind of run: ask the model, take its turn, check a
//! typed answer, run its calls, answer them, follow a handoff. How a run takes its two kinds
//! of step is a [`Steps`] (`steps.rs`); the parts of a round are `round.rs`'s.

use serde_json::Value;

use super::driver::Driver;
use super::round::{Asked, Judged, Next, Plan};
use super::steps::{Progress, Run, StepFuture, Steps};
use super::{Agent, Event, RunError, Settings};
use crate::context::CancellationToken;
use crate::provider::ToolChoice;
use crate::registry::Registry;

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
            let (plan, mut offered) = self.plan(settings, run.expected, progress.rounds).await?;
            let mut answers_checked = 0;
            loop {
                let last_answer = self.last_round(progress.rounds - plan.first, progress.rounds)?;
                progress.rounds += 1;
                let round = progress.rounds;
                self.begin_round(&plan, &mut offered, &mut run, &mut progress)?;
                let written = self.round_system(&plan, &run, round);
                let request = plan.request(self, &offered, &run, last_answer, written.as_deref());
                settings.emit(Event::ModelRequest { round, with_tools: request.tools.is_some() });
                // Calls may start while the model writes, but not in a last round (its calls
                // are denied, or run against the answer tool alone).
                let turn_cancel = CancellationToken::new();
                let starts_early = settings.early_calls != super::EarlyCalls::Never && run.steps.starts_early();
                let mut early = (starts_early && !last_answer).then(|| {
                    Driver::streaming(settings, &offered.registry, run.cancel, &turn_cancel, plan.answer_tool)
                });
                let step =
                    run.steps.model(self, settings, request, round, run.cancel, early.as_ref().map(Driver::sink));
                let turn = match &mut early {
                    Some(early) => early.alongside(step).await,
                    None => step.await,
                };
                let turn = match (turn, early.take()) {
                    (Ok(turn), taken) => {
                        early = taken;
                        turn
                    }
                    (Err(error), started) => {
                        self.abandon(&run, &mut progress, started).await;
                        return Err(error);
                    }
                };
                progress.usage += turn.usage;
                let only_answer = plan.answers_alone(last_answer);
                let started = early.as_ref().map_or(0, Driver::taken);
                let denies = last_answer && !only_answer;
                let taken = settings.take_turn(plan.api, run.conversation, &mut progress, round, turn, denies, started);
                let taken =
                    match self.judge(&plan, &mut run, &progress.text, taken, last_answer, &mut answers_checked).await {
                        Judged::Run(taken) => taken,
                        Judged::NextRound => continue,
                        Judged::Done => return Ok(progress),
                        Judged::Failed(error) => return Err(error),
                    };
                let refused = taken.refused;
                let beside_others = plan.beside_others(&taken.calls, only_answer);
                if let Some(expected) = run.expected {
                    expected.alone.store(!beside_others, core::sync::atomic::Ordering::Relaxed);
                }
                let registry = plan.batch_registry(&offered, only_answer);
                let mut batch =
                    run.steps.calls(self, settings, registry, taken.calls, run.cancel, &mut run.pending, early).await;
                batch.items.extend(taken.cut_off);
                let asked = Asked { last: last_answer, only_answer, beside_others };
                match self.conclude(&plan, &mut run, &mut progress, batch, asked, &mut answers_checked) {
                    // A refused turn's early calls are answered; nothing more is asked.
                    Next::Round if refused => return Ok(progress),
                    Next::Round => {}
                    Next::Done => return Ok(progress),
                    Next::Failed(error) => return Err(error),
                    Next::HandOff(handoff) => {
                        settings.emit(Event::HandedOff { to: handoff.name.clone() });
                        let handoff = *handoff;
                        progress.handoffs.push(handoff.name);
                        let next = run.steps.settings(&handoff.agent, settings);
                        return handoff.agent.rounds(&next, run, progress).await;
                    }
                }
            }
        })
    }

    /// A failed turn's calls that had started: each is cancelled, and answered in `progress`.
    async fn abandon<S: Steps>(
        &self,
        run: &Run<'_, S>,
        progress: &mut Progress<S::Record>,
        started: Option<Driver<'_>>,
    ) {
        if let Some(started) = started {
            for abandoned in started.abandon().await {
                progress.calls.push(run.steps.finished(self, abandoned));
            }
        }
    }

    /// The system prompt of round `round` when the run loaded context or
    /// [`Agent::instructions`] writes more for it: the prompt, the context, then what it
    /// wrote from the history.
    fn round_system<S: Steps>(&self, plan: &Plan<'_>, run: &Run<'_, S>, round: usize) -> Option<String> {
        let history = &run.conversation.items;
        let written = self.instructions.as_ref().and_then(|write| write(&super::TurnState { round, history }));
        if run.preloaded.is_none() && written.is_none() {
            return None;
        }
        let parts = [plan.system(), run.preloaded.as_deref(), written.as_deref()];
        Some(parts.into_iter().flatten().collect::<Vec<_>>().join("\n\n"))
    }

    /// The tool definitions and tool choice a round sends, for `registry`.
    pub(super) fn offer(&self, registry: &Registry) -> Result<(Option<Value>, Option<Value>), RunError> {
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
    pub(super) fn last_round(&self, done: usize, total: usize) -> Result<bool, RunError> {
        let last_answer = done == self.max_rounds;
        if last_answer && self.round_limit == super::RoundLimit::Fail {
            return Err(RunError::RoundLimit { rounds: total });
        }
        Ok(last_answer)
    }
}
