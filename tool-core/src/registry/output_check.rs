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
use crate::output::OutputMismatch;
use crate::output::ToolOutput;
use crate::schema::RuntimeSchema;
use crate::tool::dynamic_schema::checked_output;

/// What a registry does to its tools' results: each `#[tool]`'s output schema, compiled on
/// its first result, when checks are on; what a mismatch does; whether primitive structured
/// results are wrapped.
#[derive(Debug, Default)]
pub(super) struct OutputChecks {
    compiled: Mutex<HashMap<Arc<str>, Option<RuntimeSchema>>>,
    /// Results are checked against their output schemas.
    checks: bool,
    mismatch: OutputMismatch,
    /// A structured result that is not an object becomes `{"result": v}`.
    wrap_primitives: bool,
}

impl OutputChecks {
    /// Checks on, the rest as by default.
    pub(super) fn on() -> Arc<Self> {
        Arc::new(OutputChecks { checks: true, ..OutputChecks::default() })
    }
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
    pub fn check_outputs(self, on: bool) -> Self {
        self.with_outputs(|outputs| outputs.checks = on)
    }

    /// What a structured result that breaks its `#[tool]`'s output schema does, when checks
    /// are on: [`OutputMismatch::Refuse`] (the default) or [`OutputMismatch::Wrap`].
    #[must_use]
    pub fn on_output_mismatch(self, mismatch: OutputMismatch) -> Self {
        self.with_outputs(|outputs| outputs.mismatch = mismatch)
    }

    /// Whether a structured result that is not a JSON object (a number, a string, a list)
    /// is wrapped as `{"result": v}`: an MCP client then gets it as `structuredContent`
    /// (which must be an object) and a model reads `{"result": v}`, as the seeds' function
    /// tools and Google's ADK send it. Off by default: such a result is sent as its text.
    #[must_use]
    pub fn wrap_primitive_results(self, on: bool) -> Self {
        self.with_outputs(|outputs| outputs.wrap_primitives = on)
    }

    fn with_outputs(mut self, change: impl FnOnce(&mut OutputChecks)) -> Self {
        let mut outputs = OutputChecks::default();
        if let Some(now) = &self.output_checks {
            (outputs.checks, outputs.mismatch, outputs.wrap_primitives) =
                (now.checks, now.mismatch, now.wrap_primitives);
        }
        change(&mut outputs);
        let idle = !outputs.checks && !outputs.wrap_primitives;
        self.output_checks = (!idle).then(|| Arc::new(outputs));
        self
    }

    /// `future` (a call of `entry`), its result checked and shaped as the registry says.
    pub(super) fn checking<'a>(&'a self, entry: &'a Entry, future: ToolFuture<'a>) -> ToolFuture<'a> {
        if self.output_checks.is_none() {
            return future;
        }
        Box::pin(async move { self.checked(entry, future.await) })
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
        let Some(outputs) = &self.output_checks else { return result };
        let result = match self.output_check(entry) {
            Some(schema) => check(&schema, entry, result, outputs.mismatch),
            None => result,
        };
        match result {
            Ok(output) if outputs.wrap_primitives => Ok(wrap_primitive(output)),
            other => other,
        }
    }

    /// The schema to check `entry`'s results with, if any.
    fn output_check(&self, entry: &Entry) -> Option<RuntimeSchema> {
        let checks = self.output_checks.as_ref().filter(|outputs| outputs.checks)?;
        entry.def()?;
        // Nothing to check, and nothing locked or allocated, for a tool without one.
        let text = entry.output_schema()?;
        checks.schema(entry, text)
    }
}

/// `output` with a structured part that is not an object wrapped as `{"result": v}`.
fn wrap_primitive(output: ToolOutput) -> ToolOutput {
    match output.structured() {
        Some(value) if !value.is_object() => {
            let wrapped = serde_json::json!({ "result": value });
            output.with_structured(wrapped)
        }
        _ => output,
    }
}

fn check(
    schema: &RuntimeSchema,
    entry: &Entry,
    result: Result<ToolOutput, ToolError>,
    mismatch: OutputMismatch,
) -> Result<ToolOutput, ToolError> {
    checked_output(schema, entry.name(), result?, mismatch).map_err(|error| match error {
        ToolError::Failed { tool, message } => {
            ToolError::Failed { tool, message: format!("{message} (the fn's Serialize disagrees with its ToolSchema)") }
        }
        other => other,
    })
}
