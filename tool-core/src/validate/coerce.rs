//! Lenient decoding: the rewrites of common model mistakes that [`ToolParam::coerce`]
//! applies, following the rules under "Argument coercion" in the providers notes.
//!
//! `null` is never rewritten (a non-nullable field then reports it), a string holding an
//! object or array is never parsed, and a value that does not convert cleanly is left as it
//! is for validation to report.
//!
//! [`ToolParam::coerce`]: crate::ToolParam::coerce

use serde_json::{Number, Value};

/// For an integer field: `"3"` and `"3.0"` → `3`, `true`/`false` → `1`/`0`.
pub(crate) fn integer(value: &mut Value) {
    match value {
        Value::String(text) => {
            if let Some(number) = parse_integer(text) {
                *value = Value::Number(number);
            }
        }
        Value::Bool(flag) => *value = Value::from(u8::from(*flag)),
        _ => {}
    }
}

/// For a number field: `"2.5"` → `2.5`, `"3"` → `3`, `true`/`false` → `1`/`0`.
pub(crate) fn number(value: &mut Value) {
    match value {
        Value::String(text) => {
            let parsed = parse_integer(text)
                .or_else(|| text.parse::<f64>().ok().filter(|_| looks_numeric(text)).and_then(Number::from_f64));
            if let Some(number) = parsed {
                *value = Value::Number(number);
            }
        }
        Value::Bool(flag) => *value = Value::from(u8::from(*flag)),
        _ => {}
    }
}

/// For a boolean field: exactly `"true"`/`"false"`, and the numbers `1`/`0`.
pub(crate) fn boolean(value: &mut Value) {
    let flag = match value {
        Value::String(text) if text == "true" => true,
        Value::String(text) if text == "false" => false,
        Value::Number(n) if n.as_u64() == Some(1) => true,
        Value::Number(n) if n.as_u64() == Some(0) => false,
        _ => return,
    };
    *value = Value::Bool(flag);
}

/// For a string field: a number or boolean becomes its JSON text (`3` → `"3"`).
pub(crate) fn string(value: &mut Value) {
    let text = match value {
        Value::Number(n) => n.to_string(),
        Value::Bool(flag) => flag.to_string(),
        _ => return,
    };
    *value = Value::String(text);
}

/// An integral number written as a string: `"3"`, `"-7"`, `"3.0"` (but not `"3.5"`).
fn parse_integer(text: &str) -> Option<Number> {
    if let Ok(small) = text.parse::<i64>() {
        return Some(Number::from(small));
    }
    if let Ok(large) = text.parse::<u64>() {
        return Some(Number::from(large));
    }
    let float = text.parse::<f64>().ok().filter(|_| looks_numeric(text))?;
    if float.fract() != 0.0 || !float.is_finite() {
        return None;
    }
    #[expect(clippy::cast_possible_truncation, reason = "integral; out-of-range floats stay floats")]
    if float.abs() < 9.0e15 {
        return Some(Number::from(float as i64));
    }
    Number::from_f64(float)
}

/// Rust parses `"inf"`, `"NaN"` and `"infinity"` as floats; JSON has no such numbers.
fn looks_numeric(text: &str) -> bool {
    text.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'))
        && text.bytes().any(|b| b.is_ascii_digit())
}
