//! [`ToolObject`]: a struct with named fields, whose schema is an object; [`ToolArgs`]: one
//! that deserializes, so it can be a tool's whole argument list; and the object validation
//! shared by every derived struct.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::param::{ToolParam, wrong_type};
use crate::schema::Schema;
use crate::validate::shape::reject_unknown;
use crate::validate::violation::{Pointer, Violations};

/// A struct with named fields, deriving `ToolArgs` (or `ToolSchema`): its schema is an
/// object. What a [`Structured`](crate::Structured) output needs, beside `Serialize`; with
/// `Deserialize` as well it is [`ToolArgs`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a struct deriving `ToolArgs`",
    label = "needs a JSON object: a struct with named fields deriving `ToolArgs`",
    note = "a tool's arguments and a `Structured` output are one JSON object: `#[derive(tool_core::ToolArgs)]` on a struct with named fields (with `serde::Deserialize` for arguments, `serde::Serialize` for an output); an enum, a list or any other value goes in a field of it (`struct Args {{ op: Op }}`)"
)]
pub trait ToolObject: ToolParam {
    /// Whether `key` names one of the struct's properties (aliases and flattened structs
    /// included); any other key is an unknown property.
    #[doc(hidden)]
    fn __accepts_key(key: &str) -> bool;

    /// Checks the struct's own properties in `map` and reports the required ones missing.
    #[doc(hidden)]
    fn __validate_fields(map: &mut Map<String, Value>, at: &mut Pointer, out: &mut Violations);

    /// Lenient decoding of the struct's own properties in `map`.
    #[doc(hidden)]
    fn __coerce_fields(map: &mut Map<String, Value>);
}

/// A struct that can be a tool's argument list: a [`ToolObject`] that deserializes.
///
/// Derive it with `#[derive(serde::Deserialize, ToolArgs)]`; the derive also implements
/// [`ToolParam`] so the struct can be nested in another.
pub trait ToolArgs: ToolObject + DeserializeOwned {
    /// [`ToolParam::SCHEMA`], reached through this trait.
    #[doc(hidden)]
    const __ARGS_SCHEMA: &'static Schema = &Self::SCHEMA;
}

impl<T: ToolObject + DeserializeOwned> ToolArgs for T {}

/// The argument list of a tool whose `fn` takes no arguments: an empty object.
#[derive(Debug, Clone, Copy, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

impl ToolParam for NoArgs {
    const SCHEMA: Schema = Schema::EMPTY_OBJECT;
    const FAST: bool = true;

    fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
        validate_object::<Self>(value, &[], at, out);
    }
}

impl ToolObject for NoArgs {
    fn __accepts_key(_: &str) -> bool {
        false
    }

    fn __validate_fields(_: &mut Map<String, Value>, _: &mut Pointer, _: &mut Violations) {}

    fn __coerce_fields(_: &mut Map<String, Value>) {}
}

/// Checks that `value` is an object holding `T`'s properties and no others.
///
/// `names` lists the struct's own property names, for the unknown-property message.
#[doc(hidden)]
pub fn validate_object<T: ToolObject>(value: &mut Value, names: &[&str], at: &mut Pointer, out: &mut Violations) {
    let Value::Object(map) = value else {
        return wrong_type(value, "an object", at, out);
    };
    T::__validate_fields(map, at, out);
    reject_unknown(map, T::__accepts_key, names, at, out);
}

/// Lenient decoding of an object holding `T`'s properties.
#[doc(hidden)]
pub fn coerce_object<T: ToolObject>(value: &mut Value) {
    if let Value::Object(map) = value {
        T::__coerce_fields(map);
    }
}
