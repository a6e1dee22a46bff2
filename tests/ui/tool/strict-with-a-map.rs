use std::collections::HashMap;

#[derive(tool_core::ToolArgs)]
struct Args {
    scores: HashMap<String, u8>,
}

/// Asks for strict mode, which a map cannot have.
#[tool_core::tool(strict)]
fn scores(args: Args) -> String {
    args.scores.len().to_string()
}

fn main() {}
