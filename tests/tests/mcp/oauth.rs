//! The HTTP endpoint as an OAuth 2.1 resource server: an issuer served by the test on
//! 127.0.0.1 (its JWKS and an RFC 7662 introspection endpoint), tokens minted here with
//! ES256 keys from `keys/` (test keys, made for these tests and nothing else), and each
//! answer checked against the MCP authorization spec.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::routing::{get, post};
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use reqwest::StatusCode;
use rmcp::ServiceExt as _;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tool_core::mcp::{HttpOptions, serve_http_on};
use tool_core::oauth::{Introspection, JwtVerifier, ResourceServer, TokenError, TokenVerifier};
use tool_core::{Registry, ToolContext, tool};

use crate::fixture::{Client, call, text};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;

/// Lists the caller's trips.
#[tool(scopes = ["trips:read"])]
fn list_trips() -> &'static str {
    "Lisbon, Kyoto"
}

/// Books a trip.
#[tool(scopes = ["trips:read", "trips:write"])]
fn book_trip() -> &'static str {
    "booked"
}

/// Says who is calling, as the verified token says.
#[tool]
fn whoami(ctx: &ToolContext) -> String {
    let Some(claims) = ctx.claims() else { return "nobody".to_owned() };
    let agent = ctx.http_request().and_then(|request| request.headers.get("authorization")).is_some();
    format!(
        "{} via {} [{}] http={agent}",
        claims.subject.as_deref().unwrap_or("?"),
        claims.client_id.as_deref().unwrap_or("?"),
        claims.scopes.join(" ")
    )
}

/// Exports the caller's trips; long, so a client may follow it as a task.
#[tool(scopes = ["trips:export"], task = "optional")]
async fn export_trips() -> &'static str {
    tokio::time::sleep(Duration::from_millis(200)).await;
    "exported"
}

/// Report on the trips
#[tool_core::mcp::prompt(scopes = ["trips:read"])]
fn trip_report() -> &'static str {
    "Report on the trips"
}

/// The ledger of every trip
#[tool_core::mcp::resource(uri = "trips://ledger", scopes = ["trips:ledger"])]
fn ledger() -> &'static str {
    "ledger"
}

fn registry() -> Registry {
    let mut registry = Registry::new();
    registry.add(ListTripsTool).unwrap().add(BookTripTool).unwrap().add(WhoamiTool).unwrap();
    registry.add(ExportTripsTool).unwrap();
    registry
}

pub(crate) fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs()
}

fn key(name: &str) -> EncodingKey {
    let pem = match name {
        "current" => include_bytes!("keys/current.pem").as_slice(),
        "rotated" => include_bytes!("keys/rotated.pem").as_slice(),
        _ => include_bytes!("keys/forger.pem").as_slice(),
    };
    EncodingKey::from_ec_pem(pem).unwrap()
}

pub(crate) fn public(name: &str) -> Jwk {
    let mut jwk = Jwk::from_encoding_key(&key(name), Algorithm::ES256).unwrap();
    jwk.common.key_id = Some(name.to_owned());
    jwk
}

/// The test's authorization server: a JWKS it can rotate, introspection, and a token
/// endpoint for client credentials (`remote_oauth`), with its RFC 8414 metadata.
pub(crate) struct Issuer {
    pub(crate) url: String,
    pub(crate) keys: Arc<Mutex<Vec<Jwk>>>,
    fetches: Arc<AtomicUsize>,
    /// What its token endpoint does, and what it was asked.
    pub(crate) desk: Arc<Mutex<super::remote_oauth::TokenDesk>>,
}

impl Issuer {
    async fn start() -> Issuer {
        let keys = Arc::new(Mutex::new(vec![public("current")]));
        let fetches = Arc::new(AtomicUsize::new(0));
        let desk = Arc::new(Mutex::new(super::remote_oauth::TokenDesk::default()));
        let (jwks_keys, jwks_fetches) = (Arc::clone(&keys), Arc::clone(&fetches));
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let app = super::remote_oauth::token_routes(&url, Arc::clone(&desk))
            .route(
                "/jwks",
                get(move || {
                    jwks_fetches.fetch_add(1, Ordering::SeqCst);
                    let set = JwkSet { keys: jwks_keys.lock().unwrap().clone() };
                    async move { serde_json::to_string(&set).unwrap() }
                }),
            )
            .route("/introspect", post(introspect));
        tokio::spawn(async move { axum::serve(listener, app).await });
        Issuer { url, keys, fetches, desk }
    }

    fn jwks(&self) -> String {
        format!("{}/jwks", self.url)
    }
}

