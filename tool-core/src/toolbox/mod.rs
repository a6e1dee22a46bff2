#![doc = include_str!("../../docs/toolbox.md")]

mod fetch;

use crate::context::ToolContext;
use crate::error::RegistryError;
use crate::tool::dynamic::DynamicTool;

pub use fetch::Fetch;

/// The longest expression [`calculate`] reads.
const MAX_EXPRESSION_CHARS: usize = 500;
/// The deepest nesting of parentheses it reads: deeper is refused before parsing, so that no
/// expression can exhaust the parser's stack.
const MAX_NESTING: usize = 32;

/// What `calculate` takes.
#[derive(Debug, crate::ToolArgs)]
#[serde(crate = "serde")]
pub struct Calculation {
    /// An arithmetic expression: numbers, + - * / % ^, parentheses, and functions such as
    /// `math::sqrt(x)`, `math::ln(x)`, `min(a, b)`, `max(a, b)`, `floor(x)`, `round(x)`
    #[param(min_length = 1, max_length = 500)]
    pub expression: String,
}

/// `calculate`: evaluates an arithmetic expression. Integers stay exact (an overflow is an
/// error, never a wrapped number); a division by zero is an error.
///
/// # Errors
/// Never in practice (the name is fixed and valid).
pub fn calculate() -> Result<DynamicTool, RegistryError> {
    DynamicTool::typed(
        "calculate",
        "Evaluates an arithmetic expression exactly; use it for any arithmetic rather than working it out.",
        |_: ToolContext, args: Calculation| async move { evaluate(&args.expression) },
    )
}

/// The value of `expression`, as text.
fn evaluate(expression: &str) -> Result<String, String> {
    debug_assert!(expression.chars().count() <= MAX_EXPRESSION_CHARS, "validated");
    let mut depth = 0_usize;
    for c in expression.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > MAX_NESTING {
            return Err(format!("the expression nests parentheses deeper than {MAX_NESTING}"));
        }
    }
    match evalexpr::eval(expression) {
        Ok(evalexpr::Value::Int(n)) => Ok(n.to_string()),
        Ok(evalexpr::Value::Float(x)) if x.is_finite() => Ok(x.to_string()),
        Ok(evalexpr::Value::Float(_)) => Err("the result is not a finite number".to_owned()),
        Ok(other) => Err(format!("the expression is not arithmetic: its value is {other}")),
        Err(error) => Err(format!("cannot evaluate the expression: {error}")),
    }
}

/// What `current_time` takes.
#[derive(Debug, crate::ToolArgs)]
#[serde(crate = "serde")]
pub struct TimeIn {
    /// An IANA time zone, such as `Europe/Paris` or `America/New_York` (UTC when absent)
    #[param(min_length = 1, max_length = 64)]
    pub time_zone: Option<String>,
}

/// `current_time`: the current date and time in a time zone, as RFC 9557 text
/// (`2026-11-26T23:05:00+01:00[Europe/Paris]`).
///
/// # Errors
/// Never in practice (the name is fixed and valid).
pub fn current_time() -> Result<DynamicTool, RegistryError> {
    DynamicTool::typed(
        "current_time",
        "The current date and time in a time zone.",
        |_: ToolContext, args: TimeIn| async move { time_in(args.time_zone.as_deref().unwrap_or("UTC")) },
    )
}

/// Now, in `zone`.
fn time_in(zone: &str) -> Result<String, String> {
    let zone = jiff::tz::TimeZone::get(zone)
        .map_err(|_| format!("unknown time zone {zone:?}; use an IANA name such as Europe/Paris"))?;
    Ok(jiff::Timestamp::now().to_zoned_datetime(zone).to_string())
}

#[cfg(test)]
mod tests {
    use super::evaluate;

    #[test]
    fn arithmetic_is_exact_and_errors_are_words() {
        assert_eq!(evaluate("2 + 3 * 4").as_deref(), Ok("14"));
        assert_eq!(evaluate("(1 + 2) ^ 2").as_deref(), Ok("9"));
        assert_eq!(evaluate("7 / 2.0").as_deref(), Ok("3.5"));
        assert!(evaluate("1 / 0").unwrap_err().contains("cannot evaluate"));
        assert!(evaluate("9223372036854775807 + 1").is_err(), "an overflow is an error");
        assert!(evaluate("\"text\"").unwrap_err().contains("not arithmetic"));
        assert!(evaluate(&"(".repeat(40)).unwrap_err().contains("deeper than 32"));
    }
}
