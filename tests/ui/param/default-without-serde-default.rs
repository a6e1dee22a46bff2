#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(default = 10)]
    limit: u32,
}

fn main() {}
