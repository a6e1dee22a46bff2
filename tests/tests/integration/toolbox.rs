//! The ready tools: `calculate`, `current_time` and `fetch`, called as a model calls them,
//! each refusing bad input with the field named, and `fetch` refusing what it must.

use std::time::Duration;

use serde_json::json;
use tool_core::toolbox::{self, Fetch};
use tool_core::{Registry, ToolError};

async fn serve() -> String {
    use axum::routing::get;
    let app = axum::Router::new()
        .route("/page", get(|| async { ([("content-type", "text/plain")], "hello from the page") }))
        .route("/big", get(|| async { ([("content-type", "text/plain")], "y".repeat(5000)) }))
        .route("/image", get(|| async { ([("content-type", "image/png")], vec![0_u8; 10]) }))
        .route(
            "/moved",
            get(|| async { (axum::http::StatusCode::FOUND, [("location", "http://169.254.169.254/")], "") }),
        )
        .route(
            "/slow",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(30)).await;
                "late"
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test]
async fn calculate_and_current_time() {
    let mut registry = Registry::new();
    registry.add_dynamic(toolbox::calculate().unwrap()).unwrap().add_dynamic(toolbox::current_time().unwrap()).unwrap();
    let context = registry.context();
    let sum = registry.call_async(&context, "calculate", json!({"expression": "2 + 3 * 4"})).await.unwrap();
    assert_eq!(sum.to_text(), "14");
    let zero = registry.call_async(&context, "calculate", json!({"expression": "1 / 0"})).await.unwrap_err();
    assert!(matches!(zero, ToolError::Failed { .. }), "{zero:?}");
    let long = registry.call_async(&context, "calculate", json!({"expression": "1+".repeat(300)})).await.unwrap_err();
    assert!(long.to_string().contains("/expression: must be at most 500 characters long"), "{long}");

    let paris = registry.call_async(&context, "current_time", json!({"time_zone": "Europe/Paris"})).await.unwrap();
    assert!(paris.to_text().ends_with("[Europe/Paris]"), "{}", paris.to_text());
    let utc = registry.call_async(&context, "current_time", json!({})).await.unwrap();
    assert!(utc.to_text().ends_with("[UTC]"), "{}", utc.to_text());
    let mars = registry.call_async(&context, "current_time", json!({"time_zone": "Mars/Olympus"})).await.unwrap_err();
    assert!(mars.to_string().contains("unknown time zone \"Mars/Olympus\""), "{mars}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetch_reads_allowed_text_and_refuses_the_rest() {
    let base = serve().await;
    let call = |registry: Registry, url: String| async move {
        registry.call_async(&registry.context(), "fetch", json!({ "url": url })).await
    };
    let tool = |fetch: Fetch| {
        let mut registry = Registry::new();
        registry.add_dynamic(fetch.tool().unwrap()).unwrap();
        registry
    };
    // Loopback is refused unless allowed, even for an allowed host.
    let strict = tool(Fetch::new(["127.0.0.1"]));
    let refused = call(strict, format!("{base}/page")).await.unwrap_err();
    assert!(
        refused.to_string().contains("resolves to 127.0.0.1, a private, loopback or reserved address"),
        "{refused}"
    );

    let open = || {
        tool(Fetch::new(["127.0.0.1"]).allow_private_addresses().max_bytes(1000).timeout(Duration::from_millis(500)))
    };
    assert_eq!(call(open(), format!("{base}/page")).await.unwrap().to_text(), "hello from the page");
    let big = call(open(), format!("{base}/big")).await.unwrap_err();
    assert!(big.to_string().contains("longer than the 1000 bytes"), "{big}");
    let image = call(open(), format!("{base}/image")).await.unwrap_err();
    assert!(image.to_string().contains("is not text (image/png)"), "{image}");
    let moved = call(open(), format!("{base}/moved")).await.unwrap_err();
    assert!(moved.to_string().contains("redirects (302 Found) to http://169.254.169.254/"), "{moved}");
    let slow = call(open(), format!("{base}/slow")).await.unwrap_err();
    assert!(slow.to_string().contains("the request failed"), "{slow}");
    let other = call(open(), "http://localhost:1/".to_owned()).await.unwrap_err();
    assert!(other.to_string().contains("the host localhost is not one this tool may fetch from"), "{other}");
    let scheme = call(open(), "file:///etc/passwd".to_owned()).await.unwrap_err();
    assert!(scheme.to_string().contains("only http and https"), "{scheme}");
    let not_url = call(open(), "not a url".to_owned()).await.unwrap_err();
    assert!(matches!(not_url, ToolError::InvalidArguments { .. }), "validated as a uri: {not_url}");
}
