#![deny(warnings, clippy::pedantic)]
//! Every form of tool under the strictest lints a user may set.

use std::sync::Arc;

use tool_core::{Registry, ToolContext, tool, tools};

/// Adds.
///
/// # Arguments
/// * `a` - the first
/// * `b` - the second
#[tool]
fn add(a: i32, #[param(minimum = 0)] b: i32, #[serde(default)] note: Option<String>) -> String {
    format!("{}{}", a + b, note.unwrap_or_default())
}

/// Waits.
#[tool]
async fn wait(ctx: &ToolContext, #[serde(rename = "ms")] millis: u64) -> String {
    let _ = ctx;
    millis.to_string()
}

/// A server.
pub struct Server {
    base: i64,
}

#[tools]
impl Server {
    /// Offsets.
    #[tool]
    fn offset(&self, n: i64) -> String {
        (self.base + n).to_string()
    }

    /// Reads.
    #[tool]
    async fn read(&self, ctx: &ToolContext) -> String {
        let _ = ctx;
        self.base.to_string()
    }
}

fn main() {
    let mut registry = Registry::new();
    registry.add(AddTool).unwrap().add(WaitTool).unwrap();
    registry.add_all(Arc::new(Server { base: 1 })).unwrap();
    assert_eq!(registry.len(), 4);
}
