#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(minimum = 1)]
    city: String,
}

fn main() {}
