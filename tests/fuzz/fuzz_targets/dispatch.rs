//! Dispatch by name with arbitrary bytes as arguments, for tools that cover every keyword
//! kind, nested structs, every enum tagging and maps. Beyond "never panics", it checks that
//! the two ways arguments arrive (text, parsed value) get the same answer, and that lenient
//! decoding accepts everything strict decoding accepts.
#![no_main]

use std::collections::HashMap;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use serde::Deserialize;
use tool_core::dispatch::DecodeOptions;
use tool_core::{tool, Registry, ToolArgs};

#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
enum Level {
    Low,
    High,
}

#[derive(ToolArgs)]
struct Stop {
    #[param(min_length = 1, max_length = 20, pattern = "^[A-Z]")]
    city: String,
    #[param(minimum = 1, maximum = 14)]
    nights: u8,
}

#[derive(ToolArgs)]
#[serde(tag = "kind")]
enum Internal {
    Move { steps: i32 },
    Stay,
}

#[derive(ToolArgs)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Speed(u16),
    Turn { degrees: i16 },
}

#[derive(ToolArgs)]
#[serde(untagged)]
enum Untagged {
    Number(f64),
    Named { name: String },
}

#[derive(ToolArgs)]
enum External {
    Empty,
    Circle { radius: f64 },
}

#[derive(ToolArgs)]
struct Everything {
    #[param(exclusive_minimum = 0, exclusive_maximum = 1.5, multiple_of = 0.25)]
    ratio: f64,
    #[param(format = "date-time")]
    when: Option<String>,
    #[param(format = "email")]
    email: Option<String>,
    #[param(enum = ["a", "b"])]
    letter: Option<String>,
    #[param(enum = [1, 2, 3])]
    small: Option<u8>,
    #[param(min_items = 1, max_items = 4, unique_items)]
    tags: Vec<String>,
    stops: Vec<Stop>,
    level: Option<Level>,
    counts: HashMap<String, i64>,
    fixed: Option<[u8; 2]>,
    letter_char: Option<char>,
    internal: Option<Internal>,
    adjacent: Option<Adjacent>,
    untagged: Option<Untagged>,
    external: Option<External>,
    any: Option<serde_json::Value>,
}

/// Takes everything.
#[tool]
fn everything(args: Everything) -> String {
    format!("{} {}", args.ratio, args.tags.len())
}

/// A small flat tool, the common case.
#[tool]
fn trip(args: Stop) -> String {
    args.city
}

fn registries() -> &'static (Registry, Registry) {
    static REGISTRIES: OnceLock<(Registry, Registry)> = OnceLock::new();
    REGISTRIES.get_or_init(|| {
        let strict = Registry::collect().expect("unique names");
        let lenient = strict.clone().with_options(DecodeOptions::default().lenient(true));
        (strict, lenient)
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (strict, lenient) = registries();
    for name in ["everything", "trip"] {
        let from_text = strict.call(name, text);
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
            let from_value = strict.call(name, value.clone());
            assert_eq!(from_text.is_ok(), from_value.is_ok(), "text and value disagree on {text}");
            if from_value.is_ok() {
                assert!(lenient.call(name, value).is_ok(), "lenient refused what strict accepted: {text}");
            }
        }
    }
});
