use tool_core::mcp::{prompt, resource};

/// A variable no parameter takes, and a parameter no variable fills
#[resource(uri = "users://{user}/notes")]
fn notes(owner: String) -> String {
    owner
}

/// A fixed URI cannot take parameters
#[resource(uri = "memory://graph")]
fn graph(name: String) -> String {
    name
}

/// An expression this crate cannot match
#[resource(uri = "search://{?query}")]
fn search(query: String) -> String {
    query
}

/// A resource without its URI
#[resource]
fn nowhere() -> String {
    String::new()
}

/// A prompt has no URI
#[prompt(uri = "prompt://x")]
fn misplaced() -> String {
    String::new()
}

fn main() {}
