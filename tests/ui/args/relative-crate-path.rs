#[derive(tool_core::ToolArgs)]
#[tool_args(crate = facade::tool_core)]
struct Args {
    value: u8,
}

fn main() {}
