#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(min_length = 1)]
    days: u8,
}

fn main() {}
