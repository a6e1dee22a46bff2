//! The keyword checks on a parsed value, one function per `#[param]` keyword; `apply` says
//! which keyword of the schema tree calls which.
//!
//! Semantics follow JSON Schema draft 2020-12: a keyword ignores values of other types (the
//! type check reports those), lengths count Unicode code points, `enum` and `uniqueItems`
//! use JSON equality (`1 == 1.0`), and `pattern` is an unanchored search.

use core::cmp::Ordering;
use core::fmt;

pub use crate::validate::pattern::Pattern;

use serde_json::{Number, Value};

use crate::schema::Lit;
pub use crate::validate::format::format;
use crate::validate::violation::{Pointer, Violations, preview};

/// A numeric bound written in a `#[param]` attribute, kept exact when it is an integer.
#[derive(Debug, Clone, Copy)]
pub enum Bound {
    /// An integer literal.
    Int(i128),
    /// A literal with a fraction or exponent.
    Float(f64),
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::Int(n) => write!(f, "{n}"),
            Bound::Float(x) => write!(f, "{x}"),
        }
    }
}

/// Compares a JSON number with a bound, exactly when both are integers.
#[must_use]
#[inline]
pub fn compare(number: &Number, bound: Bound) -> Option<Ordering> {
    let exact = number.as_i64().map(i128::from).or_else(|| number.as_u64().map(i128::from));
    match (exact, bound) {
        (Some(n), Bound::Int(b)) => Some(n.cmp(&b)),
        #[expect(clippy::cast_precision_loss, reason = "a float bound is compared as a float")]
        (Some(n), Bound::Float(b)) => (n as f64).partial_cmp(&b),
        #[expect(clippy::cast_precision_loss, reason = "an integer bound against a float is compared as floats")]
        (None, Bound::Int(b)) => number.as_f64()?.partial_cmp(&(b as f64)),
        (None, Bound::Float(b)) => number.as_f64()?.partial_cmp(&b),
    }
}

fn number_rule(
    value: &Value,
    bound: Bound,
    at: &Pointer,
    out: &mut Violations,
    keyword: &'static str,
    symbol: &str,
    holds: fn(Ordering) -> bool,
) {
    if let Value::Number(number) = value
        && !compare(number, bound).is_some_and(holds)
    {
        out.push(at, keyword, format!("must be {symbol} {bound}, got {number}"));
    }
}

/// `minimum`: the number is `>= bound`.
pub fn minimum(value: &Value, bound: Bound, at: &Pointer, out: &mut Violations) {
    number_rule(value, bound, at, out, "minimum", ">=", Ordering::is_ge);
}

/// `maximum`: the number is `<= bound`.
pub fn maximum(value: &Value, bound: Bound, at: &Pointer, out: &mut Violations) {
    number_rule(value, bound, at, out, "maximum", "<=", Ordering::is_le);
}

/// `exclusiveMinimum`: the number is `> bound`.
pub fn exclusive_minimum(value: &Value, bound: Bound, at: &Pointer, out: &mut Violations) {
    number_rule(value, bound, at, out, "exclusiveMinimum", ">", Ordering::is_gt);
}

/// `exclusiveMaximum`: the number is `< bound`.
pub fn exclusive_maximum(value: &Value, bound: Bound, at: &Pointer, out: &mut Violations) {
    number_rule(value, bound, at, out, "exclusiveMaximum", "<", Ordering::is_lt);
}

/// `multipleOf`: the number divided by `factor` is an integer.
pub fn multiple_of(value: &Value, factor: Bound, at: &Pointer, out: &mut Violations) {
    if let Value::Number(number) = value
        && !is_multiple(number, factor)
    {
        out.push(at, "multipleOf", format!("must be a multiple of {factor}, got {number}"));
    }
}

/// Whether `number / factor` is an integer.
pub(crate) fn is_multiple(number: &Number, factor: Bound) -> bool {
    let exact = number.as_i64().map(i128::from).or_else(|| number.as_u64().map(i128::from));
    if let (Some(n), Bound::Int(f)) = (exact, factor) {
        f != 0 && n % f == 0
    } else {
        #[expect(clippy::cast_precision_loss, reason = "a float multiple is checked in floats")]
        let f = match factor {
            Bound::Int(f) => f as f64,
            Bound::Float(f) => f,
        };
        let quotient = number.as_f64().unwrap_or(f64::NAN) / f;
        // The quotient of two binary fractions is rarely exact (0.0075 / 0.0001), so a
        // relative tolerance decides; an overflowing quotient is never a multiple.
        quotient.is_finite() && (quotient - quotient.round()).abs() <= 1e-9 * quotient.abs().max(1.0)
    }
}

