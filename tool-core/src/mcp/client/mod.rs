//! Another MCP server's tools in a local registry (feature `mcp-client`): the connection
//! and its tools ([`RemoteServer`](crate::mcp::RemoteServer), `remote.rs`), the remote
//! server's progress delivered to the call it is about (`progress.rs`), and the bearer tokens
//! a server that requires them is sent (`auth/`, public as
//! [`mcp::remote_auth`](crate::mcp::remote_auth)).

pub mod auth;
pub(in crate::mcp) mod progress;
pub(in crate::mcp) mod remote;
