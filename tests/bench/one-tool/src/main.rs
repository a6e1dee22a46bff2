//! A user's binary with one struct-form tool: `registry.call` against the hand-written
//! baseline, built by `tests/bench/instructions-vs.sh` against two revisions of tool-core.
//! It names only API that every revision since the registry's has, and nothing of the
//! workspace's test fixtures, so that two revisions compile the same user code.
#![allow(dead_code, missing_docs)]

use serde::Deserialize;
use tool_core::{ToolArgs, tool};

/// A representative call: three properties, a length, a range and an enum.
const CALL: &str = r#"{"city": "San Francisco", "days": 5, "units": "fahrenheit"}"#;

/// Temperature units.
#[derive(Debug, Clone, Copy, ToolArgs)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    Fahrenheit,
}

/// The arguments of `get_weather`.
#[derive(Debug, ToolArgs)]
struct WeatherArgs {
    /// City name
    #[param(min_length = 1, max_length = 80)]
    city: String,
    #[param(minimum = 1, maximum = 10)]
    days: u8,
    units: Option<Units>,
}

/// The work both sides do once the arguments are decoded.
#[must_use]
fn forecast(city: &str, days: u8, units: Option<Units>) -> String {
    let mut out = String::with_capacity(city.len() + 24);
    out.push_str(city);
    out.push_str(if matches!(units, Some(Units::Fahrenheit)) { " F " } else { " C " });
    out.push(char::from(b'0' + days % 10));
    out
}

/// Get a weather forecast
#[tool(name = "weather_forecast")]
#[must_use]
fn get_weather(args: WeatherArgs) -> String {
    forecast(&args.city, args.days, args.units)
}

/// The same arguments for serde alone.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HandArgs {
    city: String,
    days: u8,
    units: Option<Units>,
}

/// The baseline: serde with unknown fields denied, the same checks written out, the call.
///
/// # Errors
/// The first failed check.
fn hand_written(arguments: &str) -> Result<String, String> {
    let args: HandArgs = serde_json::from_str(arguments).map_err(|e| e.to_string())?;
    let length = args.city.chars().count();
    if !(1..=80).contains(&length) {
        return Err(format!("/city: length {length} is out of 1..=80"));
    }
    if !(1..=10).contains(&args.days) {
        return Err(format!("/days: {} is out of 1..=10", args.days));
    }
    Ok(forecast(&args.city, args.days, args.units))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let variant = args.next().unwrap_or_default();
    let iterations: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let registry = tool_core::Registry::collect().expect("unique names");
    let mut ok = 0_usize;
    for _ in 0..iterations {
        ok += match variant.as_str() {
            "hand" => usize::from(hand_written(std::hint::black_box(CALL)).is_ok()),
            "registry" => usize::from(registry.call(std::hint::black_box("weather_forecast"), std::hint::black_box(CALL)).is_ok()),
            _ => panic!(),
        };
    }
    assert_eq!(ok, iterations);
}
