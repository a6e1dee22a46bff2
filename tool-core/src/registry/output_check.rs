//! Structured results of `#[tool]` fns checked against their output schemas (feature
//! `runtime-schema`; on in debug builds, or with [`Registry::check_outputs`]): a `Serialize`
//! impl that disagrees with the type's `ToolSchema` (a `skip_serializing_if`, a hand-written
//! impl) would otherwise send a client a `structuredContent` that breaks the `outputSchema`
//! it was promised. A result that breaks it is a [`ToolError::Failed`] naming each violation.
//! Tools made at run time check their own ([`DynamicTool::with_output_schema`]).
//!
//! [`DynamicTool::with_output_schema`]: crate::DynamicTool::with_output_schema

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use super::{Entry, Registry};
use crate::dispatch::ToolFuture;
use crate::error::ToolError;
use crate::output::ToolOutput;
use crate::schema::RuntimeSchema;
use crate::tool::dynamic_schema::checked_output;

/// Each tool's output schema, compiled on its first result.
#[derive(Debug, Default)]
pub(super) struct OutputChecks {
    compiled: Mutex<HashMap<Arc<str>, Option<RuntimeSchema>>>,
}

impl OutputChecks {
    /// The compiled output schema of `entry`'s tool, which states one (`None`: it does not
    /// compile, which one this crate rendered always does).
    fn schema(&self, entry: &Entry, text: &str) -> Option<RuntimeSchema> {
        let mut compiled = self.compiled.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = compiled.get(entry.name()) {
            return known.clone();
        }
        let schema = RuntimeSchema::parse(text).ok();
        compiled.insert(Arc::from(entry.name()), schema.clone());
        schema
    }
}

impl Registry {
    /// Whether each `#[tool]`'s structured result is checked against its output schema
    /// before it is returned: on in debug builds, off in release builds unless asked.
    #[must_use]
    pub fn check_outputs(mut self, on: bool) -> Self {
        self.output_checks = on.then(Arc::default);
        self
    }

    /// `future` (a call of `entry`), its result checked when checks are on.
    pub(super) fn checking<'a>(&'a self, entry: &'a Entry, future: ToolFuture<'a>) -> ToolFuture<'a> {
        let Some(schema) = self.output_check(entry) else { return future };
        Box::pin(async move { check(&schema, entry, future.await) })
    }

    /// `result` (of a call of `entry`), checked when checks are on. Out of line: a release
    /// build's call path holds only the test of whether checks are on.
    #[cold]
    #[inline(never)]
    pub(super) fn checked(
        &self,
        entry: &Entry,
        result: Result<ToolOutput, ToolError>,
    ) -> Result<ToolOutput, ToolError> {
        match self.output_check(entry) {
            Some(schema) => check(&schema, entry, result),
            None => result,
        }
    }

    /// The schema to check `entry`'s results with, if any.
    fn output_check(&self, entry: &Entry) -> Option<RuntimeSchema> {
        let checks = self.output_checks.as_ref()?;
        entry.def()?;
        // Nothing to check, and nothing locked or allocated, for a tool without one.
        let text = entry.output_schema()?;
        checks.schema(entry, text)
    }
}

fn check(
    schema: &RuntimeSchema,
    entry: &Entry,
    result: Result<ToolOutput, ToolError>,
) -> Result<ToolOutput, ToolError> {
    checked_output(schema, entry.name(), result?).map_err(|error| match error {
        ToolError::Failed { tool, message } => {
            ToolError::Failed { tool, message: format!("{message} (the fn's Serialize disagrees with its ToolSchema)") }
        }
        other => other,
    })
}
