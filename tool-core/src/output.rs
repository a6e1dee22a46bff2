//! [`ToolOutput`]: what a tool returns, as [`Content`] blocks plus an optional structured
//! value; and [`IntoToolOutput`], the return types a `#[tool]` fn may have.

use core::fmt;
use std::borrow::Cow;

use serde_json::Value;

use crate::content::Content;
use crate::schema::Schema;

/// What a tool returns to the model: one or more [`Content`] blocks, and for tools returning
/// [`JsonText`], [`Structured`] or a `serde_json::Value`, the same result as JSON (MCP
/// `structuredContent`). Serialized as its blocks (`content`) and, when present, the
/// structured result, the details and whether it ends the run.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(from = "OutputShape")]
pub struct ToolOutput {
    blocks: Blocks,
    // Boxed: most results have none of it, and an empty box is cheaper to move and drop.
    extra: Option<Box<Extra>>,
}

/// What a result may carry beside its blocks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Extra {
    structured: Option<Value>,
    details: Option<Value>,
    terminate: bool,
}

// Most results are one text block: holding it inline keeps a call to the one allocation
// the text itself needs, as hand-written code would have.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Blocks {
    One(Content),
    Many(Vec<Content>),
}

/// [`ToolOutput`] as serde reads it: every part named, the empty ones absent.
#[derive(serde::Deserialize)]
struct OutputShape {
    content: Vec<Content>,
    #[serde(default)]
    structured: Option<Value>,
    #[serde(default)]
    details: Option<Value>,
    #[serde(default)]
    terminate: bool,
}

/// The same shape written from a borrowed output: serde's `into` would clone the whole
/// output (an image's base64 text with it) each time a journal writes it.
impl serde::Serialize for ToolOutput {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let extra = self.extra.as_deref();
        let structured = extra.and_then(|extra| extra.structured.as_ref());
        let details = extra.and_then(|extra| extra.details.as_ref());
        let terminate = extra.is_some_and(|extra| extra.terminate);
        let fields = 1 + usize::from(structured.is_some()) + usize::from(details.is_some()) + usize::from(terminate);
        let mut shape = serializer.serialize_struct("ToolOutput", fields)?;
        shape.serialize_field("content", self.content())?;
        if let Some(structured) = structured {
            shape.serialize_field("structured", structured)?;
        }
        if let Some(details) = details {
            shape.serialize_field("details", details)?;
        }
        if terminate {
            shape.serialize_field("terminate", &true)?;
        }
        shape.end()
    }
}

impl From<OutputShape> for ToolOutput {
    fn from(shape: OutputShape) -> Self {
        let mut output = ToolOutput::new(shape.content);
        if shape.structured.is_some() || shape.details.is_some() || shape.terminate {
            output.extra = Some(Box::new(Extra {
                structured: shape.structured,
                details: shape.details,
                terminate: shape.terminate,
            }));
        }
        output
    }
}

