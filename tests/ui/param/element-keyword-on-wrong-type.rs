use std::collections::HashMap;

#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(values(max_length = 3))]
    scores: HashMap<String, u32>,
    #[param(items(maximum = 300))]
    levels: Vec<u8>,
}

fn main() {}
