//! The meaning of every `#[param]` keyword on a parsed value, read from the compile-time
//! tree: one exhaustive `match` over [`KeywordKind`], so a new keyword does not compile until
//! it says what it checks. Derived types generate no keyword code for the full path; they
//! hand their properties' keywords to [`apply`]. (The fast path checks the same keywords on
//! decoded values, in `param::satisfies`.)
//!
//! A keyword's value is the JSON text the macro rendered; the texts that cost something to
//! turn into a checker (a `pattern`'s regex, an `enum`'s values) are turned once per distinct
//! text and shared by every call after it.

use std::collections::HashMap;
use std::sync::{OnceLock, PoisonError, RwLock};

use serde_json::Value;

use crate::schema::{Keyword, KeywordKind, KeywordValue, Schema};
use crate::validate::keywords::{self, Bound, EnumSet, Pattern};
use crate::validate::violation::{Pointer, Violations};

/// How a `pattern` keyword is checked: [`validate_pattern`], handed over by generated code only
/// where a schema has a pattern, so that a program without one does not link the regex
/// engine and its size.
pub type PatternCheck = fn(&'static str, &Value, &Pointer, &mut Violations);

/// Checks `value` (of `schema`, which it already satisfies) against every keyword in
/// `keywords`, recording each violation under `at`.
pub fn apply(
    keywords: &[Keyword],
    schema: &Schema,
    patterns: Option<PatternCheck>,
    value: &Value,
    at: &mut Pointer,
    out: &mut Violations,
) {
    for keyword in keywords {
        let text = match keyword.value {
            KeywordValue::Json(text) => text,
            KeywordValue::Text(_) => continue, // a description
            KeywordValue::Keywords(nested) => {
                elements(keyword.kind, nested, schema, patterns, value, at, out);
                continue;
            }
        };
        match keyword.kind {
            KeywordKind::Minimum => with_bound(text, |bound| keywords::minimum(value, bound, at, out)),
            KeywordKind::Maximum => with_bound(text, |bound| keywords::maximum(value, bound, at, out)),
            KeywordKind::ExclusiveMinimum => {
                with_bound(text, |bound| keywords::exclusive_minimum(value, bound, at, out));
            }
            KeywordKind::ExclusiveMaximum => {
                with_bound(text, |bound| keywords::exclusive_maximum(value, bound, at, out));
            }
            KeywordKind::MultipleOf => with_bound(text, |bound| keywords::multiple_of(value, bound, at, out)),
            KeywordKind::MinLength => with_count(text, |n| keywords::min_length(value, n, at, out)),
            KeywordKind::MaxLength => with_count(text, |n| keywords::max_length(value, n, at, out)),
            KeywordKind::MinItems => with_count(text, |n| keywords::min_items(value, n, at, out)),
            KeywordKind::MaxItems => with_count(text, |n| keywords::max_items(value, n, at, out)),
            KeywordKind::MinProperties => with_count(text, |n| keywords::min_properties(value, n, at, out)),
            KeywordKind::MaxProperties => with_count(text, |n| keywords::max_properties(value, n, at, out)),
            KeywordKind::UniqueItems => {
                if text == "true" {
                    keywords::unique_items(value, at, out);
                }
            }
            KeywordKind::Pattern => {
                // The macro hands over the check wherever it writes a pattern.
                debug_assert!(patterns.is_some(), "a pattern without its check");
                if let Some(check) = patterns {
                    check(text, value, at, out);
                }
            }
            KeywordKind::Format => keywords::format(value, &string(text), at, out),
            KeywordKind::Enum => enum_set(text).validate(value, nullable(schema), at, out),
            // Annotations say something to the model and check nothing; `items` and `values`
            // hold keywords, handled above.
            KeywordKind::Description
            | KeywordKind::Default
            | KeywordKind::Examples
            | KeywordKind::Deprecated
            | KeywordKind::Items
            | KeywordKind::Values => {}
        }
    }
}

/// `items(..)` / `values(..)`: `nested` on every element of an array or value of a map.
fn elements(
    kind: KeywordKind,
    nested: &[Keyword],
    schema: &Schema,
    patterns: Option<PatternCheck>,
    value: &Value,
    at: &mut Pointer,
    out: &mut Violations,
) {
    match (kind, value, container(schema)) {
        (KeywordKind::Items, Value::Array(items), Some(Schema::Array { items: item_schema, .. })) => {
            for (index, item) in items.iter().enumerate() {
                let mark = at.push_index(index);
                apply(nested, item_schema, patterns, item, at, out);
                at.truncate(mark);
            }
        }
        (KeywordKind::Values, Value::Object(map), Some(Schema::Map { values: value_schema })) => {
            for (key, item) in map {
                let mark = at.push_key(key);
                apply(nested, value_schema, patterns, item, at, out);
                at.truncate(mark);
            }
        }
        _ => {}
    }
}

/// The array or map schema under `Option`s and newtypes.
fn container(schema: &Schema) -> Option<&Schema> {
    match schema {
        Schema::Nullable(inner) => container(inner),
        Schema::Constrained(constrained) => container(constrained.schema),
        Schema::Array { .. } | Schema::Map { .. } => Some(schema),
        _ => None,
    }
}

/// Whether the schema admits `null` (an `Option`), which an `enum` then lists too.
fn nullable(schema: &Schema) -> bool {
    match schema {
        Schema::Nullable(_) => true,
        Schema::Constrained(constrained) => nullable(constrained.schema),
        _ => false,
    }
}

/// A bound as the macro wrote it: an integer stays exact.
fn with_bound(text: &str, check: impl FnOnce(Bound)) {
    let bound = text.parse::<i128>().map(Bound::Int).or_else(|_| text.parse::<f64>().map(Bound::Float));
    if let Ok(bound) = bound {
        check(bound);
    }
}

fn with_count(text: &str, check: impl FnOnce(u64)) {
    if let Ok(count) = text.parse::<u64>() {
        check(count);
    }
}

/// A JSON string's content: the text between the quotes when nothing in it is escaped.
fn string(text: &str) -> std::borrow::Cow<'_, str> {
    match text.strip_prefix('"').and_then(|inner| inner.strip_suffix('"')) {
        Some(inner) if !inner.contains('\\') => inner.into(),
        _ => serde_json::from_str::<String>(text).unwrap_or_default().into(),
    }
}

