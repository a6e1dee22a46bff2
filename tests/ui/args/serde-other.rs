#[derive(tool_core::ToolArgs)]
#[serde(rename_all = "snake_case")]
enum Units {
    Celsius,
    Fahrenheit,
    #[serde(other)]
    Unknown,
}

fn main() {}
