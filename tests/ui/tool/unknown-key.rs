/// Misspells `description`.
#[tool_core::tool(descripton = "x")]
fn misspelled() -> String {
    String::new()
}

fn main() {}
