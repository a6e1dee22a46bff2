//! [`ToolParam`] for scalars: integers (with their Rust range), floats, `bool`, strings,
//! `char` and `serde_json::Value`.

use std::borrow::Cow;

use serde_json::{Number, Value};

use super::{BoolParam, FloatParam, NumberParam, StringParam, ToolParam};
use crate::schema::Schema;
use crate::validate::coerce;
use crate::validate::violation::{Pointer, Violations, wrong_type};

/// The largest magnitude below which every integer is exactly a float (2^53).
const F64_EXACT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// Checks an integer against the Rust type's range, rewriting an integral float (`3.0`) to
/// the integer it equals, since JSON Schema counts it as an integer and serde does not.
pub(super) fn validate_integer(value: &mut Value, minimum: i128, maximum: i128, at: &Pointer, out: &mut Violations) {
    let Value::Number(number) = value else {
        return wrong_type(value, "an integer", at, out);
    };
    let exact = number.as_i64().map(i128::from).or_else(|| number.as_u64().map(i128::from));
    let integer = if let Some(integer) = exact {
        integer
    } else {
        let float = number.as_f64().unwrap_or(f64::NAN);
        if float.fract() != 0.0 || !float.is_finite() {
            return wrong_type(value, "an integer", at, out);
        }
        #[expect(clippy::cast_precision_loss, reason = "the type bounds are compared as floats here")]
        let (low, high) = (minimum as f64, maximum as f64);
        if float < low {
            return out.push(at, "minimum", format!("must be >= {minimum}, got {number}"));
        }
        if float > high {
            return out.push(at, "maximum", format!("must be <= {maximum}, got {number}"));
        }
        // Beyond 2^53 a float is not always the number that was sent
        // (-9223372036854775809 parses to exactly -2^63), so it is refused rather than
        // silently becoming a neighbour.
        if float.abs() > F64_EXACT_INTEGERS {
            return out.push(
                at,
                "type",
                format!("expected an integer written without a fraction or exponent, got {number}, which a float cannot hold exactly"),
            );
        }
        #[expect(clippy::cast_possible_truncation, reason = "integral and within the type's range")]
        let integer = float as i128;
        *number = match i64::try_from(integer) {
            Ok(small) => Number::from(small),
            Err(_) => Number::from(u64::try_from(integer).unwrap_or(u64::MAX)),
        };
        integer
    };
    if integer < minimum {
        out.push(at, "minimum", format!("must be >= {minimum}, got {integer}"));
    } else if integer > maximum {
        out.push(at, "maximum", format!("must be <= {maximum}, got {integer}"));
    }
}

// The bounds widen to `i128` with `as`: `From` is not const. For the types with a `From`
// into `i128` that is `cast_lossless`, expected; `usize` and `isize` have none.
macro_rules! integers {
    (lossless: $($ty:ty),*) => {$(
        integers!(@one #[expect(clippy::cast_lossless, reason = "`From` is not const")] $ty);
    )*};
    (pointer_sized: $($ty:ty),*) => {$(
        integers!(@one $ty);
    )*};
    (@one $(#[$lint:meta])* $ty:ty) => {
        $(#[$lint])*
        impl ToolParam for $ty {
            const SCHEMA: Schema = Schema::Integer { minimum: <$ty>::MIN as i128, maximum: <$ty>::MAX as i128 };
            const SERDE_EXACT: bool = true;

            fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
                validate_integer(value, <$ty>::MIN as i128, <$ty>::MAX as i128, at, out);
            }

            fn coerce(value: &mut Value) {
                coerce::integer(value);
            }
        }

        impl NumberParam for $ty {
            fn to_number(&self) -> Option<Number> {
                Some(Number::from(*self))
            }
        }
    };
}

integers!(lossless: u8, u16, u32, u64, i8, i16, i32, i64);
integers!(pointer_sized: usize, isize);

macro_rules! floats {
    ($($ty:ty),*) => {$(
        impl ToolParam for $ty {
            const SCHEMA: Schema = Schema::Number;
            const SERDE_EXACT: bool = true;

            fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
                if !value.is_number() {
                    wrong_type(value, "a number", at, out);
                }
            }

            fn coerce(value: &mut Value) {
                coerce::number(value);
            }
        }

        impl NumberParam for $ty {
            fn to_number(&self) -> Option<Number> {
                Number::from_f64(f64::from(*self))
            }
        }
        impl FloatParam for $ty {}
    )*};
}

floats!(f32, f64);

impl ToolParam for bool {
    const SCHEMA: Schema = Schema::Boolean;
    const SERDE_EXACT: bool = true;

    fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
        if !value.is_boolean() {
            wrong_type(value, "a boolean", at, out);
        }
    }

    fn coerce(value: &mut Value) {
        coerce::boolean(value);
    }
}

impl BoolParam for bool {
    fn to_bool(&self) -> Option<bool> {
        Some(*self)
    }
}

fn validate_string(value: &Value, at: &Pointer, out: &mut Violations) {
    if !value.is_string() {
        wrong_type(value, "a string", at, out);
    }
}

macro_rules! strings {
    ($($ty:ty),*) => {$(
        impl ToolParam for $ty {
            const SCHEMA: Schema = Schema::String;
            const SERDE_EXACT: bool = true;

            fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
                validate_string(value, at, out);
            }

            fn coerce(value: &mut Value) {
                coerce::string(value);
            }
        }

        impl StringParam for $ty {
            fn with_str<R>(&self, f: impl FnOnce(&str) -> R) -> Option<R> {
                Some(f(self))
            }
        }
    )*};
}

strings!(String, &str, Cow<'_, str>, Box<str>);

impl ToolParam for char {
    const SCHEMA: Schema = Schema::Char;
    const SERDE_EXACT: bool = true;

    fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
        match value {
            Value::String(text) => {
                let count = text.chars().count();
                if count != 1 {
                    let keyword = if count == 0 { "minLength" } else { "maxLength" };
                    out.push(at, keyword, format!("must be exactly 1 character long, got {count}"));
                }
            }
            other => wrong_type(other, "a string of one character", at, out),
        }
    }

    fn coerce(value: &mut Value) {
        coerce::string(value);
    }
}

impl StringParam for char {
    fn with_str<R>(&self, f: impl FnOnce(&str) -> R) -> Option<R> {
        Some(f(self.encode_utf8(&mut [0; 4])))
    }
}

impl ToolParam for Value {
    const SCHEMA: Schema = Schema::Any;
    const SERDE_EXACT: bool = true;

    fn validate(_: &mut Value, _: &mut Pointer, _: &mut Violations) {}
}
