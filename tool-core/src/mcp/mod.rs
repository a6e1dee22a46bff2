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
//! Each revision is sent only the fields it defines (a tool's `title` and `outputSchema`
//! from 2025-06-18, its `annotations` from 2025-03-26, ...): a test checks every message
//! against each revision's official schema.
//!
#![doc = include_str!("../../docs/serving.md")]
// rmcp 3.11 marks sampling and logging deprecated (SEP-2577, for 2026-07-28 onwards); the
// revisions clients speak today (2025-06-18, 2025-11-25) have both, so the items that speak
// them carry `#[expect(deprecated)]`, and nothing else does.

mod catalog;
#[cfg(feature = "mcp-client")]
mod client;
mod server;
mod transport;

pub use catalog::dynamic::DynamicResource;
pub use catalog::prompts::{PromptFn, PromptMessage, Prompts};
pub use catalog::resources::{ResourceFn, Resources};
pub use catalog::subscribe::Subscription;
pub use catalog::{PromptsHandle, ResourcesHandle};
#[cfg(feature = "mcp-client")]
pub use client::auth as remote_auth;
#[cfg(feature = "mcp-client")]
pub use client::remote::{RemoteError, RemoteServer};
pub use rmcp;
pub use server::McpServer;
pub use server::identity::{Icon, Theme};
pub use server::tools::ToolsHandle;
/// Ends the event streams of a [`router`] (tokio-util's token, which rmcp uses).
pub use tokio_util::sync::CancellationToken as ShutdownToken;
/// Turns a fn into a prompt: its parameters (plain, or one argument struct) are the prompt's
/// arguments, decoded from the strings MCP sends and validated as a tool's are; it returns
/// the messages (`String` is one user message; `Vec<PromptMessage>` any). The doc comment
/// is the description, its `# Arguments` list describes each argument. Keys: `name` (free
/// text: MCP restricts only tool names), `title`, `description`, `scopes`, `crate`. Add the
/// `…Prompt` type it writes to [`Prompts`].
#[cfg(feature = "macros")]
pub use tool_macros::prompt;
/// Turns a fn into a resource at `uri`, or a resource template when the URI has variables
/// (`{name}`, or `{+name}` for text with `/`), each a parameter of the fn, typed and
/// validated. It returns the contents: `String` (text of `mime_type`, `text/plain` by
/// default), `Content` (an image or audio is a base64 blob), `Vec<Content>` or a
/// `Result` of these. Keys: `uri`, `mime_type`, `name` (free text), `title`, `description`,
/// `scopes`, `crate`. Add the `…Resource` type it writes to [`Resources`].
#[cfg(feature = "macros")]
pub use tool_macros::resource;
#[cfg(feature = "redis")]
pub use transport::events::RedisEventStore;
pub use transport::http::{HttpOptions, router, serve_http, serve_http_on};
#[cfg(feature = "redis")]
pub use transport::sessions::RedisSessionStore;
pub use transport::start::{OAuthSettings, StartOptions, Transport, USAGE, serve};

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
    // Lines reach rmcp through a pipe that keeps what it would drop (`transport/kept.rs`).
    let (pumped, rmcp_end) = tokio::io::duplex(64 << 10);
    tokio::spawn(transport::kept::pump(read, pumped, limit));
    let transport =
        rmcp::transport::async_rw::AsyncRwTransport::new_server(rmcp_end, write).with_max_line_length(limit);
    let transport = server::tasks::era::Answers::new(transport);
    let running = server.serve(transport).await.map_err(std::io::Error::other)?;
    running.waiting().await.map_err(std::io::Error::other)?;
    Ok(())
}
