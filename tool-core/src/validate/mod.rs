//! Validation: the keyword checks on a parsed value (`keywords`, one function per keyword),
//! the same keywords on decoded Rust values for the fast path (`typed`), the object and enum
//! shapes (`shape`), `format`s, lenient decoding (`coerce`), and the violations they report
//! with their paths (`violation`).

pub(crate) mod coerce;
pub(crate) mod format;
pub mod keywords;
pub mod shape;
pub mod typed;
pub(crate) mod violation;
