//! What dispatch takes in: a call's [`Arguments`] as they arrive, and the
//! [`DecodeOptions`] that say how they are read.

use serde_json::Value;

use crate::error::ToolError;

/// A tool call's arguments as they arrive: JSON text (`OpenAI` sends a string) or an already
/// parsed value (Anthropic, Gemini and MCP send an object).
#[derive(Debug, Clone)]
pub enum Arguments<'a> {
    /// JSON text.
    Text(&'a str),
    /// A parsed JSON value.
    Value(Value),
}

impl Arguments<'_> {
    /// The arguments as a parsed value: text within `options.max_argument_bytes` is parsed.
    ///
    /// # Errors
    /// [`ToolError::InvalidJson`] for text that is not JSON or is longer than the limit.
    pub(crate) fn into_value(self, options: &DecodeOptions) -> Result<Value, ToolError> {
        match self {
            Arguments::Value(value) => Ok(value),
            Arguments::Text(text) => parse(text, options),
        }
    }
}

impl<'a> From<&'a str> for Arguments<'a> {
    fn from(text: &'a str) -> Self {
        Arguments::Text(text)
    }
}

impl<'a> From<&'a String> for Arguments<'a> {
    fn from(text: &'a String) -> Self {
        Arguments::Text(text)
    }
}

impl From<Value> for Arguments<'_> {
    fn from(value: Value) -> Self {
        Arguments::Value(value)
    }
}

/// How arguments are decoded: `DecodeOptions::default()`, then the builder methods
/// (`DecodeOptions::default().lenient(true)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecodeOptions {
    /// Rewrite the common model mistakes (`"3"` for `3`) before validation; see
    /// [`ToolParam::coerce`](crate::ToolParam::coerce). Off by default: dispatch then
    /// accepts exactly what the schema accepts.
    pub lenient: bool,
    /// The largest argument text accepted, in bytes.
    pub max_argument_bytes: usize,
}

impl DecodeOptions {
    /// The default limit on argument text: 1 MiB.
    pub const DEFAULT_MAX_ARGUMENT_BYTES: usize = 1 << 20;

    /// Whether the common model mistakes (`"3"` for `3`) are rewritten before validation.
    #[must_use]
    pub const fn lenient(mut self, lenient: bool) -> Self {
        self.lenient = lenient;
        self
    }

    /// The largest argument text accepted, in bytes.
    #[must_use]
    pub const fn max_argument_bytes(mut self, bytes: usize) -> Self {
        self.max_argument_bytes = bytes;
        self
    }
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions { lenient: false, max_argument_bytes: Self::DEFAULT_MAX_ARGUMENT_BYTES }
    }
}

/// Parses argument text no longer than the limit.
fn parse(text: &str, options: &DecodeOptions) -> Result<Value, ToolError> {
    if text.len() > options.max_argument_bytes {
        return Err(ToolError::InvalidJson {
            message: format!(
                "{} bytes is more than the {} bytes this registry accepts",
                text.len(),
                options.max_argument_bytes
            ),
        });
    }
    serde_json::from_str(text).map_err(|error| ToolError::InvalidJson { message: error.to_string() })
}
