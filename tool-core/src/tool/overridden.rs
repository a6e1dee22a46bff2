//! A tool's whole input schema written by hand (feature `runtime-schema`): a typed handler
//! over a hand-written JSON Schema ([`DynamicTool::new_typed`]), and a hand-written schema in
//! place of the one a type or a `#[tool]` fn states ([`DynamicTool::with_parameters`], with
//! [`DynamicTool::from_tool`] for a `#[tool]` fn). The schema given is what every provider
//! is sent and what every call is checked against first; the handler's own type then reads
//! the arguments, with its own rules, so no call the type refuses ever reaches it.

use core::future::Future;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::dynamic::{DynHandler, DynamicTool, output_of};
use super::{Handler, Tool};
use crate::context::ToolContext;
use crate::dispatch::{Arguments, DecodeOptions};
use crate::error::{RegistryError, ToolError};
use crate::output::IntoToolOutput;
use crate::schema::RuntimeSchema;
use crate::validate::violation::{Violation, Violations};

impl DynamicTool {
    /// A tool whose arguments follow the hand-written JSON Schema `parameters`, as
    /// [`DynamicTool::new`]'s do, and which `handler` runs with them read into `A` (any
    /// `serde` type): a call is checked against the schema, then read by `A`; a call `A`
    /// cannot read is refused with the reason, and never reaches the handler.
    ///
    /// ```
    /// use tool_core::{DynamicTool, Registry};
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Greet { name: String }
    ///
    /// let schema = r#"{"type":"object","properties":{"name":{"type":"string","minLength":1}},"required":["name"]}"#;
    /// let tool = DynamicTool::new_typed("greet", "Greets someone", schema, |_ctx, args: Greet| async move {
    ///     format!("hello, {}", args.name)
    /// })?;
    /// let mut registry = Registry::new();
    /// registry.add_dynamic(tool)?;
    /// assert_eq!(registry.get("greet").unwrap().parameters_json(), schema);
    /// # Ok::<(), tool_core::RegistryError>(())
    /// ```
    ///
    /// # Errors
    /// As [`DynamicTool::new`].
    pub fn new_typed<A, O, F, Fut>(
        name: impl Into<String>,
        description: impl Into<String>,
        parameters: &str,
        handler: F,
    ) -> Result<Self, RegistryError>
    where
        A: DeserializeOwned + Send + 'static,
        O: IntoToolOutput + 'static,
        F: Fn(ToolContext, A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = O> + Send + 'static,
    {
        let mut made =
            DynamicTool::new(name, description, parameters, |_, _| async { Ok(crate::ToolOutput::text("")) })?;
        let tool = Arc::clone(&made.name);
        let typed: Arc<DynHandler> = Arc::new(move |context, arguments: Map<String, Value>, _: &DecodeOptions| {
            match serde_json::from_value::<A>(Value::Object(arguments)) {
                Ok(args) => output_of(Arc::clone(&tool), handler(context, args)),
                Err(error) => crate::dispatch::ready(Err(unreadable(&tool, &error))),
            }
        });
        made.handler = typed;
        made.output_schema = O::OUTPUT_SCHEMA.map(crate::render::to_json_output);
        Ok(made)
    }

    /// This tool with the hand-written JSON Schema `parameters` (an object schema) in place
    /// of the one it states: every provider is sent `parameters` (as a schema made at run
    /// time: no strict dialect), and every call is checked against it before the tool's own
    /// reading of its arguments, which still applies (a typed tool's type refuses what it
    /// refuses, with its own violations).
    ///
    /// # Errors
    /// [`RegistryError::InvalidSchema`] when `parameters` is not a valid JSON Schema
    /// (draft 2020-12) describing an object.
    pub fn with_parameters(mut self, parameters: &str) -> Result<Self, RegistryError> {
        let invalid = |reason: String| RegistryError::InvalidSchema { name: self.name.to_string(), reason };
        let checked = RuntimeSchema::parse(parameters).map_err(|error| invalid(error.to_string()))?;
        if checked.as_value().get("type").and_then(Value::as_str) != Some("object") {
            return Err(invalid("a tool's parameters must be an object schema (`\"type\": \"object\"`)".to_owned()));
        }
        self.parameters = checked.as_value().clone();
        parameters.clone_into(&mut self.parameters_json);
        self.checked = Some(checked);
        // Its dialects are now those of a schema made at run time.
        self.schema = None;
        Ok(self)
    }

    /// A `#[tool]` fn as a tool made at run time, under its own name, description and
    /// options, its calls decoded and run by its generated shim: for what only a
    /// [`DynamicTool`] offers, such as [`DynamicTool::with_parameters`]. A plain fn runs where
    /// the call is polled (keep it short, or make it `async`).
    ///
    /// # Errors
    /// [`RegistryError::NeedsReceiver`] for a method of a `#[tools]` block.
    pub fn from_tool(tool: impl Tool) -> Result<Self, RegistryError> {
        let def = tool.def();
        let handler: Arc<DynHandler> = match def.handler() {
            Handler::Sync(shim) => {
                Arc::new(move |context: ToolContext, arguments: Map<String, Value>, options: &DecodeOptions| {
                    crate::dispatch::ready(shim(&context, Arguments::Value(Value::Object(arguments)), options))
                })
            }
            Handler::Async(shim) => {
                Arc::new(move |context: ToolContext, arguments: Map<String, Value>, options: &DecodeOptions| {
                    let options = *options;
                    Box::pin(async move { shim(&context, Arguments::Value(Value::Object(arguments)), &options).await })
                })
            }
            Handler::SyncMethod(_) | Handler::AsyncMethod(_) => {
                return Err(RegistryError::NeedsReceiver { name: def.name().to_owned(), method: def.rust_path() });
            }
        };
        let parameters_json = def.parameters_json().to_owned();
        let parameters = serde_json::from_str(&parameters_json)
            .map_err(|error| RegistryError::InvalidSchema { name: def.name().to_owned(), reason: error.to_string() })?;
        let mut made = DynamicTool::with_parts(
            Arc::from(def.name()),
            def.description().to_owned(),
            parameters_json,
            parameters,
            handler,
        );
        made.options = *def.options();
        made.title = def.options().title.map(str::to_owned);
        made.scopes = def.options().scopes.iter().map(|scope| (*scope).to_owned()).collect();
        made.schema = Some(def.schema());
        made.check = Some((def.check(), def.schema()));
        made.output_schema = def.output_schema().map(str::to_owned);
        Ok(made)
    }
}

/// A call whose arguments satisfied the schema but that `A` could not read.
fn unreadable(tool: &str, error: &serde_json::Error) -> ToolError {
    let mut violations = Violations::new();
    violations.push_violation(Violation::new("", "deserialize", error.to_string()));
    ToolError::InvalidArguments { tool: tool.to_owned(), violations }
}