/// A token signed with the key `key_name`, its header naming the key id `kid`.
pub(crate) fn mint(key_name: &str, kid: &str, claims: &Value) -> String {
    let header = Header { kid: Some(kid.to_owned()), ..Header::new(Algorithm::ES256) };
    jsonwebtoken::encode(&header, claims, &key(key_name)).unwrap()
}

/// RFC 7662 as the test's issuer answers it: the resource server must authenticate as
/// `rs`/`secret`; token `live` is active for this server, `other` for another, the rest not.
async fn introspect(headers: axum::http::HeaderMap, body: String) -> (StatusCode, String) {
    // "rs:secret" in base64.
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some("Basic cnM6c2VjcmV0") {
        return (StatusCode::UNAUTHORIZED, String::new());
    }
    let token = body.split('&').find_map(|pair| pair.strip_prefix("token=")).unwrap_or_default().to_owned();
    let answer = match token.as_str() {
        "live" => {
            json!({"active": true, "sub": "carol", "client_id": "cli", "scope": "trips:read", "aud": "https://mcp.test/mcp", "exp": now() + 600})
        }
        "other" => json!({"active": true, "sub": "carol", "aud": "https://elsewhere.test", "exp": now() + 600}),
        _ => json!({"active": false}),
    };
    (StatusCode::OK, answer.to_string())
}

pub(crate) struct Served {
    pub(crate) resource: String,
    pub(crate) issuer: Issuer,
}

impl Served {
    pub(crate) async fn start(list_every_tool: bool) -> Served {
        let issuer = Issuer::start().await;
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let resource = format!("http://{}/mcp", listener.local_addr().unwrap());
        let verifier = JwtVerifier::new(&issuer.url, &resource, issuer.jwks()).refetch_interval(Duration::ZERO);
        let mut oauth = ResourceServer::new(&resource, verifier).unwrap().authorization_server(&issuer.url);
        if list_every_tool {
            oauth = oauth.list_every_tool();
        }
        let options = HttpOptions::default().oauth(oauth);
        let mut prompts = tool_core::mcp::Prompts::new();
        prompts.add(TripReportPrompt).unwrap();
        let mut resources = tool_core::mcp::Resources::new();
        resources.add(LedgerResource).unwrap();
        let server = tool_core::mcp::McpServer::new(registry()).with_prompts(prompts).with_resources(resources);
        tokio::spawn(serve_http_on(server, listener, options, std::future::pending()));
        Served { resource, issuer }
    }

    fn claims(&self, scope: &str) -> Value {
        json!({"iss": self.issuer.url, "aud": self.resource, "sub": "alice", "client_id": "app-1", "scope": scope, "exp": now() + 600})
    }

    pub(crate) fn token(&self, scope: &str) -> String {
        mint("current", "current", &self.claims(scope))
    }

    async fn post(&self, token: Option<&str>, body: &str) -> reqwest::Response {
        let mut request = reqwest::Client::new()
            .post(&self.resource)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body.to_owned());
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send().await.unwrap()
    }

    async fn status(&self, token: &str) -> (StatusCode, String) {
        let response = self.post(Some(token), INITIALIZE).await;
        let challenge = challenge(&response);
        (response.status(), challenge)
    }

    async fn connect(&self, token: &str) -> crate::fixture::Connection {
        self.connect_as(token, Client::default()).await
    }

    async fn connect_as(&self, token: &str, client: Client) -> crate::fixture::Connection {
        let config = StreamableHttpClientTransportConfig::with_uri(self.resource.clone()).auth_header(token);
        client.serve(StreamableHttpClientTransport::from_config(config)).await.expect("the client connects")
    }

    async fn listed(&self, token: &str) -> Vec<String> {
        let connection = self.connect(token).await;
        let tools = connection.list_all_tools().await.unwrap();
        connection.cancel().await.unwrap();
        tools.into_iter().map(|tool| tool.name.to_string()).collect()
    }
}

fn challenge(response: &reqwest::Response) -> String {
    response.headers().get("www-authenticate").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default()
}

#[tokio::test]
async fn metadata_names_the_resource_its_issuer_and_the_tools_scopes() {
    let served = Served::start(false).await;
    let origin = served.resource.trim_end_matches("/mcp");
    for path in ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"] {
        let response = reqwest::get(format!("{origin}{path}")).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let document: Value = response.json().await.unwrap();
        assert_eq!(
            document,
            json!({
                "resource": served.resource,
                "authorization_servers": [served.issuer.url],
                "bearer_methods_supported": ["header"],
                // The tools' scopes and the ledger resource's.
                "scopes_supported": ["trips:export", "trips:ledger", "trips:read", "trips:write"],
            }),
            "{path}"
        );
    }
}

