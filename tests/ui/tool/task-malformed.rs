/// `task` takes "optional" or "required": another word, a bare key and an unquoted word are
/// each one error at the value, naming both.
#[tool_core::tool(description = "Runs a report", task = "sometimes")]
fn report() -> String {
    String::new()
}

#[tool_core::tool(description = "Runs a backup", task)]
fn backup() -> String {
    String::new()
}

#[tool_core::tool(description = "Runs an export", task = optional)]
fn export() -> String {
    String::new()
}

fn main() {}
