//! A remote MCP server that requires a token (`RemoteServer::http_authorized`), reached as a
//! machine client does under the MCP authorization spec: this crate's own OAuth-protected
//! server (`oauth.rs`'s `Served`), whose metadata (RFC 9728) names the test's authorization
//! server on 127.0.0.1, whose metadata (RFC 8414) names the token endpoint served here.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::routing::{get, post};
use reqwest::StatusCode;
use serde_json::json;
use tool_core::ToolError;
use tool_core::mcp::RemoteServer;
use tool_core::mcp::remote_auth::{Bearer, ClientCredentials};

use super::oauth::{Served, mint, now};

/// The client the token endpoint knows.
const CLIENT: (&str, &str) = ("machine-1", "s3cret");

/// `application/x-www-form-urlencoded` decoding of one value.
fn form_value(form: &str, name: &str) -> Option<String> {
    let raw = form.split('&').find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))?;
    let bytes = raw.replace('+', " ").into_bytes();
    let mut out = Vec::new();
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' && index + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[index + 1..index + 3]).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The token endpoint's behaviour and record.
#[derive(Debug)]
pub(crate) struct TokenDesk {
    /// The next token is signed with a key the server does not know, as a revoked one.
    pub(crate) forge_next: bool,
    /// `expires_in` of the tokens given, in seconds.
    pub(crate) lifetime: u64,
    /// The form of every token request, as received.
    pub(crate) forms: Vec<String>,
}

impl Default for TokenDesk {
    fn default() -> Self {
        TokenDesk { forge_next: false, lifetime: 600, forms: Vec::new() }
    }
}

