//! The middleware in front of the MCP endpoint: reads the bearer token, verifies it,
//! answers the spec's challenges (`401`, `403 insufficient_scope`, `503`), and hands the
//! claims on in the request's extensions, where rmcp passes them to the handler.

use std::sync::Arc;

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::auth::Claims;
use crate::mcp::McpServer;
use crate::oauth::ResourceServer;
use crate::oauth::TokenError;
use crate::oauth::challenge::challenge;

/// What the guard needs per request.
pub(in crate::mcp) struct Guard {
    pub(in crate::mcp) oauth: ResourceServer,
    pub(in crate::mcp) server: McpServer,
    pub(in crate::mcp) max_body: usize,
}

/// The guard as an axum `from_fn` middleware.
pub(in crate::mcp) async fn guard(guard: Arc<Guard>, request: Request, next: Next) -> Response {
    let token = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim().to_owned());
    let Some(token) = token.filter(|token| !token.is_empty()) else {
        return challenge(&guard.oauth, StatusCode::UNAUTHORIZED, &[], "a bearer token is required");
    };
    let claims = match guard.oauth.verifier().verify(&token).await {
        Ok(claims) => Arc::new(claims),
        Err(error @ TokenError::Unavailable(_)) => {
            return (StatusCode::SERVICE_UNAVAILABLE, error.to_string()).into_response();
        }
        Err(error) => {
            let text = error.to_string();
            return challenge(
                &guard.oauth,
                StatusCode::UNAUTHORIZED,
                &[("error", "invalid_token"), ("error_description", &text)],
                &text,
            );
        }
    };
    let (mut parts, body) = request.into_parts();
    let body = if parts.method == Method::POST && guard.server.any_scoped() {
        // A `tools/call` of a tool the token lacks scopes for is refused here, as HTTP, so
        // the client can step up: the body is read to see which tool it calls.
        let Ok(bytes) = to_bytes(body, guard.max_body).await else {
            return (StatusCode::PAYLOAD_TOO_LARGE, "the request body is too large").into_response();
        };
        if let Some(refusal) = scope_refusal(&guard, &claims, &bytes) {
            return refusal;
        }
        Body::from(bytes)
    } else {
        body
    };
    parts.extensions.insert(claims);
    next.run(Request::from_parts(parts, body)).await
}

/// The `403` for a `tools/call` (alone or in a batch) whose tool needs scopes the token
/// lacks; `None` for anything else, which rmcp then reads and answers (bad JSON included).
fn scope_refusal(guard: &Guard, claims: &Claims, body: &[u8]) -> Option<Response> {
    #[derive(Deserialize)]
    struct Message<'a> {
        #[serde(borrow)]
        method: Option<&'a str>,
        params: Option<Params>,
    }
    #[derive(Deserialize)]
    struct Params {
        name: Option<String>,
    }
    // One parse: a batch is an array, a single message an object.
    let messages: Vec<Message<'_>> = match body.iter().find(|byte| !byte.is_ascii_whitespace())? {
        b'[' => serde_json::from_slice(body).ok()?,
        b'{' => vec![serde_json::from_slice(body).ok()?],
        _ => return None,
    };
    let registry = guard.server.registry();
    for message in messages {
        let (Some("tools/call"), Some(Params { name: Some(name) })) = (message.method, message.params) else {
            continue;
        };
        let Some(entry) = registry.get(&name) else { continue };
        if let Err(refused) = entry.permits(claims) {
            let scope = refused.required.join(" ");
            let text = refused.to_string();
            let params =
                [("error", "insufficient_scope"), ("scope", scope.as_str()), ("error_description", text.as_str())];
            return Some(challenge(&guard.oauth, StatusCode::FORBIDDEN, &params, &text));
        }
    }
    None
}
