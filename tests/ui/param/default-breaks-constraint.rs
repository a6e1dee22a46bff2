#[derive(tool_core::ToolArgs)]
struct Args {
    #[serde(default)]
    #[param(minimum = 1, maximum = 10, default = 20)]
    days: u8,
}

fn main() {}
