//! [`Registry::validate`]: a call's arguments checked as the call would check them, without
//! running the tool, for every kind of entry.

use serde_json::Value;

use super::Registry;
use super::entry::Kind;
use crate::dispatch::{Arguments, checked_value};
use crate::error::ToolError;

impl Registry {
    /// Checks `arguments` for the tool `name` as a call would, without running it: the same
    /// parsing, size limit, lenient coercion ([`Registry::with_options`]) and violations,
    /// worded alike whether the tool is a `#[tool]`, a `#[tools]` method, a
    /// [`DynamicTool`](crate::DynamicTool) from a type or from a JSON Schema, or another
    /// server's tool. Returns the arguments as the tool would receive them (`"3"` as `3`
    /// when lenient), for a program that vets a model's call before it runs it (a plan shown
    /// for approval, a call replayed later).
    ///
    /// ```
    /// use tool_core::{Registry, ToolArgs, tool};
    /// use serde_json::json;
    ///
    /// #[derive(ToolArgs)]
    /// struct Days {
    ///     #[param(minimum = 1, maximum = 10)]
    ///     days: u8,
    /// }
    /// /// Forecasts.
    /// #[tool]
    /// fn forecast(args: Days) -> String { format!("{} days", args.days) }
    ///
    /// let lenient = tool_core::dispatch::DecodeOptions::default().lenient(true);
    /// let mut registry = Registry::new().with_options(lenient);
    /// registry.add(ForecastTool)?;
    /// assert_eq!(registry.validate("forecast", json!({"days": "3"}))?, json!({"days": 3}));
    /// let refused = registry.validate("forecast", json!({"days": 12})).unwrap_err();
    /// assert!(refused.to_string().contains("/days: must be <= 10, got 12"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// A type whose `Deserialize` is stricter than its schema may still refuse at the call.
    ///
    /// # Errors
    /// [`ToolError::UnknownTool`], [`ToolError::InvalidJson`] (not JSON, or beyond the size
    /// limit), and [`ToolError::InvalidArguments`] with every violation.
    pub fn validate<'a>(&self, name: &str, arguments: impl Into<Arguments<'a>>) -> Result<Value, ToolError> {
        let entry = self.lookup(name)?;
        match entry.kind() {
            Kind::Static(def) | Kind::Method(def, _) => {
                checked_value(def.name(), arguments.into(), self.options(), def.check(), def.schema())
            }
            Kind::Dynamic(tool) => tool.validate(arguments.into(), self.options()),
        }
    }
}
