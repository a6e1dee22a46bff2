//! `jsonschema`'s errors as this crate's [`Violation`](crate::Violation)s: the same keyword,
//! the same JSON pointer and the same words the compile-time validator uses, so a model (or a
//! program matching on them) cannot tell which validator spoke. The keyword functions of
//! `validate::keywords` write the message wherever one exists for the keyword.

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind;

use super::words::{Whole, expected, extend, types};
use serde_json::Value;

use crate::validate::keys;
use crate::validate::keywords::{self, Bound};
use crate::validate::violation::{Pointer, Violations, preview, wrong_type};

/// Adds the violations of `errors`, found at one level, to `out`: where a value has the
/// wrong type, that alone (the keywords of its type say nothing more), unless an `enum` of
/// names or a `const` name there already says all the `type` would; `uniqueItems` only
/// among valid items.
pub(super) fn all(errors: &[ValidationError<'_>], whole: &Whole<'_>, out: &mut Violations) {
    let is_type = |error: &ValidationError<'_>| matches!(error.kind(), ValidationErrorKind::Type { .. });
    // A list of names reads as a unit enum's variants, which are named in place of the type.
    let is_listing = |error: &ValidationError<'_>| match error.kind() {
        ValidationErrorKind::Enum { options } => options.as_array().is_some_and(|all| all.iter().all(Value::is_string)),
        ValidationErrorKind::Constant { expected_value } => expected_value.is_string(),
        _ => false,
    };
    let at = |error: &ValidationError<'_>, test: &dyn Fn(&ValidationError<'_>) -> bool| {
        errors.iter().any(|other| test(other) && other.instance_path() == error.instance_path())
    };
    for error in super::order::sorted(errors, whole) {
        let keep = if is_type(error) {
            !at(error, &is_listing)
        } else if matches!(error.kind(), ValidationErrorKind::FalseSchema) {
            // An item past a tuple's last: its array's count already says so.
            let path = error.instance_path().as_str();
            let array = path.rfind('/').map_or("", |end| &path[..end]);
            !errors.iter().any(|other| {
                matches!(other.kind(), ValidationErrorKind::MaxItems { .. }) && other.instance_path().as_str() == array
            })
        } else if matches!(error.kind(), ValidationErrorKind::UniqueItems) {
            // Items compare once each is valid, as decoded values do.
            let below = format!("{}/", error.instance_path().as_str());
            !errors.iter().any(|other| other.instance_path().as_str().starts_with(&below))
        } else {
            is_listing(error) || !at(error, &is_type)
        };
        if keep {
            violations(error, whole, out);
        }
    }
}

/// Adds the violations `error` stands for (one per unknown key, say) to `out`; `whole`'s
/// schema is read for the names a message lists.
pub(super) fn violations(error: &ValidationError<'_>, whole: &Whole<'_>, out: &mut Violations) {
    let root = whole.schema;
    let at = pointer(error.instance_path().as_str());
    let value = error.instance().as_ref();
    let schema_path = error.schema_path().as_str();
    match error.kind() {
        ValidationErrorKind::Type { kind } => {
            // A `char`'s schema: a string pinned to one character, named as its check names it.
            let one = parent(schema_path).and_then(|path| root.pointer(path)).is_some_and(|schema| {
                schema.get("minLength") == Some(&Value::from(1)) && schema.get("maxLength") == Some(&Value::from(1))
            });
            let expected = if one { "a string of one character".to_owned() } else { expected(&types(kind)) };
            wrong_type(value, &expected, &at, out);
        }
        ValidationErrorKind::Required { property } => keys::missing(property.as_str().unwrap_or_default(), &at, out),
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            unknown_keys(unexpected, &at, parent(schema_path).and_then(|path| root.pointer(path)), out);
        }
        ValidationErrorKind::Enum { options } => {
            let found = integral(value, root, schema_path);
            out.push(&at, "enum", format!("must be one of {}, got {}", keywords::listed(options), preview(&found)));
        }
        ValidationErrorKind::Constant { expected_value } => {
            out.push(&at, "const", format!("must be {expected_value}, got {}", preview(value)));
        }
        ValidationErrorKind::Minimum { .. }
        | ValidationErrorKind::Maximum { .. }
        | ValidationErrorKind::ExclusiveMinimum { .. }
        | ValidationErrorKind::ExclusiveMaximum { .. }
        | ValidationErrorKind::MultipleOf { .. } => bound_violation(error, root, &at, out),
        ValidationErrorKind::MinLength { .. }
        | ValidationErrorKind::MaxLength { .. }
        | ValidationErrorKind::MinItems { .. }
        | ValidationErrorKind::MaxItems { .. }
        | ValidationErrorKind::MinProperties { .. }
        | ValidationErrorKind::MaxProperties { .. }
        | ValidationErrorKind::UniqueItems => size_violation(error, root, &at, out),
        ValidationErrorKind::Pattern { pattern } => {
            out.push(&at, "pattern", format!("must match the pattern {pattern:?}, got {}", preview(value)));
        }
        ValidationErrorKind::Format { format } => {
            out.push(&at, "format", format!("must be a valid {format}, got {}", preview(value)));
        }
        ValidationErrorKind::BacktrackLimitExceeded { .. } | ValidationErrorKind::RegexEngineFailure { .. } => {
            let pattern = root.pointer(schema_path).and_then(Value::as_str).unwrap_or_default();
            out.push(&at, "pattern", crate::validate::pattern::too_costly(pattern));
        }
        ValidationErrorKind::AnyOf { .. }
        | ValidationErrorKind::OneOfNotValid { .. }
        | ValidationErrorKind::OneOfMultipleValid { .. }
        | ValidationErrorKind::Not { .. } => combinator_violation(error, whole, &at, out),
        ValidationErrorKind::FalseSchema => out.push(&at, "false", "no value is allowed here".to_owned()),
        ValidationErrorKind::Contains => {
            out.push(&at, "contains", "must contain at least one item matching the `contains` schema".to_owned());
        }
        ValidationErrorKind::PropertyNames { error } => {
            let name = preview(error.instance().as_ref());
            let mut inner = Violations::new();
            violations(error, whole, &mut inner);
            for violation in &inner {
                out.push(&at, "propertyNames", format!("the property name {name} {}", violation.message));
            }
        }
        ValidationErrorKind::AdditionalItems { limit } => {
            let count = value.as_array().map_or(0, Vec::len);
            out.push(&at, "items", format!("must have at most {limit} items, got {count}"));
        }
        ValidationErrorKind::UnevaluatedItems { unexpected } => {
            out.push(&at, "unevaluatedItems", format!("unexpected items {}", unexpected.join(", ")));
        }
        _ => out.push(&at, "schema", error.to_string()),
    }
}

