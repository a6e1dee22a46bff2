//! OAuth 2 client credentials (RFC 6749 §4.4) for a remote agent whose card names that flow:
//! an access token asked of the card's token endpoint when first needed, kept until shortly
//! before it expires, and sent as a bearer token to the agent's own origin only.
//!
//! One form POST, kept in the crate's token cache (`token_cache.rs`): the `oauth2` crate
//! would bring its own HTTP client plumbing for it, where this client already has reqwest.

use core::time::Duration;

use serde::Deserialize;

use super::A2aError;
use super::http::{http_error, preview, read};
use crate::token_cache::TokenCache;

/// The client's credentials, and the token they last brought.
pub(crate) struct ClientCredentials {
    token_url: String,
    client_id: String,
    client_secret: String,
    scopes: Vec<String>,
    cached: TokenCache,
}

impl core::fmt::Debug for ClientCredentials {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // The secret and the token stay out of logs.
        f.debug_struct("ClientCredentials")
            .field("token_url", &self.token_url)
            .field("client_id", &self.client_id)
            .finish_non_exhaustive()
    }
}

#[derive(Deserialize)]
struct TokenResponse {
    access_token: String,
    expires_in: Option<u64>,
}

impl ClientCredentials {
    /// Credentials for the token endpoint `token_url`, which must be HTTPS (or plain HTTP on
    /// a loopback address, for local development): the secret is sent there.
    pub(crate) fn new(
        token_url: &str,
        client_id: &str,
        client_secret: &str,
        scopes: Vec<String>,
    ) -> Result<Self, A2aError> {
        let url = reqwest::Url::parse(token_url).map_err(|error| A2aError::Malformed {
            message: format!("the token endpoint {token_url} is not a URL ({error})"),
        })?;
        let loopback = matches!(url.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"));
        if url.scheme() != "https" && !(url.scheme() == "http" && loopback) {
            return Err(A2aError::Malformed {
                message: format!("the token endpoint {token_url} is not HTTPS: no client secret is sent there"),
            });
        }
        Ok(ClientCredentials {
            token_url: token_url.to_owned(),
            client_id: client_id.to_owned(),
            client_secret: client_secret.to_owned(),
            scopes,
            cached: TokenCache::default(),
        })
    }

    /// A token that has not expired: the one held, or a new one.
    pub(crate) async fn token(&self, http: &reqwest::Client) -> Result<String, A2aError> {
        self.cached.token(false, || self.grant(http)).await
    }

    /// A new token from the token endpoint, and its lifetime.
    async fn grant(&self, http: &reqwest::Client) -> Result<(String, Option<Duration>), A2aError> {
        let url = &self.token_url;
        let mut form = vec![("grant_type", "client_credentials".to_owned())];
        if !self.scopes.is_empty() {
            form.push(("scope", self.scopes.join(" ")));
        }
        let response = http
            .post(url)
            .basic_auth(&self.client_id, Some(&self.client_secret))
            .form(&form)
            .send()
            .await
            .map_err(|error| http_error(url, &error))?;
        let status = response.status();
        let body = read(response, url).await?;
        if !status.is_success() {
            return Err(A2aError::Http {
                url: url.clone(),
                message: format!("the token endpoint answered {status}: {}", preview(&body)),
            });
        }
        let granted: TokenResponse = serde_json::from_slice(&body).map_err(|error| A2aError::Malformed {
            message: format!("the token endpoint's answer is not a token ({error}): {}", preview(&body)),
        })?;
        Ok((granted.access_token, granted.expires_in.map(Duration::from_secs)))
    }
}
