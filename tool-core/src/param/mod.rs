//! [`ToolParam`]: what a Rust type looks like in JSON Schema, and how a JSON value is checked
//! against it. Types compose through this trait (a `Vec<T>` asks `T`), never by their names,
//! so aliases and nested types cannot be mistaken for something else.
//!
//! The marker traits ([`StringParam`], [`NumberParam`], …) say which `#[param]` keywords a
//! type accepts; the derive asserts them at the keyword's span, so `minimum` on a `String`
//! is a compile error pointing at `minimum`.

mod container;
mod ecosystem;
#[cfg(feature = "elicit")]
mod elicit;
mod object;
pub(crate) mod plain;
#[doc(hidden)]
pub mod satisfies;
mod scalar;
pub(crate) mod tagged;
mod text;
mod tuple;

pub use container::MapKey;
#[cfg(feature = "elicit")]
pub use elicit::{ElicitChoice, ElicitField, ElicitForm};
#[doc(hidden)]
pub use object::{IgnoredArgs, NoArgs};
pub use object::{ToolArgs, ToolObject};

use serde_json::Value;

use crate::schema::Schema;
use crate::validate::fields::Check;
use crate::validate::violation::{Pointer, Violations};

/// A type that can appear in a tool's arguments: it states its JSON Schema and checks a JSON
/// value against it.
///
/// Implemented for the std types listed in the crate docs; `#[derive(ToolArgs)]` implements
/// it for your structs and enums.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter",
    label = "no JSON Schema is known for `{Self}`",
    note = "derive `ToolArgs` on your own structs and enums (on a generic enum, beside `serde::Deserialize`)"
)]
pub trait ToolParam {
    /// The type's schema, as a compile-time constant.
    const SCHEMA: Schema;

    /// [`ToolParam::SCHEMA`] as a `'static` reference, for the schemas that hold this one.
    /// Generated code names this rather than `&<T as ToolParam>::SCHEMA`, which the compiler
    /// would promote anew at every use: a measured share of the derive's build time.
    #[doc(hidden)]
    const __SCHEMA_REF: &'static Schema = &Self::SCHEMA;

    /// Whether a field of this type may be absent (`Option<T>`), so it stays out of
    /// `required`.
    const OPTIONAL: bool = false;

    /// Whether decoding this type straight from the text with serde (unknown keys refused)
    /// and then checking [`ToolParam::satisfies`] accepts exactly what [`ToolParam::validate`]
    /// accepts. False for types where serde is more lenient than the schema (sets drop
    /// duplicates, enums with data accept shapes the `anyOf` does not, flattened structs
    /// hide unknown keys): those always take the full validation path. `false` unless an impl
    /// states otherwise: a type has to show that serde is exactly as strict as its schema.
    const SERDE_EXACT: bool = false;

    /// Whether the decoded value satisfies every `#[param]` keyword inside it (the types
    /// themselves were enforced by decoding). Only consulted when [`ToolParam::SERDE_EXACT`] holds.
    fn satisfies(&self) -> bool {
        true
    }

    /// Checks `value` against [`Self::SCHEMA`], recording every violation under `at`.
    ///
    /// An integer written as `3.0` is valid JSON Schema; it is rewritten to `3` here so that
    /// the `Deserialize` impl that runs next accepts what the schema accepts.
    ///
    /// A hand-written impl must provide it. Derived types do not: their schema is checked as
    /// data, and this method runs that check (so no checking code is built for each type).
    fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
        const {
            assert!(
                !matches!(Self::__CHECK, Check::Fns { .. }),
                "a hand-written `ToolParam` impl must provide `validate`"
            );
        }
        Self::__CHECK.validate(value, at, out);
    }

    /// How the full path checks this type: through [`ToolParam::validate`] and
    /// [`ToolParam::coerce`], or, for a derived struct, by walking its properties as data
    /// (so that no checking code is built for each struct).
    #[doc(hidden)]
    const __CHECK: Check = Check::Fns { validate: Self::validate, coerce: Self::coerce };

    /// Lenient decoding: rewrites the common mistakes of models (`"3"` for `3`, `"true"` for
    /// `true`) into the type the schema asks for. Never touches `null`, and never parses a
    /// string into an object or array. Rewrites nothing unless an impl says otherwise (a
    /// derived type's is its schema's, run as data).
    fn coerce(value: &mut Value) {
        match Self::__CHECK {
            // The hand-written impl's own `coerce`, when it has one, is this very fn: the
            // default rewrites nothing rather than calling itself.
            Check::Fns { .. } => {}
            check => check.coerce(value),
        }
    }
}

/// Types whose schema is a string: `min_length`, `max_length`, `pattern` and `format` apply.
#[diagnostic::on_unimplemented(
    message = "this keyword needs a string field, found `{Self}`",
    label = "not a string type",
    note = "`min_length`, `max_length`, `pattern`, `format` and string `enum` or `default` values apply to `String`, `&str`, `Cow<str>` and `char`"
)]
pub trait StringParam: ToolParam {
    /// Runs `f` on the text, if there is one (`None` for an absent `Option`).
    fn with_str<R>(&self, f: impl FnOnce(&str) -> R) -> Option<R>;
}

/// Types whose schema is a number: `minimum`, `maximum`, `exclusive_*` and `multiple_of` apply.
#[diagnostic::on_unimplemented(
    message = "this keyword needs a numeric field, found `{Self}`",
    label = "not a number type",
    note = "`minimum`, `maximum`, `exclusive_minimum`, `exclusive_maximum`, `multiple_of` and numeric `enum` or `default` values apply to integer and float types"
)]
pub trait NumberParam: ToolParam {
    /// The value as a JSON number, if there is one.
    fn to_number(&self) -> Option<serde_json::Number>;
}

/// Number types that hold fractions (`f32`, `f64`): a non-integral literal fits them.
#[diagnostic::on_unimplemented(
    message = "a non-integral value cannot fit `{Self}`",
    label = "not a float type",
    note = "use an integer literal, or make the field `f64`"
)]
pub trait FloatParam: NumberParam {}

/// Types whose schema is a boolean.
#[diagnostic::on_unimplemented(message = "a boolean value does not fit `{Self}`", label = "not `bool`")]
pub trait BoolParam: ToolParam {
    /// The value, if there is one.
    fn to_bool(&self) -> Option<bool>;
}

/// Types whose schema is an array: `min_items`, `max_items` and `unique_items` apply.
#[diagnostic::on_unimplemented(
    message = "this keyword needs an array field, found `{Self}`",
    label = "not a sequence type",
    note = "`min_items`, `max_items` and `unique_items` apply to `Vec`, `VecDeque`, arrays and sets"
)]
pub trait ArrayParam: ToolParam {
    /// The type of the elements, whose keywords `#[param(items(..))]` states (a tuple's is
    /// `serde_json::Value`: its positions differ).
    type Item: ToolParam;

    /// The number of elements, if there is a sequence.
    fn item_count(&self) -> Option<usize>;
}

/// Types whose schema is a map: `min_properties`, `max_properties` and `values(..)` apply.
#[diagnostic::on_unimplemented(
    message = "this keyword needs a map field, found `{Self}`",
    label = "not a map type",
    note = "`min_properties`, `max_properties` and `values(..)` apply to `HashMap` and `BTreeMap`"
)]
pub trait MapParam: ToolParam {
    /// The type of the values, whose keywords `#[param(values(..))]` states.
    type Value: ToolParam;
}
