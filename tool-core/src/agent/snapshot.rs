//! A run that can be saved and picked up again, and steered while it goes: [`RunSnapshot`]
//! (the conversation, the rounds and the tokens so far, serializable) handed out after every
//! round, [`Agent::resume`] to go on from one, and [`Steering`] to queue a message for a
//! running agent's next round.

use std::sync::{Arc, Mutex, PoisonError};

use serde::{Deserialize, Serialize};

use super::{Agent, Conversation, RunError, RunOutcome};
use crate::context::CancellationToken;
use crate::provider::Usage;

/// A run between two rounds: every call of its history answered, so a model can be asked
/// the next turn from it. Serializable (`serde`), to keep in a database or a file. Calls
/// moved to the background ([`Agent::background_after`]) are not in it: they are cancelled
/// when the run they belong to ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RunSnapshot {
    /// The conversation so far, in the model's shape.
    pub conversation: Conversation,
    /// Rounds taken.
    pub rounds: usize,
    /// Tokens used.
    pub usage: Usage,
}

impl RunSnapshot {
    /// A run that has taken no round yet on `conversation` (a history kept elsewhere, its
    /// last message the user's), for [`Agent::resume`].
    #[must_use]
    pub fn new(conversation: Conversation) -> Self {
        RunSnapshot { conversation, rounds: 0, usage: Usage::default() }
    }
}

/// Messages for a running agent, each added to its conversation as a user message at the
/// start of its next round (before the model is asked): "also check Tuesday". Clone it, give
/// one to the agent ([`Agent::steering`]) and keep one.
#[derive(Debug, Clone, Default)]
pub struct Steering {
    queued: Arc<Mutex<Vec<String>>>,
}

impl Steering {
    /// A handle with nothing queued.
    #[must_use]
    pub fn new() -> Self {
        Steering::default()
    }

    /// Queues `message` for the next round of the run this handle steers.
    pub fn push(&self, message: impl Into<String>) {
        self.queued.lock().unwrap_or_else(PoisonError::into_inner).push(message.into());
    }

    /// The messages queued, in order, taken.
    pub(super) fn take(&self) -> Vec<String> {
        core::mem::take(&mut *self.queued.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Agent {
    /// Hands `sink` a [`RunSnapshot`] after every round of this agent's runs, once the
    /// round's results are in the history.
    #[must_use]
    pub fn on_snapshot(mut self, sink: impl Fn(&RunSnapshot) + Send + Sync + 'static) -> Self {
        self.settings.snapshots = Some(Arc::new(sink));
        self
    }

    /// Takes the messages queued on `steering` into each round of this agent's runs.
    #[must_use]
    pub fn steering(mut self, steering: Steering) -> Self {
        self.settings.steering = Some(steering);
        self
    }

    /// Goes on with the run `snapshot` holds: asks the model for the next turn of its
    /// conversation (no new user message) and runs to the end, the snapshot's conversation
    /// kept up to date; the outcome counts the rounds and tokens from the snapshot's.
    ///
    /// # Errors
    /// As [`Agent::run`].
    pub async fn resume(&self, snapshot: &mut RunSnapshot, cancel: &CancellationToken) -> Result<RunOutcome, RunError> {
        let from = (snapshot.rounds, snapshot.usage);
        self.run_from(&self.settings, &mut snapshot.conversation, None, cancel, None, from).await
    }
}
