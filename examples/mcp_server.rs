//! The travel tools as an MCP server, over stdio (what Claude Desktop, Claude Code, VS Code
//! and Cursor start as a child process) or streamable HTTP:
//!
//! ```sh
//! cargo run -p tool-examples --bin mcp_server                          # stdio
//! cargo run -p tool-examples --bin mcp_server -- --http 127.0.0.1:8080  # http://127.0.0.1:8080/mcp
//! ```
//!
//! SIGTERM and Ctrl-C stop it gracefully (`tool_core::mcp::serve` reads the command line).

use tool_core::mcp::McpServer;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let server = McpServer::new(tool_examples::registry(120.0))
        .with_server_info("travel", env!("CARGO_PKG_VERSION"))
        .with_instructions("Plan trips: forecast the weather, estimate costs, then book.");
    tool_core::mcp::serve(server).await
}
