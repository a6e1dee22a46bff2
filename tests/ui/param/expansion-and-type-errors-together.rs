#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(pattern = "(unclosed")]
    city: String,
    #[param(minimum = 1)]
    name: String,
}

fn main() {}
