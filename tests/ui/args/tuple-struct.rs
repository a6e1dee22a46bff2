#[derive(tool_core::ToolArgs)]
struct Args(u8, String);

fn main() {}
