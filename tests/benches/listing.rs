//! The first listing in a process of 200 tools with nested arguments (a struct, a list of
//! structs and an enum inside each tool's arguments): collecting them and writing every
//! definition, once, against schemars generating the same schemas at run time (what a server
//! built on it pays for its first `tools/list`). Each side runs in a fresh process, since
//! the figure is a one-time cost; `bash tests/bench/listing.sh` alternates them and prints
//! the medians.
//!
//! `cargo bench -p tool-tests --bench listing -- ours` (or `schemars`) runs one side once.
#![allow(missing_docs, clippy::print_stdout)]

use std::hint::black_box;
use std::time::Instant;

use tool_core::{Registry, ToolArgs, tool};
include!("support/schemars_inventory.rs");

macro_rules! many_tools {
    ($($n:literal)*) => {$(
        const _: () = {
            /// Where to deliver.
            #[derive(ToolArgs, schemars::JsonSchema)]
            #[allow(dead_code)]
            struct Address {
                /// The street and number.
                #[param(min_length = 1, max_length = 120)]
                #[schemars(length(min = 1, max = 120))]
                street: String,
                /// The city.
                #[param(min_length = 1)]
                #[schemars(length(min = 1))]
                city: String,
                /// The postal code.
                #[param(pattern = "^[0-9]{5}$")]
                #[schemars(regex(pattern = "^[0-9]{5}$"))]
                zip: String,
                /// Floor, if any.
                floor: Option<i16>,
            }

            /// One line of the order.
            #[derive(ToolArgs, schemars::JsonSchema)]
            #[allow(dead_code)]
            struct Item {
                /// The article's code.
                #[param(pattern = "^[A-Z]{3}-[0-9]{4}$")]
                #[schemars(regex(pattern = "^[A-Z]{3}-[0-9]{4}$"))]
                sku: String,
                /// How many.
                #[param(minimum = 1, maximum = 99)]
                #[schemars(range(min = 1, max = 99))]
                quantity: u8,
                /// Gift-wrapped.
                gift: Option<bool>,
            }

            /// How fast.
            #[derive(ToolArgs, schemars::JsonSchema)]
            #[serde(rename_all = "lowercase")]
            #[allow(dead_code)]
            enum Speed {
                /// In a week.
                Standard,
                /// Tomorrow.
                Express,
            }

            /// Arguments of one generated tool.
            #[derive(ToolArgs, schemars::JsonSchema)]
            #[allow(dead_code)]
            struct Args {
                /// The customer's name.
                #[param(min_length = 1, max_length = 64)]
                #[schemars(length(min = 1, max = 64))]
                name: String,
                /// Where to deliver.
                address: Address,
                /// What to deliver.
                #[param(min_items = 1, max_items = 50)]
                #[schemars(length(min = 1, max = 50))]
                items: Vec<Item>,
                /// How fast.
                speed: Option<Speed>,
                /// A note for the courier.
                note: Option<String>,
            }

            tool_and_schema!($n, "One of two hundred generated tools with nested arguments, for the listing benchmark.");
        };
    )*};
}

include!("support/two_hundred.rs");

/// Collects the tools and writes every definition: the first listing.
fn ours() -> usize {
    let registry = Registry::collect().expect("unique names");
    assert_eq!(registry.len(), 200);
    black_box(registry.definitions_json()).len()
}

/// The same list with schemars: each schema generated at run time, wrapped in a definition.
fn schemars() -> usize {
    let mut entries: Vec<&inventory_of_schemars::Entry> =
        tool_core::__private::inventory::iter::<inventory_of_schemars::Entry>.into_iter().collect();
    entries.sort_by_key(|e| e.name);
    assert_eq!(entries.len(), 200);
    let definitions: Vec<serde_json::Value> = entries
        .iter()
        .map(|entry| {
            serde_json::json!({
                "name": entry.name,
                "description": "One of two hundred generated tools with nested arguments, for the listing benchmark.",
                "parameters": (entry.schema)(),
            })
        })
        .collect();
    black_box(serde_json::to_string(&definitions).unwrap_or_default()).len()
}

fn main() {
    // `cargo bench` passes `--bench`; the side is the first other argument.
    let side = std::env::args().skip(1).find(|arg| !arg.starts_with("--")).unwrap_or_else(|| "ours".to_owned());
    let start = Instant::now();
    let bytes = match side.as_str() {
        "schemars" => schemars(),
        _ => ours(),
    };
    let micros = start.elapsed().as_secs_f64() * 1e6;
    println!("first listing of 200 nested tools, {side}: {micros:.1} µs ({bytes} bytes)");
}
