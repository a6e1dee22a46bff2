//! A variant's field is decoded as serde decodes it: `#[param(default)]` alone fills nothing.
#[derive(tool_core::ToolArgs)]
enum Command {
    Forecast {
        #[param(default = 3)]
        days: u8,
    },
}

fn main() {}
