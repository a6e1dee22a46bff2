/// Generic.
#[tool_core::tool]
fn generic<T: tool_core::ToolArgs>(args: T) -> String {
    let _ = args;
    String::new()
}

fn main() {}
