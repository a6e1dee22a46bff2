//! [`Introspection`]: opaque access tokens, asked about at the authorization server's RFC
//! 7662 endpoint on every request (the answer is the server's to cache, through its own
//! `Cache-Control`-honouring proxy if it wants one: a revoked token must stop working).

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use crate::auth::Claims;
use crate::oauth::verify::{TokenError, TokenVerifier, VerifyFuture, fetch};

/// The largest introspection answer read, in bytes.
const MAX_ANSWER_BYTES: usize = 64 << 10;

/// Verifies opaque tokens by RFC 7662 introspection: `POST token=..` to `endpoint`,
/// authenticated as this resource server's client (HTTP Basic); the token is accepted when
/// the answer says `"active": true`, names this server in `aud` when it names any audience,
/// and has not expired.
#[derive(Clone)]
pub struct Introspection {
    endpoint: String,
    client_id: String,
    client_secret: String,
    audience: String,
    client: reqwest::Client,
}

impl core::fmt::Debug for Introspection {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Introspection")
            .field("endpoint", &self.endpoint)
            .field("client_id", &self.client_id)
            .field("audience", &self.audience)
            .finish_non_exhaustive()
    }
}

impl Introspection {
    /// Asks `endpoint` as the client `client_id`/`client_secret`; tokens must be for
    /// `audience`, this server's canonical URI.
    #[must_use]
    pub fn new(
        endpoint: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
        audience: impl Into<String>,
    ) -> Self {
        Introspection {
            endpoint: endpoint.into(),
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            audience: audience.into(),
            client: reqwest::Client::new(),
        }
    }

    /// Asks with `client` (its proxy, timeouts, root certificates).
    #[must_use]
    pub fn with_client(mut self, client: reqwest::Client) -> Self {
        self.client = client;
        self
    }

    async fn check(&self, token: &str) -> Result<Claims, TokenError> {
        let what = format!("introspection at {}", self.endpoint);
        let request = self
            .client
            .post(&self.endpoint)
            .basic_auth(&self.client_id, Some(&self.client_secret))
            .form(&[("token", token), ("token_type_hint", "access_token")]);
        let body = fetch(request, MAX_ANSWER_BYTES, &what).await?;
        let answer: Map<String, Value> = serde_json::from_slice(&body)
            .map_err(|error| TokenError::Unavailable(format!("{what}: not a JSON object: {error}")))?;
        if answer.get("active") != Some(&Value::Bool(true)) {
            return Err(TokenError::Inactive);
        }
        let claims = Claims::from_json(answer);
        if !claims.audience.is_empty() && !claims.audience.contains(&self.audience) {
            return Err(TokenError::WrongAudience);
        }
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_secs());
        if claims.expires_at.is_some_and(|exp| exp <= now) {
            return Err(TokenError::Expired);
        }
        Ok(claims)
    }
}

impl TokenVerifier for Introspection {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(self.check(token))
    }
}
