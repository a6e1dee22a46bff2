#[derive(tool_core::ToolArgs)]
struct Count(#[param(default = 1)] u32);

fn main() {}
