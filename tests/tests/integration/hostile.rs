//! Hostile inputs: each gets a structured error (or success where it is valid), never a
//! panic or a stack overflow, with memory bounded by the argument size limit
//! (`DecodeOptions::max_argument_bytes`, 1 MiB by default).

use serde_json::Value;
use tool_core::dispatch::DecodeOptions;
use tool_core::{Registry, ToolError, Violations};

fn registry() -> Registry {
    Registry::collect().expect("unique names")
}

fn invalid_json(result: Result<tool_core::ToolOutput, ToolError>) -> String {
    match result {
        Err(ToolError::InvalidJson { message }) => message,
        other => panic!("expected invalid JSON, got {other:?}"),
    }
}

#[test]
fn a_100_mb_argument_is_refused_before_parsing() {
    let text = format!(r#"{{"name": "{}", "stops": []}}"#, "x".repeat(100 << 20));
    let message = invalid_json(registry().call("plan_trip", text.as_str()));
    assert!(message.contains("more than the 1048576 bytes"), "{message}");
}

/// A value handed over already parsed is held to the same limit as text: a 5 MB value is
/// refused, for a `#[tool]` and for a tool with a run-time schema, before it is validated.
#[tokio::test]
async fn a_5_mb_value_is_refused_as_text_would_be() {
    let value = serde_json::json!({"name": "x".repeat(5 << 20), "stops": []});
    let registry = registry();
    let message = invalid_json(registry.call_async(&registry.context(), "plan_trip", value.clone()).await);
    assert!(message.contains("more than the 1048576 bytes"), "{message}");
    let mut dynamic = Registry::new();
    let schema = r#"{"type": "object", "properties": {"name": {"type": "string"}}}"#;
    let tool = tool_core::DynamicTool::new("big", "", schema, |_, _| async { Ok(tool_core::ToolOutput::text("ran")) });
    dynamic.add_dynamic(tool.unwrap()).unwrap();
    let message = invalid_json(dynamic.call_async(&dynamic.context(), "big", value).await);
    assert!(message.contains("more than the 1048576 bytes"), "{message}");
}

#[test]
fn a_large_argument_within_a_raised_limit_is_validated() {
    let registry = registry().with_options(DecodeOptions::default().max_argument_bytes(200 << 20));
    let text = format!(r#"{{"name": "{}", "stops": [{{"city": "A", "nights": 1}}]}}"#, "x".repeat(100 << 20));
    let error = registry.call("plan_trip", text.as_str()).expect_err("name too long");
    let ToolError::InvalidArguments { violations, .. } = &error else { panic!("{error:?}") };
    assert_eq!(violations.as_slice()[0].keyword, "maxLength");
    // The message quotes a bounded preview, not 100 MB.
    assert!(error.to_string().len() < 1_000, "{} bytes", error.to_string().len());
}

#[test]
fn deep_nesting_is_refused_without_overflowing_the_stack() {
    let depth = 100_000;
    let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let wrapped = format!(r#"{{"a": {text}, "b": 1}}"#);
    let registry = registry().with_options(DecodeOptions::default().max_argument_bytes(1 << 20));
    let message = invalid_json(registry.call("divide", wrapped.as_str()));
    assert!(message.contains("recursion limit"), "{message}");
    let objects = format!("{}{}", r#"{"a":"#.repeat(depth), "}".repeat(depth));
    invalid_json(registry.call("divide", objects.as_str()));
}

#[test]
fn a_million_keys_give_a_bounded_error() {
    let mut text = String::from(r#"{"a": 1, "b": 2"#);
    for i in 0..1_000_000 {
        use std::fmt::Write as _;
        let _ = write!(text, r#","k{i}":0"#);
    }
    text.push('}');
    let registry = registry().with_options(DecodeOptions::default().max_argument_bytes(64 << 20));
    let error = registry.call("divide", text.as_str()).expect_err("unknown keys");
    let ToolError::InvalidArguments { violations, .. } = &error else { panic!("{error:?}") };
    assert_eq!(violations.total(), 1_000_000);
    assert_eq!(violations.as_slice().len(), Violations::LIMIT);
    assert_eq!(violations.omitted(), 1_000_000 - Violations::LIMIT);
    assert!(error.to_string().ends_with(&format!("… and {} more", 1_000_000 - Violations::LIMIT)));
}

#[test]
fn lone_surrogates_and_invalid_escapes_are_invalid_json() {
    for text in [
        r#"{"name": "\ud800", "stops": []}"#,
        r#"{"name": "\udc00x", "stops": []}"#,
        r#"{"name": "\x41", "stops": []}"#,
        r#"{"name": "\u12", "stops": []}"#,
        "{\"name\": \"\u{1}\", \"stops\": []}",
        "{\"name\": \"a\u{0}b\", \"stops\": []}",
    ] {
        invalid_json(registry().call("plan_trip", text));
    }
    // An escaped surrogate pair is one astral character, and valid.
    let error = registry().call("plan_trip", r#"{"name": "\ud83d\ude00", "stops": []}"#).expect_err("no stops");
    assert!(matches!(error, ToolError::InvalidArguments { .. }));
}

#[test]
fn nan_and_infinity_are_not_json() {
    for literal in ["NaN", "Infinity", "-Infinity", "nan", "inf"] {
        invalid_json(registry().call("divide", format!(r#"{{"a": {literal}, "b": 1}}"#).as_str()));
    }
}

#[test]
fn numbers_beyond_every_rust_type() {
    let registry = registry();
    // Beyond f64: not representable, so not parsed.
    invalid_json(registry.call("divide", r#"{"a": 1e400, "b": 1}"#));
    // Beyond i64 and u64, within f64: valid JSON, out of the field's range.
    for big in ["18446744073709551616", "-9223372036854775809", "1e300", "-1e300"] {
        let error = registry.call("divide", format!(r#"{{"a": {big}, "b": 1}}"#).as_str()).expect_err(big);
        let ToolError::InvalidArguments { violations, .. } = &error else { panic!("{error:?}") };
        let keyword = &*violations.as_slice()[0].keyword;
        assert!(["minimum", "maximum", "type"].contains(&keyword), "{big}: {error}");
    }
    // At the edge of i64 a float cannot tell -2^63 from -2^63 - 1: refused, not rounded.
    let error = registry.call("divide", r#"{"a": -9223372036854775809, "b": 1}"#).expect_err("inexact");
    assert!(error.to_string().contains("a float cannot hold exactly"), "{error}");
    // A float field takes them.
    let value: Value = serde_json::json!({"name": "n", "stops": [{"city": "c", "nights": 1}], "budget": 1e300});
    assert!(registry.call("plan_trip", value).is_ok());
}
