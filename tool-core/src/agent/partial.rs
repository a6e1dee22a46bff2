//! [`PartialTurn`]: what a model had written of a turn whose response then failed (a stream
//! cut off, an error event mid-way), collected from the stream's deltas as they came, so a
//! failed run still hands the program the text and the whole calls it had.

use std::sync::{Mutex, PoisonError};

use super::model::Delta;
use crate::provider::ToolCall;

/// What a model had written of a turn that failed before it was whole
/// ([`RunError::Model`](super::RunError::Model)): empty for a response that failed before its
/// first word, or that was not streamed.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct PartialTurn {
    /// The answer's text so far.
    pub text: String,
    /// The reasoning's text so far.
    pub reasoning: String,
    /// The calls the stream had closed (their arguments whole), in call order. None of them
    /// ran unless it started early ([`Agent::early_calls`](super::Agent::early_calls)), in
    /// which case it was cancelled.
    pub calls: Vec<ToolCall>,
}

impl PartialTurn {
    /// Whether the model had written nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.text.is_empty() && self.reasoning.is_empty() && self.calls.is_empty()
    }
}

/// Collects a turn's deltas as they stream.
#[derive(Default)]
pub(super) struct Collector(Mutex<PartialTurn>);

impl Collector {
    pub(super) fn offer(&self, delta: &Delta<'_>) {
        let mut partial = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match *delta {
            Delta::Text(text) => partial.text.push_str(text),
            Delta::Reasoning(text) => partial.reasoning.push_str(text),
            Delta::ToolCallDone { id, name, arguments, .. } => {
                partial.calls.push(ToolCall::new(id, name, arguments.to_owned()));
            }
            _ => {}
        }
    }

    pub(super) fn take(&self) -> PartialTurn {
        core::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}
