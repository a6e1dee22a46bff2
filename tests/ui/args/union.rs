#[derive(tool_core::ToolArgs)]
union Args {
    a: u8,
    b: u16,
}

fn main() {}
