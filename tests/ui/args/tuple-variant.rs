#[derive(tool_core::ToolArgs)]
enum Shape {
    Point(i32, i32),
}

fn main() {}
