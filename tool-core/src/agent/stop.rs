//! When a run ends once its tools have answered rather than asking the model again
//! ([`StopAfter`], [`Agent::stop_after`]), and how a run ends for a model that keeps
//! repeating a call it has the result of ([`Stopped::Repeats`]).

use std::sync::Arc;

use super::record::CallFacts;
use super::{Agent, ToolRun};

/// When a run ends after a batch of calls, their outputs its result, rather than asking the
/// model again (the `tool_use_behavior` of `OpenAI`'s Agents SDK, Pydantic AI's end
/// strategies). A typed run ([`Agent::run_for`]) always asks for its answer.
#[derive(Clone, Default)]
#[non_exhaustive]
pub enum StopAfter {
    /// The model reads every batch's results and goes on (the default).
    #[default]
    Never,
    /// After the first batch: the run's text is its outputs.
    FirstTools,
    /// After a batch that called one of these tools: the run's text is their outputs.
    Tools(Vec<String>),
    /// When the function says so, reading the batch's calls: the run's text is the batch's
    /// outputs. Not read by durable runs, whose calls are journaled rather than held.
    When(Arc<StopWhen>),
}

/// What decides, from a batch's calls, that a run ends ([`StopAfter::When`]).
pub type StopWhen = dyn Fn(&[ToolRun]) -> bool + Send + Sync;

impl core::fmt::Debug for StopAfter {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            StopAfter::Never => f.write_str("Never"),
            StopAfter::FirstTools => f.write_str("FirstTools"),
            StopAfter::Tools(names) => f.debug_tuple("Tools").field(names).finish(),
            StopAfter::When(_) => f.write_str("When(..)"),
        }
    }
}

impl StopAfter {
    /// Ends after a batch that called one of `names`.
    #[must_use]
    pub fn tools<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Self {
        StopAfter::Tools(names.into_iter().map(Into::into).collect())
    }

    /// Ends when `decide` says so, from the batch's calls.
    #[must_use]
    pub fn when(decide: impl Fn(&[ToolRun]) -> bool + Send + Sync + 'static) -> Self {
        StopAfter::When(Arc::new(decide))
    }

    /// The run's text when `records` (a batch) end the run: the outputs that count, one after
    /// the other.
    pub(super) fn ends<R: CallFacts>(&self, records: &[R]) -> Option<String> {
        let counted: Vec<&R> = match self {
            StopAfter::Never => return None,
            StopAfter::FirstTools => records.iter().collect(),
            StopAfter::Tools(names) => {
                records.iter().filter(|record| names.iter().any(|n| n == record.tool())).collect()
            }
            StopAfter::When(decide) => {
                let runs: Option<Vec<ToolRun>> = records.iter().map(|record| record.run().cloned()).collect();
                if !runs.is_some_and(|runs| decide(&runs)) {
                    return None;
                }
                records.iter().collect()
            }
        };
        if counted.is_empty() {
            return None;
        }
        Some(counted.iter().map(|record| record.text()).collect::<Vec<_>>().join("\n\n"))
    }
}

/// Why the loop, rather than the model, ended a run ([`RunOutcome::stopped`](super::RunOutcome::stopped)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stopped {
    /// [`Agent::stop_after`] said the batch ends it; the run's text is the tools' outputs.
    AfterTools,
    /// The model called a tool again with the same arguments after it was told it had the
    /// result ([`Agent::max_repeats`]): the run ends there rather than at the round limit.
    Repeats,
}

impl Agent {
    /// When a run ends after its tools have answered: [`StopAfter::Never`] unless set.
    #[must_use]
    pub fn stop_after(mut self, stop: StopAfter) -> Self {
        self.settings.stop_after = stop;
        self
    }
}