/// A number outside a bound, or not a multiple, worded as the compile-time validator words it.
fn bound_violation(error: &ValidationError<'_>, root: &Value, at: &Pointer, out: &mut Violations) {
    let value = error.instance().as_ref();
    let schema_path = error.schema_path().as_str();
    match error.kind() {
        ValidationErrorKind::Minimum { limit } => {
            keywords::minimum(&integral(value, root, schema_path), bound(limit), at, out);
        }
        ValidationErrorKind::Maximum { limit } => {
            keywords::maximum(&integral(value, root, schema_path), bound(limit), at, out);
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            keywords::exclusive_minimum(&integral(value, root, schema_path), bound(limit), at, out);
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            keywords::exclusive_maximum(&integral(value, root, schema_path), bound(limit), at, out);
        }
        ValidationErrorKind::MultipleOf { .. } => {
            let factor = root.pointer(schema_path).map_or(Bound::Float(f64::NAN), bound);
            keywords::multiple_of(&integral(value, root, schema_path), factor, at, out);
        }
        _ => out.push(at, "schema", error.to_string()),
    }
}

/// A string, array or object of the wrong size, or with repeated items; a size the schema
/// pins (`minItems` = `maxItems`) is worded as exact.
fn size_violation(error: &ValidationError<'_>, root: &Value, at: &Pointer, out: &mut Violations) {
    let value = error.instance().as_ref();
    let schema_path = error.schema_path().as_str();
    match error.kind() {
        ValidationErrorKind::MinLength { limit } | ValidationErrorKind::MaxLength { limit }
            if *limit == 1 && exact_count(root, schema_path, "minLength", "maxLength") =>
        {
            keywords::one_character(value, keyword_of(error), at, out);
        }
        ValidationErrorKind::MinItems { limit } | ValidationErrorKind::MaxItems { limit }
            if exact_count(root, schema_path, "minItems", "maxItems") =>
        {
            keywords::exact_items(value, *limit, keyword_of(error), at, out);
        }
        ValidationErrorKind::MinLength { limit } => keywords::min_length(value, *limit, at, out),
        ValidationErrorKind::MaxLength { limit } => keywords::max_length(value, *limit, at, out),
        ValidationErrorKind::MinItems { limit } => keywords::min_items(value, *limit, at, out),
        ValidationErrorKind::MaxItems { limit } => keywords::max_items(value, *limit, at, out),
        ValidationErrorKind::MinProperties { limit } => keywords::min_properties(value, *limit, at, out),
        ValidationErrorKind::MaxProperties { limit } => keywords::max_properties(value, *limit, at, out),
        ValidationErrorKind::UniqueItems => keywords::unique_items(value, at, out),
        _ => out.push(at, "schema", error.to_string()),
    }
}

