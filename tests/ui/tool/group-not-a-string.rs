/// `group` takes a string: one error at the value, and no missing description reported.
#[tool_core::tool(description = "Lists users", group = admin)]
fn list_users() -> String {
    String::new()
}

fn main() {}
