#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(minimum = 1, minimum = 2)]
    days: u8,
}

fn main() {}
