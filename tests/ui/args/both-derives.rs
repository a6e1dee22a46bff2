/// `ToolArgs` writes the struct's `Deserialize`: serde's derive beside it is a second one.
#[derive(serde::Deserialize, tool_core::ToolArgs)]
struct Args {
    city: String,
}

fn main() {
    let _ = tool_core::render::json_schema::<Args>();
}
