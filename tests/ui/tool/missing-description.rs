#[tool_core::tool]
fn undocumented() -> String {
    String::new()
}

fn main() {}
