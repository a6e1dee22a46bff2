/// Adds.
///
/// # Arguments
///
/// * `a` - the first
/// * `c` - a typo for `b`
#[tool_core::tool]
fn add(a: i32, b: i32) -> String {
    (a + b).to_string()
}

fn main() {}
