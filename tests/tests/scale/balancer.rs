//! A round-robin HTTP balancer on 127.0.0.1: each request (not each connection) goes to the
//! next replica, so consecutive requests of one client land on different replicas, which is
//! what the scale tests need to show. A replica that refuses the connection is skipped (the
//! request never reached it); a replica that dies mid-request is a `502` for that request.
//! It records which replica got each JSON-RPC method.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderName, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::sync::oneshot;

#[derive(Clone)]
struct Shared {
    upstreams: Arc<Vec<String>>,
    next: Arc<AtomicUsize>,
    client: reqwest::Client,
    hits: Arc<Mutex<Vec<(usize, String)>>>,
}

pub struct Balancer {
    pub url: String,
    /// (replica index, JSON-RPC method) for every request forwarded.
    pub hits: Arc<Mutex<Vec<(usize, String)>>>,
    _stop: oneshot::Sender<()>,
}

impl Balancer {
    /// The replicas that got `method`, in order.
    pub fn replicas_for(&self, method: &str) -> Vec<usize> {
        self.hits.lock().unwrap().iter().filter(|(_, m)| m == method).map(|(replica, _)| *replica).collect()
    }
}

/// Balances over `upstreams` (`http://127.0.0.1:port`).
pub async fn start(upstreams: Vec<String>) -> Balancer {
    let shared = Shared {
        upstreams: Arc::new(upstreams),
        next: Arc::new(AtomicUsize::new(0)),
        client: reqwest::Client::builder().pool_max_idle_per_host(64).build().unwrap(),
        hits: Arc::default(),
    };
    let hits = Arc::clone(&shared.hits);
    let app = axum::Router::new().fallback(forward).with_state(shared);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                let _ = stopped.await;
            })
            .await;
    });
    Balancer { url, hits, _stop: stop }
}

async fn forward(State(shared): State<Shared>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let Ok(body) = axum::body::to_bytes(body, 16 << 20).await else {
        return (StatusCode::BAD_REQUEST, "unreadable body").into_response();
    };
    let method = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|message| message["method"].as_str().map(str::to_owned))
        .unwrap_or_else(|| parts.method.to_string());
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str()).to_owned();
    let count = shared.upstreams.len();
    for _ in 0..count {
        let index = shared.next.fetch_add(1, Ordering::Relaxed) % count;
        let mut upstream = shared.client.request(parts.method.clone(), format!("{}{path}", shared.upstreams[index]));
        for (name, value) in &parts.headers {
            if name != "host" && name != "content-length" {
                upstream = upstream.header(name, value);
            }
        }
        match upstream.body(body.clone()).send().await {
            Ok(answer) => {
                shared.hits.lock().unwrap().push((index, method));
                let mut response = Response::builder().status(answer.status().as_u16());
                for (name, value) in answer.headers() {
                    if name != "transfer-encoding" && name != "content-length" {
                        response = response.header(HeaderName::from_bytes(name.as_ref()).unwrap(), value.as_bytes());
                    }
                }
                return response.body(Body::from_stream(answer.bytes_stream())).unwrap();
            }
            // Never reached the replica: the next one may take it.
            Err(error) if error.is_connect() => {}
            Err(error) => return (StatusCode::BAD_GATEWAY, format!("the replica failed: {error}")).into_response(),
        }
    }
    (StatusCode::BAD_GATEWAY, "no replica answered").into_response()
}