/// A value that fails `anyOf`, `oneOf` or `not`; an optional field's `T | null` reports
/// `T`'s violations alone.
fn combinator_violation(error: &ValidationError<'_>, whole: &Whole<'_>, at: &Pointer, out: &mut Violations) {
    let root = whole.schema;
    let value = error.instance().as_ref();
    let schema_path = error.schema_path().as_str();
    match error.kind() {
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context }
            if nullable(root.pointer(schema_path), value).is_some() =>
        {
            // `T` or `null` (an optional field), and the value is not null: `T`'s violations
            // alone, as for a `#[tool]`'s `Option<T>`.
            let index = nullable(root.pointer(schema_path), value).unwrap_or_default();
            all(context.get(index).map_or(&[][..], Vec::as_slice), whole, out);
        }
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            let keyword = if matches!(error.kind(), ValidationErrorKind::AnyOf { .. }) { "anyOf" } else { "oneOf" };
            super::alternatives::report(keyword, context, at, root.pointer(schema_path), whole, all, out);
        }
        ValidationErrorKind::OneOfMultipleValid { .. } => {
            out.push(
                at,
                "oneOf",
                "matches more than one of the schemas in oneOf; it must match exactly one".to_owned(),
            );
        }
        ValidationErrorKind::Not { schema } => {
            out.push(at, "not", format!("must not match {schema}, got {}", preview(value)));
        }
        _ => out.push(at, "schema", error.to_string()),
    }
}

/// For an `anyOf`/`oneOf` of two schemas one of which is `{"type": "null"}`, refused by a
/// value that is not null: the position of the other.
fn nullable(branches: Option<&Value>, value: &Value) -> Option<usize> {
    let branches = branches?.as_array()?;
    let is_null = |schema: &Value| schema.get("type").and_then(Value::as_str) == Some("null");
    match branches.as_slice() {
        [first, second] if !value.is_null() && is_null(second) && !is_null(first) => Some(0),
        [first, second] if !value.is_null() && is_null(first) && !is_null(second) => Some(1),
        _ => None,
    }
}

/// A `jsonschema` location (already a JSON pointer, escaped alike) as a [`Pointer`].
fn pointer(text: &str) -> Pointer {
    let mut at = Pointer::root();
    extend(&mut at, text);
    at
}

/// The schema location holding the keyword at `keyword_path`.
fn parent(keyword_path: &str) -> Option<&str> {
    keyword_path.rfind('/').map(|end| &keyword_path[..end])
}

/// One `additionalProperties` violation per key, at the key, listing the properties the
/// object schema names, as `keys::reject_unknown` does for a struct.
fn unknown_keys(unexpected: &[String], at: &Pointer, object_schema: Option<&Value>, out: &mut Violations) {
    let names: Vec<&str> = object_schema
        .and_then(|schema| schema.get("properties"))
        .and_then(Value::as_object)
        .map(|properties| properties.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let map: serde_json::Map<String, Value> = unexpected.iter().map(|key| (key.clone(), Value::Null)).collect();
    let mut at = at.clone();
    keys::reject_unknown(&map, &|_| false, &names, &mut at, out);
}

/// `3.0` as `3` where the schema holding the keyword at `keyword_path` says `integer` (an
/// integer written with a fraction is still an integer in JSON Schema), so that messages
/// show the number as an integer field's decoding does.
fn integral(value: &Value, root: &Value, keyword_path: &str) -> Value {
    let integer = parent(keyword_path).and_then(|path| root.pointer(path)).and_then(|schema| schema.get("type"))
        == Some(&Value::from("integer"));
    match value.as_f64() {
        #[expect(clippy::cast_possible_truncation, reason = "integral and within i64's exact range")]
        Some(float) if integer && value.is_f64() && float.fract() == 0.0 && float.abs() < 9.0e15 => {
            Value::from(float as i64)
        }
        _ => value.clone(),
    }
}

/// Whether the schema holding the keyword at `keyword_path` bounds a count on both sides by
/// one number (`[T; 3]`, a tuple, a `char`), which messages then state as "exactly".
fn exact_count(root: &Value, keyword_path: &str, low: &str, high: &str) -> bool {
    let schema = parent(keyword_path).and_then(|path| root.pointer(path));
    schema.is_some_and(|schema| schema.get(low).is_some() && schema.get(low) == schema.get(high))
}

/// The keyword an error of a count reports.
fn keyword_of(error: &ValidationError<'_>) -> &'static str {
    match error.kind() {
        ValidationErrorKind::MinLength { .. } => "minLength",
        ValidationErrorKind::MaxLength { .. } => "maxLength",
        ValidationErrorKind::MinItems { .. } => "minItems",
        _ => "maxItems",
    }
}

/// A JSON number in a schema as a [`Bound`], exact when it is an integer.
fn bound(limit: &Value) -> Bound {
    match limit.as_i64().map(i128::from).or_else(|| limit.as_u64().map(i128::from)) {
        Some(exact) => Bound::Int(exact),
        None => Bound::Float(limit.as_f64().unwrap_or(f64::NAN)),
    }
}
