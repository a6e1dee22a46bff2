//! [`ToolParam`] for containers: `Option`, sequences, sets, string-keyed maps and smart
//! pointers. Each asks its element type for the element's schema and checks.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use serde_json::Value;

use super::{ArrayParam, BoolParam, FloatParam, MapParam, NumberParam, StringParam, ToolParam};
use crate::schema::Schema;
use crate::validate::fields::Check;
use crate::validate::keywords;
use crate::validate::violation::{Pointer, Violations, wrong_type};

impl<T: ToolParam> ToolParam for Option<T> {
    const SCHEMA: Schema = Schema::Nullable(&T::SCHEMA);
    const OPTIONAL: bool = true;
    const SERDE_EXACT: bool = T::SERDE_EXACT;

    fn satisfies(&self) -> bool {
        self.as_ref().is_none_or(T::satisfies)
    }

    fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
        if !value.is_null() {
            T::__CHECK.validate(value, at, out);
        }
    }

    fn coerce(value: &mut Value) {
        if !value.is_null() {
            T::__CHECK.coerce(value);
        }
    }
}

// A keyword on an `Option<T>` field applies to the `T` inside.
impl<T: StringParam> StringParam for Option<T> {
    fn with_str<R>(&self, f: impl FnOnce(&str) -> R) -> Option<R> {
        self.as_ref()?.with_str(f)
    }
}
impl<T: NumberParam> NumberParam for Option<T> {
    fn to_number(&self) -> Option<serde_json::Number> {
        self.as_ref()?.to_number()
    }
}
impl<T: FloatParam> FloatParam for Option<T> {}
impl<T: BoolParam> BoolParam for Option<T> {
    fn to_bool(&self) -> Option<bool> {
        self.as_ref()?.to_bool()
    }
}
impl<T: ArrayParam> ArrayParam for Option<T> {
    type Item = T::Item;

    fn item_count(&self) -> Option<usize> {
        self.as_ref()?.item_count()
    }
}

fn validate_array(
    value: &mut Value,
    check: Check,
    unique_items: bool,
    length: Option<usize>,
    at: &mut Pointer,
    out: &mut Violations,
) {
    let Value::Array(items) = value else {
        return wrong_type(value, "an array", at, out);
    };
    if let Some(length) = length {
        if items.len() < length {
            out.push(at, "minItems", format!("must have exactly {length} items, got {}", items.len()));
        } else if items.len() > length {
            out.push(at, "maxItems", format!("must have exactly {length} items, got {}", items.len()));
        }
    }
    let before = out.total();
    for (index, item) in items.iter_mut().enumerate() {
        let mark = at.push_index(index);
        check.validate(item, at, out);
        at.truncate(mark);
    }
    // Items compare once each is valid, as the decoded set would.
    if unique_items && out.total() == before {
        keywords::unique_items_in(items, at, out);
    }
}

fn coerce_array(value: &mut Value, check: Check) {
    if let Value::Array(items) = value {
        for item in items {
            check.coerce(item);
        }
    }
}

macro_rules! sequences {
    ($($ty:ty, unique = $unique:expr, [$($bounds:tt)*];)*) => {$(
        impl<T: ToolParam $($bounds)*> ToolParam for $ty {
            const SCHEMA: Schema = Schema::Array { items: &T::SCHEMA, unique_items: $unique, length: None };
            // A set drops the duplicates the schema's `uniqueItems` must report.
            const SERDE_EXACT: bool = T::SERDE_EXACT && !$unique;

            fn satisfies(&self) -> bool {
                self.iter().all(T::satisfies)
            }

            fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
                validate_array(value, T::__CHECK, $unique, None, at, out);
            }

            fn coerce(value: &mut Value) {
                coerce_array(value, T::__CHECK);
            }
        }

        impl<T: ToolParam $($bounds)*> ArrayParam for $ty {
            type Item = T;

            fn item_count(&self) -> Option<usize> {
                Some(self.len())
            }
        }
    )*};
}

sequences! {
    Vec<T>, unique = false, [];
    VecDeque<T>, unique = false, [];
    Box<[T]>, unique = false, [];
    BTreeSet<T>, unique = true, [];
}

impl<T: ToolParam, S> ToolParam for HashSet<T, S> {
    const SCHEMA: Schema = Schema::Array { items: &T::SCHEMA, unique_items: true, length: None };
    const SERDE_EXACT: bool = false;

    fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
        validate_array(value, T::__CHECK, true, None, at, out);
    }

    fn coerce(value: &mut Value) {
        coerce_array(value, T::__CHECK);
    }
}

