//! Calls handed back to the application: a turn's calls to deferred tools
//! ([`DynamicTool::deferred`](crate::DynamicTool::deferred)) are not run; the run ends once
//! the turn's other calls are answered, and its conversation holds the turn's results until
//! the application has answered every deferred call ([`Conversation::answer`]). The results
//! then join the history together, in call order, as the provider wants a turn's results.

use serde::{Deserialize, Serialize};

use super::{Conversation, RunError, ToolRun};
use crate::error::ToolError;
use crate::output::IntoToolOutput;
use crate::provider::{Arguments, CallResult, ToolCall};
use crate::registry::Registry;

/// A turn whose deferred calls wait for the application: every call of the turn, in call
/// order, with its result once it has one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct Deferral {
    calls: Vec<Held>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Held {
    call: ToolCall,
    /// Handed back to the application.
    deferred: bool,
    result: Option<CallResult>,
}

/// A turn's calls split: those that run, and where each call of the turn stands.
pub(super) struct Split {
    pub(super) run: Vec<ToolCall>,
    held: Vec<Held>,
}

impl Split {
    /// `calls` split against `registry`: a call to a deferred tool whose arguments its schema
    /// accepts is handed back (with the arguments as checked); any other runs, a deferred
    /// tool's bad call too (its tool refuses it, and the model reads every violation).
    pub(super) fn of(registry: &Registry, calls: Vec<ToolCall>) -> Self {
        // Most turns call no deferred tool: they keep their calls as they are, uncloned.
        let is_deferred = |call: &ToolCall| registry.get(&call.name).is_some_and(crate::registry::Entry::is_deferred);
        if !calls.iter().any(is_deferred) {
            return Split { run: calls, held: Vec::new() };
        }
        let mut run = Vec::with_capacity(calls.len());
        let mut held = Vec::with_capacity(calls.len());
        for mut call in calls {
            let deferred = is_deferred(&call);
            let checked = if deferred { registry.validate(&call.name, call.arguments.clone()).ok() } else { None };
            if let Some(arguments) = checked {
                call.arguments = Arguments::Value(arguments);
                held.push(Held { call, deferred: true, result: None });
            } else {
                held.push(Held { call: call.clone(), deferred: false, result: None });
                run.push(call);
            }
        }
        Split { run, held }
    }

    /// The calls handed back, when there are any.
    pub(super) fn handed_back(&self) -> impl Iterator<Item = &ToolCall> {
        self.held.iter().filter(|held| held.deferred).map(|held| &held.call)
    }

    /// The turn's deferral once `runs` (the results of [`Split::run`], in order) are in; `None`
    /// when no call was handed back.
    pub(super) fn into_deferral(mut self, runs: &[ToolRun]) -> Option<Deferral> {
        if !self.held.iter().any(|held| held.deferred) {
            return None;
        }
        let ran = self.held.iter_mut().filter(|held| !held.deferred);
        for (held, run) in ran.zip(runs) {
            held.result = Some(run.result.clone());
        }
        Some(Deferral { calls: self.held })
    }
}

impl Deferral {
    /// The calls that still wait for an answer.
    pub(super) fn waiting(&self) -> impl Iterator<Item = &ToolCall> {
        self.calls.iter().filter(|held| held.result.is_none()).map(|held| &held.call)
    }
}

/// There is no deferred call with this id waiting for an answer
/// ([`Conversation::answer`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct NotDeferred {
    /// The id given.
    pub id: String,
}

impl core::fmt::Display for NotDeferred {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "no deferred call with id {:?} waits for an answer", self.id)
    }
}

impl std::error::Error for NotDeferred {}

impl Conversation {
    /// The calls the last run handed back to the application
    /// ([`DynamicTool::deferred`](crate::DynamicTool::deferred)) and not answered yet, in call
    /// order, with the arguments as their tool's schema checked them.
    pub fn deferred(&self) -> impl Iterator<Item = &ToolCall> {
        self.handed_back.iter().flat_map(Deferral::waiting)
    }

    /// Answers the deferred call `id` with `output` (text, a value, a
    /// [`ToolOutput`](crate::ToolOutput), or an `Err` the model reads as the call's failure).
    /// Once every deferred call of the turn is answered, the next run or
    /// [`Agent::resume`](super::Agent::resume) hands the model the turn's results together.
    ///
    /// # Errors
    /// [`NotDeferred`] when no deferred call with this id waits (an unknown id, or one
    /// already answered).
    pub fn answer(&mut self, id: &str, output: impl IntoToolOutput) -> Result<(), NotDeferred> {
        let waiting = self.handed_back.as_mut().and_then(|deferral| {
            deferral.calls.iter_mut().find(|held| held.deferred && held.result.is_none() && held.call.id == id)
        });
        let Some(held) = waiting else {
            return Err(NotDeferred { id: id.to_owned() });
        };
        let tool = held.call.name.clone();
        let outcome = output.into_tool_output().map_err(|message| ToolError::Failed { tool: tool.clone(), message });
        held.result = Some(CallResult::new(id, tool, outcome));
        Ok(())
    }

    /// Before a run goes on: a deferred turn's results join the history once every call has
    /// its answer.
    ///
    /// # Errors
    /// [`RunError::Unanswered`] while a deferred call still waits.
    pub(super) fn settle(&mut self) -> Result<(), RunError> {
        let Some(deferral) = self.handed_back.take() else { return Ok(()) };
        let waiting: Vec<String> = deferral.waiting().map(|call| call.id.clone()).collect();
        if !waiting.is_empty() {
            self.handed_back = Some(deferral);
            return Err(RunError::Unanswered { calls: waiting });
        }
        let results: Vec<CallResult> = deferral.calls.into_iter().filter_map(|held| held.result).collect();
        self.items.extend(self.api.results(&results));
        Ok(())
    }

    /// A run cancelled after handing calls back: each deferred call still waiting is
    /// answered as cancelled, and the turn's results join the history.
    pub(super) fn cancel_deferred(&mut self) {
        let waiting: Vec<(String, String)> = self.deferred().map(|call| (call.id.clone(), call.name.clone())).collect();
        for (id, tool) in waiting {
            if let Some(held) =
                self.handed_back.as_mut().and_then(|d| d.calls.iter_mut().find(|held| held.call.id == id))
            {
                held.result = Some(CallResult::new(id, tool.clone(), Err(ToolError::Cancelled { tool })));
            }
        }
        // Every call now has its answer: settling cannot fail.
        let _ = self.settle();
    }
}
