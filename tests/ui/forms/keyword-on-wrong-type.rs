/// A length keyword on a number.
#[tool_core::tool]
fn count(#[param(min_length = 1)] n: u8, label: String) -> String {
    format!("{label}{n}")
}

fn main() {}
