/// A percentage.
#[derive(tool_core::ToolArgs)]
struct Percent(#[param(minimum = 0, max_length = 3)] String);

fn main() {}
