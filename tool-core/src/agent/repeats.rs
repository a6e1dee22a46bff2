//! Calls a model repeats: the same tool with the same arguments, again and again in one run
//! (a small model does it until the round limit). Past the agent's limit, such a call does
//! not run; its result tells the model it has the answer already.

use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

use crate::provider::{Arguments, ToolCall};

/// The calls of one run so far, shared by the agents it is handed to.
#[derive(Clone, Default)]
pub(super) struct Repeats {
    seen: Arc<Mutex<Vec<(String, Value, usize)>>>,
    /// How many calls were refused as repeats.
    refused: Arc<core::sync::atomic::AtomicUsize>,
}

impl Repeats {
    /// Counts `call`, and the reason it may not run if it has run `limit` times already
    /// (arguments compare as JSON values: key order and spacing aside). Arguments that are
    /// not JSON are not counted: their call fails before it runs.
    pub(super) fn refuse(&self, call: &ToolCall, limit: usize) -> Option<String> {
        let arguments = match &call.arguments {
            Arguments::Text(text) => serde_json::from_str::<Value>(text).ok()?,
            Arguments::Value(value) => value.clone(),
        };
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        let found = seen.iter().position(|(name, seen, _)| *name == call.name && *seen == arguments);
        let index = found.unwrap_or_else(|| {
            seen.push((call.name.clone(), arguments, 0));
            seen.len() - 1
        });
        let count = &mut seen[index].2;
        if *count >= limit {
            self.refused.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
            return Some(format!(
                "it already ran {count} times in this run with these same arguments; use the result you have, \
                 or call it with different arguments"
            ));
        }
        *count += 1;
        None
    }

    /// How many calls of the run were refused as repeats so far.
    pub(super) fn refused(&self) -> usize {
        self.refused.load(core::sync::atomic::Ordering::Relaxed)
    }
}
