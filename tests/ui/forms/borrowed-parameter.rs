/// Borrows its text.
#[tool_core::tool]
fn echo(text: &str, times: u8) -> String {
    text.repeat(usize::from(times))
}

fn main() {}
