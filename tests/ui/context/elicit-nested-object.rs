use tool_core::{ToolArgs, ToolContext, tool};

#[derive(ToolArgs)]
struct Address {
    city: String,
}

#[derive(ToolArgs)]
struct Signup {
    name: String,
    address: Address,
}

/// Asks the user for a nested object, which MCP elicitation cannot carry.
#[tool]
async fn signup(ctx: &ToolContext) -> Result<String, String> {
    let _ = ctx.elicit::<Signup>("Your details?").await?;
    Ok("done".to_owned())
}

fn main() {}