impl ToolOutput {
    /// One text block.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Self {
        ToolOutput { blocks: Blocks::One(Content::Text(text.into())), extra: None }
    }

    /// These blocks, in order (none is a valid, empty result).
    #[must_use]
    pub fn new(content: impl IntoIterator<Item = Content>) -> Self {
        let mut content: Vec<Content> = content.into_iter().collect();
        let blocks = if content.len() == 1 { Blocks::One(content.remove(0)) } else { Blocks::Many(content) };
        ToolOutput { blocks, extra: None }
    }

    /// Adds the result as JSON (MCP `structuredContent`).
    #[must_use]
    pub fn with_structured(mut self, value: Value) -> Self {
        self.extra.get_or_insert_default().structured = Some(value);
        self
    }

    /// Attaches details the model never sees (for a user interface, a log): the agent puts
    /// them on the call's record ([`ToolRun`](crate::agent::ToolRun)) and on its
    /// `ToolFinished` event. An MCP server does not send them.
    #[must_use]
    pub fn with_details(mut self, details: Value) -> Self {
        self.extra.get_or_insert_default().details = Some(details);
        self
    }

    /// Asks the agent to end its run after this call's batch, without another model round
    /// (the run ends when every result of the batch asks). An MCP server ignores it.
    #[must_use]
    pub fn terminate(mut self) -> Self {
        self.extra.get_or_insert_default().terminate = true;
        self
    }

    /// The blocks, in order.
    #[must_use]
    pub fn content(&self) -> &[Content] {
        match &self.blocks {
            Blocks::One(block) => core::slice::from_ref(block),
            Blocks::Many(blocks) => blocks,
        }
    }

    /// The result as JSON, when the tool returned one.
    #[must_use]
    pub fn structured(&self) -> Option<&Value> {
        self.extra.as_ref()?.structured.as_ref()
    }

    /// The details attached with [`ToolOutput::with_details`].
    #[must_use]
    pub fn details(&self) -> Option<&Value> {
        self.extra.as_ref()?.details.as_ref()
    }

    /// Whether the result asks to end the agent's run ([`ToolOutput::terminate`]).
    #[must_use]
    pub fn terminates(&self) -> bool {
        self.extra.as_ref().is_some_and(|extra| extra.terminate)
    }

    /// The result for a reader of text only: the blocks joined by blank lines, binary
    /// ones described ([`Content::describe`]). A single text block is borrowed.
    #[must_use]
    pub fn to_text(&self) -> Cow<'_, str> {
        match self.content() {
            [] => Cow::Borrowed(""),
            [Content::Text(text)] => Cow::Borrowed(text),
            blocks => {
                let mut text = String::new();
                for (i, block) in blocks.iter().enumerate() {
                    if i > 0 {
                        text.push_str("\n\n");
                    }
                    text.push_str(&block.describe());
                }
                Cow::Owned(text)
            }
        }
    }

    /// Whether every block is text (nothing is lost in a text-only dialect).
    #[must_use]
    pub fn is_text_only(&self) -> bool {
        self.content().iter().all(|block| matches!(block.plain(), Content::Text(_)))
    }
}

impl From<Content> for ToolOutput {
    fn from(block: Content) -> Self {
        ToolOutput { blocks: Blocks::One(block), extra: None }
    }
}

/// A result serialized to JSON text for the model (without an output schema: for one, return
/// [`Structured`]). Named apart from `axum::Json`, which a program serving MCP over HTTP often
/// has in scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct JsonText<T>(pub T);

/// A structured result whose schema is known: serialized to JSON for the model, and
/// advertised as the tool's output schema (MCP `outputSchema`). `T` is a struct with named
/// fields (an object, as MCP requires) deriving `Serialize` and `ToolSchema` (or
/// `ToolArgs`); it need not deserialize.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Structured<T>(pub T);

impl<T> Structured<T> {
    /// The same result with `text` for the model in place of the value's JSON (MCP
    /// `content`); the value is still the `structuredContent`, under the output schema.
    #[must_use]
    pub fn with_text(self, text: impl Into<String>) -> StructuredText<T> {
        StructuredText { value: self.0, text: Some(text.into()) }
    }

    /// The same result with the value's JSON pretty-printed (two-space indentation, as
    /// `JSON.stringify(value, null, 2)`) as its text.
    #[must_use]
    pub fn pretty(self) -> StructuredText<T> {
        StructuredText { value: self.0, text: None }
    }
}

/// A [`Structured`] result with text of its own ([`Structured::with_text`]) or its JSON
/// pretty-printed ([`Structured::pretty`]): the text for the model, the value as
/// `structuredContent`, and `T`'s schema advertised as the tool's output schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructuredText<T> {
    value: T,
    /// `None`: the value's JSON, pretty-printed.
    text: Option<String>,
}

/// What a `#[tool]` fn may return.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a `#[tool]` fn",
    label = "unsupported return type",
    note = "return `String`, `&'static str`, `()`, `serde_json::Value`, `JsonText<T>` where `T: Serialize`, `Structured<T>` (or `StructuredText<T>`, from `Structured::with_text`) where `T: Serialize + ToolObject` (a struct deriving `ToolArgs` or `ToolSchema`), `Content`, `Vec<Content>`, `ToolOutput`, or `Result<_, E>` of those where `E: Display`"
)]
pub trait IntoToolOutput {
    /// The schema of the structured output, when the type states one.
    const OUTPUT_SCHEMA: Option<&'static Schema> = None;

