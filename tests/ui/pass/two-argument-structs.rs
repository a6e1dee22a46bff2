#[derive(tool_core::ToolArgs)]
struct A {
    a: u8,
}

#[derive(tool_core::ToolArgs)]
struct B {
    b: u8,
}

/// Takes two structs.
#[tool_core::tool]
fn two(a: A, b: B) -> String {
    format!("{} {}", a.a, b.b)
}

fn main() {}