#[tokio::test]
async fn a_request_without_a_token_is_challenged_with_the_metadata_url() {
    let served = Served::start(false).await;
    let response = served.post(None, INITIALIZE).await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let metadata = format!("{}/.well-known/oauth-protected-resource/mcp", served.resource.trim_end_matches("/mcp"));
    assert_eq!(challenge(&response), format!("Bearer resource_metadata=\"{metadata}\""));
    let response = served.post(Some(""), INITIALIZE).await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn each_bad_token_is_refused_as_invalid_token_and_a_good_one_passes() {
    let served = Served::start(false).await;
    let good = served.claims("trips:read");
    let (status, _) = served.status(&served.token("trips:read")).await;
    assert_eq!(status, StatusCode::OK);

    let with = |key: &str, value: Value| {
        let mut claims = good.clone();
        claims[key] = value;
        claims
    };
    let without = |key: &str| {
        let mut claims = good.clone();
        claims.as_object_mut().unwrap().remove(key);
        claims
    };
    let cases = [
        ("expired", mint("current", "current", &with("exp", json!(now() - 3600))), "expired"),
        ("not yet valid", mint("current", "current", &with("nbf", json!(now() + 3600))), "not valid yet"),
        (
            "wrong audience",
            mint("current", "current", &with("aud", json!("https://elsewhere.test/mcp"))),
            "another resource",
        ),
        (
            "wrong issuer",
            mint("current", "current", &with("iss", json!("https://evil.test"))),
            "another authorization server",
        ),
        ("forged signature", mint("forger", "current", &good), "signature"),
        ("no exp", mint("current", "current", &without("exp")), "`exp`"),
        ("unknown key", mint("forger", "forger", &good), "no key with id `forger`"),
        (
            "HMAC",
            jsonwebtoken::encode(&Header::new(Algorithm::HS256), &good, &EncodingKey::from_secret(b"guess")).unwrap(),
            "does not accept",
        ),
        ("alg none", format!("eyJhbGciOiJub25lIn0.{}.", b64(&good)), "malformed"),
        ("not a JWT", "opaque-garbage".to_owned(), "malformed"),
    ];
    for (case, token, words) in cases {
        let (status, challenge) = served.status(&token).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{case}");
        assert!(challenge.starts_with("Bearer error=\"invalid_token\", error_description=\""), "{case}: {challenge}");
        assert!(challenge.contains(words), "{case}: {challenge}");
        assert!(challenge.contains("resource_metadata=\""), "{case}: {challenge}");
    }
}

fn b64(value: &Value) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(value.to_string())
}

#[tokio::test]
async fn a_rotated_key_is_fetched_when_a_token_names_it() {
    let served = Served::start(false).await;
    assert_eq!(served.status(&served.token("trips:read")).await.0, StatusCode::OK);
    assert_eq!(served.issuer.fetches.load(Ordering::SeqCst), 1, "fetched once, then cached");
    assert_eq!(served.status(&served.token("trips:read")).await.0, StatusCode::OK);
    assert_eq!(served.issuer.fetches.load(Ordering::SeqCst), 1, "the cache answers");
    *served.issuer.keys.lock().unwrap() = vec![public("rotated")];
    let rotated = mint("rotated", "rotated", &served.claims("trips:read"));
    assert_eq!(served.status(&rotated).await.0, StatusCode::OK);
    assert_eq!(served.issuer.fetches.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn unknown_key_ids_refetch_at_most_once_per_interval() {
    let issuer = Issuer::start().await;
    let verifier = JwtVerifier::new(&issuer.url, "https://mcp.test/mcp", issuer.jwks());
    let claims = json!({"iss": issuer.url, "aud": "https://mcp.test/mcp", "exp": now() + 600});
    assert!(verifier.verify(&mint("current", "current", &claims)).await.is_ok());
    for attempt in 0..20 {
        let token = mint("forger", &format!("made-up-{attempt}"), &claims);
        assert!(matches!(verifier.verify(&token).await, Err(TokenError::UnknownKey(Some(_)))));
    }
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 2, "the first load and one refetch within 30 s");
}

#[tokio::test]
async fn an_unreachable_key_set_is_the_servers_problem() {
    let closed = TcpListener::bind("127.0.0.1:0").await.unwrap().local_addr().unwrap();
    let verifier = JwtVerifier::new("https://auth.test", "https://mcp.test/mcp", format!("http://{closed}/jwks"));
    let token = mint("current", "current", &json!({"exp": now() + 600}));
    assert!(matches!(verifier.verify(&token).await, Err(TokenError::Unavailable(_))));

    // Through the server: 503, not a challenge the client could do nothing about.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let resource = format!("http://{}/mcp", listener.local_addr().unwrap());
    let oauth = ResourceServer::new(&resource, verifier).unwrap();
    tokio::spawn(serve_http_on(registry(), listener, HttpOptions::default().oauth(oauth), std::future::pending()));
    let response = reqwest::Client::new()
        .post(&resource)
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(INITIALIZE)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(challenge(&response).is_empty());
}

#[tokio::test]
async fn a_call_without_the_tools_scope_gets_403_with_the_scope_to_ask_for() {
    let served = Served::start(false).await;
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"book_trip","arguments":{}}}"#;
    let response = served.post(Some(&served.token("trips:read")), call).await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    let challenge = challenge(&response);
    assert!(
        challenge.starts_with("Bearer error=\"insufficient_scope\", scope=\"trips:read trips:write\""),
        "{challenge}"
    );
    assert!(challenge.contains("`trips:write`"), "{challenge}");

    // With the scope, the same token's bearer can call it through a real client.
    let connection = served.connect(&served.token("trips:read trips:write")).await;
    assert_eq!(text(&call_tool(&connection, "book_trip").await), "booked");
    connection.cancel().await.unwrap();
}

