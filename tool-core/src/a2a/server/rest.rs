//! The HTTP+JSON binding of 1.0 beside the JSON-RPC one, on the same methods: `POST
//! /message:send` and `/message:stream`, `GET /tasks/{id}`, `GET /tasks`, `POST
//! /tasks/{id}:cancel` and `/tasks/{id}:subscribe`; results as the bodies, streams as events
//! of bare results, errors as an HTTP status and a `google.rpc.Status`.

use core::convert::Infallible;
use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, Query};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::StreamExt as _;
use serde_json::{Map, Value, json};
use tracing::Instrument as _;

use super::error::RpcError;
use super::rpc;
use super::shared::Shared;
use super::stream::Answer;

/// The binding's routes, relative to the interface's URL.
pub(super) fn routes(shared: &Arc<Shared>) -> Router {
    let send = |method: &'static str| {
        let shared = Arc::clone(shared);
        post(move |headers: HeaderMap, body: Bytes| {
            let shared = Arc::clone(&shared);
            async move { respond(&shared, &headers, method, body_params(&body)).await }
        })
    };
    let (list, task_get, task_post) = (Arc::clone(shared), Arc::clone(shared), Arc::clone(shared));
    Router::new()
        .route("/message:send", send("SendMessage"))
        .route("/message:stream", send("SendStreamingMessage"))
        .route(
            "/tasks",
            get(move |headers: HeaderMap, Query(query): Query<HashMap<String, String>>| {
                let shared = Arc::clone(&list);
                async move { respond(&shared, &headers, "ListTasks", Ok(query_params(query))).await }
            }),
        )
        .route(
            "/tasks/{*task}",
            get(move |headers: HeaderMap, Path(task): Path<String>, Query(query): Query<HashMap<String, String>>| {
                let shared = Arc::clone(&task_get);
                async move {
                    let mut params = query_params(query);
                    params.insert("id".to_owned(), json!(task));
                    respond(&shared, &headers, "GetTask", Ok(params)).await
                }
            })
            .post(move |headers: HeaderMap, Path(task): Path<String>| {
                let shared = Arc::clone(&task_post);
                async move {
                    let (id, method) = match task.rsplit_once(':') {
                        Some((id, "cancel")) => (id, "CancelTask"),
                        Some((id, "subscribe")) => (id, "SubscribeToTask"),
                        _ => return (StatusCode::NOT_FOUND, "no such method of a task").into_response(),
                    };
                    let mut params = Map::new();
                    params.insert("id".to_owned(), json!(id));
                    respond(&shared, &headers, method, Ok(params)).await
                }
            }),
        )
}

/// A request body as a method's params.
fn body_params(body: &[u8]) -> Result<Map<String, Value>, RpcError> {
    match serde_json::from_slice(body) {
        Ok(Value::Object(params)) => Ok(params),
        Ok(_) => Err(RpcError::invalid_params("the body must be a JSON object")),
        Err(error) => Err(RpcError::parse(format!("not JSON: {error}"))),
    }
}

/// Query parameters as a method's params: numbers and booleans as JSON ones, so that the
/// method checks each as it checks a JSON-RPC request's.
fn query_params(query: HashMap<String, String>) -> Map<String, Value> {
    query
        .into_iter()
        .map(|(key, text)| {
            let value = match text.as_str() {
                "true" => json!(true),
                "false" => json!(false),
                _ => text.parse::<u64>().map_or_else(|_| json!(text), |n| json!(n)),
            };
            (key, value)
        })
        .collect()
}

async fn respond(
    shared: &Arc<Shared>,
    headers: &HeaderMap,
    method: &'static str,
    params: Result<Map<String, Value>, RpcError>,
) -> Response {
    let owner = match shared.auth.caller(headers).await {
        Ok(owner) => owner,
        Err(refusal) => return refusal,
    };
    let version = headers.get("a2a-version").and_then(|value| value.to_str().ok()).map(str::trim);
    let params = match version.filter(|version| !version.is_empty() && !version.starts_with("1.")) {
        Some(version) => Err(RpcError::version(version)),
        None => params,
    };
    let span = tracing::info_span!(
        "a2a.server",
        otel.name = method,
        otel.kind = "server",
        rpc.system = "http",
        rpc.method = method,
        network.transport = "tcp",
    );
    crate::telemetry::continue_trace(&span, headers);
    let answer = match params {
        Ok(params) => rpc::call(shared, method, &params, owner).instrument(span).await,
        Err(error) => Err(error),
    };
    let json = |status: u16, body: &Value| {
        let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, [(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response()
    };
    match answer {
        Ok(Answer::Result(result)) => json(200, &result),
        Ok(Answer::Stream(events)) => {
            let events = events.results().map(|event| Ok::<_, Infallible>(Event::default().data(event.to_string())));
            Sse::new(events).into_response()
        }
        Err(error) => {
            let (status, body) = error.http();
            json(status, &body)
        }
    }
}
