//! What generated code reaches for, and nothing users should name: re-exported crates (so
//! users need not depend on them), the shim steps and the keyword checks.

pub use inventory;
pub use serde;
pub use serde_json;

pub use crate::dispatch::ready;
pub use crate::dispatch::{Arguments, DecodeOptions, ToolFuture, decode_for as decode, run, run_async};
pub use crate::param::plain::{PlainParam, VariantIndex, missing_value};
pub use crate::param::satisfies;
pub use crate::param::tagged::{AdjacentlyTagged, TaggedObject, from_entries, tagged_unit, unit_content, untagged};
pub use crate::registry::Registration;
pub use crate::tool::set::{ResourceMethod, ToolSet, receiver};
pub use crate::tool::{Handler, Receiver, ToolDefParts, ToolOptions};
pub use crate::validate::apply::validate_pattern;
pub use crate::validate::fields::{Check, Field, Fields, object_schema, validate_constrained, validate_properties};
pub use crate::validate::keys::{Closest, bad_tag, expect_null, missing, reject_unknown, unknown_variant};
pub use crate::validate::keywords::{self, Bound, EnumSet, Pattern};
pub use crate::validate::violation::wrong_type;

/// Short names for what generated code writes for every field and keyword, glob-imported at
/// the top of each expansion: fewer tokens for the macro to build and for the compiler to
/// parse and resolve (a measured share of the build). The `__tc_` prefix keeps them clear of
/// the user's names, which the expansion's field types are resolved among.
pub mod names {
    pub use super::{Check as __tc_Check, Field as __tc_Field, Fields as __tc_Fields, satisfies as __tc_satisfies};
    pub use crate::param::ToolParam as __tc_ToolParam;
    pub use crate::param::plain::{
        FieldIndex as __tc_FieldIndex, KnownField as __tc_KnownField, NotPlain as __tc_NotPlain, Plain as __tc_Plain,
        PlainParam as __tc_PlainParam, vacant as __tc_vacant,
    };
    pub use crate::schema::{
        Keyword as __tc_Keyword, KeywordKind as __tc_KeywordKind, KeywordValue as __tc_KeywordValue, Lit as __tc_Lit,
        ObjectSchema as __tc_ObjectSchema, Property as __tc_Property, Schema as __tc_Schema,
    };
    pub use core::option::Option::{None as __tc_None, Some as __tc_Some};
    pub use serde::de::{
        Deserialize as __tc_Deserialize, Deserializer as __tc_Deserializer, Error as __tc_DeError,
        IgnoredAny as __tc_IgnoredAny, MapAccess as __tc_MapAccess, Visitor as __tc_Visitor,
    };
}

use crate::param::ToolObject;
use crate::param::{ArrayParam, BoolParam, FloatParam, MapParam, NumberParam, StringParam};

/// What a `#[tool]` needs of its argument type, reached through one call
/// ([`args_parts`]) so that a type that is not `ToolArgs` is one error, not one per use.
#[derive(Debug)]
pub struct ArgsParts<A> {
    /// The arguments' schema.
    pub schema: &'static crate::schema::Schema,
    /// Decodes them.
    pub decode: for<'a> fn(&'static str, Arguments<'a>, &DecodeOptions) -> Result<A, crate::error::ToolError>,
    /// Checks them, without decoding (`Registry::validate`).
    pub check: Check,
}

/// The [`ArgsParts`] of `A`.
#[must_use]
pub const fn args_parts<A: ToolObject + serde::de::DeserializeOwned>() -> ArgsParts<A> {
    ArgsParts { schema: A::__SCHEMA_REF, decode: crate::dispatch::decoder::<A>(), check: A::__CHECK }
}

/// What a `#[tool]` needs of its return type, reached through one call ([`output_parts`]) so
/// that an unsupported type is one error, not one per use.
#[derive(Debug)]
pub struct OutputParts<O> {
    /// The structured output's schema, if the type states one.
    pub schema: Option<&'static crate::schema::Schema>,
    /// Turns the fn's result into the tool's output.
    pub convert: fn(O) -> Result<crate::output::ToolOutput, String>,
}

/// The [`OutputParts`] of `O`.
#[must_use]
pub const fn output_parts<O: crate::output::IntoToolOutput>() -> OutputParts<O> {
    OutputParts { schema: O::OUTPUT_SCHEMA, convert: O::into_tool_output }
}

/// Spanned at a `#[param]` keyword: the field must be a string type.
pub const fn assert_string<T: ?Sized + StringParam>() {}
/// Spanned at a `#[param]` keyword: the field must be a number type.
pub const fn assert_number<T: ?Sized + NumberParam>() {}
/// Spanned at a `#[param]` keyword: the field must be a float type.
pub const fn assert_float<T: ?Sized + FloatParam>() {}
/// Spanned at a `#[param]` keyword: the field must be `bool`.
pub const fn assert_bool<T: ?Sized + BoolParam>() {}
/// Spanned at a `#[param]` keyword: the field must be a map type.
pub const fn assert_map<T: ?Sized + MapParam>() {}
/// Spanned at a `#[param]` keyword: the field must be a sequence type.
pub const fn assert_array<T: ?Sized + ArrayParam>() {}

/// Whether a string `default` is a value of the field's schema (one of a unit enum's).
#[must_use]
pub const fn string_default_fits(schema: &crate::schema::Schema, value: &str) -> bool {
    use crate::schema::Schema;
    match schema.peel().0 {
        Schema::StringEnum(set) => {
            let mut i = 0;
            while i < set.values.len() {
                if crate::render::dialect::str_eq(set.values[i], value) {
                    return true;
                }
                i += 1;
            }
            false
        }
        _ => true,
    }
}

/// Whether an integer bound lies inside the range of the field's integer type (any bound
/// fits a type that is not an integer).
#[must_use]
pub const fn integer_bound_fits(schema: &crate::schema::Schema, bound: i128) -> bool {
    use crate::schema::Schema;
    match schema.peel().0 {
        Schema::Integer { minimum, maximum } => *minimum <= bound && bound <= *maximum,
        _ => true,
    }
}

/// An absent field's `#[param(default = ..)]`, decoded from its JSON text as the field's
/// type: the value the schema states is the value the tool gets.
///
/// # Errors
/// When the text does not decode as `T` (the macro checked it against the field's
/// keywords, not against `T`'s own `Deserialize`).
pub fn stated_default<T: serde::de::DeserializeOwned, E: serde::de::Error>(field: &str, json: &str) -> Result<T, E> {
    serde_json::from_str(json)
        .map_err(|error| E::custom(format!("the default of `{field}` ({json}) does not decode: {error}")))
}

/// Marks a `#[serde(flatten)]` field: it must be a struct deriving `ToolArgs`.
pub const fn assert_flatten<T: ToolObject>() {}

/// Why `OpenAI` strict mode cannot express `schema`, if it cannot: what
/// `#[tool(strict)]` checks at compile time.
#[must_use]
pub const fn strict_problem(schema: &crate::schema::Schema) -> Option<&'static str> {
    crate::render::Dialect::OpenAiStrict.strict_problem(schema)
}

/// Fails compilation with strict mode's reason when a tool asks for strict mode that its
/// schema cannot have.
#[doc(hidden)]
#[macro_export]
macro_rules! __require_strict {
    ($schema:expr) => {
        const _: () = if let ::core::option::Option::Some(problem) = $crate::__private::strict_problem($schema) {
            ::core::panic!("{}", problem)
        };
    };
}
