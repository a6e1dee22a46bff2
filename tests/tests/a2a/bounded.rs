//! Every outbound A2A request is bounded: a server that accepts the connection and never
//! answers cannot hang a connect (the card fetch), a refresh, a message or the token it
//! needs. Each test holds such a server on 127.0.0.1 and gives the client a short bound.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::routing::{get, post};
use serde_json::{Value, json};
use tool_core::a2a::{AgentCard, RemoteAgent, SkillFilter};

const BOUND: Duration = Duration::from_millis(300);

/// A listener that accepts every connection and never reads or writes; its base URL. The
/// connections are held (not dropped) until the test ends.
async fn silent() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            held.push(stream);
        }
    });
    base
}

fn card(rpc: &str, token_url: Option<&str>) -> Value {
    let mut card = json!({"name": "Slow", "description": "never answers", "version": "1", "capabilities": {},
        "defaultInputModes": [], "defaultOutputModes": [],
        "supportedInterfaces": [{"url": rpc, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "skills": [{"id": "s", "name": "S", "description": "a skill", "tags": []}]});
    if let Some(url) = token_url {
        card["securitySchemes"] = json!({"oauth": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": url, "scopes": {}}}}}});
    }
    card
}

#[tokio::test]
async fn a_card_server_that_never_answers_fails_the_connect_in_time() {
    let base = silent().await;
    let error = RemoteAgent::connect_within(&base, BOUND).await.unwrap_err();
    assert!(error.to_string().contains("no reply in time"), "{error}");
    assert_eq!(RemoteAgent::CARD_TIMEOUT, Duration::from_secs(10), "the default bound");
}

#[tokio::test]
async fn a_card_server_that_stops_answering_fails_the_refresh_in_time() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let served = card(&format!("{base}/rpc"), None).to_string();
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&asked);
    let app = Router::new().route(
        "/card.json",
        get(move || {
            let (served, first) = (served.clone(), counter.fetch_add(1, Ordering::SeqCst) == 0);
            async move {
                if !first {
                    // Accepted and read, never answered.
                    core::future::pending::<()>().await;
                }
                ([("cache-control", "no-cache")], served)
            }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let agent = RemoteAgent::connect_within(&format!("{base}/card.json"), BOUND).await.unwrap();
    let error = agent.refresh().await.unwrap_err();
    assert!(error.to_string().contains("no reply in time"), "{error}");
    assert_eq!(asked.load(Ordering::SeqCst), 2, "the refresh asked again");
    // The bound is the program's to change.
    let patient = agent.card_timeout(Duration::from_millis(50));
    assert!(patient.refresh().await.unwrap_err().to_string().contains("no reply in time"));
}

#[tokio::test]
async fn a_message_to_an_agent_that_never_answers_fails_in_time() {
    let base = silent().await;
    let agent = RemoteAgent::from_card(AgentCard::from_value(card(&format!("{base}/rpc"), None)).unwrap())
        .unwrap()
        .timeout(BOUND);
    let tools = agent.tools(&SkillFilter::all()).unwrap();
    let error = tools.call_async(&tools.context(), "a2a_slow_s", json!({"message": "hi"})).await.unwrap_err();
    assert!(error.to_string().contains("no reply within 0.3 s"), "{error}");
}

#[tokio::test]
async fn a_token_endpoint_that_never_answers_fails_the_message_in_time() {
    let silent = silent().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let posted = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&posted);
    let app = Router::new().route(
        "/rpc",
        post(move || {
            counter.fetch_add(1, Ordering::SeqCst);
            async { "{}" }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let card = AgentCard::from_value(card(&format!("{base}/rpc"), Some(&format!("{silent}/token")))).unwrap();
    let agent = RemoteAgent::from_card(card).unwrap().timeout(BOUND).client_credentials("id", "secret", ["a"]).unwrap();
    let tools = agent.tools(&SkillFilter::all()).unwrap();
    let error = tools.call_async(&tools.context(), "a2a_slow_s", json!({"message": "hi"})).await.unwrap_err();
    assert!(error.to_string().contains("no reply within 0.3 s"), "{error}");
    assert_eq!(posted.load(Ordering::SeqCst), 0, "no message went without its token");
}