impl<T: ToolParam, S> ArrayParam for HashSet<T, S> {
    type Item = T;

    fn item_count(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<T: ToolParam, const N: usize> ToolParam for [T; N] {
    const SCHEMA: Schema = Schema::Array { items: &T::SCHEMA, unique_items: false, length: Some(N) };
    const SERDE_EXACT: bool = T::SERDE_EXACT;

    fn satisfies(&self) -> bool {
        self.iter().all(T::satisfies)
    }

    fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
        validate_array(value, T::__CHECK, false, Some(N), at, out);
    }

    fn coerce(value: &mut Value) {
        coerce_array(value, T::__CHECK);
    }
}

impl<T: ToolParam, const N: usize> ArrayParam for [T; N] {
    type Item = T;

    fn item_count(&self) -> Option<usize> {
        Some(N)
    }
}

/// Types that a JSON object key deserializes into.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the key of a map parameter",
    label = "JSON object keys are strings",
    note = "use `String` keys"
)]
pub trait MapKey {}

impl MapKey for String {}
impl MapKey for Box<str> {}
impl MapKey for Cow<'_, str> {}

fn validate_map(value: &mut Value, check: Check, at: &mut Pointer, out: &mut Violations) {
    let Value::Object(map) = value else {
        return wrong_type(value, "an object", at, out);
    };
    for (key, item) in map.iter_mut() {
        let mark = at.push_key(key);
        check.validate(item, at, out);
        at.truncate(mark);
    }
}

fn coerce_map(value: &mut Value, check: Check) {
    if let Value::Object(map) = value {
        for item in map.values_mut() {
            check.coerce(item);
        }
    }
}

impl<K: MapKey, V: ToolParam, S> ToolParam for HashMap<K, V, S> {
    const SCHEMA: Schema = Schema::Map { values: &V::SCHEMA };
    const SERDE_EXACT: bool = V::SERDE_EXACT;

    fn satisfies(&self) -> bool {
        self.values().all(V::satisfies)
    }

    fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
        validate_map(value, V::__CHECK, at, out);
    }

    fn coerce(value: &mut Value) {
        coerce_map(value, V::__CHECK);
    }
}

impl<K: MapKey, V: ToolParam, S> MapParam for HashMap<K, V, S> {
    type Value = V;
}

impl<K: MapKey, V: ToolParam> MapParam for BTreeMap<K, V> {
    type Value = V;
}

impl<T: MapParam> MapParam for Option<T> {
    type Value = T::Value;
}

impl<K: MapKey, V: ToolParam> ToolParam for BTreeMap<K, V> {
    const SCHEMA: Schema = Schema::Map { values: &V::SCHEMA };
    const SERDE_EXACT: bool = V::SERDE_EXACT;

    fn satisfies(&self) -> bool {
        self.values().all(V::satisfies)
    }

    fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
        validate_map(value, V::__CHECK, at, out);
    }

    fn coerce(value: &mut Value) {
        coerce_map(value, V::__CHECK);
    }
}

macro_rules! transparent {
    ($($ty:ident),*) => {$(
        impl<T: ToolParam> ToolParam for $ty<T> {
            const SCHEMA: Schema = T::SCHEMA;
            const OPTIONAL: bool = T::OPTIONAL;
            const SERDE_EXACT: bool = T::SERDE_EXACT;
            const __CHECK: Check = T::__CHECK;

            fn satisfies(&self) -> bool {
                T::satisfies(self)
            }

            fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
                T::__CHECK.validate(value, at, out);
            }

            fn coerce(value: &mut Value) {
                T::__CHECK.coerce(value);
            }
        }

        impl<T: StringParam> StringParam for $ty<T> {
            fn with_str<R>(&self, f: impl FnOnce(&str) -> R) -> Option<R> {
                T::with_str(self, f)
            }
        }
        impl<T: NumberParam> NumberParam for $ty<T> {
            fn to_number(&self) -> Option<serde_json::Number> {
                T::to_number(self)
            }
        }
        impl<T: FloatParam> FloatParam for $ty<T> {}
        impl<T: MapParam> MapParam for $ty<T> {
            type Value = T::Value;
        }
        impl<T: BoolParam> BoolParam for $ty<T> {
            fn to_bool(&self) -> Option<bool> {
                T::to_bool(self)
            }
        }
        impl<T: ArrayParam> ArrayParam for $ty<T> {
            type Item = T::Item;

            fn item_count(&self) -> Option<usize> {
                T::item_count(self)
            }
        }
    )*};
}

transparent!(Box, Arc, Rc);