async fn call_tool(connection: &crate::fixture::Connection, name: &'static str) -> rmcp::model::CallToolResult {
    call(connection, name, json!({})).await.unwrap()
}

#[tokio::test]
async fn each_token_lists_only_the_tools_it_can_call_unless_configured_otherwise() {
    let served = Served::start(false).await;
    assert_eq!(served.listed(&served.token("")).await, ["whoami"]);
    assert_eq!(served.listed(&served.token("trips:read")).await, ["list_trips", "whoami"]);
    assert_eq!(served.listed(&served.token("trips:read trips:write")).await, ["list_trips", "book_trip", "whoami"]);
    let every = Served::start(true).await;
    assert_eq!(every.listed(&every.token("")).await, ["list_trips", "book_trip", "whoami", "export_trips"]);
}

#[tokio::test]
async fn tools_read_the_verified_claims_and_the_http_request() {
    let served = Served::start(false).await;
    let connection = served.connect(&served.token("trips:read")).await;
    assert_eq!(text(&call_tool(&connection, "whoami").await), "alice via app-1 [trips:read] http=true");
    connection.cancel().await.unwrap();
}

/// A task started with a token is that caller's: another token's `tasks/get` and
/// `tasks/cancel` read it as an unknown task, its existence not revealed.
#[tokio::test]
async fn a_task_is_its_starters_alone() {
    let served = Served::start(false).await;
    let alice = served.token("trips:export");
    let mut claims = served.claims("trips:export");
    claims["sub"] = json!("mallory");
    let mallory = mint("current", "current", &claims);
    let client = Client { tasks: true, ..Client::default() };
    let (alice, mallory) = (served.connect_as(&alice, client.clone()).await, served.connect_as(&mallory, client).await);
    let started = alice.call_tool_once(rmcp::model::CallToolRequestParams::new("export_trips")).await.unwrap();
    let rmcp::model::CallToolResponse::Task(created) = started else { panic!("a task: {started:?}") };
    let id = created.task.task_id;
    for refused in [
        mallory.get_task(rmcp::model::GetTaskParams::new(&id)).await.unwrap_err(),
        mallory.cancel_task(rmcp::model::CancelTaskParams::new(&id)).await.unwrap_err(),
    ] {
        assert!(refused.to_string().contains("Unknown task"), "{refused}");
    }
    assert!(alice.get_task(rmcp::model::GetTaskParams::new(&id)).await.is_ok());
    alice.cancel_task(rmcp::model::CancelTaskParams::new(&id)).await.unwrap();
    alice.cancel().await.unwrap();
    mallory.cancel().await.unwrap();
}

