//! [`TokenSource`]: where a remote MCP server's bearer tokens come from, and [`Bearer`], a
//! fixed one.

use core::fmt;
use core::future::Future;
use core::pin::Pin;

/// What a [`TokenSource`] gives: a token, or why there is none.
pub type TokenFuture<'a> = Pin<Box<dyn Future<Output = Result<String, TokenError>> + Send + 'a>>;

/// Gives the bearer tokens of a remote MCP server's requests.
pub trait TokenSource: Send + Sync + 'static {
    /// A token for `resource` (the server's URL, as the MCP authorization spec names the
    /// resource); `renew` when the server refused the last one given.
    fn token<'a>(&'a self, resource: &'a str, renew: bool) -> TokenFuture<'a>;
}

/// A fixed bearer token.
#[derive(Clone)]
pub struct Bearer(String);

impl Bearer {
    /// Sends `token` with every request.
    #[must_use]
    pub fn new(token: impl Into<String>) -> Self {
        Bearer(token.into())
    }
}

impl fmt::Debug for Bearer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A token is a credential: never in a log.
        f.write_str("Bearer(..)")
    }
}

impl TokenSource for Bearer {
    fn token<'a>(&'a self, _: &'a str, _: bool) -> TokenFuture<'a> {
        Box::pin(core::future::ready(Ok(self.0.clone())))
    }
}

/// Why no token could be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenError {
    message: String,
}

impl TokenError {
    /// An error saying `message`.
    #[must_use]
    pub fn new(message: impl Into<String>) -> Self {
        TokenError { message: message.into() }
    }
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no token for the MCP server: {}", self.message)
    }
}

impl std::error::Error for TokenError {}
