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

/// The name a tool of another source is offered by, as the seeds write it:
/// `<kind>_<source>_<tool>` (`mcp_weather_get_forecast`, `a2a_planner_plan_trip`), every
/// character a provider refuses made `_`, cut to `max` characters (at most 64). `kind` is
/// this crate's own (`mcp`, `a2a`), so the result always starts with a letter.
#[cfg_attr(
    not(any(feature = "mcp-client", feature = "a2a")),
    expect(dead_code, reason = "remote tools' names (features `mcp-client`, `a2a`)")
)]
pub(crate) fn qualified(kind: &str, source: &str, tool: &str, max: usize) -> String {
    format!("{kind}_{source}_{tool}")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .take(max.min(64))
        .collect()
}
