//! [`DynamicTool::new`] and what a run-time schema checks (feature `runtime-schema`): the
//! arguments of every call before the handler runs, and the structured result against an
//! output schema stated with [`DynamicTool::with_output_schema`].

use core::future::Future;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::dynamic::{DynHandler, DynamicTool, guarded};
use crate::context::ToolContext;
use crate::dispatch::{DecodeOptions, ToolFuture};
use crate::error::{RegistryError, ToolError};
use crate::output::{OutputMismatch, ToolOutput};
use crate::schema::RuntimeSchema;
use crate::tool::name::is_valid_tool_name;
use crate::validate::violation::Violations;

impl DynamicTool {
    /// A tool named `name` (`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`), described for the model, whose
    /// arguments follow the JSON Schema `parameters` (an object schema), and which `handler`
    /// runs with the call's context and its arguments.
    ///
    /// Every call's arguments are validated against `parameters` before `handler` runs.
    ///
    /// ```
    /// use tool_core::{DynamicTool, Registry, ToolOutput};
    ///
    /// let greeting = String::from("hello");
    /// let tool = DynamicTool::new(
    ///     "greet",
    ///     "Greets someone",
    ///     r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#,
    ///     move |_ctx, args| {
    ///         let text = format!("{greeting}, {}", args["name"].as_str().unwrap_or("you"));
    ///         async move { Ok(ToolOutput::text(text)) }
    ///     },
    /// )
    /// .unwrap();
    /// let mut registry = Registry::new();
    /// registry.add_dynamic(tool).unwrap();
    /// assert_eq!(registry.get("greet").unwrap().parameters_json(), r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#);
    ///
    /// // A call that breaks the schema never reaches the handler.
    /// let context = registry.context();
    /// let refused = futures_lite_block_on(registry.call_async(&context, "greet", r#"{"name": 3}"#));
    /// assert_eq!(refused.unwrap_err().to_string(), "invalid arguments for tool \"greet\"; fix these and call it again:\n- /name: expected a string, got an integer 3");
    /// # fn futures_lite_block_on<F: std::future::Future>(f: F) -> F::Output { let (mut f, mut cx) = (Box::pin(f),
    /// #     std::task::Context::from_waker(std::task::Waker::noop())); loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } } }
    /// ```
    ///
    /// # Errors
    /// [`RegistryError::InvalidName`] for a name some provider refuses, and
    /// [`RegistryError::InvalidSchema`] when `parameters` is not a valid JSON Schema
    /// (draft 2020-12) describing an object.
    #[cfg(feature = "runtime-schema")]
    pub fn new<F, Fut>(
        name: impl Into<String>,
        description: impl Into<String>,
        parameters: &str,
        handler: F,
    ) -> Result<Self, RegistryError>
    where
        F: Fn(ToolContext, Map<String, Value>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ToolOutput, ToolError>> + Send + 'static,
    {
        let name = name.into();
        if !is_valid_tool_name(&name) {
            return Err(RegistryError::InvalidName { name });
        }
        let checked = RuntimeSchema::parse(parameters)
            .map_err(|error| RegistryError::InvalidSchema { name: name.clone(), reason: error.to_string() })?;
        let schema = checked.as_value().clone();
        let describes_object = schema.get("type").and_then(Value::as_str) == Some("object");
        if !describes_object {
            return Err(RegistryError::InvalidSchema {
                name: name.clone(),
                reason: "a tool's parameters must be an object schema (`\"type\": \"object\"`)".to_owned(),
            });
        }
        let name: Arc<str> = Arc::from(name);
        let tool = Arc::clone(&name);
        let handler: Arc<DynHandler> = Arc::new(move |context, arguments, _: &DecodeOptions| {
            let future = handler(context, arguments);
            guarded(&tool, future)
        });
        let mut made = DynamicTool::with_parts(name, description.into(), parameters.to_owned(), schema, handler);
        made.checked = Some(checked);
        Ok(made)
    }

    /// Its parameters as a compiled run-time schema, for a tool made with [`DynamicTool::new`].
    #[must_use]
    pub fn runtime_schema(&self) -> Option<&RuntimeSchema> {
        self.checked.as_ref()
    }

    /// States the JSON Schema of its structured output (MCP `outputSchema`), and checks every
    /// result against it: a result without structured output, or with one that breaks the
    /// schema, is a [`ToolError::Failed`] naming each violation, which the model reads in
    /// place of a result it cannot trust.
    ///
    /// # Errors
    /// [`RegistryError::InvalidSchema`] when `schema` is not a valid JSON Schema.
    pub fn with_output_schema(mut self, schema: &str) -> Result<Self, RegistryError> {
        let compiled = RuntimeSchema::parse(schema).map_err(|error| RegistryError::InvalidSchema {
            name: self.name.to_string(),
            reason: format!("its output schema: {error}"),
        })?;
        self.output_schema = Some(schema.to_owned());
        self.checked_output = Some(compiled);
        Ok(self)
    }

    /// What a structured result that breaks the output schema does:
    /// [`OutputMismatch::Refuse`] (the default) or [`OutputMismatch::Wrap`].
    #[must_use]
    pub fn on_output_mismatch(mut self, mismatch: OutputMismatch) -> Self {
        self.output_mismatch = mismatch;
        self
    }

    /// `future`'s output, once its structured part satisfies the output schema.
    pub(super) fn checking_output(&self, future: ToolFuture<'static>) -> ToolFuture<'static> {
        let Some(schema) = self.checked_output.clone() else { return future };
        let (tool, mismatch) = (Arc::clone(&self.name), self.output_mismatch);
        Box::pin(async move { checked_output(&schema, &tool, future.await?, mismatch) })
    }

    /// `arguments` coerced (when lenient) and validated against the run-time schema.
    pub(super) fn checked_arguments(&self, mut arguments: Value, options: &DecodeOptions) -> Result<Value, Violations> {
        if let Some(schema) = &self.checked {
            if options.lenient {
                schema.coerce(&mut arguments);
            }
            schema.validate(&arguments)?;
        }
        Ok(arguments)
    }
}

/// `output` once its structured part satisfies `schema`; otherwise refused, or wrapped as
/// `mismatch` says.
pub(crate) fn checked_output(
    schema: &RuntimeSchema,
    tool: &str,
    output: ToolOutput,
    mismatch: OutputMismatch,
) -> Result<ToolOutput, ToolError> {
    let failed = |message: String| ToolError::Failed { tool: tool.to_owned(), message };
    let Some(structured) = output.structured() else {
        return Err(failed("the result has no structured content, though the tool states an output schema".to_owned()));
    };
    let problem = match schema.validate(structured) {
        Ok(()) => return Ok(output),
        Err(violations) => format!("the structured result breaks the tool's output schema:\n{violations}"),
    };
    if mismatch == OutputMismatch::Refuse {
        return Err(failed(problem));
    }
    let wrapped = serde_json::json!({ "result": structured });
    let details = match output.details().cloned() {
        Some(Value::Object(mut details)) => {
            details.insert("output_violations".to_owned(), Value::String(problem));
            Value::Object(details)
        }
        Some(other) => serde_json::json!({ "details": other, "output_violations": problem }),
        None => serde_json::json!({ "output_violations": problem }),
    };
    Ok(output.with_structured(wrapped).with_details(details))
}
