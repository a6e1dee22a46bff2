/// Returns a number.
#[tool_core::tool]
fn count() -> u32 {
    1
}

fn main() {}
