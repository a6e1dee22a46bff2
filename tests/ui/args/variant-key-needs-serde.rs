/// serde keys on an enum's variants that only serde's derive follows: each is named, with
/// the opt-out.
#[derive(tool_core::ToolArgs)]
#[serde(tag = "kind")]
enum Shape {
    #[serde(bound = "")]
    Circle { radius: f64 },
    Square {
        #[serde(borrow)]
        side: String,
    },
}

/// The opt-out: serde's derive decodes it.
#[derive(serde::Deserialize, tool_core::ToolArgs)]
#[tool_args(serde)]
#[serde(tag = "kind")]
enum Kept {
    #[serde(bound = "")]
    Circle { radius: f64 },
}

fn main() {
    let _ = tool_core::render::json_schema::<Shape>();
    let _ = tool_core::render::json_schema::<Kept>();
}
