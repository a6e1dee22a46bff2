// `default` and `skip` on a parameter whose type has no `Default`: the error is at the key.
#[derive(tool_core::ToolArgs)]
enum Level {
    Low,
    High,
}

/// Takes a level that may be absent, though it has no default.
#[tool_core::tool]
fn set(#[serde(default)] level: Level, #[serde(skip)] mark: Level) -> String {
    let _ = (level, mark);
    String::new()
}

fn main() {}
