//! [`ToolParam`] for types that travel as text in a form their own parser checks (network
//! addresses, and the ecosystem's types in `ecosystem.rs`), for paths, and for the unsigned
//! `NonZero` integers.
//!
//! A form's schema is `{"type":"string"}` with its `format` where JSON Schema names one, or
//! a description of the form where none fits. Dispatch runs the type's own `Deserialize` on
//! the string, so what is accepted is what the type accepts; where that parser accepts more
//! than the `format` says (a UUID without hyphens, a URL with spaces around it), the
//! `format` check runs too and the type takes the full validation path (`SERDE_EXACT = false`),
//! so the schema the model sees stays exact.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{NonZeroU8, NonZeroU16, NonZeroU32, NonZeroU64, NonZeroUsize};
use std::path::PathBuf;

use serde::de::DeserializeOwned;
use serde_json::{Number, Value};

use super::scalar::validate_integer;
use super::{NumberParam, StringParam, ToolParam};
use crate::schema::{ParsedForm, Schema};
use crate::validate::coerce;
use crate::validate::violation::{Pointer, Violations, preview, wrong_type};

/// Checks that `value` is a string in `form`: its `format` (when `check_format`) and then
/// `T`'s own parser, whose message the violation carries.
pub(crate) fn validate_text<T: DeserializeOwned>(
    value: &Value,
    form: &ParsedForm,
    check_format: bool,
    at: &Pointer,
    out: &mut Violations,
) {
    let Value::String(text) = value else {
        return wrong_type(value, "a string", at, out);
    };
    if check_format
        && let Some(format) = form.format
        && !crate::validate::format::is_valid(format, text)
    {
        return out.push(at, "format", format!("must be a valid {format}, got {}", preview(value)));
    }
    if let Err(error) = T::deserialize(value) {
        let expected = match (form.format, form.description) {
            (Some(format), _) => format!("a valid {format}"),
            (None, Some(description)) => description.to_owned(),
            (None, None) => "valid".to_owned(),
        };
        out.push(at, "format", format!("must be {expected}, got {}: {error}", preview(value)));
    }
}

/// Implements [`ToolParam`] for types that travel as text. `exact` says the type's parser
/// accepts exactly its `format`, so decoding alone decides (`SERDE_EXACT`).
macro_rules! text_forms {
    ($($(#[$cfg:meta])* $ty:ty => { format: $format:expr, description: $description:expr, exact: $exact:expr $(,)? })*) => {$(
        $(#[$cfg])*
        impl $crate::param::ToolParam for $ty {
            const SCHEMA: $crate::schema::Schema =
                $crate::schema::Schema::Parsed(&$crate::schema::ParsedForm { format: $format, description: $description });
            const SERDE_EXACT: bool = $exact;

            fn validate(
                value: &mut ::serde_json::Value,
                at: &mut $crate::validate::violation::Pointer,
                out: &mut $crate::validate::violation::Violations,
            ) {
                if let $crate::schema::Schema::Parsed(form) = &<Self as $crate::param::ToolParam>::SCHEMA {
                    $crate::param::text::validate_text::<Self>(value, form, !$exact, at, out);
                }
            }

            fn coerce(value: &mut ::serde_json::Value) {
                $crate::param::text::coerce_text(value);
            }
        }

        // A form shows it as a string; a `format` MCP does not allow is refused when built.
        $(#[$cfg])*
        #[cfg(feature = "elicit")]
        impl<M> $crate::param::ElicitField<M> for $ty {}
    )*};
}
pub(crate) use text_forms;

/// Lenient decoding of a text form: numbers become strings (`1.5` for a decimal).
pub(crate) fn coerce_text(value: &mut Value) {
    coerce::string(value);
}

text_forms! {
    Ipv4Addr => { format: Some("ipv4"), description: None, exact: true }
    Ipv6Addr => { format: Some("ipv6"), description: None, exact: true }
    IpAddr => { format: None, description: Some("an IPv4 or IPv6 address, such as 192.168.0.1 or ::1"), exact: true }
    SocketAddr => {
        format: None,
        description: Some("an IP address and a port, such as 127.0.0.1:8080 or [::1]:8080"),
        exact: true,
    }
    SocketAddrV4 => { format: None, description: Some("an IPv4 address and a port, such as 127.0.0.1:8080"), exact: true }
    SocketAddrV6 => { format: None, description: Some("an IPv6 address in brackets and a port, such as [::1]:8080"), exact: true }
}

/// A path is any string; the keywords of strings apply to it.
impl ToolParam for PathBuf {
    const SCHEMA: Schema = Schema::String;
    const SERDE_EXACT: bool = true;

    fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
        if !value.is_string() {
            wrong_type(value, "a string", at, out);
        }
    }

    fn coerce(value: &mut Value) {
        coerce::string(value);
    }
}

impl StringParam for PathBuf {
    fn with_str<R>(&self, f: impl FnOnce(&str) -> R) -> Option<R> {
        // A path decoded from JSON text is always UTF-8.
        self.to_str().map(f)
    }
}

// The bound widens to `i128` with `as` (`From` is not const): `cast_lossless`, expected,
// except from `usize`, which has no `From` into `i128`.
macro_rules! non_zero {
    (lossless: $($ty:ty => $int:ty),*) => {$(
        non_zero!(@one #[expect(clippy::cast_lossless, reason = "`From` is not const")] $ty => $int);
    )*};
    (pointer_sized: $($ty:ty => $int:ty),*) => {$(
        non_zero!(@one $ty => $int);
    )*};
    (@one $(#[$lint:meta])* $ty:ty => $int:ty) => {
        /// At least 1: `minimum: 1`, which serde enforces too.
        $(#[$lint])*
        impl ToolParam for $ty {
            const SCHEMA: Schema = Schema::Integer { minimum: 1, maximum: <$int>::MAX as i128 };
            const SERDE_EXACT: bool = true;

            fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
                validate_integer(value, 1, <$int>::MAX as i128, at, out);
            }

            fn coerce(value: &mut Value) {
                coerce::integer(value);
            }
        }

        impl NumberParam for $ty {
            fn to_number(&self) -> Option<Number> {
                Some(Number::from(self.get()))
            }
        }
    };
}

non_zero!(lossless: NonZeroU8 => u8, NonZeroU16 => u16, NonZeroU32 => u32, NonZeroU64 => u64);
non_zero!(pointer_sized: NonZeroUsize => usize);
