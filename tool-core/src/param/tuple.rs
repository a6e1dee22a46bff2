//! [`ToolParam`] for tuples: a JSON array of a fixed length whose every position has its own
//! schema (`prefixItems`), as serde reads them.

use serde_json::Value;

use super::{ArrayParam, ToolParam};
use crate::schema::Schema;
use crate::validate::violation::{Pointer, Violations, wrong_type};

/// Checks the length of a tuple's array; the positions present are checked by the caller.
fn validate_length(items: &[Value], length: usize, at: &Pointer, out: &mut Violations) {
    if items.len() < length {
        out.push(at, "minItems", format!("must have exactly {length} items, got {}", items.len()));
    } else if items.len() > length {
        out.push(at, "maxItems", format!("must have exactly {length} items, got {}", items.len()));
    }
}

macro_rules! tuples {
    ($($length:literal => ($($name:ident $index:tt),+);)*) => {$(
        impl<$($name: ToolParam),+> ToolParam for ($($name,)+) {
            const SCHEMA: Schema = Schema::Tuple(&[$($name::SCHEMA),+]);
            const SERDE_EXACT: bool = $($name::SERDE_EXACT)&&+;

            fn satisfies(&self) -> bool {
                $(self.$index.satisfies())&&+
            }

            fn validate(value: &mut Value, at: &mut Pointer, out: &mut Violations) {
                let Value::Array(items) = value else {
                    return wrong_type(value, "an array", at, out);
                };
                validate_length(items, $length, at, out);
                $(
                    if let Some(item) = items.get_mut($index) {
                        let mark = at.push_index($index);
                        $name::__CHECK.validate(item, at, out);
                        at.truncate(mark);
                    }
                )+
            }

            fn coerce(value: &mut Value) {
                if let Value::Array(items) = value {
                    $(
                        if let Some(item) = items.get_mut($index) {
                            $name::__CHECK.coerce(item);
                        }
                    )+
                }
            }
        }

        impl<$($name: ToolParam),+> ArrayParam for ($($name,)+) {
            type Item = serde_json::Value;

            fn item_count(&self) -> Option<usize> {
                Some($length)
            }
        }
    )*};
}

tuples! {
    1 => (A 0);
    2 => (A 0, B 1);
    3 => (A 0, B 1, C 2);
    4 => (A 0, B 1, C 2, D 3);
    5 => (A 0, B 1, C 2, D 3, E 4);
    6 => (A 0, B 1, C 2, D 3, E 4, F 5);
    7 => (A 0, B 1, C 2, D 3, E 4, F 5, G 6);
    8 => (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
}
