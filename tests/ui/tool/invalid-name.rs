/// Has a space in its name.
#[tool_core::tool(name = "get weather")]
fn get_weather() -> String {
    String::new()
}

fn main() {}
