// Every independent mistake in one struct is reported in one compilation.
#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(minimum = 10, maximum = 1)]
    a: i32,
    #[param(min_length = 5, max_length = 2)]
    b: String,
    #[param(pattern = "(")]
    c: String,
    #[param(mnimum = 1)]
    d: i32,
    #[param(enum = ["x", 1])]
    e: String,
    #[param(multiple_of = 0)]
    f: f64,
}

fn main() {}
