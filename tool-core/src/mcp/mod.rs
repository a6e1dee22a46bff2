//! Serving a [`Registry`](crate::Registry) over MCP with the official SDK, `rmcp` (feature
//! `mcp`): [`serve_stdio`] for hosts that start the server as a child process (Claude
//! Desktop, Claude Code, VS Code, Cursor), [`serve_http`] for streamable HTTP, [`serve_io`]
//! for any byte stream. rmcp does JSON-RPC, framing, sessions and transports; this module
//! turns the registry into rmcp's [`ServerHandler`](rmcp::ServerHandler) ([`McpServer`]):
//! the listing is the MCP dialect (`provider::mcp_json`), written from the compile-time schemas
//! and converted once, and every call is validated against its full schema before the tool
//! runs.
//!
//! What each protocol revision gets:
//! - 2025-06-18 and 2025-11-25 (the `initialize` handshake): every feature; sampling and
//!   elicitation are requests to the client.
//! - 2026-07-28 (stateless, per-request `_meta`): the same tool API; sampling and
//!   elicitation become `InputRequiredResult` rounds, the tool running again with the
//!   answers; logging goes out only at the level a request asks for in its `_meta`.
//! - 2024-11-05 and 2025-03-26 are negotiated by rmcp too: tools, progress and logging
//!   (elicitation did not exist yet; a tool asking for it gets an error).
//!
#![doc = include_str!("../../docs/serving.md")]
// rmcp 3.11 marks sampling and logging deprecated (SEP-2577, for 2026-07-28 onwards); the
// revisions clients speak today (2025-06-18, 2025-11-25) have both, so this module uses them.
#![allow(deprecated)]

mod call;
mod catalog;
mod direct;
#[cfg(feature = "redis")]
mod events;
mod host;
mod http;
mod malformed;
#[cfg(feature = "oauth")]
pub mod oauth;
#[cfg(feature = "mcp-client")]
mod progress;
mod propagate;
#[cfg(feature = "mcp-client")]
mod remote;
#[cfg(feature = "mcp-client")]
pub mod remote_auth;
mod rounds;
mod server;
#[cfg(feature = "redis")]
mod sessions;
mod start;
pub mod tasks;
mod wire;

pub use catalog::ToolsHandle;
#[cfg(feature = "redis")]
pub use events::RedisEventStore;
pub use http::{HttpOptions, router, serve_http, serve_http_on};
#[cfg(feature = "mcp-client")]
pub use remote::{RemoteError, RemoteServer};
pub use rmcp;
pub use server::McpServer;
#[cfg(feature = "redis")]
pub use sessions::RedisSessionStore;
pub use start::{OAuthSettings, StartOptions, Transport, USAGE, serve};
/// Ends the event streams of a [`router`] (tokio-util's token, which rmcp uses).
pub use tokio_util::sync::CancellationToken as ShutdownToken;

/// Serves `server` on stdin and stdout until the client closes stdin; calls in flight
/// are answered first. Log to stderr: stdout carries the protocol.
///
/// # Errors
/// When the client closes the connection before `initialize`, or the transport fails.
pub async fn serve_stdio(server: impl Into<McpServer>) -> std::io::Result<()> {
    serve_io(server, tokio::io::stdin(), tokio::io::stdout()).await
}

/// Serves `server` over newline-delimited JSON-RPC on any byte stream (stdio's transport),
/// until the reader ends. A line longer than the registry's argument limit plus 64 KiB is
/// dropped unread, and the connection goes on.
///
/// # Errors
/// As [`serve_stdio`].
pub async fn serve_io<R, W>(server: impl Into<McpServer>, read: R, write: W) -> std::io::Result<()>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    use rmcp::ServiceExt as _;
    let server = server.into();
    let limit = server.registry().options().max_argument_bytes + (64 << 10);
    let transport = rmcp::transport::async_rw::AsyncRwTransport::new_server(read, write).with_max_line_length(limit);
    let running = server.serve(transport).await.map_err(std::io::Error::other)?;
    running.waiting().await.map_err(std::io::Error::other)?;
    Ok(())
}
