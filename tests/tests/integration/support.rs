//! Helpers the test modules share.

use serde_json::Value;
use tool_core::dispatch::DecodeOptions;
use tool_core::{ToolArgs, ToolError};

/// The JSON Schema of `T`, parsed.
pub(crate) fn schema_of<T: tool_core::ToolParam>() -> Value {
    serde_json::from_str(&tool_core::render::json_schema::<T>()).expect("JSON")
}

/// The `(path, keyword)` of every violation `value` gives as `T`; panics if it decodes.
pub(crate) fn violations<T: ToolArgs + std::fmt::Debug>(value: Value) -> Vec<(String, &'static str)> {
    match tool_core::dispatch::decode::<T>(value, &DecodeOptions::default()) {
        Err(ToolError::InvalidArguments { violations, .. }) => {
            violations.iter().map(|v| (v.path.clone(), v.keyword)).collect()
        }
        other => panic!("expected invalid arguments, got {other:?}"),
    }
}