/// `pattern`, from the keyword's JSON text: the regex matches somewhere in the string. The
/// regex is compiled on first use and shared.
pub fn validate_pattern(text: &'static str, value: &Value, at: &Pointer, out: &mut Violations) {
    pattern(text).validate(value, at, out);
}

fn pattern(text: &'static str) -> &'static Pattern {
    static PATTERNS: OnceLock<RwLock<HashMap<&'static str, &'static Pattern>>> = OnceLock::new();
    shared(&PATTERNS, text, || {
        // Leaked once per distinct pattern in the program: a bounded set of `'static` texts.
        let source: &'static str = Box::leak(string(text).into_owned().into_boxed_str());
        Pattern::new(source)
    })
}

/// The values of an `enum` keyword's JSON text.
fn enum_set(text: &'static str) -> &'static EnumSet {
    static SETS: OnceLock<RwLock<HashMap<&'static str, &'static EnumSet>>> = OnceLock::new();
    shared(&SETS, text, || EnumSet::new(text))
}

/// The checker made from `text` by `make`, made once and shared.
fn shared<T>(
    cache: &'static OnceLock<RwLock<HashMap<&'static str, &'static T>>>,
    text: &'static str,
    make: impl FnOnce() -> T,
) -> &'static T {
    let cache = cache.get_or_init(RwLock::default);
    // A poisoned lock still holds only finished entries: inserting is the last step.
    if let Some(found) = cache.read().unwrap_or_else(PoisonError::into_inner).get(text) {
        return found;
    }
    let mut writer = cache.write().unwrap_or_else(PoisonError::into_inner);
    writer.entry(text).or_insert_with(|| Box::leak(Box::new(make())))
}
