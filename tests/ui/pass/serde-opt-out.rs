//! `#[tool_args(serde)]`: serde's derive decodes the struct, here for a flattened field.
use tool_core::{Registry, ToolArgs, tool};

#[derive(ToolArgs)]
struct Paging {
    page: u32,
}

#[derive(serde::Deserialize, ToolArgs)]
#[tool_args(serde)]
struct Search {
    query: String,
    #[serde(flatten)]
    paging: Paging,
}

/// Searches.
#[tool]
fn search(args: Search) -> String {
    format!("{} {}", args.query, args.paging.page)
}

fn main() {
    let mut registry = Registry::new();
    registry.add(SearchTool).unwrap();
}
