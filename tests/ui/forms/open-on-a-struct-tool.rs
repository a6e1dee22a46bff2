#[derive(tool_core::ToolArgs)]
struct Args {
    name: String,
}

/// Open on the wrong form.
#[tool_core::tool(open)]
fn greet(args: Args) -> String {
    args.name
}

fn main() {}
