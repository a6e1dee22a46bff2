//! The rules on `#[param]` keywords that span several keys or need their values: bounds
//! that no value satisfies, a pattern that does not compile, an unknown format, an `enum`
//! of mixed types, a `default` that breaks its own field's constraints.
//!
//! Every rule runs and every error is kept (darling's accumulator), so one expansion shows
//! all the mistakes in a struct. Type mismatches (`minimum` on a `String`) are left to
//! rustc, through the assertions `param_checks.rs` emits.

use crate::attr::{Element, ParamField};
use crate::keyword::Key;
use crate::literal::{JsonLit, JsonValue, NumValue};
use crate::util::Result;

/// The `format` values JSON Schema 2020-12 defines.
const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Runs every rule on one field's keywords.
pub fn field(f: &ParamField) -> Result {
    let mut errors = darling::Error::accumulator();
    // A lower bound above an upper bound admits no value at all: certainly a typo.
    let bounds = [
        (Key::Minimum, Key::Maximum, false),
        (Key::ExclusiveMinimum, Key::ExclusiveMaximum, true),
        (Key::Minimum, Key::ExclusiveMaximum, true),
        (Key::ExclusiveMinimum, Key::Maximum, true),
    ];
    for (low, high, strict) in bounds {
        errors.handle(order(f, low, high, strict));
    }
    for (low, high) in
        [(Key::MinLength, Key::MaxLength), (Key::MinItems, Key::MaxItems), (Key::MinProperties, Key::MaxProperties)]
    {
        errors.handle(counts(f, low, high));
    }
    for which in [Element::Items, Element::Values] {
        if let Some((_, element)) = f.element(which) {
            errors.handle(field(&element));
        }
    }
    if let Some(factor) = f.keywords.num(Key::MultipleOf)
        && factor.value.as_f64() <= 0.0
    {
        errors.push(error(factor.span, format!("`multiple_of` must be greater than 0, found {factor}")));
    }
    let pattern = f.keywords.text(Key::Pattern).and_then(|pattern| match ecma_pattern(pattern) {
        Ok(regex) => Some(regex),
        Err(e) => {
            errors.push(error(pattern.span(), format!("`pattern` is not a valid regular expression:\n{e}")));
            None
        }
    });
    if let Some(format) = f.keywords.text(Key::Format)
        && !FORMATS.contains(&format.as_str())
    {
        errors.push(darling::Error::unknown_value_with_alts(format, FORMATS.iter()).with_span(&format.span()));
    }
    if let Some(values) = f.keywords.json(Key::Enum) {
        errors.handle(enum_values(values));
    }
    if let Some(default) = f.keywords.json(Key::Default) {
        errors.handle(default_fits(f, default, pattern.as_ref()));
    }
    errors.handle(counted_thing(f));
    errors.handle(bounds_in_range(f));
    errors.finish()
}

/// The range of `ty` when it is written as a primitive integer (or an `Option` of one), so a
/// bound outside it is refused while expanding; other types (aliases, newtypes, `NonZero*`)
/// are checked against their schema in `const` evaluation (`Param::const_checks`).
pub fn primitive_integer_range(ty: &syn::Type) -> Option<(i128, i128)> {
    let syn::Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let last = path.path.segments.last()?;
    if last.ident == "Option" && path.path.segments.len() == 1 {
        let syn::PathArguments::AngleBracketed(arguments) = &last.arguments else { return None };
        return match arguments.args.first() {
            Some(syn::GenericArgument::Type(inner)) if arguments.args.len() == 1 => primitive_integer_range(inner),
            _ => None,
        };
    }
    if path.path.segments.len() != 1 || !last.arguments.is_none() {
        return None;
    }
    let name = last.ident.to_string();
    Some(match name.as_str() {
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" => (0, u64::MAX.into()),
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "i64" => (i64::MIN.into(), i64::MAX.into()),
        _ => return None,
    })
}

/// An integer bound outside the range of a primitive integer field constrains nothing.
fn bounds_in_range(f: &ParamField) -> Result {
    let ty = f.as_type.as_deref().unwrap_or(&f.ty);
    let Some((low, high)) = primitive_integer_range(ty) else { return Ok(()) };
    let mut errors = darling::Error::accumulator();
    for (key, num) in f.bounds().filter(|(key, _)| *key != Key::MultipleOf) {
        if let NumValue::Int(n) = num.value
            && !(low..=high).contains(&n)
        {
            let ty = quote::ToTokens::to_token_stream(ty).to_string().replace(' ', "");
            errors.push(error(
                num.span,
                format!(
                    "`{} = {n}` is outside the range of `{ty}` ({low} to {high}), so it constrains nothing; check the bound or the type",
                    key.name()
                ),
            ));
        }
    }
    errors.finish()
}

