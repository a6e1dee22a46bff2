//! What no SDK would answer, from a server of the test's own: a card that is not JSON, a card
//! with no interface the client speaks, an interface on another origin, a reply in HTML, a
//! reply of 10 MB, a JSON-RPC error. Each is a clear error; nothing panics or hangs.

use axum::Router;
use axum::routing::{get, post};
use serde_json::json;
use tool_core::a2a::{A2aError, RemoteAgent, SkillFilter};

/// The test's server on 127.0.0.1, its base URL.
async fn serve() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let card = |url: String, binding: &str| {
        json!({"name": "Edge", "description": "edges", "version": "1", "capabilities": {},
               "defaultInputModes": [], "defaultOutputModes": [],
               "supportedInterfaces": [{"url": url, "protocolBinding": binding, "protocolVersion": "1.0"}],
               "skills": [{"id": "s", "name": "S", "description": "a skill", "tags": []}]})
        .to_string()
    };
    let (html, grpc, foreign, big, error) = (
        card(format!("{base}/rpc/html"), "JSONRPC"),
        card(format!("{base}/rpc/html"), "GRPC"),
        card("http://127.0.0.2:9/rpc".to_owned(), "JSONRPC"),
        card(format!("{base}/rpc/big"), "JSONRPC"),
        card(format!("{base}/rpc/error"), "JSONRPC"),
    );
    let app = Router::new()
        .route("/not-json.json", get(|| async { "<html>Not found</html>" }))
        .route("/grpc.json", get(move || async move { grpc }))
        .route("/foreign.json", get(move || async move { foreign }))
        .route("/html.json", get(move || async move { html }))
        .route("/big.json", get(move || async move { big }))
        .route("/error.json", get(move || async move { error }))
        .route("/rpc/html", post(|| async { "<html>Bad gateway</html>" }))
        .route("/rpc/big", post(|| async { "x".repeat(10 << 20) }))
        .route(
            "/rpc/error",
            post(|| async {
                json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32009, "message": "A2A version '0.3' is not supported"}})
                    .to_string()
            }),
        );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

/// The error of one call to the card at `base/name`'s skill.
async fn call_error(base: &str, name: &str) -> String {
    let agent = RemoteAgent::connect(&format!("{base}/{name}")).await.unwrap();
    let tools = agent.tools(&SkillFilter::all()).unwrap();
    let error = tools.call_async(&tools.context(), "a2a_edge_s", json!({"message": "hi"})).await.unwrap_err();
    error.to_string()
}

#[tokio::test]
async fn every_edge_is_a_clear_error() {
    let base = serve().await;
    let not_json = RemoteAgent::connect(&format!("{base}/not-json.json")).await.unwrap_err();
    assert!(not_json.to_string().contains("is not JSON") && not_json.to_string().contains("<html>"), "{not_json}");
    let grpc = RemoteAgent::connect(&format!("{base}/grpc.json")).await.unwrap_err();
    assert_eq!(grpc, A2aError::NoSupportedInterface { offered: vec!["GRPC 1.0".to_owned()] });
    let foreign = RemoteAgent::connect(&format!("{base}/foreign.json")).await.unwrap_err();
    assert!(matches!(foreign, A2aError::UntrustedInterface { .. }), "{foreign}");
    let missing = RemoteAgent::connect(&format!("{base}/nothing")).await.unwrap_err();
    assert!(missing.to_string().contains("404"), "{missing}");

    let html = call_error(&base, "html.json").await;
    assert!(html.contains("is not JSON") && html.contains("Bad gateway"), "{html}");
    let big = call_error(&base, "big.json").await;
    assert!(big.contains("is over 8388608 bytes"), "{big}");
    let error = call_error(&base, "error.json").await;
    assert!(error.contains("answered with error -32009: A2A version '0.3' is not supported"), "{error}");
}

#[test]
fn a_0_3_card_is_read_from_its_own_fields() {
    let card = tool_core::a2a::AgentCard::from_value(json!({
        "name": "Old", "description": "speaks 0.3", "version": "1", "protocolVersion": "0.3",
        "url": "https://old.example/a2a", "preferredTransport": "GRPC",
        "additionalInterfaces": [{"url": "https://old.example/a2a/jsonrpc", "transport": "JSONRPC"}],
        "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [],
        "skills": [{"id": "look", "name": "Look", "description": "looks", "tags": ["x"]}]
    }))
    .unwrap();
    let interface = card.interface().unwrap();
    assert_eq!((interface.url.as_str(), interface.version.as_str()), ("https://old.example/a2a/jsonrpc", "0.3"));
    assert_eq!(card.skills[0].id, "look");
    let not_a_card = tool_core::a2a::AgentCard::from_value(json!({"skills": 3})).unwrap_err();
    assert!(not_a_card.to_string().starts_with("the agent card is not one"), "{not_a_card}");
}

#[tokio::test]
async fn a_card_is_kept_while_fresh_and_revalidated_after() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use axum::http::{HeaderMap, StatusCode};
    use axum::response::IntoResponse;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let card = json!({"name": "Cached", "description": "", "version": "1", "capabilities": {},
        "defaultInputModes": [], "defaultOutputModes": [],
        "supportedInterfaces": [{"url": format!("{base}/rpc"), "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "skills": [{"id": "s", "name": "S", "description": "", "tags": []}]})
    .to_string();
    let (asked, revalidated) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let serve = |cache_control: &'static str| {
        let (card, asked, revalidated) = (card.clone(), Arc::clone(&asked), Arc::clone(&revalidated));
        move |headers: HeaderMap| async move {
            asked.fetch_add(1, Ordering::SeqCst);
            if headers.get("if-none-match").is_some_and(|tag| tag == "\"v1\"") {
                revalidated.fetch_add(1, Ordering::SeqCst);
                return StatusCode::NOT_MODIFIED.into_response();
            }
            ([("etag", "\"v1\""), ("cache-control", cache_control)], card).into_response()
        }
    };
    let app =
        Router::new().route("/fresh.json", get(serve("max-age=3600"))).route("/stale.json", get(serve("no-cache")));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let fresh = RemoteAgent::connect(&format!("{base}/fresh.json")).await.unwrap().bearer("t");
    let again = fresh.refresh().await.unwrap();
    assert_eq!((asked.load(Ordering::SeqCst), again.card().name.as_str()), (1, "Cached"), "fresh: not asked again");

    let stale = RemoteAgent::connect(&format!("{base}/stale.json")).await.unwrap();
    let again = stale.refresh().await.unwrap().refresh().await.unwrap();
    assert_eq!(asked.load(Ordering::SeqCst), 4, "no-cache: asked each time");
    assert_eq!(revalidated.load(Ordering::SeqCst), 2, "with its ETag, and kept on 304");
    assert_eq!(again.card(), stale.card());
}
