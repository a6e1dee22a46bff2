#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(pattern = "(unclosed")]
    city: String,
}

/// Uses the arguments whose derive failed: no second error here.
#[tool_core::tool]
fn weather(args: Args) -> String {
    args.city
}

fn main() {
    let _ = tool_core::render::json_schema::<Args>();
}
