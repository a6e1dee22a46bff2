#[derive(tool_core::ToolArgs)]
enum Op {
    Add { a: i64, b: i64 },
    Negate { a: i64 },
}

/// Computes.
#[tool_core::tool]
fn compute(op: Op) -> String {
    match op {
        Op::Add { a, b } => (a + b).to_string(),
        Op::Negate { a } => (-a).to_string(),
    }
}

fn main() {}
