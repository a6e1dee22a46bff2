//! [`TokenVerifier`]: what turns a bearer token into [`Claims`], or says why not
//! ([`TokenError`]). [`JwtVerifier`](crate::oauth::JwtVerifier) and
//! [`Introspection`](crate::oauth::Introspection) are two; an application with its own token
//! format implements the trait.

use core::fmt;
use core::future::Future;
use core::pin::Pin;

use crate::auth::Claims;

/// The future a [`TokenVerifier`] answers with.
pub type VerifyFuture<'a> = Pin<Box<dyn Future<Output = Result<Claims, TokenError>> + Send + 'a>>;

/// Checks an access token and reads its claims. It must refuse a token that was not issued
/// for this server (its audience), has expired, or whose signature or issuer it cannot
/// vouch for.
pub trait TokenVerifier: Send + Sync + 'static {
    /// The claims of `token`, or why it is refused.
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a>;
}

/// Why a token was refused. All but [`TokenError::Unavailable`] are the client's to fix
/// (`401 invalid_token`); that one is the server's (`503`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TokenError {
    /// Not a token of the expected form (not a JWT, or a claim of the wrong type).
    Malformed(String),
    /// Signed with an algorithm this server does not accept (`none`, or an HMAC secret).
    Algorithm(String),
    /// No key of the issuer's key set has this key id, even after fetching it again.
    UnknownKey(Option<String>),
    /// The signature does not match the issuer's key.
    BadSignature,
    /// `exp` is past (beyond the leeway).
    Expired,
    /// `nbf` is still ahead (beyond the leeway).
    NotYetValid,
    /// `iss` is not the expected issuer.
    WrongIssuer,
    /// `aud` does not name this server (RFC 8707): the token was issued for another.
    WrongAudience,
    /// A claim the server requires (`exp`, `iss`, `aud`) is missing.
    MissingClaim(String),
    /// The authorization server says the token is not active (revoked, expired, unknown).
    Inactive,
    /// The key set or the introspection endpoint could not be reached or read.
    Unavailable(String),
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenError::Malformed(why) => write!(f, "the token is malformed: {why}"),
            TokenError::Algorithm(alg) => {
                write!(f, "the token is signed with {alg}, which this server does not accept")
            }
            TokenError::UnknownKey(Some(kid)) => write!(f, "the issuer has no key with id `{kid}`"),
            TokenError::UnknownKey(None) => f.write_str("the token names no key id and the issuer has several keys"),
            TokenError::BadSignature => f.write_str("the token's signature is invalid"),
            TokenError::Expired => f.write_str("the token has expired"),
            TokenError::NotYetValid => f.write_str("the token is not valid yet"),
            TokenError::WrongIssuer => f.write_str("the token was issued by another authorization server"),
            TokenError::WrongAudience => f.write_str("the token was issued for another resource"),
            TokenError::MissingClaim(claim) => write!(f, "the token lacks the `{claim}` claim"),
            TokenError::Inactive => f.write_str("the token is not active"),
            TokenError::Unavailable(why) => write!(f, "the token could not be checked: {why}"),
        }
    }
}

impl std::error::Error for TokenError {}

/// Sends `request` (bounded by 10 s) and reads a successful answer's body of at most `limit`
/// bytes; anything else is [`TokenError::Unavailable`], naming `what` was asked.
pub(super) async fn fetch(request: reqwest::RequestBuilder, limit: usize, what: &str) -> Result<Vec<u8>, TokenError> {
    let unavailable = |why: String| TokenError::Unavailable(format!("{what}: {why}"));
    let response = request
        .timeout(core::time::Duration::from_secs(10))
        .send()
        .await
        .map_err(|error| unavailable(error.to_string()))?;
    if !response.status().is_success() {
        return Err(unavailable(format!("answered {}", response.status())));
    }
    let body = response.bytes().await.map_err(|error| unavailable(error.to_string()))?;
    if body.len() > limit {
        return Err(unavailable(format!("{} bytes, more than the {limit} read", body.len())));
    }
    Ok(body.to_vec())
}
