#[derive(tool_core::ToolArgs)]
struct Args<'a> {
    city: &'a str,
}

/// Uses borrowed arguments.
#[tool_core::tool]
fn weather(args: Args<'_>) -> String {
    args.city.to_owned()
}

fn main() {}
