#[derive(serde::Deserialize)]
struct Plain {
    city: String,
}

/// Uses a struct that does not derive `ToolArgs`.
#[tool_core::tool]
fn weather(args: Plain) -> String {
    args.city
}

fn main() {}
