use std::collections::HashMap;

use tool_core::{ToolArgs, ToolContext, tool};

#[derive(ToolArgs)]
struct Address {
    city: String,
}

#[derive(ToolArgs)]
struct Tags {
    tags: Vec<String>,
}

#[derive(ToolArgs)]
struct Scores {
    scores: HashMap<String, u32>,
}

#[derive(ToolArgs)]
struct Shipping {
    address: Option<Address>,
}

/// Three forms MCP cannot show: a list of strings, a map, an optional struct. Each is one
/// error at its `elicit` call, from `cargo check`.
#[tool]
async fn ask(ctx: &ToolContext) -> Result<String, String> {
    let _ = ctx.elicit::<Tags>("Tags?").await?;
    let _ = ctx.elicit::<Scores>("Scores?").await?;
    let _ = ctx.elicit::<Shipping>("Where to?").await?;
    Ok("done".to_owned())
}

fn main() {}
