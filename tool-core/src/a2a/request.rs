//! [`SkillRequest`]: what every skill's tool takes, derived with the crate's own macros.

/// What a skill's tool takes: the message, and the ids of a task to continue (one that asked
/// for more input).
#[derive(Debug, crate::ToolArgs)]
#[serde(crate = "serde")]
#[non_exhaustive]
pub struct SkillRequest {
    /// What to ask the remote agent, in plain words
    #[param(min_length = 1)]
    pub message: String,
    /// The task to continue, when the agent asked for more input
    pub task_id: Option<String>,
    /// The task's context, given with its task id
    pub context_id: Option<String>,
}

impl SkillRequest {
    /// A new request: `message`, in no task yet.
    #[must_use]
    pub fn new(message: impl Into<String>) -> Self {
        SkillRequest { message: message.into(), task_id: None, context_id: None }
    }

    /// The same message, continuing the task `task_id` of the context `context_id` (one
    /// that asked for more input).
    #[must_use]
    pub fn in_task(mut self, task_id: impl Into<String>, context_id: impl Into<String>) -> Self {
        self.task_id = Some(task_id.into());
        self.context_id = Some(context_id.into());
        self
    }
}
