//! Runs one dispatch variant of `benches/dispatch.rs` a given number of times, so that
//! `valgrind --tool=callgrind` can count its instructions: a measure that, unlike time, is
//! the same on every run and whatever else the machine does.
//!
//! `tests/bench/instructions.sh` runs it for every variant and prints the ratios. The variant
//! `invalid` is the error path: a call the fast path refuses, validated in full (the keywords
//! read from the schema tree) and answered with its violations. `runtime` and
//! `runtime-invalid` check the same arguments against the same schema held at run time
//! (`RuntimeSchema`, what a `DynamicTool` or a remote MCP tool is checked with): parse and
//! validate, the baseline being `decode`, which parses, validates and decodes. `resolve3` is
//! one resolution of a run's tools from three sources (the native registry and two of ten
//! run-time tools each).
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
    let schema =
        tool_core::schema::RuntimeSchema::parse(&tool_core::render::json_schema::<WeatherArgs>()).expect("a schema");
    let sources = three_sources(&registry);
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
            "runtime" => {
                let value: serde_json::Value = serde_json::from_str(black_box(CALL)).expect("JSON");
                usize::from(schema.validate(&value).is_ok())
            }
            "runtime-invalid" => {
                let value: serde_json::Value = serde_json::from_str(black_box(INVALID)).expect("JSON");
                usize::from(schema.validate(&value).is_err_and(|violations| violations.total() == 2))
            }
            "resolve3" => usize::from(tool_tests::block_on(sources.resolve()).is_ok_and(|tools| tools.len() > 20)),
            other => panic!(
                "unknown variant {other:?}: use hand, registry, plain, method, decode, invalid, runtime, runtime-invalid or resolve3"
            ),
        };
    }
    assert_eq!(ok, iterations);
}

/// The native registry, and two sources of ten run-time tools each.
fn three_sources(native: &Registry) -> tool_core::registry::ToolSources {
    let remote = |prefix: &str| {
        let mut registry = Registry::new();
        for n in 0..10 {
            let tool = tool_core::DynamicTool::new(
                format!("{prefix}_{n}"),
                "A tool of another source",
                r#"{"type":"object","properties":{"q":{"type":"string"}}}"#,
                |_, _| async { Ok(tool_core::ToolOutput::text("")) },
            )
            .expect("a tool");
            registry.add_dynamic(tool).expect("unique names");
        }
        registry
    };
    tool_core::registry::ToolSources::new()
        .native(native.clone())
        .registry("mcp:one", remote("mcp_one_tool"))
        .registry("a2a:two", remote("a2a_two_skill"))
}
