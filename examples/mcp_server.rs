//! The travel tools as an MCP server, over stdio (what Claude Desktop, Claude Code, VS Code
//! and Cursor start as a child process) or streamable HTTP:
//!
//! ```sh
//! cargo run -p tool-examples --bin mcp_server                          # stdio
//! cargo run -p tool-examples --bin mcp_server -- --http 127.0.0.1:8080  # http://127.0.0.1:8080/mcp
//! ```
#![allow(clippy::print_stderr)] // stdout carries the protocol; the example reports on stderr

use tool_core::mcp::{McpServer, serve_http, serve_stdio};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let server = McpServer::new(tool_examples::registry(120.0))
        .with_server_info("travel", env!("CARGO_PKG_VERSION"))
        .with_instructions("Plan trips: forecast the weather, estimate costs, then book.");
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next()) {
        (None, _) => serve_stdio(server).await,
        (Some("--http"), Some(addr)) => {
            eprintln!("MCP server on http://{addr}/mcp (Ctrl-C stops it)");
            serve_http(server, addr).await
        }
        _ => {
            eprintln!("usage: mcp_server [--http ADDRESS]");
            std::process::exit(2);
        }
    }
}
