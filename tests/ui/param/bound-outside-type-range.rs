#[derive(serde::Deserialize, tool_core::ToolArgs)]
struct Args {
    #[param(maximum = 300)]
    percent: u8,
    #[param(minimum = -1)]
    count: u32,
}

fn main() {}
