//! Under `#[tool_args(serde)]` serde's derive decodes the struct, and it fills nothing from
//! `#[param(default)]`.
#[derive(serde::Deserialize, tool_core::ToolArgs)]
#[tool_args(serde)]
struct Args {
    #[param(default = 10)]
    limit: u32,
}

fn main() {}
