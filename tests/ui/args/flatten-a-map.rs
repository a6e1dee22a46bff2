use std::collections::HashMap;

#[derive(tool_core::ToolArgs)]
struct Args {
    city: String,
    #[serde(flatten)]
    rest: HashMap<String, String>,
}

fn main() {}