/// `minLength`: the string has at least `min` code points.
pub fn min_length(value: &Value, min: u64, at: &Pointer, out: &mut Violations) {
    if let Value::String(text) = value {
        let count = text.chars().count() as u64;
        if count < min {
            out.push(
                at,
                "minLength",
                format!("must be at least {min} {} long, got {count}: {}", characters(min), preview(value)),
            );
        }
    }
}

/// `maxLength`: the string has at most `max` code points.
pub fn max_length(value: &Value, max: u64, at: &Pointer, out: &mut Violations) {
    if let Value::String(text) = value {
        let count = text.chars().count() as u64;
        if count > max {
            out.push(
                at,
                "maxLength",
                format!("must be at most {max} {} long, got {count}: {}", characters(max), preview(value)),
            );
        }
    }
}

fn characters(count: u64) -> &'static str {
    if count == 1 { "character" } else { "characters" }
}

/// An `enum` list, as the macro wrote it: its literals, compared with the value as they are.
#[derive(Debug)]
pub struct EnumSet {
    values: &'static [Lit],
}

impl EnumSet {
    /// The set of `#[param(enum = [..])]`'s values.
    #[must_use]
    pub const fn new(values: &'static [Lit]) -> Self {
        EnumSet { values }
    }

    /// Whether the set holds the string `text`.
    #[must_use]
    pub fn contains_str(&self, text: &str) -> bool {
        self.values.iter().any(|allowed| matches!(allowed, Lit::Str(s) if *s == text))
    }

    /// Whether the set holds `number` (JSON equality: `1 == 1.0`).
    #[must_use]
    pub fn contains_number(&self, number: &Number) -> bool {
        self.values.iter().any(|&allowed| number_equal(allowed, number))
    }

    /// Whether the set holds `flag`.
    #[must_use]
    pub fn contains_bool(&self, flag: bool) -> bool {
        self.values.iter().any(|allowed| matches!(allowed, Lit::Bool(b) if *b == flag))
    }

    /// `enum`: the value equals one of the set (JSON equality). `null` passes when the field
    /// is optional, since the schema then lists `null` too.
    pub fn validate(&self, value: &Value, nullable: bool, at: &Pointer, out: &mut Violations) {
        if nullable && value.is_null() {
            return;
        }
        if !self.values.iter().any(|&allowed| lit_equal(allowed, value)) {
            out.push(
                at,
                "enum",
                format!("must be one of {}, got {}", listed(&lit_value(Lit::List(self.values))), preview(value)),
            );
        }
    }
}

/// An `enum`'s values as messages list them: strings as a unit enum's variant names are
/// listed (`["low", "high"]`), any other list as JSON (`[1,2,3]`).
pub(crate) fn listed(values: &Value) -> String {
    match values.as_array() {
        Some(items) if items.iter().all(Value::is_string) => {
            let names: Vec<String> = items.iter().map(Value::to_string).collect();
            format!("[{}]", names.join(", "))
        }
        _ => values.to_string(),
    }
}

/// JSON equality of a literal and a value (`1 == 1.0`).
fn lit_equal(lit: Lit, value: &Value) -> bool {
    match (lit, value) {
        (Lit::Str(a), Value::String(b)) => a == b,
        (Lit::Bool(a), Value::Bool(b)) => a == *b,
        (Lit::Int(_) | Lit::Float(_), Value::Number(number)) => number_equal(lit, number),
        (Lit::List(items), Value::Array(values)) => {
            items.len() == values.len() && items.iter().zip(values).all(|(&item, value)| lit_equal(item, value))
        }
        _ => false,
    }
}

/// Whether a number literal equals `number`: exactly when both are integers.
fn number_equal(lit: Lit, number: &Number) -> bool {
    let bound = match lit {
        Lit::Int(n) => Bound::Int(n),
        Lit::Float(x) => Bound::Float(x),
        Lit::Str(_) | Lit::Bool(_) | Lit::List(_) => return false,
    };
    compare(number, bound) == Some(Ordering::Equal)
}

/// A literal as a JSON value (an integer beyond 64 bits as the nearest double, as JSON
/// text of it would parse).
pub(crate) fn lit_value(lit: Lit) -> Value {
    match lit {
        Lit::Int(n) => i64::try_from(n).map(Value::from).or_else(|_| u64::try_from(n).map(Value::from)).unwrap_or_else(
            #[expect(clippy::cast_precision_loss, reason = "what JSON text of it parses to")]
            |_| Value::from(n as f64),
        ),
        Lit::Float(x) => Value::from(x),
        Lit::Str(text) => Value::from(text),
        Lit::Bool(flag) => Value::Bool(flag),
        Lit::List(items) => items.iter().map(|&item| lit_value(item)).collect(),
    }
}

