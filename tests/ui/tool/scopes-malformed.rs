/// `scopes` takes a list of OAuth scope tokens: a bare string, a space inside a scope (a
/// token's `scope` claim separates scopes by spaces), a non-string and an empty list are each
/// one error at the value.
#[tool_core::tool(description = "Books a trip", scopes = "trips:write")]
fn book() -> String {
    String::new()
}

#[tool_core::tool(description = "Cancels a trip", scopes = ["trips write", 7])]
fn cancel() -> String {
    String::new()
}

#[tool_core::tool(description = "Lists trips", scopes = [])]
fn list() -> String {
    String::new()
}

fn main() {}
