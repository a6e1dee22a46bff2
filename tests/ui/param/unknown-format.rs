#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(format = "emial")]
    email: String,
}

fn main() {}
