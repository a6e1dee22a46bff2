//! Benchmarks, each against a baseline in the same run:
//! - dispatch by name of a representative call, against hand-written `serde_json::from_str`
//!   plus hand-written checks plus the call;
//! - the tool-definition JSON of 200 tools, against building it with schemars at run time.
//!
//! Run with `cargo bench -p tool-tests --bench dispatch`.
#![allow(missing_docs, clippy::print_stdout)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tool_core::{Registry, ToolArgs, tool};
use tool_tests::{CALL, WeatherArgs, get_weather, hand_written};

fn dispatch(c: &mut Criterion) {
    // The first collection writes every tool's texts (they are written on first use): the
    // one-time cost a process pays before its first listing.
    let start = std::time::Instant::now();
    let registry = Registry::collect().expect("unique names");
    let definitions = registry.definitions_json();
    println!(
        "first listing of {} tools (collect, write every definition): {:.1} µs ({} bytes)",
        registry.len(),
        start.elapsed().as_secs_f64() * 1e6,
        definitions.len()
    );
    assert_eq!(registry.call("weather_forecast", CALL).expect("valid").to_text(), hand_written(CALL).expect("valid"));
    let mut group = c.benchmark_group("dispatch");
    group.bench_function("hand-written serde + checks", |b| {
        b.iter(|| hand_written(black_box(CALL)));
    });
    group.bench_function("tool_core registry.call", |b| {
        b.iter(|| registry.call(black_box("weather_forecast"), black_box(CALL)));
    });
    let options = tool_core::dispatch::DecodeOptions::default();
    group.bench_function("tool_core decode + call, no lookup", |b| {
        b.iter(|| tool_core::dispatch::decode::<WeatherArgs>(black_box(CALL), &options).map(get_weather));
    });
    group.finish();
}

include!("support/schemars_inventory.rs");

/// 200 tools, each with its own argument struct, deriving both our schema and schemars'.
macro_rules! many_tools {
    ($($n:literal)*) => {
        pub mod many {
            use super::*;
            paste_tools!($($n)*);
        }
    };
}

macro_rules! paste_tools {
    ($($n:literal)*) => {$(
        const _: () = {
            /// Arguments of one generated tool.
            #[derive(Debug, ToolArgs, schemars::JsonSchema)]
            #[allow(dead_code)]
            pub struct Args {
                /// A name.
                #[param(min_length = 1, max_length = 64)]
                #[schemars(length(min = 1, max = 64))]
                name: String,
                /// A count.
                #[param(minimum = 0, maximum = 1000)]
                #[schemars(range(min = 0, max = 1000))]
                count: u32,
                /// A flag.
                flag: Option<bool>,
                /// Tags.
                tags: Vec<String>,
            }

            tool_and_schema!($n, "One of two hundred generated tools, for the listing benchmark.");
        };
    )*};
}

include!("support/two_hundred.rs");

/// The same list with schemars: each schema generated at run time, wrapped in a definition.
fn schemars_definitions(entries: &[&inventory_of_schemars::Entry]) -> String {
    let definitions: Vec<serde_json::Value> = entries
        .iter()
        .map(|entry| {
            serde_json::json!({
                "name": entry.name,
                "description": "One of two hundred generated tools, for the listing benchmark.",
                "parameters": (entry.schema)(),
            })
        })
        .collect();
    serde_json::to_string(&definitions).unwrap_or_default()
}

fn listing(c: &mut Criterion) {
    let registry = Registry::collect().expect("unique names");
    let mut generated = Registry::new();
    for entry in registry.iter().filter(|e| e.name().starts_with("tool_")) {
        generated.add(entry.def().expect("a #[tool] fn")).expect("unique");
    }
    assert_eq!(generated.len(), 200);
    let mut entries: Vec<&inventory_of_schemars::Entry> =
        tool_core::__private::inventory::iter::<inventory_of_schemars::Entry>.into_iter().collect();
    entries.sort_by_key(|e| e.name);
    assert_eq!(entries.len(), 200);
    let mut group = c.benchmark_group("200 tool definitions");
    group.bench_function("schemars at run time", |b| b.iter(|| schemars_definitions(black_box(&entries))));
    group.bench_function("tool_core, written once", |b| b.iter(|| black_box(&generated).definitions_json()));
    group.finish();
}

criterion_group!(benches, dispatch, listing);
criterion_main!(benches);
