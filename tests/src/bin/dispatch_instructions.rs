//! Runs one dispatch variant of `benches/dispatch.rs` a given number of times, so that
//! `valgrind --tool=callgrind` can count its instructions: a measure that, unlike time, is
//! the same on every run and whatever else the machine does.
//!
//! `tests/bench/instructions.sh` runs it for every variant and prints the ratios. The variant
//! `invalid` is the error path: a call the fast path refuses, validated in full (the keywords
//! read from the schema tree) and answered with its violations.
#![allow(clippy::print_stdout, missing_docs)]

use std::hint::black_box;

use tool_core::Registry;
use tool_core::dispatch::DecodeOptions;
use tool_tests::{CALL, Forecaster, WeatherArgs, get_weather, hand_written};

/// [`CALL`] with an empty city (`min_length = 1`) and too many days (`maximum = 10`).
const INVALID: &str = r#"{"city": "", "days": 12, "units": "fahrenheit"}"#;

fn main() {
    let mut args = std::env::args().skip(1);
    let variant = args.next().unwrap_or_default();
    let iterations: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let mut registry = Registry::collect().expect("unique names");
    registry.add_all(Forecaster::default()).expect("unique names");
    let options = DecodeOptions::default();
    let mut ok = 0_usize;
    for _ in 0..iterations {
        ok += match variant.as_str() {
            "hand" => usize::from(hand_written(black_box(CALL)).is_ok()),
            "registry" => usize::from(registry.call(black_box("weather_forecast"), black_box(CALL)).is_ok()),
            "plain" => usize::from(registry.call(black_box("weather_forecast_plain"), black_box(CALL)).is_ok()),
            "method" => usize::from(registry.call(black_box("weather_forecast_method"), black_box(CALL)).is_ok()),
            "invalid" => usize::from(registry.call(black_box("weather_forecast"), black_box(INVALID)).is_err()),
            "decode" => usize::from(
                tool_core::dispatch::decode::<WeatherArgs>(black_box(CALL), &options).map(get_weather).is_ok(),
            ),
            other => panic!("unknown variant {other:?}: use hand, registry, plain, method, decode or invalid"),
        };
    }
    assert_eq!(ok, iterations);
}
