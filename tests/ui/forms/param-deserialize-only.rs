/// A type serde can decode, with no schema: the usual mistake (a missing `ToolArgs` derive).
#[derive(serde::Deserialize)]
struct Handle {
    id: u32,
}

/// Takes a type with no schema.
#[tool_core::tool]
fn open(path: String, handle: Handle) -> String {
    let _ = handle.id;
    path
}

fn main() {}
