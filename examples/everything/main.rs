//! The reference MCP server `everything` (npm `@modelcontextprotocol/server-everything`), which
//! exercises every MCP feature, written with this crate's API alone: its tools (some offered
//! only to clients that can sample, elicit or list roots), resources and templates with
//! completion, documents found at start-up, resources a tool makes for the session,
//! subscriptions, prompts with completion, logging, progress, roots, sampling, elicitation in
//! form and URL modes, and a task.
//!
//! `cargo run -p tool-examples --bin everything` serves stdio; `-- --http 127.0.0.1:3001`
//! serves streamable HTTP from the same code. `EVERYTHING_DOCS` names the directory of
//! documents to serve (this example's `docs/` by default). `bash tests/everything/run.sh`
//! drives it and the reference with the official Python client and diffs their answers.

#![allow(clippy::doc_markdown, reason = "tool and argument descriptions are the reference's wire text")]

mod client_tools;
mod prompts;
mod resources;
mod sessions;
mod tools;

use std::path::PathBuf;
use std::sync::Arc;

use tool_core::ToolError;
use tool_core::context::LogLevel;
use tool_core::mcp::{McpServer, Subscription, serve};

use crate::tools::Everything;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let docs = std::env::var_os("EVERYTHING_DOCS")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("everything/docs"), PathBuf::from);
    let instructions = std::fs::read_to_string(docs.join("instructions.md"))
        .unwrap_or_else(|error| format!("Server instructions not loaded: {error}"));
    let everything = Arc::new(Everything::default());
    let registry = tools::registry(Arc::clone(&everything)).expect("tool names are unique");
    let server = McpServer::new(registry)
        .with_server_info("mcp-servers/everything", "2.0.0")
        .with_title("Everything Reference Server")
        .with_instructions(instructions)
        .with_prompts(prompts::prompts())
        .with_resources(resources::resources(&docs))
        .with_tool_filter(client_tools::offered)
        .on_subscription(|caller, change| {
            let from = sessions::session_suffix(caller);
            let said = match change {
                Subscription::Subscribed(uri) => format!("Received Subscribe Resource request for URI: {uri} {from}"),
                Subscription::Unsubscribed(uri) => format!("Received Unsubscribe Resource request: {uri} {from}"),
                _ => return,
            };
            caller.log(LogLevel::Info, said);
        })
        .unknown_tools_as_results()
        .with_error_text(|error| match error {
            // A tool's own failure is its text, as the reference throws it.
            ToolError::Failed { message, .. } => message.clone(),
            other => other.to_string(),
        });
    everything.serve(server.resources_handle());
    serve(server).await
}