    /// The output, or the text of the tool's own error.
    ///
    /// # Errors
    /// The tool's `Err`, rendered with `Display`.
    fn into_tool_output(self) -> Result<ToolOutput, String>;
}

impl IntoToolOutput for ToolOutput {
    fn into_tool_output(self) -> Result<ToolOutput, String> {
        Ok(self)
    }
}

impl IntoToolOutput for String {
    fn into_tool_output(self) -> Result<ToolOutput, String> {
        Ok(ToolOutput::text(self))
    }
}

impl IntoToolOutput for &'static str {
    fn into_tool_output(self) -> Result<ToolOutput, String> {
        Ok(ToolOutput::text(self))
    }
}

/// A tool run for its effect: an empty result.
impl IntoToolOutput for () {
    fn into_tool_output(self) -> Result<ToolOutput, String> {
        Ok(ToolOutput::new([]))
    }
}

impl IntoToolOutput for Content {
    fn into_tool_output(self) -> Result<ToolOutput, String> {
        Ok(ToolOutput::from(self))
    }
}

impl IntoToolOutput for Vec<Content> {
    fn into_tool_output(self) -> Result<ToolOutput, String> {
        Ok(ToolOutput::new(self))
    }
}

/// The value as JSON text, and as the structured result.
impl IntoToolOutput for Value {
    fn into_tool_output(self) -> Result<ToolOutput, String> {
        Ok(ToolOutput::text(self.to_string()).with_structured(self))
    }
}

impl<T: serde::Serialize> IntoToolOutput for JsonText<T> {
    fn into_tool_output(self) -> Result<ToolOutput, String> {
        serde_json::to_value(&self.0)
            .map_err(|e| format!("the result could not be serialized: {e}"))?
            .into_tool_output()
    }
}

impl<T: serde::Serialize + crate::param::ToolObject> IntoToolOutput for Structured<T> {
    const OUTPUT_SCHEMA: Option<&'static Schema> = Some(&T::SCHEMA);

    fn into_tool_output(self) -> Result<ToolOutput, String> {
        JsonText(self.0).into_tool_output()
    }
}

impl<T: serde::Serialize + crate::param::ToolObject> IntoToolOutput for StructuredText<T> {
    const OUTPUT_SCHEMA: Option<&'static Schema> = Some(&T::SCHEMA);

    fn into_tool_output(self) -> Result<ToolOutput, String> {
        let value =
            serde_json::to_value(&self.value).map_err(|e| format!("the result could not be serialized: {e}"))?;
        let text = match self.text {
            Some(text) => text,
            None => {
                serde_json::to_string_pretty(&value).map_err(|e| format!("the result could not be serialized: {e}"))?
            }
        };
        Ok(ToolOutput::text(text).with_structured(value))
    }
}

impl<T: IntoToolOutput, E: fmt::Display> IntoToolOutput for Result<T, E> {
    const OUTPUT_SCHEMA: Option<&'static Schema> = T::OUTPUT_SCHEMA;

    fn into_tool_output(self) -> Result<ToolOutput, String> {
        self.map_err(|e| e.to_string())?.into_tool_output()
    }
}

#[cfg(feature = "runtime-schema")]
/// What happens to a structured result that breaks its tool's output schema
/// ([`Registry::on_output_mismatch`](crate::Registry::on_output_mismatch), [`DynamicTool::on_output_mismatch`](crate::DynamicTool::on_output_mismatch)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum OutputMismatch {
    /// The call fails with [`ToolError::Failed`](crate::ToolError::Failed), naming each violation: no client is sent a
    /// `structuredContent` that breaks the `outputSchema` it was promised (the default).
    #[default]
    Refuse,
    /// The result goes out with its structured part wrapped as `{"result": v}` (the seeds'
    /// function tools, Google's ADK), and the violations in its details
    /// (`{"output_violations": ".."}`, never sent to a model). An MCP client that checks
    /// `structuredContent` against the `outputSchema` will refuse it.
    Wrap,
}