#[tokio::test]
async fn opaque_tokens_are_introspected() {
    let issuer = Issuer::start().await;
    let endpoint = format!("{}/introspect", issuer.url);
    let verifier = Introspection::new(&endpoint, "rs", "secret", "https://mcp.test/mcp");
    let claims = verifier.verify("live").await.unwrap();
    assert_eq!(
        (claims.subject.as_deref(), claims.client_id.as_deref(), claims.scopes.as_slice()),
        (Some("carol"), Some("cli"), ["trips:read".to_owned()].as_slice())
    );
    assert_eq!(verifier.verify("revoked").await, Err(TokenError::Inactive));
    assert_eq!(verifier.verify("other").await, Err(TokenError::WrongAudience));
    let wrong_secret = Introspection::new(&endpoint, "rs", "guess", "https://mcp.test/mcp");
    assert!(matches!(wrong_secret.verify("live").await, Err(TokenError::Unavailable(_))));
}

#[test]
fn a_resource_uri_must_be_absolute_http_without_a_fragment() {
    let verifier = || JwtVerifier::new("https://auth.test", "x", "https://auth.test/jwks");
    for bad in ["/mcp", "mcp.example.com", "ftp://mcp.example.com", "https://mcp.example.com/mcp#frag"] {
        assert!(ResourceServer::new(bad, verifier()).is_err(), "{bad}");
    }
    let server = ResourceServer::new("https://mcp.example.com/", verifier()).unwrap();
    assert_eq!(server.metadata_paths(), ["/.well-known/oauth-protected-resource"]);
    assert_eq!(server.metadata_url(), "https://mcp.example.com/.well-known/oauth-protected-resource");
}

/// The MCP Inspector's CLI (`MCP_INSPECTOR`: a command, set by `tests/mcp/inspector.sh`,
/// which installs it) lists and calls through the OAuth layer with an `Authorization`
/// header, and is refused without one.
#[tokio::test]
#[ignore = "needs the MCP Inspector: bash tests/mcp/inspector.sh"]
async fn the_inspector_lists_and_calls_with_a_bearer_token() {
    let inspector = std::env::var("MCP_INSPECTOR").expect("MCP_INSPECTOR names the Inspector's command");
    let served = Served::start(false).await;
    let token = served.token("trips:read");
    let run = |extra: &[&str], with_token: bool| {
        let mut command = tokio::process::Command::new("sh");
        let header = format!("Authorization: Bearer {token}");
        let mut line = format!("{inspector} --cli {} --transport http", served.resource);
        if with_token {
            line.push_str(" --header \"$HEADER\"");
        }
        for arg in extra {
            line.push(' ');
            line.push_str(arg);
        }
        command.arg("-c").arg(line).env("HEADER", header).kill_on_drop(true);
        async move { tokio::time::timeout(Duration::from_mins(2), command.output()).await.unwrap().unwrap() }
    };
    let listed = run(&["--method", "tools/list"], true).await;
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    let names: Vec<&str> =
        listed["tools"].as_array().unwrap().iter().map(|tool| tool["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["list_trips", "whoami"]);
    let called = run(&["--method", "tools/call", "--tool-name", "whoami"], true).await;
    assert!(called.status.success(), "{}", String::from_utf8_lossy(&called.stderr));
    let called: Value = serde_json::from_slice(&called.stdout).unwrap();
    assert_eq!(called["content"][0]["text"], "alice via app-1 [trips:read] http=true");
    let refused = run(&["--method", "tools/list"], false).await;
    assert!(!refused.status.success(), "without a token the Inspector is refused");
}

/// A prompt or resource that requires scopes is neither listed to nor served to a token
/// without them, as a tool is not.
#[tokio::test]
async fn scoped_prompts_and_resources_are_only_for_tokens_with_their_scopes() {
    use rmcp::model::{GetPromptRequestParams, ReadResourceRequestParams};
    let served = Served::start(false).await;
    for (scope, prompts, resources) in
        [("", 0, 0), ("trips:read", 1, 0), ("trips:ledger", 0, 1), ("trips:read trips:ledger", 1, 1)]
    {
        let connection = served.connect(&served.token(scope)).await;
        assert_eq!(connection.list_all_prompts().await.unwrap().len(), prompts, "{scope:?}");
        assert_eq!(connection.list_all_resources().await.unwrap().len(), resources, "{scope:?}");
        let got = connection.get_prompt(GetPromptRequestParams::new("trip_report")).await;
        assert_eq!(got.is_ok(), prompts == 1, "{scope:?}: {got:?}");
        if let Err(refused) = got {
            assert!(refused.to_string().contains("-32602"), "{refused}");
        }
        let read = connection.read_resource(ReadResourceRequestParams::new("trips://ledger")).await;
        assert_eq!(read.is_ok(), resources == 1, "{scope:?}: {read:?}");
        if let Err(refused) = read {
            assert!(refused.to_string().contains("-32002"), "{refused}");
        }
        connection.cancel().await.unwrap();
    }
}
