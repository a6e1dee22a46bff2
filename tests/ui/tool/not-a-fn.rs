#[tool_core::tool]
struct NotAFn;

fn main() {}
