#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(minimum = 10, maximum = 5)]
    days: u8,
}

fn main() {}
