//! Keyword checks on decoded values, for the fast path: after serde decoded the arguments
//! straight from the text, these say whether the typed values satisfy each `#[param]`
//! keyword. They answer yes or no; a no sends the call down the full validation path,
//! which reports the violations, so the two paths can never disagree on the message.

use core::cmp::Ordering;

use super::{ArrayParam, BoolParam, NumberParam, StringParam};
use crate::validate::keywords::{Bound, EnumSet, Pattern, compare, is_multiple};

#[inline]
fn number<T: NumberParam + ?Sized>(value: &T, bound: Bound, holds: fn(Ordering) -> bool) -> bool {
    value.to_number().is_none_or(|n| compare(&n, bound).is_some_and(holds))
}

/// `minimum`.
#[inline]
pub fn minimum<T: NumberParam + ?Sized>(value: &T, bound: Bound) -> bool {
    number(value, bound, Ordering::is_ge)
}

/// `maximum`.
#[inline]
pub fn maximum<T: NumberParam + ?Sized>(value: &T, bound: Bound) -> bool {
    number(value, bound, Ordering::is_le)
}

/// `exclusiveMinimum`.
#[inline]
pub fn exclusive_minimum<T: NumberParam + ?Sized>(value: &T, bound: Bound) -> bool {
    number(value, bound, Ordering::is_gt)
}

/// `exclusiveMaximum`.
#[inline]
pub fn exclusive_maximum<T: NumberParam + ?Sized>(value: &T, bound: Bound) -> bool {
    number(value, bound, Ordering::is_lt)
}

/// `multipleOf`.
#[inline]
pub fn multiple_of<T: NumberParam + ?Sized>(value: &T, factor: Bound) -> bool {
    value.to_number().is_none_or(|n| is_multiple(&n, factor))
}

#[inline]
fn chars<T: StringParam + ?Sized>(value: &T, holds: impl FnOnce(u64) -> bool) -> bool {
    value.with_str(|text| holds(text.chars().count() as u64)).unwrap_or(true)
}

/// `minLength`.
#[inline]
pub fn min_length<T: StringParam + ?Sized>(value: &T, min: u64) -> bool {
    chars(value, |count| count >= min)
}

/// `maxLength`.
#[inline]
pub fn max_length<T: StringParam + ?Sized>(value: &T, max: u64) -> bool {
    chars(value, |count| count <= max)
}

/// `minLength` and `maxLength` together, counting once.
#[inline]
pub fn length_between<T: StringParam + ?Sized>(value: &T, min: u64, max: u64) -> bool {
    chars(value, |count| (min..=max).contains(&count))
}

/// `pattern`.
#[inline]
pub fn pattern<T: StringParam + ?Sized>(value: &T, pattern: &Pattern) -> bool {
    value.with_str(|text| pattern.is_match(text)).unwrap_or(true)
}

/// `format`.
#[inline]
pub fn format<T: StringParam + ?Sized>(value: &T, name: &str) -> bool {
    value.with_str(|text| crate::validate::format::is_valid(name, text)).unwrap_or(true)
}

/// `enum` of strings.
#[inline]
pub fn enum_str<T: StringParam + ?Sized>(value: &T, set: &EnumSet) -> bool {
    value.with_str(|text| set.contains_str(text)).unwrap_or(true)
}

/// `enum` of numbers.
#[inline]
pub fn enum_number<T: NumberParam + ?Sized>(value: &T, set: &EnumSet) -> bool {
    value.to_number().is_none_or(|n| set.contains_number(&n))
}

/// `enum` of booleans.
#[inline]
pub fn enum_bool<T: BoolParam + ?Sized>(value: &T, set: &EnumSet) -> bool {
    value.to_bool().is_none_or(|b| set.contains_bool(b))
}

/// `minItems`.
#[inline]
pub fn min_items<T: ArrayParam + ?Sized>(value: &T, min: u64) -> bool {
    value.item_count().is_none_or(|count| count as u64 >= min)
}

/// `maxItems`.
#[inline]
pub fn max_items<T: ArrayParam + ?Sized>(value: &T, max: u64) -> bool {
    value.item_count().is_none_or(|count| count as u64 <= max)
}
