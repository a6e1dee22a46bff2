/// Lists names.
#[tool_core::tool]
fn names() -> tool_core::Structured<Vec<String>> {
    tool_core::Structured(vec!["a".to_owned()])
}

fn main() {}
