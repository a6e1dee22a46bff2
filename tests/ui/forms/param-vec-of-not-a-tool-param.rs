// A parameter whose element type has neither a schema nor `Deserialize`: one error, at the
// parameter's type.
struct Handle;

/// Takes handles.
#[tool_core::tool]
fn open(path: String, handles: Vec<Handle>) -> String {
    let _ = handles;
    path
}

fn main() {}
