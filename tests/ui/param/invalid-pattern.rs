#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(pattern = "^[a-z+$")]
    slug: String,
}

fn main() {}
