//! Tokens for a remote MCP server that requires them (feature `mcp-client`): a
//! [`TokenSource`] gives the bearer token for the server's URL, and every request of the
//! connection carries the one it gives at that moment, so a token that expires or is
//! refused is replaced without reconnecting. A refused request (HTTP 401) asks the source
//! for a new token once and is sent again.
//!
//! The token goes only to the URL it was asked for: the connection talks to that one URL,
//! and a request to any other (which the transport never makes) is refused rather than sent
//! with it. [`Bearer`] is a fixed token; `ClientCredentials` (feature `mcp-client-oauth`)
//! gets them from the server's authorization server.

mod authorized;
#[cfg(feature = "mcp-client-oauth")]
mod credentials;
mod token;

pub(crate) use authorized::Authorized;
#[cfg(feature = "mcp-client-oauth")]
pub use credentials::ClientCredentials;
pub use token::{Bearer, TokenError, TokenFuture, TokenSource};
