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
            violations.iter().map(|v| (v.path.clone(), keyword(v))).collect()
        }
        other => panic!("expected invalid arguments, got {other:?}"),
    }
}

/// A violation's keyword as the `&'static str` validation words it from (its own words are
/// borrowed; only a violation read back from JSON owns its keyword).
pub(crate) fn keyword(violation: &tool_core::Violation) -> &'static str {
    match violation.keyword {
        std::borrow::Cow::Borrowed(keyword) => keyword,
        std::borrow::Cow::Owned(ref keyword) => panic!("`{keyword}` is not one of validation's own words"),
    }
}
