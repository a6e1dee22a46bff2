#[derive(tool_core::ToolArgs)]
enum Units {
    Celsius,
    #[serde(other)]
    Unknown,
}

/// Uses the enum whose derive failed: no second error here.
#[derive(tool_core::ToolArgs)]
struct Args {
    units: Units,
}

fn main() {
    let _: Result<Args, _> = serde_json::from_str("{}");
}
