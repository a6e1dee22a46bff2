//! What dispatch takes in: a call's [`Arguments`] as they arrive, and the
//! [`DecodeOptions`] that say how they are read.

use std::borrow::Cow;

use serde_json::Value;

use crate::error::ToolError;

/// A tool call's arguments as they arrive: JSON text (`OpenAI` sends a string, which may be
/// malformed or cut off) or an already parsed value (Anthropic, Gemini and MCP send an
/// object). Borrowed where the caller holds the text, owned (`Arguments<'static>`) where the
/// call outlives it: a model's [`ToolCall`](crate::provider::ToolCall), a call on the pool.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Arguments<'a> {
    /// JSON text.
    Text(Cow<'a, str>),
    /// A parsed JSON value.
    Value(Value),
}

impl Arguments<'_> {
    /// These arguments, owning their text.
    #[must_use]
    pub fn into_owned(self) -> Arguments<'static> {
        match self {
            Arguments::Text(text) => Arguments::Text(Cow::Owned(text.into_owned())),
            Arguments::Value(value) => Arguments::Value(value),
        }
    }

    /// The arguments as JSON text: the text as sent, or the value written out.
    #[must_use]
    #[inline]
    pub fn to_text(&self) -> Cow<'_, str> {
        match self {
            Arguments::Text(text) => Cow::Borrowed(text),
            Arguments::Value(value) => Cow::Owned(value.to_string()),
        }
    }

    /// The arguments as a parsed value: text within `options.max_argument_bytes` is parsed,
    /// a value whose JSON text would be within it passes.
    ///
    /// # Errors
    /// [`ToolError::InvalidJson`] for text that is not JSON, or text or a value longer than
    /// the limit.
    pub(crate) fn into_value(self, options: &DecodeOptions) -> Result<Value, ToolError> {
        match self {
            Arguments::Value(value) => within(value, options),
            Arguments::Text(text) => parse(&text, options),
        }
    }
}

impl<'a> From<&'a str> for Arguments<'a> {
    fn from(text: &'a str) -> Self {
        Arguments::Text(Cow::Borrowed(text))
    }
}

impl<'a> From<&'a String> for Arguments<'a> {
    fn from(text: &'a String) -> Self {
        Arguments::Text(Cow::Borrowed(text))
    }
}

impl From<String> for Arguments<'_> {
    fn from(text: String) -> Self {
        Arguments::Text(Cow::Owned(text))
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

/// `value`, when its JSON text is no longer than the limit: a value handed over already
/// parsed is held to the same size as text, counted by writing it out (to nothing) and
/// stopping at the limit.
fn within(value: Value, options: &DecodeOptions) -> Result<Value, ToolError> {
    struct Counter {
        written: usize,
        limit: usize,
    }
    impl std::io::Write for Counter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.written += bytes.len();
            if self.written > self.limit { Err(std::io::Error::other("over the limit")) } else { Ok(bytes.len()) }
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter { written: 0, limit: options.max_argument_bytes };
    if serde_json::to_writer(&mut counter, &value).is_ok() {
        return Ok(value);
    }
    Err(ToolError::InvalidJson {
        message: format!(
            "the arguments are more than the {} bytes this registry accepts (as JSON text)",
            options.max_argument_bytes
        ),
    })
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
