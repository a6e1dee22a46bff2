//! [`ToolArgs`]: a struct that can be a tool's whole argument list, and the object
//! validation shared by every derived struct.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::param::{ToolParam, wrong_type};
use crate::schema::Schema;
use crate::shape::reject_unknown;
use crate::violation::{Pointer, Violations};

/// A struct with named fields that can be a tool's argument list: its schema is an object.
///
/// Derive it with `#[derive(serde::Deserialize, ToolArgs)]`; the derive also implements
/// [`ToolParam`] so the struct can be nested in another.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's arguments",
    label = "not a struct deriving `ToolArgs`",
    note = "a tool's arguments are one JSON object: `#[derive(serde::Deserialize, tool_core::ToolArgs)]` on a struct with named fields; an enum or any other value goes in a field of it (`struct Args {{ op: Op }}`)"
)]
pub trait ToolArgs: ToolParam + DeserializeOwned {
    /// [`ToolParam::SCHEMA`], reached through this trait so that a `#[tool]` whose
    /// argument type does not derive `ToolArgs` gets one error, about `ToolArgs`.
    #[doc(hidden)]
    const __ARGS_SCHEMA: &'static Schema = &Self::SCHEMA;

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

/// The argument list of a tool whose `fn` takes no arguments: an empty object.
#[derive(Debug, Clone, Copy, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

impl ToolParam for NoArgs {
    const SCHEMA: Schema = Schema::EMPTY_OBJECT;

    fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
        validate_object::<Self>(value, &[], at, out);
    }
}

impl ToolArgs for NoArgs {
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
pub fn validate_object<T: ToolArgs>(value: &mut Value, names: &[&str], at: &mut Pointer, out: &mut Violations) {
    let Value::Object(map) = value else {
        return wrong_type(value, "an object", at, out);
    };
    T::__validate_fields(map, at, out);
    reject_unknown(map, T::__accepts_key, names, at, out);
}

/// Lenient decoding of an object holding `T`'s properties.
#[doc(hidden)]
pub fn coerce_object<T: ToolArgs>(value: &mut Value) {
    if let Value::Object(map) = value {
        T::__coerce_fields(map);
    }
}
