//! [`ToolParam`]: what a Rust type looks like in JSON Schema, and how a JSON value is checked
//! against it. Types compose through this trait (a `Vec<T>` asks `T`), never by their names,
//! so aliases and nested types cannot be mistaken for something else.
//!
//! The marker traits ([`StringParam`], [`NumberParam`], …) say which `#[param]` keywords a
//! type accepts; the derive asserts them at the keyword's span, so `minimum` on a `String`
//! is a compile error pointing at `minimum`.

mod container;
pub use container::MapKey;
mod scalar;

use serde_json::Value;

use crate::schema::Schema;
use crate::violation::{Pointer, Violations, preview, type_name};

/// A type that can appear in a tool's arguments: it states its JSON Schema and checks a JSON
/// value against it.
///
/// Implemented for the std types listed in the crate docs; `#[derive(ToolArgs)]` implements
/// it for your structs and enums.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter",
    label = "no JSON Schema is known for `{Self}`",
    note = "derive `ToolArgs` (beside `serde::Deserialize`) on your own structs and enums"
)]
pub trait ToolParam {
    /// The type's schema, as a compile-time constant.
    const SCHEMA: Schema;

    /// Whether a field of this type may be absent (`Option<T>`), so it stays out of
    /// `required`.
    const OPTIONAL: bool = false;

    /// Checks `value` against [`Self::SCHEMA`], recording every violation under `at`.
    ///
    /// An integer written as `3.0` is valid JSON Schema; it is rewritten to `3` here so that
    /// the `Deserialize` impl that runs next accepts what the schema accepts.
    fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations);

    /// Lenient decoding: rewrites the common mistakes of models (`"3"` for `3`, `"true"` for
    /// `true`) into the type the schema asks for. Never touches `null`, and never parses a
    /// string into an object or array.
    fn coerce(value: &mut Value) {
        let _ = value;
    }
}

/// Types whose schema is a string: `min_length`, `max_length`, `pattern` and `format` apply.
#[diagnostic::on_unimplemented(
    message = "this keyword needs a string field, found `{Self}`",
    label = "not a string type",
    note = "`min_length`, `max_length`, `pattern` and `format` apply to `String`, `&str`, `Cow<str>` and `char`"
)]
pub trait StringParam: ToolParam {}

/// Types whose schema is a number: `minimum`, `maximum`, `exclusive_*` and `multiple_of` apply.
#[diagnostic::on_unimplemented(
    message = "this keyword needs a numeric field, found `{Self}`",
    label = "not a number type",
    note = "`minimum`, `maximum`, `exclusive_minimum`, `exclusive_maximum` and `multiple_of` apply to integer and float types"
)]
pub trait NumberParam: ToolParam {}

/// Number types that hold fractions (`f32`, `f64`): a non-integral literal fits them.
#[diagnostic::on_unimplemented(
    message = "a non-integral value cannot fit `{Self}`",
    label = "not a float type",
    note = "use an integer literal, or make the field `f64`"
)]
pub trait FloatParam: NumberParam {}

/// Types whose schema is a boolean.
#[diagnostic::on_unimplemented(message = "a boolean value does not fit `{Self}`", label = "not `bool`")]
pub trait BoolParam: ToolParam {}

/// Types whose schema is an array: `min_items`, `max_items` and `unique_items` apply.
#[diagnostic::on_unimplemented(
    message = "this keyword needs an array field, found `{Self}`",
    label = "not a sequence type",
    note = "`min_items`, `max_items` and `unique_items` apply to `Vec`, `VecDeque`, arrays and sets"
)]
pub trait ArrayParam: ToolParam {}

/// Records that `value` is not of the `expected` JSON type.
#[doc(hidden)]
pub fn wrong_type(value: &Value, expected: &str, at: &Pointer, out: &mut Violations) {
    let got = type_name(value);
    let message = if value.is_null() || value.is_array() || value.is_object() {
        format!("expected {expected}, got {}", preview(value))
    } else {
        format!("expected {expected}, got {got} {}", preview(value))
    };
    out.push(at, "type", message);
}
