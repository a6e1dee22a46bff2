struct Opaque;

#[derive(tool_core::ToolArgs)]
struct Args {
    #[serde(skip)]
    ok: Option<Opaque>,
    opaque: std::time::Instant,
}

fn main() {}
