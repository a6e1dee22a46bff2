/// A container key only serde's derive follows.
#[derive(tool_core::ToolArgs)]
#[serde(bound = "T: serde::de::DeserializeOwned")]
struct Page<T> {
    items: Vec<T>,
}

fn main() {
    let _ = tool_core::render::json_schema::<Page<u8>>();
}
