//! The ready tools and a retriever beside a program's own, called as a model would call them
//! (no model needed): `cargo run -p tool-examples --bin ready_tools`.
//!
//! `calculate`, `current_time`, `fetch` (allowed to read docs.rs alone), a `search_docs`
//! retriever over a BM25 index of a few documents, and `save_memory`/`recall_memories` kept
//! in files under the system's temporary directory, for one user.
#![allow(clippy::print_stdout)] // an example prints what it shows

use std::sync::Arc;

use serde_json::json;
use tool_core::Registry;
use tool_core::retrieve::memory::{self, FileMemory};
use tool_core::retrieve::{self, Bm25Index};
use tool_core::toolbox::{self, Fetch};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let index = Bm25Index::new();
    index.add("policies/returns", "Items can be returned within 30 days with the receipt.")?;
    index.add("policies/shipping", "Shipping to Norway takes five working days.")?;
    let store = FileMemory::open(std::env::temp_dir().join("tool-core-ready-tools"))?;
    // One user here; a server scopes by the caller's verified identity (`memory::per_user`).
    let scope: Arc<memory::Scope> = Arc::new(|_: &tool_core::ToolContext| Ok("demo-user".to_owned()));

    let mut registry = Registry::new();
    registry
        .add_dynamic(toolbox::calculate()?)?
        .add_dynamic(toolbox::current_time()?)?
        .add_dynamic(Fetch::new(["docs.rs"]).tool()?)?
        .add_dynamic(retrieve::tool("search_docs", "Searches the shop's policies", index)?)?
        .merge_prefixed("", &memory::tools(store, scope)?)?;
    println!("tools: {}", registry.names().join(", "));

    let context = registry.context();
    for (tool, arguments) in [
        ("calculate", json!({"expression": "19.99 * 3 - 5"})),
        ("current_time", json!({"time_zone": "Asia/Tokyo"})),
        ("search_docs", json!({"query": "how long is shipping", "limit": 1})),
        ("save_memory", json!({"text": "The user ships to Norway."})),
        ("recall_memories", json!({"query": "where does the user ship"})),
        // Refused before anything runs: the model reads which fields were wrong.
        ("search_docs", json!({"query": "", "limit": 500})),
        // Refused by the tool: not an allowed host.
        ("fetch", json!({"url": "http://169.254.169.254/latest/meta-data"})),
    ] {
        match registry.call_async(&context, tool, arguments).await {
            Ok(output) => println!("{tool}: {}", output.to_text()),
            Err(error) => println!("{tool} refused: {error}"),
        }
    }
    Ok(())
}