/// `min_length` on a `Vec` (or `min_items` on a `String`) is a mix-up of two keywords that
/// rustc would report as a missing trait; name the right one instead. Read from the type's
/// syntax, so a type alias falls through to the trait error.
fn counted_thing(f: &ParamField) -> Result {
    let ty = f.as_type.as_deref().unwrap_or(&f.ty);
    let last = match ty {
        syn::Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
        syn::Type::Array(_) | syn::Type::Slice(_) => Some("Vec".to_owned()),
        _ => None,
    };
    let collection = matches!(last.as_deref(), Some("Vec" | "VecDeque" | "HashSet" | "BTreeSet" | "IndexSet"));
    let string = matches!(last.as_deref(), Some("String"));
    let scalar = matches!(
        last.as_deref(),
        Some(
            "String"
                | "str"
                | "char"
                | "bool"
                | "u8"
                | "u16"
                | "u32"
                | "u64"
                | "usize"
                | "i8"
                | "i16"
                | "i32"
                | "i64"
                | "isize"
                | "f32"
                | "f64"
        )
    );
    let mut errors = darling::Error::accumulator();
    if let (true, Some(items)) = (scalar, f.keywords.nested(Key::Items)) {
        errors.push(error(items.span(), "`items(..)` constrains the elements of a sequence (`Vec`, a set, an array); this field holds one value: put the keywords directly in `#[param(..)]`".to_owned()));
    }
    if let (true, Some(values)) = (scalar, f.keywords.nested(Key::Values)) {
        errors.push(error(values.span(), "`values(..)` constrains the values of a map (`HashMap`, `BTreeMap`); this field holds one value: put the keywords directly in `#[param(..)]`".to_owned()));
    }
    let map = matches!(last.as_deref(), Some("HashMap" | "BTreeMap" | "IndexMap"));
    if let (true, Some(values)) = (collection, f.keywords.nested(Key::Values)) {
        errors.push(error(
            values.span(),
            "`values(..)` constrains the values of a map; to constrain the elements of a sequence, write `items(..)`"
                .to_owned(),
        ));
    }
    if let (true, Some(items)) = (map, f.keywords.nested(Key::Items)) {
        errors.push(error(
            items.span(),
            "`items(..)` constrains the elements of a sequence; to constrain the values of a map, write `values(..)`"
                .to_owned(),
        ));
    }
    if collection {
        for (key, count) in f.lengths() {
            let (key, other) = (key.name(), key.counterpart().map_or("", Key::name));
            errors.push(error(
                count.span,
                format!(
                    "`{key}` counts the characters of a string; to count the elements of a list, write `{other} = {}`",
                    count.value
                ),
            ));
        }
    }
    if string {
        for (key, count) in f.item_counts() {
            let (key, other) = (key.name(), key.counterpart().map_or("", Key::name));
            errors.push(error(
                count.span,
                format!(
                    "`{key}` counts the elements of a list; to count the characters of a string, write `{other} = {}`",
                    count.value
                ),
            ));
        }
    }
    errors.finish()
}

fn error(span: proc_macro2::Span, message: String) -> darling::Error {
    darling::Error::custom(message).with_span(&span)
}

fn order(f: &ParamField, low_key: Key, high_key: Key, strict: bool) -> Result {
    let (Some(low), Some(high)) = (f.keywords.num(low_key), f.keywords.num(high_key)) else { return Ok(()) };
    let (low_key, high_key) = (low_key.name(), high_key.name());
    let (a, b) = (low.value.as_f64(), high.value.as_f64());
    if a > b || (strict && a >= b) {
        let relation = if a > b { "greater than" } else { "equal to" };
        return Err(error(
            high.span,
            format!("`{low_key}` ({low}) is {relation} `{high_key}` ({high}): no value satisfies both"),
        ));
    }
    Ok(())
}

fn counts(f: &ParamField, low_key: Key, high_key: Key) -> Result {
    match (f.keywords.count(low_key), f.keywords.count(high_key)) {
        (Some(low), Some(high)) if low.value > high.value => Err(error(
            high.span,
            format!("`{}` ({}) is greater than `{}` ({})", low_key.name(), low.value, high_key.name(), high.value),
        )),
        _ => Ok(()),
    }
}

fn kind(value: &JsonValue) -> &'static str {
    match value {
        JsonValue::String(_) => "string",
        JsonValue::Number(_) => "number",
        JsonValue::Bool(_) => "boolean",
        JsonValue::Array(_) => "array",
    }
}

fn enum_values(values: &JsonLit) -> Result {
    let JsonValue::Array(items) = &values.value else {
        return Err(error(values.span, "`enum` takes an array of values: `enum = [\"a\", \"b\"]`".to_owned()));
    };
    let Some(first) = items.first() else {
        return Err(error(values.span, "`enum` needs at least one value".to_owned()));
    };
    // A Rust field holds one JSON type, so values of another type could never be accepted.
    let mut errors = darling::Error::accumulator();
    for item in items.iter().skip(1) {
        if kind(&item.value) != kind(&first.value) {
            errors.push(error(
                item.span,
                format!(
                    "`enum` values must all have one type: found a {} after a {}",
                    kind(&item.value),
                    kind(&first.value)
                ),
            ));
        }
    }
    errors.finish()
}

