//! Validation: the keyword checks on a parsed value (`keywords`, one function per keyword),
//! what each keyword of the compile-time tree means (`apply`, which calls them), the
//! properties of an object walked as data (`fields`), object keys and enum variant names (`keys`), `format`s,
//! ECMA-262 patterns (`pattern`), lenient decoding (`coerce`), and the violations they report with their paths
//! (`violation`). It knows JSON values and the schema tree, not Rust types: the same
//! keywords on decoded Rust values, for the fast path, are `param::satisfies`.

pub(crate) mod apply;
pub(crate) mod checked;
pub(crate) mod coerce;
pub(crate) mod explain;
pub mod fields;
pub(crate) mod format;
pub mod keys;
pub mod keywords;
pub(crate) mod pattern;
#[cfg(feature = "runtime-schema")]
pub(crate) mod runtime;
pub(crate) mod violation;
