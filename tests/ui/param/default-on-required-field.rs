#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(default = 3)]
    days: u8,
}

fn main() {}
