//! Runs one dispatch variant of `benches/dispatch.rs` a given number of times, so that
//! `valgrind --tool=callgrind` can count its instructions: a measure that, unlike time, is
//! the same on every run and whatever else the machine does.
//!
//! `tests/bench/instructions.sh` runs it for every variant and prints the ratios.
#![allow(clippy::print_stdout, missing_docs)]

use std::hint::black_box;

use serde::Deserialize;
use tool_core::{DecodeOptions, Registry, ToolArgs, tool};

#[derive(Debug, Clone, Copy, Deserialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    Fahrenheit,
}

#[derive(Debug, Deserialize, ToolArgs)]
struct WeatherArgs {
    /// City name
    #[param(min_length = 1, max_length = 80)]
    city: String,
    #[param(minimum = 1, maximum = 10)]
    days: u8,
    units: Option<Units>,
}

fn forecast(city: &str, days: u8, units: Option<Units>) -> String {
    let mut out = String::with_capacity(city.len() + 24);
    out.push_str(city);
    out.push_str(if matches!(units, Some(Units::Fahrenheit)) { " F " } else { " C " });
    out.push(char::from(b'0' + days % 10));
    out
}

/// Get a weather forecast
#[tool]
fn get_weather(args: WeatherArgs) -> String {
    forecast(&args.city, args.days, args.units)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HandArgs {
    city: String,
    days: u8,
    units: Option<Units>,
}

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

const CALL: &str = r#"{"city": "San Francisco", "days": 5, "units": "fahrenheit"}"#;

fn main() {
    let mut args = std::env::args().skip(1);
    let variant = args.next().unwrap_or_default();
    let iterations: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let registry = Registry::collect().expect("unique names");
    let options = DecodeOptions::default();
    let mut ok = 0_usize;
    for _ in 0..iterations {
        ok += match variant.as_str() {
            "hand" => usize::from(hand_written(black_box(CALL)).is_ok()),
            "registry" => usize::from(registry.call(black_box("get_weather"), black_box(CALL)).is_ok()),
            "decode" => {
                usize::from(tool_core::decode::<WeatherArgs>(black_box(CALL), &options).map(get_weather).is_ok())
            }
            other => panic!("unknown variant {other:?}: use hand, registry or decode"),
        };
    }
    assert_eq!(ok, iterations);
}
