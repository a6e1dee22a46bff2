#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(items(max_length = 3))]
    name: String,
}

fn main() {}
