struct Handle;

/// Takes a type with no schema.
#[tool_core::tool]
fn open(path: String, handle: Handle) -> String {
    let _ = handle;
    path
}

fn main() {}