/// The issuer's RFC 8414 metadata and its token endpoint: client credentials for
/// [`CLIENT`], a JWT for the `resource` asked for.
pub(crate) fn token_routes(issuer: &str, desk: Arc<Mutex<TokenDesk>>) -> Router {
    let metadata = json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "jwks_uri": format!("{issuer}/jwks"),
        "grant_types_supported": ["client_credentials"],
        "token_endpoint_auth_methods_supported": ["client_secret_post"],
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
    })
    .to_string();
    let issuer = issuer.to_owned();
    Router::new().route("/.well-known/oauth-authorization-server", get(move || async move { metadata })).route(
        "/token",
        post(move |form: String| {
            let (forged, lifetime) = {
                let mut desk = desk.lock().unwrap();
                desk.forms.push(form.clone());
                (core::mem::take(&mut desk.forge_next), desk.lifetime)
            };
            let issuer = issuer.clone();
            async move {
                let json = [(axum::http::header::CONTENT_TYPE, "application/json")];
                let known = form_value(&form, "client_id").as_deref() == Some(CLIENT.0)
                    && form_value(&form, "client_secret").as_deref() == Some(CLIENT.1)
                    && form_value(&form, "grant_type").as_deref() == Some("client_credentials");
                if !known {
                    return (StatusCode::UNAUTHORIZED, json, json!({"error": "invalid_client"}).to_string());
                }
                let claims = json!({
                    "iss": issuer, "aud": form_value(&form, "resource"), "sub": CLIENT.0, "client_id": CLIENT.0,
                    "scope": form_value(&form, "scope").unwrap_or_default(), "exp": now() + lifetime
                });
                let token = mint(if forged { "forger" } else { "current" }, "current", &claims);
                let body = json!({"access_token": token, "token_type": "Bearer", "expires_in": lifetime});
                (StatusCode::OK, json, body.to_string())
            }
        }),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_machine_client_gets_its_token_from_the_servers_authorization_server() {
    // Every tool listed, those the token's scopes do not cover included.
    let served = Served::start(true).await;
    let tokens = ClientCredentials::new(CLIENT.0, CLIENT.1).scopes(["trips:read"]);
    let remote = RemoteServer::http_authorized("trips", served.resource.clone(), tokens).await.unwrap();
    let registry = remote.registry().await.unwrap();
    let context = registry.context();
    let who = registry.call_async(&context, "mcp_trips_whoami", json!({})).await.unwrap();
    assert_eq!(who.to_text(), "machine-1 via machine-1 [trips:read] http=true");
    let trips = registry.call_async(&context, "mcp_trips_list_trips", json!({})).await.unwrap();
    assert_eq!(trips.to_text(), "Lisbon, Kyoto");

    let forms = served.issuer.desk.lock().unwrap().forms.clone();
    assert_eq!(forms.len(), 1, "one token, kept for every request: {forms:?}");
    assert_eq!(form_value(&forms[0], "resource"), Some(served.resource.clone()), "asked for this server alone");
    assert_eq!(form_value(&forms[0], "scope").as_deref(), Some("trips:read"));
    remote.close().await;

    // A token the server refuses (revoked, say) is replaced once, on the same request.
    let forms = || served.issuer.desk.lock().unwrap().forms.len();
    served.issuer.desk.lock().unwrap().forge_next = true;
    let tokens = ClientCredentials::new(CLIENT.0, CLIENT.1).scopes(["trips:read"]);
    let remote = RemoteServer::http_authorized("trips", served.resource.clone(), tokens).await.unwrap();
    let registry = remote.registry().await.unwrap();
    let context = registry.context();
    let trips = registry.call_async(&context, "mcp_trips_list_trips", json!({})).await.unwrap();
    assert_eq!(trips.to_text(), "Lisbon, Kyoto");
    assert_eq!(forms(), 3, "the refused token, then a good one");

    // A scope the token lacks is the server's 403, an error the model reads; the kept token
    // is not thrown away for it.
    let refused = registry.call_async(&context, "mcp_trips_book_trip", json!({})).await.unwrap_err();
    assert!(matches!(refused, ToolError::Failed { .. }), "{refused:?}");
    assert_eq!(forms(), 3, "a 403 is not a reason for a new token");
    remote.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_is_replaced_before_it_expires() {
    let served = Served::start(false).await;
    // One second: kept half of it, then asked for again.
    served.issuer.desk.lock().unwrap().lifetime = 1;
    let tokens = ClientCredentials::new(CLIENT.0, CLIENT.1).scopes(["trips:read"]);
    let remote = RemoteServer::http_authorized("trips", served.resource.clone(), tokens).await.unwrap();
    let registry = remote.registry().await.unwrap();
    let before = served.issuer.desk.lock().unwrap().forms.len();
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    registry.call_async(&registry.context(), "mcp_trips_list_trips", json!({})).await.unwrap();
    assert_eq!(
        served.issuer.desk.lock().unwrap().forms.len(),
        before + 1,
        "a new token, asked before the old one ran out"
    );
    remote.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_secret_or_no_token_is_a_clear_connect_error() {
    let served = Served::start(false).await;
    let wrong = ClientCredentials::new(CLIENT.0, "guess");
    let error = RemoteServer::http_authorized("trips", served.resource.clone(), wrong).await.unwrap_err();
    assert!(error.to_string().contains("no token for the MCP server"), "{error}");
    let none = RemoteServer::http("trips", served.resource.clone()).await.unwrap_err();
    assert!(none.to_string().starts_with("cannot connect to the MCP server"), "{none}");

    // A fixed token works as long as it is good.
    let fixed = Bearer::new(served.token("trips:read"));
    let remote = RemoteServer::http_authorized("trips", served.resource.clone(), fixed).await.unwrap();
    let registry = remote.registry().await.unwrap();
    let who = registry.call_async(&registry.context(), "mcp_trips_whoami", json!({})).await.unwrap();
    assert!(who.to_text().starts_with("alice via app-1"), "{}", who.to_text());
    assert_eq!(format!("{:?}", Bearer::new("secret")), "Bearer(..)", "never in a log");
    remote.close().await;
}
