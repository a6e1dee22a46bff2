//! [`ToolSet`]: a type whose methods are tools, written by `#[tools]` on its `impl` block.
//! A method needs its receiver, so these tools are not collected by `inventory`: a value of
//! the type is handed to [`Registry::add_all`](crate::Registry::add_all), and every call of
//! its tools borrows that one value.

use std::sync::Arc;

use crate::error::ToolError;
use crate::tool::{Receiver, ToolDef};

/// A type whose `&self` methods are tools: implemented by `#[tools]` on its `impl` block.
///
/// ```
/// use tool_core::{Registry, tool, tools};
///
/// struct Counter {
///     start: i64,
/// }
///
/// #[tools]
/// impl Counter {
///     /// Adds `n` to the counter's start.
///     #[tool]
///     fn add(&self, n: i64) -> String {
///         (self.start + n).to_string()
///     }
/// }
///
/// let mut registry = Registry::new();
/// registry.add_all(Counter { start: 40 })?;
/// assert_eq!(registry.call("add", r#"{"n": 2}"#)?.to_text(), "42");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait ToolSet: Send + Sync + 'static {
    /// The definitions of the block's tools, in the order they are written. Each needs a
    /// receiver: add them with [`Registry::add_all`](crate::Registry::add_all), not one by
    /// one.
    fn tool_defs() -> &'static [&'static ToolDef];

    /// The block's `#[prompt]` methods (`mcp::Prompts::add_all` adds them).
    #[doc(hidden)]
    #[must_use]
    fn __prompt_defs() -> &'static [&'static ToolDef] {
        &[]
    }

    /// The block's `#[resource]` methods (`mcp::Resources::add_all` adds them).
    #[doc(hidden)]
    #[must_use]
    fn __resource_defs() -> &'static [ResourceMethod] {
        &[]
    }
}

/// A `#[resource]` method of a `#[tools]` block: its definition, URI and MIME type.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct ResourceMethod {
    /// The definition.
    pub def: &'static ToolDef,
    /// The URI or URI template.
    pub uri: &'static str,
    /// The MIME type of its text.
    pub mime_type: Option<&'static str>,
}

/// What [`Registry::add_all`](crate::Registry::add_all) takes: a [`ToolSet`] by value, or
/// in an `Arc` the caller keeps a clone of.
pub trait IntoToolSet {
    /// The type whose methods are the tools.
    type Set: ToolSet;

    /// The value, shared.
    fn into_shared(self) -> Arc<Self::Set>;
}

impl<S: ToolSet> IntoToolSet for S {
    type Set = S;

    fn into_shared(self) -> Arc<S> {
        Arc::new(self)
    }
}

impl<S: ToolSet> IntoToolSet for Arc<S> {
    type Set = S;

    fn into_shared(self) -> Arc<S> {
        self
    }
}

/// The receiver a method's shim was handed, as the type the method is declared on. The
/// registry pairs each definition with a value of its own type, so the `Err` is a broken
/// invariant reported as a failed call, not a panic.
///
/// # Errors
/// [`ToolError::Panicked`] when the receiver is of another type.
#[doc(hidden)]
pub fn receiver<'a, T: 'static>(receiver: &'a Receiver, tool: &'static str) -> Result<&'a T, ToolError> {
    receiver.downcast_ref::<T>().ok_or_else(|| ToolError::Panicked {
        tool: tool.to_owned(),
        message: format!("its receiver is not a `{}`", core::any::type_name::<T>()),
    })
}
