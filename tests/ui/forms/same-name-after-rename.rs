/// Two parameters, one name.
#[tool_core::tool]
fn pair(#[serde(rename = "b")] a: u8, b: u8) -> String {
    format!("{a}{b}")
}

fn main() {}
