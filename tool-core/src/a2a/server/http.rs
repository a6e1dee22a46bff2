//! The server's HTTP face: the card, and the JSON-RPC endpoint that checks the envelope (and
//! the caller's token, and the protocol version) before a method runs.

use core::convert::Infallible;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderMap, header};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt as _;
use serde_json::{Map, Value, json};
use tracing::Instrument as _;

use super::auth::Auth;
use super::error::RpcError;
use super::rpc;
use super::shared::Shared;
use super::stream::Answer;
use super::v03;

/// The largest request read, in bytes: a message with a few files inline.
const MAX_BODY: usize = 8 << 20;

pub(super) fn router(shared: Arc<Shared>, card: Value) -> Router {
    let card: Arc<str> = card.to_string().into();
    let auth = shared.auth.clone();
    let rest = Arc::clone(&shared);
    Router::new()
        .route(
            "/.well-known/agent-card.json",
            axum::routing::get(move || {
                let card = Arc::clone(&card);
                async move {
                    let headers =
                        [(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "public, max-age=300")];
                    (headers, card.to_string())
                }
            }),
        )
        .route(
            "/",
            axum::routing::post(move |headers: HeaderMap, body: Bytes| {
                let shared = Arc::clone(&shared);
                async move { endpoint(&shared, &headers, &body).await }
            }),
        )
        .merge(super::rest::routes(&rest))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .merge(metadata(&auth))
}

/// The RFC 9728 metadata document of an OAuth-guarded server, outside the guard: a client
/// reads it to learn where to get a token.
#[cfg(feature = "oauth")]
fn metadata(auth: &Auth) -> Router {
    let Auth::Token(oauth) = auth else { return Router::new() };
    let document: Arc<str> = oauth.metadata(&crate::Registry::new()).to_string().into();
    oauth.metadata_paths().into_iter().fold(Router::new(), |router, path| {
        let document = Arc::clone(&document);
        router.route(
            &path,
            axum::routing::get(move || {
                let document = Arc::clone(&document);
                async move { ([(header::CONTENT_TYPE, "application/json")], document.to_string()) }
            }),
        )
    })
}

#[cfg(not(feature = "oauth"))]
fn metadata(_: &Auth) -> Router {
    Router::new()
}

fn json_response(body: &Value) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response()
}

async fn endpoint(shared: &Arc<Shared>, headers: &HeaderMap, body: &[u8]) -> Response {
    let owner = match shared.auth.caller(headers).await {
        Ok(owner) => owner,
        Err(refusal) => return refusal,
    };
    let request: Value = match serde_json::from_slice(body) {
        Ok(request) => request,
        Err(error) => return json_response(&RpcError::parse(format!("not JSON: {error}")).response(&Value::Null)),
    };
    let Envelope { id, method, params } = match envelope(&request) {
        Ok(envelope) => envelope,
        Err((id, error)) => return json_response(&error.response(&id)),
    };
    // 0.3's methods are served in 0.3's shapes, whatever the header says (0.3's clients send
    // none); 1.0 requires the header, and a client that omits it but calls 1.0's methods is
    // served; a header naming another version is refused.
    let (method, params, legacy) = match v03::method(method) {
        Some(current) => (current, v03::params(params), true),
        None => (method, params, false),
    };
    let version = headers.get("a2a-version").and_then(|value| value.to_str().ok()).map(str::trim);
    if let Some(version) = version.filter(|version| !legacy && !version.is_empty() && !version.starts_with("1.")) {
        return json_response(&RpcError::version(version).response(&id));
    }
    let shape = move |result: Value| if legacy { v03::result(result) } else { result };
    let span = tracing::info_span!(
        "a2a.server",
        otel.name = %method,
        otel.kind = "server",
        rpc.system = "jsonrpc",
        rpc.method = %method,
        network.transport = "tcp",
    );
    crate::telemetry::continue_trace(&span, headers);
    let streaming = matches!(method, "SendStreamingMessage" | "SubscribeToTask");
    let answer = rpc::call(shared, method, &params, owner).instrument(span).await;
    match answer {
        Ok(Answer::Result(result)) => json_response(&json!({"jsonrpc": "2.0", "id": id, "result": shape(result)})),
        Ok(Answer::Stream(events)) => {
            let events = events.responses(id).map(move |mut response| {
                response["result"] = shape(response["result"].take());
                Ok::<_, Infallible>(Event::default().data(response.to_string()))
            });
            Sse::new(events).into_response()
        }
        // A client that asked for a stream gets the error as the stream's one event.
        Err(error) if streaming && accepts_stream(headers) => {
            let event = Event::default().data(error.response(&id).to_string());
            Sse::new(futures_util::stream::once(async move { Ok::<_, Infallible>(event) })).into_response()
        }
        Err(error) => json_response(&error.response(&id)),
    }
}

/// Whether the request's `Accept` names server-sent events.
fn accepts_stream(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|accept| accept.contains("text/event-stream"))
}

/// What a JSON-RPC 2.0 request holds.
struct Envelope<'a> {
    id: Value,
    method: &'a str,
    params: Map<String, Value>,
}

/// The envelope of a JSON-RPC 2.0 request; the error, with the id to answer it under, when
/// it is not one.
fn envelope(request: &Value) -> Result<Envelope<'_>, (Value, RpcError)> {
    let Some(request) = request.as_object() else {
        return Err((Value::Null, RpcError::invalid_request("a request is a JSON object (batches are not served)")));
    };
    let id = match request.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        Some(Value::Null) | None => {
            return Err((Value::Null, RpcError::invalid_request("id: every A2A request needs a string or number id")));
        }
        Some(_) => return Err((Value::Null, RpcError::invalid_request("id: must be a string or a number"))),
    };
    if request.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err((id, RpcError::invalid_request("jsonrpc: must be \"2.0\"")));
    }
    let Some(method) = request.get("method").and_then(Value::as_str) else {
        return Err((id, RpcError::invalid_request("method: a string is required")));
    };
    let params = match request.get("params") {
        None => Map::new(),
        Some(Value::Object(params)) => params.clone(),
        Some(_) => return Err((id, RpcError::invalid_params("params: must be an object"))),
    };
    Ok(Envelope { id, method, params })
}
