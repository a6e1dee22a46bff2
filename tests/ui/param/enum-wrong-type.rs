#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(enum = ["low", "high"])]
    level: u8,
}

fn main() {}
