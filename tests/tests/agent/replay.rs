//! A server on 127.0.0.1 that answers each request with the next recorded response (status,
//! headers, body, whole or as server-sent events) and keeps what it was sent.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde_json::Value;

/// One recorded response.
#[derive(Debug, Clone)]
pub struct Canned {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: String,
}

impl Canned {
    pub fn json(body: &Value) -> Self {
        Canned { status: 200, headers: vec![("content-type", "application/json".to_owned())], body: body.to_string() }
    }

    /// Server-sent events, one `data:` line each (with an `event:` line when named).
    pub fn sse(events: &[(Option<&str>, Value)]) -> Self {
        use std::fmt::Write as _;
        let mut body = String::new();
        for (name, data) in events {
            if let Some(name) = name {
                let _ = writeln!(body, "event: {name}");
            }
            let _ = write!(body, "data: {data}\n\n");
        }
        Canned { status: 200, headers: vec![("content-type", "text/event-stream".to_owned())], body }
    }

    pub fn raw_sse(body: &str) -> Self {
        Canned { status: 200, headers: vec![("content-type", "text/event-stream".to_owned())], body: body.to_owned() }
    }

    pub fn status(status: u16, body: &str) -> Self {
        Canned { status, headers: Vec::new(), body: body.to_owned() }
    }

    pub fn header(mut self, name: &'static str, value: &str) -> Self {
        self.headers.push((name, value.to_owned()));
        self
    }
}

/// A request as received.
#[derive(Debug, Clone)]
pub struct Received {
    pub path: String,
    pub headers: HeaderMap,
    pub body: Value,
}

#[derive(Default)]
struct Script {
    responses: Mutex<VecDeque<Canned>>,
    received: Mutex<Vec<Received>>,
}

pub struct Replay {
    pub addr: SocketAddr,
    script: Arc<Script>,
}

impl Replay {
    pub async fn start(responses: impl IntoIterator<Item = Canned>) -> Replay {
        let script =
            Arc::new(Script { responses: Mutex::new(responses.into_iter().collect()), received: Mutex::default() });
        let app = Router::new().fallback(answer).with_state(Arc::clone(&script));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        Replay { addr, script }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn received(&self) -> Vec<Received> {
        self.script.received.lock().unwrap().clone()
    }
}

async fn answer(State(script): State<Arc<Script>>, request: Request) -> Response {
    let path = request.uri().path_and_query().map(ToString::to_string).unwrap_or_default();
    let headers = request.headers().clone();
    let bytes = axum::body::to_bytes(request.into_body(), 1 << 20).await.unwrap_or_default();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    script.received.lock().unwrap().push(Received { path, headers, body });
    let canned =
        script.responses.lock().unwrap().pop_front().unwrap_or_else(|| Canned::status(599, "no more responses"));
    let mut response = Response::builder().status(StatusCode::from_u16(canned.status).unwrap());
    for (name, value) in canned.headers {
        response = response.header(name, value);
    }
    response.body(Body::from(canned.body)).unwrap()
}
