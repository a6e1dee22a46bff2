/// `values(..)` is for a map's values: on a sequence, one error naming `items(..)`.
#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(values(minimum = 0))]
    scores: Vec<u32>,
}

fn main() {}
