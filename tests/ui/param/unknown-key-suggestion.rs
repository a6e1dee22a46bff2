#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(maxlength = 10)]
    name: String,
}

fn main() {}