/// `minItems`: the array has at least `min` elements.
pub fn min_items(value: &Value, min: u64, at: &Pointer, out: &mut Violations) {
    if let Value::Array(items) = value
        && (items.len() as u64) < min
    {
        out.push(at, "minItems", format!("must have at least {min} {}, got {}", item_s(min), items.len()));
    }
}

/// `minItems` or `maxItems` (`keyword`) where both pin one count `n`: worded as exact.
pub fn exact_items(value: &Value, n: u64, keyword: &'static str, at: &Pointer, out: &mut Violations) {
    if let Value::Array(items) = value {
        let count = items.len() as u64;
        if (keyword == "minItems" && count < n) || (keyword == "maxItems" && count > n) {
            out.push(at, keyword, format!("must have exactly {n} items, got {count}"));
        }
    }
}

/// `minLength` or `maxLength` (`keyword`) where both are 1 (a `char`'s).
pub fn one_character(value: &Value, keyword: &'static str, at: &Pointer, out: &mut Violations) {
    if let Value::String(text) = value {
        let count = text.chars().count();
        if (keyword == "minLength" && count < 1) || (keyword == "maxLength" && count > 1) {
            out.push(at, keyword, format!("must be exactly 1 character long, got {count}"));
        }
    }
}

/// `maxItems`: the array has at most `max` elements.
pub fn max_items(value: &Value, max: u64, at: &Pointer, out: &mut Violations) {
    if let Value::Array(items) = value
        && items.len() as u64 > max
    {
        out.push(at, "maxItems", format!("must have at most {max} {}, got {}", item_s(max), items.len()));
    }
}

/// `minProperties`: the object has at least `min` properties.
pub fn min_properties(value: &Value, min: u64, at: &Pointer, out: &mut Violations) {
    if let Value::Object(map) = value
        && (map.len() as u64) < min
    {
        out.push(at, "minProperties", format!("must have at least {min} {}, got {}", property_s(min), map.len()));
    }
}

/// `maxProperties`: the object has at most `max` properties.
pub fn max_properties(value: &Value, max: u64, at: &Pointer, out: &mut Violations) {
    if let Value::Object(map) = value
        && map.len() as u64 > max
    {
        out.push(at, "maxProperties", format!("must have at most {max} {}, got {}", property_s(max), map.len()));
    }
}

fn property_s(count: u64) -> &'static str {
    if count == 1 { "property" } else { "properties" }
}

fn item_s(count: u64) -> &'static str {
    if count == 1 { "item" } else { "items" }
}

/// `uniqueItems`: no two elements are equal (JSON equality).
pub fn unique_items(value: &Value, at: &Pointer, out: &mut Violations) {
    if let Value::Array(items) = value {
        unique_items_in(items, at, out);
    }
}

pub(crate) fn unique_items_in(items: &[Value], at: &Pointer, out: &mut Violations) {
    if let Some((first, second)) = first_duplicate(items) {
        out.push(
            at,
            "uniqueItems",
            format!("items must be unique, but items {first} and {second} are equal: {}", preview(&items[second])),
        );
    }
}

fn first_duplicate(items: &[Value]) -> Option<(usize, usize)> {
    // Pairwise comparison is fastest for short arrays; long ones hash a canonical form so
    // that a hostile array cannot make this quadratic.
    const PAIRWISE_UP_TO: usize = 32;
    if items.len() <= PAIRWISE_UP_TO {
        for (j, b) in items.iter().enumerate() {
            if let Some(i) = items[..j].iter().position(|a| json_equal(a, b)) {
                return Some((i, j));
            }
        }
        return None;
    }
    let mut seen = std::collections::HashMap::with_capacity(items.len());
    for (j, item) in items.iter().enumerate() {
        let mut key = String::new();
        canonical(item, &mut key);
        if let Some(&i) = seen.get(&key) {
            return Some((i, j));
        }
        seen.insert(key, j);
    }
    None
}

/// A text form equal for JSON-equal values: integral numbers lose `.0`, keys are sorted.
fn canonical(value: &Value, out: &mut String) {
    use fmt::Write as _;
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 1e18 => {
                #[expect(clippy::cast_possible_truncation, reason = "integral and in range, checked above")]
                let _ = write!(out, "{}", f as i64);
            }
            _ => {
                let _ = write!(out, "{n}");
            }
        },
        Value::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for key in keys {
                let _ = write!(out, "{}:", Value::String(key.clone()));
                canonical(&map[key.as_str()], out);
                out.push(',');
            }
            out.push('}');
        }
        other => {
            let _ = write!(out, "{other}");
        }
    }
}

/// JSON equality: numbers compare by value (`1 == 1.0`), objects ignore key order.
#[must_use]
pub fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
            (Some(x), Some(y), _, _) => x == y,
            (_, _, Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}
