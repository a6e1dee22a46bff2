//! The argument-text parser on arbitrary text: never panics; a strict read is exactly what
//! serde_json reads; only strict and repaired reads are runnable, and both carry a value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::provider::{ArgumentsMode, parse_arguments};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let parsed = parse_arguments(text);
    match parsed.mode {
        ArgumentsMode::Strict => {
            assert_eq!(parsed.value.as_ref(), serde_json::from_str::<serde_json::Value>(text).ok().as_ref());
        }
        ArgumentsMode::Repaired => assert!(parsed.value.is_some() && serde_json::from_str::<serde_json::Value>(text).is_err()),
        ArgumentsMode::Partial => assert!(parsed.value.is_some() && !parsed.is_runnable()),
        ArgumentsMode::Invalid => assert!(parsed.value.is_none() && !parsed.is_runnable()),
        other => panic!("a mode this target does not know: {other:?}"),
    }
});
