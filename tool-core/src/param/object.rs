//! [`ToolObject`]: a struct with named fields, whose schema is an object; [`ToolArgs`]: one
//! that deserializes, so it can be a tool's whole argument list.

use crate::param::ToolParam;
use crate::schema::Schema;
use crate::validate::fields::{Check, Fields};
use serde::de::DeserializeOwned;

/// A struct with named fields, deriving `ToolArgs` (or `ToolSchema`): its schema is an
/// object. What a [`Structured`](crate::Structured) output needs, beside `Serialize`; with
/// `Deserialize` as well it is [`ToolArgs`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a struct deriving `ToolArgs`",
    label = "needs a JSON object: a struct with named fields deriving `ToolArgs`",
    note = "a tool's arguments and a `Structured` output are one JSON object: `#[derive(tool_core::ToolArgs)]` on a struct with named fields (with `serde::Deserialize` for arguments, `serde::Serialize` for an output); an enum, a list or any other value goes in a field of it (`struct Args {{ op: Op }}`), and a fn's lone parameter of such a type is one named parameter with `#[param]` (`fn compute(#[param] op: Op)`)"
)]
pub trait ToolObject: ToolParam {
    /// The struct's properties as the full path checks them (its object schema, and per
    /// field the aliases serde accepts and the field type's own checks): the data of its
    /// [`ToolParam::__CHECK`], for a struct flattened into another or an enum variant.
    #[doc(hidden)]
    const __FIELDS: &'static Fields = Self::__CHECK.fields();
}

/// A struct that can be a tool's argument list: a [`ToolObject`] that deserializes.
///
/// Derive it with `#[derive(ToolArgs)]`; the derive also implements
/// [`ToolParam`] so the struct can be nested in another.
pub trait ToolArgs: ToolObject + DeserializeOwned {}

impl<T: ToolObject + DeserializeOwned> ToolArgs for T {}

/// The argument list of a tool whose `fn` takes no arguments: an empty object.
#[derive(Debug, Clone, Copy, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

impl ToolParam for NoArgs {
    const SCHEMA: Schema = Schema::EMPTY_OBJECT;
    const SERDE_EXACT: bool = true;
    const __CHECK: Check = Check::Object(&Fields::EMPTY);
}

impl ToolObject for NoArgs {}

/// The argument list of a `#[tool(open)]` fn that takes no arguments: any object, every key
/// ignored (as a port of a server whose SDK strips unknown keys needs).
#[derive(Debug, Clone, Copy, Default, serde::Deserialize)]
pub struct IgnoredArgs {}

impl ToolParam for IgnoredArgs {
    const SCHEMA: Schema = Schema::OPEN_EMPTY_OBJECT;
    // Not the one-pass path, which refuses undeclared keys: validated, then decoded by serde.
    const SERDE_EXACT: bool = false;
    const __CHECK: Check = Check::Object(&Fields::OPEN_EMPTY);
}

impl ToolObject for IgnoredArgs {}
