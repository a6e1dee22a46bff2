//! The meaning of every `#[param]` keyword on a parsed value, read from the compile-time
//! tree: one exhaustive `match` over [`KeywordKind`], so a new keyword does not compile until
//! it says what it checks. Derived types generate no keyword code for the full path; they
//! hand their properties' keywords to [`apply`]. (The fast path checks the same keywords on
//! decoded values, in `param::satisfies`.)
//!
//! A keyword's value is typed as the macro read it (an exact integer, a count, a string's
//! content, a list of literals), so no call parses it; a `pattern`'s regex, the one value that
//! costs something to turn into a checker, is compiled once per distinct pattern and shared.

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
        let typed = keyword.value;
        match keyword.kind {
            KeywordKind::Minimum => with(bound(typed), |bound| keywords::minimum(value, bound, at, out)),
            KeywordKind::Maximum => with(bound(typed), |bound| keywords::maximum(value, bound, at, out)),
            KeywordKind::ExclusiveMinimum => {
                with(bound(typed), |bound| keywords::exclusive_minimum(value, bound, at, out));
            }
            KeywordKind::ExclusiveMaximum => {
                with(bound(typed), |bound| keywords::exclusive_maximum(value, bound, at, out));
            }
            KeywordKind::MultipleOf => with(bound(typed), |bound| keywords::multiple_of(value, bound, at, out)),
            KeywordKind::MinItems | KeywordKind::MaxItems
                if exact(keywords, KeywordKind::MinItems, KeywordKind::MaxItems) =>
            {
                with(count(typed), |n| keywords::exact_items(value, n, keyword_name(keyword.kind), at, out));
            }
            KeywordKind::MinLength | KeywordKind::MaxLength
                if exact(keywords, KeywordKind::MinLength, KeywordKind::MaxLength) && count(typed) == Some(1) =>
            {
                keywords::one_character(value, keyword_name(keyword.kind), at, out);
            }
            KeywordKind::MinLength => with(count(typed), |n| keywords::min_length(value, n, at, out)),
            KeywordKind::MaxLength => with(count(typed), |n| keywords::max_length(value, n, at, out)),
            KeywordKind::MinItems => with(count(typed), |n| keywords::min_items(value, n, at, out)),
            KeywordKind::MaxItems => with(count(typed), |n| keywords::max_items(value, n, at, out)),
            KeywordKind::MinProperties => with(count(typed), |n| keywords::min_properties(value, n, at, out)),
            KeywordKind::MaxProperties => with(count(typed), |n| keywords::max_properties(value, n, at, out)),
            KeywordKind::UniqueItems => {
                if matches!(typed, KeywordValue::Bool(true)) {
                    keywords::unique_items(value, at, out);
                }
            }
            KeywordKind::Pattern => {
                // The macro hands over the check wherever it writes a pattern.
                debug_assert!(patterns.is_some(), "a pattern without its check");
                if let (KeywordValue::Str(source), Some(check)) = (typed, patterns) {
                    check(source, value, at, out);
                }
            }
            KeywordKind::Format => {
                if let KeywordValue::Str(name) = typed {
                    keywords::format(value, name, at, out);
                }
            }
            KeywordKind::Enum => {
                if let KeywordValue::List(values) = typed {
                    EnumSet::new(values).validate(value, schema.peel().1, at, out);
                }
            }
            KeywordKind::Items | KeywordKind::Values => {
                if let KeywordValue::Keywords(nested) = typed {
                    elements(keyword.kind, nested, schema, patterns, value, at, out);
                }
            }
            // Annotations say something to the model and check nothing.
            KeywordKind::Title
            | KeywordKind::Description
            | KeywordKind::Default
            | KeywordKind::Examples
            | KeywordKind::Deprecated => {}
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
    match schema.peel().0 {
        inner @ (Schema::Array { .. } | Schema::Map { .. }) => Some(inner),
        _ => None,
    }
}

/// Whether `keywords` state both `low` and `high`, as one count (a size the schema pins,
/// which messages state as exact).
fn exact(keywords: &[Keyword], low: KeywordKind, high: KeywordKind) -> bool {
    let find = |kind: KeywordKind| keywords.iter().find(|k| k.kind == kind).and_then(|k| count(k.value));
    find(low).is_some() && find(low) == find(high)
}

/// The keyword a count's violation reports.
fn keyword_name(kind: KeywordKind) -> &'static str {
    match kind {
        KeywordKind::MinItems => "minItems",
        KeywordKind::MaxItems => "maxItems",
        KeywordKind::MinLength => "minLength",
        _ => "maxLength",
    }
}

/// Runs `check` on a keyword's value when it has the type the keyword takes (the macro
/// writes no other).
fn with<T>(typed: Option<T>, check: impl FnOnce(T)) {
    if let Some(typed) = typed {
        check(typed);
    }
}

/// A numeric keyword's bound, exact when an integer.
fn bound(typed: KeywordValue) -> Option<Bound> {
    match typed {
        KeywordValue::Int(n) => Some(Bound::Int(n)),
        KeywordValue::Float(x) => Some(Bound::Float(x)),
        _ => None,
    }
}

/// A length or count keyword's value.
fn count(typed: KeywordValue) -> Option<u64> {
    match typed {
        KeywordValue::Count(n) => Some(n),
        _ => None,
    }
}

/// `pattern`: the regex matches somewhere in the string. The regex is compiled on first use
/// and shared.
pub fn validate_pattern(source: &'static str, value: &Value, at: &Pointer, out: &mut Violations) {
    pattern(source).validate(value, at, out);
}

/// The pattern of `source`, shared by every keyword that states it.
fn pattern(source: &'static str) -> &'static Pattern {
    static PATTERNS: OnceLock<RwLock<HashMap<&'static str, &'static Pattern>>> = OnceLock::new();
    let cache = PATTERNS.get_or_init(RwLock::default);
    // A poisoned lock still holds only finished entries: inserting is the last step.
    if let Some(found) = cache.read().unwrap_or_else(PoisonError::into_inner).get(source) {
        return found;
    }
    let mut writer = cache.write().unwrap_or_else(PoisonError::into_inner);
    // Leaked once per distinct pattern in the program: a bounded set of `'static` sources.
    writer.entry(source).or_insert_with(|| Box::leak(Box::new(Pattern::new(source))))
}
