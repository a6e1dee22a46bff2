//! How a [`McpServer`](crate::mcp::McpServer) reaches its clients: streamable HTTP on axum
//! (`http.rs`, with the OAuth guard in front of it, `guard.rs`), a server's `main` in one
//! call (`start.rs`), malformed JSON-RPC answered in its own terms (`malformed.rs`), what rmcp would drop
//! from a client's message kept (`kept.rs`), and the
//! Redis stores that let replicas share sessions and event streams (`sessions.rs`,
//! `events.rs`). stdio and any byte stream are `serve_io` in the module's face.

#[cfg(feature = "redis")]
pub(in crate::mcp) mod events;
#[cfg(feature = "oauth")]
pub(in crate::mcp) mod guard;
pub(in crate::mcp) mod http;
pub(in crate::mcp) mod kept;
pub(in crate::mcp) mod malformed;
#[cfg(feature = "redis")]
pub(in crate::mcp) mod sessions;
pub(in crate::mcp) mod start;
