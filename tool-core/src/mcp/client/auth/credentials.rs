//! [`ClientCredentials`] (feature `mcp-client-oauth`): the MCP authorization spec's machine
//! client. The server's protected-resource metadata (RFC 9728) names its authorization
//! server, whose metadata (RFC 8414) names the token endpoint; a client-credentials grant
//! there, with the server's URL as the RFC 8707 `resource`, gives a token for that server
//! alone. Discovery and the grant are rmcp's (`AuthorizationManager`); the token is kept in
//! the crate's token cache (`token_cache.rs`) until shortly before it expires, and asked
//! again when the server refuses it.

use core::fmt;
use core::time::Duration;

use rmcp::transport::auth::{AuthorizationManager, ClientCredentialsConfig};
use serde_json::Value;
use tokio::sync::Mutex;

use crate::mcp::client::auth::token::{TokenError, TokenFuture, TokenSource};
use crate::token_cache::TokenCache;

/// Tokens from the remote server's authorization server, by OAuth 2 client credentials.
///
/// The authorization server's token endpoint must be HTTPS, or loopback beside a loopback
/// server (rmcp's rule): the client secret goes there.
pub struct ClientCredentials {
    client_id: String,
    client_secret: String,
    scopes: Vec<String>,
    /// The authorization server, discovered once per resource, then kept.
    manager: Mutex<Option<(String, AuthorizationManager)>>,
    token: TokenCache,
}

impl ClientCredentials {
    /// Authenticates as `client_id` with `client_secret`.
    #[must_use]
    pub fn new(client_id: impl Into<String>, client_secret: impl Into<String>) -> Self {
        ClientCredentials {
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            scopes: Vec::new(),
            manager: Mutex::new(None),
            token: TokenCache::default(),
        }
    }

    /// Asks for `scopes` (none by default: the authorization server's default).
    #[must_use]
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    async fn fetch(&self, resource: &str, renew: bool) -> Result<String, TokenError> {
        self.token.token(renew, || self.grant(resource)).await
    }

    /// A new token for `resource` from its authorization server, and its lifetime.
    async fn grant(&self, resource: &str) -> Result<(String, Option<Duration>), TokenError> {
        let config = ClientCredentialsConfig::ClientSecret {
            client_id: self.client_id.clone(),
            client_secret: self.client_secret.clone(),
            scopes: self.scopes.clone(),
            resource: Some(resource.to_owned()),
        };
        let mut manager = self.manager.lock().await;
        if manager.as_ref().is_none_or(|(known, _)| known != resource) {
            *manager = Some((resource.to_owned(), discover(resource, &config).await?));
        }
        let found = manager.as_ref().map(|(_, manager)| manager);
        let found = found.ok_or_else(|| TokenError::new("the authorization server was not found"))?;
        let response = found.exchange_client_credentials(&config).await.map_err(failed)?;
        // The response is oauth2's; its JSON is the RFC 6749 one.
        let response = serde_json::to_value(&response).map_err(|error| TokenError::new(error.to_string()))?;
        let token = response.get("access_token").and_then(Value::as_str).map(str::to_owned);
        let token = token.ok_or_else(|| TokenError::new("the token response has no access_token"))?;
        Ok((token, response.get("expires_in").and_then(Value::as_u64).map(Duration::from_secs)))
    }
}

/// The authorization server of `resource`, found through the metadata, with the client set.
async fn discover(resource: &str, config: &ClientCredentialsConfig) -> Result<AuthorizationManager, TokenError> {
    let mut manager = AuthorizationManager::new(resource).await.map_err(failed)?;
    let found = manager.resolve_metadata().await.map_err(failed)?;
    manager.set_metadata(found.metadata);
    manager.configure_client_credentials(config).map_err(failed)?;
    Ok(manager)
}

fn failed(error: impl fmt::Display) -> TokenError {
    TokenError::new(error.to_string())
}

impl fmt::Debug for ClientCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientCredentials")
            .field("client_id", &self.client_id)
            .field("scopes", &self.scopes)
            .finish_non_exhaustive()
    }
}

impl TokenSource for ClientCredentials {
    fn token<'a>(&'a self, resource: &'a str, renew: bool) -> TokenFuture<'a> {
        Box::pin(self.fetch(resource, renew))
    }
}
