//! A server span for every MCP request, in the OpenTelemetry MCP conventions: `handler.rs`
//! answers `initialize`, `ping`, the listings, `prompts/get`, `resources/read`, the
//! subscriptions, completion, `logging/setLevel` and the task methods each in one
//! (`{method} {target}`), as `tools/call` has its own (`call.rs`, which adds the tool's
//! attributes). Without a subscriber a span costs a check.

use core::future::Future;

use rmcp::model::{MetaObject, ProtocolVersion, RequestId};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

/// What a request is about, as the conventions name it.
#[derive(Clone, Copy)]
pub(in crate::mcp) enum Target<'a> {
    None,
    Prompt(&'a str),
    Resource(&'a str),
}

/// The server span of one request: `{method} {target}` (`otel.name`), kind server, with the
/// method, the JSON-RPC id, the protocol revision, the transport (`tcp` for streamable
/// HTTP, whose requests carry their HTTP parts; `pipe` for stdio), the prompt's name or the
/// resource's URI, and the caller's trace continued from the request's `_meta`.
pub(in crate::mcp) fn request_span(
    method: &str,
    target: Target<'_>,
    context: &RequestContext<RoleServer>,
) -> tracing::Span {
    let version = context.protocol_version();
    let http = context.extensions.get::<axum::http::request::Parts>().is_some();
    let request =
        Request { method, target, id: &context.id, version: version.as_ref().map(ProtocolVersion::as_str), http };
    span_of(&request, Some(&context.meta))
}

/// What a request's span says of it.
pub(in crate::mcp) struct Request<'a> {
    pub(in crate::mcp) method: &'a str,
    pub(in crate::mcp) target: Target<'a>,
    pub(in crate::mcp) id: &'a RequestId,
    pub(in crate::mcp) version: Option<&'a str>,
    pub(in crate::mcp) http: bool,
}

/// [`request_span`] of a request answered outside rmcp's handler (`direct.rs`), whose
/// `_meta` is `meta`.
pub(in crate::mcp) fn span_of(request: &Request<'_>, meta: Option<&MetaObject>) -> tracing::Span {
    let Request { method, target, id, version, http } = *request;
    let (name, prompt, uri) = match target {
        Target::None => (None, None, None),
        Target::Prompt(name) => (Some(name), Some(name), None),
        Target::Resource(uri) => (Some(uri), None, Some(uri)),
    };
    let span = tracing::info_span!(
        "mcp.server.request",
        otel.name = %format_args!("{method}{}{}", if name.is_some() { " " } else { "" }, name.unwrap_or_default()),
        otel.kind = "server",
        mcp.method.name = %method,
        jsonrpc.request.id = %id,
        mcp.protocol.version = version,
        network.transport = if http { "tcp" } else { "pipe" },
        gen_ai.prompt.name = prompt,
        mcp.resource.uri = uri,
        error.type = tracing::field::Empty,
    );
    if !span.is_disabled()
        && let Some(meta) = meta
    {
        crate::telemetry::continue_trace(&span, meta);
    }
    span
}

/// Answers in `span` ([`traced`](crate::telemetry::traced)), recording the error's JSON-RPC
/// code as `error.type` when it fails.
pub(in crate::mcp) async fn answer_in<T>(
    span: tracing::Span,
    answer: impl Future<Output = Result<T, ErrorData>>,
) -> Result<T, ErrorData> {
    crate::telemetry::traced(
        span,
        || answer,
        |span, result| {
            if let Err(error) = result {
                span.record("error.type", error.code.0);
            }
        },
    )
    .await
}
