//! Typed final answers ([`Agent::run_for`]): the answer's schema sent in each provider's
//! structured-output mode, written from the type's compile-time tree in that provider's
//! dialect; the answer decoded and validated by the type's generated validator; its
//! violations sent back until it is right or the attempts run out.

use serde_json::Value;

use super::{Agent, Conversation, RunError, RunOutcome};
use crate::context::CancellationToken;
use crate::dispatch::{DecodeOptions, decode};
use crate::error::ToolError;
use crate::param::ToolArgs;

/// A run's typed answer, and the run.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Answer<T> {
    /// The answer, decoded and valid.
    pub value: T,
    /// The run that produced it (its `text` is the answer's JSON).
    pub run: RunOutcome,
}

/// The name a schema goes by in a request: the type's own name, as providers allow it.
fn schema_name<T>() -> String {
    let full = core::any::type_name::<T>();
    let last = full.rsplit("::").next().unwrap_or(full);
    let name: String = last
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .take(64)
        .collect();
    if name.is_empty() { "answer".to_owned() } else { name }
}

impl Agent {
    /// Runs the agent for an answer of type `T` (derived like tool arguments) rather than
    /// text: each request asks the provider's structured-output mode for `T`'s schema, in that
    /// provider's dialect (OpenAI `response_format` / `text.format` strict, Anthropic
    /// `output_config.format`, Gemini `responseSchema`); tools may be called on the way. The
    /// final answer is decoded and checked by `T`'s generated validator; a wrong one goes back
    /// to the model with every violation, up to `retries` times.
    ///
    /// # Errors
    /// As [`Agent::run`], and [`RunError::InvalidOutput`] with the last answer's problems when
    /// the model never gave a valid one.
    pub async fn run_for<T: ToolArgs>(
        &self,
        conversation: &mut Conversation,
        user: &str,
        retries: usize,
    ) -> Result<Answer<T>, RunError> {
        self.run_for_until(conversation, user, retries, &CancellationToken::new()).await
    }

    /// [`Agent::run_for`], stopped when `cancel` is.
    ///
    /// # Errors
    /// As [`Agent::run_for`], and [`RunError::Cancelled`].
    pub async fn run_for_until<T: ToolArgs>(
        &self,
        conversation: &mut Conversation,
        user: &str,
        retries: usize,
        cancel: &CancellationToken,
    ) -> Result<Answer<T>, RunError> {
        let options = DecodeOptions::default();
        let check = |text: &str| decode::<T>(text, &options).map(drop);
        let expected = Expected {
            format: self.model.api().answer_format(&T::SCHEMA, &schema_name::<T>()),
            check: &check,
            retries,
        };
        let run = self.run_with(&self.settings, conversation, user, cancel, Some(&expected)).await?;
        let value = decode::<T>(run.text.as_str(), &options)
            .map_err(|error| RunError::InvalidOutput { attempts: retries + 1, error })?;
        Ok(Answer { value, run })
    }
}

/// How a run asks for and checks its answer.
pub(crate) struct Expected<'a> {
    /// The request fields that ask for it, in the API's shape.
    pub(crate) format: Value,
    /// Checks an answer's text: the violations, as an error, when it is not one.
    pub(crate) check: &'a (dyn Fn(&str) -> Result<(), ToolError> + Send + Sync),
    /// How many more answers the model may give after a wrong one.
    pub(crate) retries: usize,
}

/// What the model is told when its answer is not one.
pub(super) fn correction(error: &ToolError) -> String {
    let problems = match error {
        ToolError::InvalidArguments { violations, .. } => violations.to_string(),
        other => format!("- {other}"),
    };
    format!("Your answer does not have the required form:\n{problems}\nAnswer again with the corrected JSON only.")
}