/// JSON equality on literals: numbers by value, so `1` equals `1.0`.
fn same(a: &JsonValue, b: &JsonValue) -> bool {
    match (a, b) {
        (JsonValue::String(x), JsonValue::String(y)) => x == y,
        #[expect(clippy::float_cmp, reason = "exact equality is what JSON Schema's `enum` means")]
        (JsonValue::Number(x), JsonValue::Number(y)) => match (x, y) {
            (NumValue::Int(x), NumValue::Int(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (JsonValue::Bool(x), JsonValue::Bool(y)) => x == y,
        (JsonValue::Array(x), JsonValue::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(&a.value, &b.value))
        }
        _ => false,
    }
}

/// A bound keyword and whether a value satisfies it.
type BoundRule = (Key, fn(f64, f64) -> bool);

/// A `default` the schema itself rejects would be sent back as an error the first time it
/// is used, so it is refused here, naming the keyword it breaks.
fn default_fits(f: &ParamField, default: &JsonLit, pattern: Option<&fancy_regex::Regex>) -> Result {
    let mut errors = darling::Error::accumulator();
    let mut breaks = |key: &str, bound: &str| {
        errors.push(error(default.span, format!("`default` ({default}) breaks `{key}` ({bound})")));
    };
    match &default.value {
        JsonValue::Number(n) => {
            let x = n.as_f64();
            let rules: [BoundRule; 4] = [
                (Key::Minimum, |x, b| x >= b),
                (Key::Maximum, |x, b| x <= b),
                (Key::ExclusiveMinimum, |x, b| x > b),
                (Key::ExclusiveMaximum, |x, b| x < b),
            ];
            for (key, holds) in rules {
                if let Some(bound) = f.keywords.num(key)
                    && !holds(x, bound.value.as_f64())
                {
                    breaks(key.name(), &bound.to_string());
                }
            }
            if let Some(factor) = f.keywords.num(Key::MultipleOf) {
                let q = x / factor.value.as_f64();
                if (q - q.round()).abs() > 1e-9 * q.abs().max(1.0) {
                    breaks("multiple_of", &factor.to_string());
                }
            }
        }
        JsonValue::String(text) => {
            let length = text.chars().count() as u64;
            if let Some(min) = f.keywords.count(Key::MinLength).filter(|min| length < min.value) {
                breaks("min_length", &min.value.to_string());
            }
            if let Some(max) = f.keywords.count(Key::MaxLength).filter(|max| length > max.value) {
                breaks("max_length", &max.value.to_string());
            }
            if let (Some(regex), Some(source)) = (pattern, f.keywords.text(Key::Pattern))
                && !regex.is_match(text).unwrap_or(false)
            {
                breaks("pattern", &crate::literal::json_string(source));
            }
        }
        JsonValue::Array(items) => {
            let length = items.len() as u64;
            if let Some(min) = f.keywords.count(Key::MinItems).filter(|min| length < min.value) {
                breaks("min_items", &min.value.to_string());
            }
            if let Some(max) = f.keywords.count(Key::MaxItems).filter(|max| length > max.value) {
                breaks("max_items", &max.value.to_string());
            }
        }
        JsonValue::Bool(_) => {}
    }
    if let Some(values @ JsonLit { value: JsonValue::Array(allowed), .. }) = f.keywords.json(Key::Enum)
        && !allowed.iter().any(|item| same(&item.value, &default.value))
    {
        breaks("enum", &values.to_string());
    }
    errors.finish()
}

#[cfg(test)]
mod tests;

/// `source` as JSON Schema reads a pattern: an ECMA-262 regular expression, translated and
/// run as `tool_core`'s validator does (`validate/pattern.rs`), so that a pattern the macro
/// accepts is one the tool can check.
fn ecma_pattern(source: &str) -> core::result::Result<fancy_regex::Regex, String> {
    if !jsonschema_regex::is_valid_ecma_regex(source) {
        // The parser's own words say where, when it refuses the pattern too.
        return Err(match fancy_regex::Regex::new(source) {
            Err(error) => error.to_string(),
            Ok(_) => format!(
                "{source:?} is not ECMA-262, the dialect of JSON Schema's patterns (though Rust's `regex` reads it)"
            ),
        });
    }
    let translated = jsonschema_regex::to_rust_regex(source)
        .map_err(|()| format!("{source:?} uses ECMA-262 syntax the validator cannot run"))?;
    fancy_regex::Regex::new(&translated).map_err(|e| e.to_string())
}
