//! Who may call the server: anyone, the holders of a token a check accepts, or (feature
//! `oauth`) the bearers of an OAuth access token the MCP server's verifier accepts, each of
//! whom owns the tasks they start.

use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// Checks a bearer token.
pub(super) type TokenCheck = std::sync::Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// How requests are authenticated.
#[derive(Clone, Default)]
pub(super) enum Auth {
    #[default]
    Open,
    Bearer(TokenCheck),
    /// An OAuth access token (feature `oauth`).
    #[cfg(feature = "oauth")]
    Token(crate::oauth::ResourceServer),
}

/// The token of an `Authorization: Bearer` header.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

impl Auth {
    /// The caller's identity as the owner of its tasks (`None` when requests carry none), or
    /// the refusal to send.
    #[cfg_attr(not(feature = "oauth"), expect(clippy::unused_async, reason = "only a verifier awaits"))]
    pub(super) async fn caller(&self, headers: &HeaderMap) -> Result<Option<String>, Response> {
        match self {
            Auth::Open => Ok(None),
            Auth::Bearer(check) => match bearer(headers) {
                Some(token) if check(token) => Ok(None),
                _ => Err((
                    StatusCode::UNAUTHORIZED,
                    [(header::WWW_AUTHENTICATE, "Bearer")],
                    "a valid bearer token is required",
                )
                    .into_response()),
            },
            #[cfg(feature = "oauth")]
            Auth::Token(oauth) => {
                use crate::oauth::TokenError;
                use crate::oauth::challenge::challenge;
                let Some(token) = bearer(headers) else {
                    return Err(challenge(oauth, StatusCode::UNAUTHORIZED, &[], "a bearer token is required"));
                };
                match oauth.verifier().verify(token).await {
                    // The issuer and subject (or client) own what the token starts.
                    Ok(claims) => Ok(Some(format!(
                        "{} {}",
                        claims.issuer.unwrap_or_default(),
                        claims.subject.or(claims.client_id).unwrap_or_default()
                    ))),
                    Err(error @ TokenError::Unavailable(_)) => {
                        Err((StatusCode::SERVICE_UNAVAILABLE, error.to_string()).into_response())
                    }
                    Err(error) => {
                        let text = error.to_string();
                        let params = [("error", "invalid_token"), ("error_description", text.as_str())];
                        Err(challenge(oauth, StatusCode::UNAUTHORIZED, &params, &text))
                    }
                }
            }
        }
    }

    /// The card's `securitySchemes` and `securityRequirements`, when requests need a token.
    pub(super) fn card_members(&self) -> Option<(Value, Value)> {
        let scheme = match self {
            Auth::Open => return None,
            Auth::Bearer(_) => json!({"httpAuthSecurityScheme": {"scheme": "Bearer"}}),
            #[cfg(feature = "oauth")]
            Auth::Token(oauth) => json!({"httpAuthSecurityScheme": {
                "scheme": "Bearer",
                "bearerFormat": "OAuth 2.1 access token",
                "description": format!(
                    "An access token issued for {}; where to get one: {} (RFC 9728)",
                    oauth.resource(),
                    oauth.metadata_url()
                ),
            }}),
        };
        Some((json!({"bearer": scheme}), json!([{"schemes": {"bearer": {"list": []}}}])))
    }
}
