//! The tool-name rule every provider accepts. `tool-macros` checks the same rule while
//! expanding (a proc-macro crate cannot depend on the runtime it expands for).

/// Whether every provider accepts `name`: `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`.
#[must_use]
pub fn is_valid_tool_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    matches!(bytes.first(), Some(b) if b.is_ascii_alphabetic() || *b == b'_')
        && bytes.len() <= 64
        && bytes.iter().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
}
