/// Adds, but its body does not parse: rustc's own error, at the fault, is the one reported
/// (the body is handed over as written, not read by the macro).
#[tool_core::tool]
fn add(a: i32, b: i32) -> String {
    let sum = a + ;
    (sum + b).to_string()
}

fn main() {}
