type Percent = u8;

#[derive(tool_core::ToolArgs)]
struct Args {
    #[param(maximum = 300)]
    percent: u8,
    #[param(minimum = -1)]
    count: Option<u32>,
    // Through an alias the range is the schema's, checked in const evaluation.
    #[param(maximum = 256)]
    share: Percent,
}

fn main() {}
