//! What an executor is handed and what it answers with: the client's message
//! ([`Incoming`]), a task's outputs ([`Artifact`]) and how a turn ends ([`Outcome`]).

use serde_json::{Value, json};

use crate::a2a::part::{self, Part};

/// A message a client sent, as the executor gets it.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Incoming {
    /// Its parts, in order.
    pub parts: Vec<Part>,
    /// The client's id for it.
    pub message_id: String,
    /// The task it starts or continues (the server names a new one).
    pub task_id: String,
    /// The conversation it belongs to.
    pub context_id: String,
    /// Whether it answers a task that asked for input ([`Outcome::InputRequired`]).
    pub continues: bool,
    /// The message as the client sent it, every member kept (`metadata`, `extensions`…).
    pub message: Value,
}

impl Incoming {
    /// Its text parts, joined by newlines.
    #[must_use]
    pub fn text(&self) -> String {
        part::text(&self.parts)
    }
}

/// An output of a task.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Artifact {
    /// Its name, if any.
    pub name: Option<String>,
    /// Its parts.
    pub parts: Vec<Part>,
}

impl Artifact {
    /// An artifact of `parts`.
    pub fn new(parts: impl IntoIterator<Item = Part>) -> Self {
        Artifact { name: None, parts: parts.into_iter().collect() }
    }

    /// Names it.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    pub(super) fn to_json(&self) -> Value {
        let mut artifact = json!({
            "artifactId": uuid::Uuid::new_v4().to_string(),
            "parts": self.parts.iter().map(Part::to_json).collect::<Vec<_>>(),
        });
        if let Some(name) = &self.name {
            artifact["name"] = json!(name);
        }
        artifact
    }
}

/// How an executor ends its turn.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Outcome {
    /// A direct reply: no task is kept, unless the executor already reported on one.
    Message(Vec<Part>),
    /// The task is done, with these outputs (beside those sent with
    /// [`TaskHandle::artifact`](crate::a2a::server::TaskHandle::artifact)).
    Completed(Vec<Artifact>),
    /// The task waits for the client: the question, whose answer comes as a new message with
    /// the task's id and runs the executor again.
    InputRequired(Vec<Part>),
    /// The task failed, for this reason.
    Failed(String),
    /// The agent declines the request, for this reason.
    Rejected(String),
}
