#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(min_length = 1)]
    tags: Vec<String>,
}

fn main() {}
