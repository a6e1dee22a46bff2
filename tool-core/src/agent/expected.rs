//! What a typed run expects of its answer ([`Agent::run_for`](super::Agent::run_for)): the
//! request fields asking the provider's structured-output mode for the answer's schema
//! ([`Api::answer_format`](super::Api::answer_format)), the check of an answer, and what a
//! wrong one is told.

use serde_json::Value;

use crate::error::ToolError;

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
