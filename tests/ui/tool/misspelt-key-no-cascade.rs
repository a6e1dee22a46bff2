/// A misspelt key next to `description`: one error, naming the key meant; the description
/// the attribute gives is not reported missing.
#[tool_core::tool(description = "Deletes a file", require_approval)]
fn delete_file() -> String {
    String::new()
}

fn main() {}
