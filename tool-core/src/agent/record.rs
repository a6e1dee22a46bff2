//! [`CallFacts`]: what the round loop reads of a call's record, whichever kind of run keeps
//! it (the ordinary run's [`ToolRun`], the durable run's journaled call).

use super::ToolRun;
use crate::error::ToolError;

/// What the loop reads of a call's record.
pub(crate) trait CallFacts {
    /// The tool called.
    fn tool(&self) -> &str;
    /// Whether the call failed in any way.
    fn failed(&self) -> bool;
    /// Whether its result asks to end the run.
    fn ends_run(&self) -> bool;
    /// Why it failed, where the record keeps it.
    fn error(&self) -> Option<&ToolError>;
    /// The text the model reads of its result.
    fn text(&self) -> String;
    /// The call as an ordinary run holds it (none in a durable run).
    fn run(&self) -> Option<&ToolRun>;
}

impl CallFacts for ToolRun {
    fn tool(&self) -> &str {
        &self.call.name
    }

    fn failed(&self) -> bool {
        self.result.is_error()
    }

    fn ends_run(&self) -> bool {
        self.terminate
    }

    fn error(&self) -> Option<&ToolError> {
        self.result.outcome.as_ref().err()
    }

    fn text(&self) -> String {
        match &self.result.outcome {
            Ok(output) => output.to_text().into_owned(),
            Err(error) => error.to_string(),
        }
    }

    fn run(&self) -> Option<&ToolRun> {
        Some(self)
    }
}
