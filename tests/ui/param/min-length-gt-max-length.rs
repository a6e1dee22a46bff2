#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(min_length = 8, max_length = 4)]
    code: String,
}

fn main() {}
