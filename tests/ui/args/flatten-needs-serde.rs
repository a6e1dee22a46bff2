#[derive(tool_core::ToolArgs)]
struct Paging {
    page: u32,
}

/// A flattened field is decoded by serde's derive: the error names the key and the opt-out.
#[derive(tool_core::ToolArgs)]
struct Search {
    query: String,
    #[serde(flatten)]
    paging: Paging,
}

fn main() {
    let _ = tool_core::render::json_schema::<Search>();
}
