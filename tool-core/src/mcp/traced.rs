//! A server span for every MCP request, in the OpenTelemetry MCP conventions: `handler.rs`
//! answers `initialize`, `ping`, the listings, `prompts/get`, `resources/read`, the
//! subscriptions, completion, `logging/setLevel` and the task methods each in one
//! (`{method} {target}`), as `tools/call` has its own (`call.rs`, which adds the tool's
//! attributes). Without a subscriber a span costs a check.

use core::future::Future;

use rmcp::model::ProtocolVersion;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

/// What a request is about, as the conventions name it.
#[derive(Clone, Copy)]
pub(super) enum Target<'a> {
    None,
    Prompt(&'a str),
    Resource(&'a str),
}

/// The server span of one request: `{method} {target}` (`otel.name`), kind server, with the
/// method, the JSON-RPC id, the protocol revision, the transport (`tcp` for streamable
/// HTTP, whose requests carry their HTTP parts; `pipe` for stdio), the prompt's name or the
/// resource's URI, and the caller's trace continued from the request's `_meta`.
pub(super) fn request_span(method: &str, target: Target<'_>, context: &RequestContext<RoleServer>) -> tracing::Span {
    let (name, prompt, uri) = match target {
        Target::None => (None, None, None),
        Target::Prompt(name) => (Some(name), Some(name), None),
        Target::Resource(uri) => (Some(uri), None, Some(uri)),
    };
    let version = context.protocol_version();
    let http = context.extensions.get::<axum::http::request::Parts>().is_some();
    let span = tracing::info_span!(
        "mcp.server.request",
        otel.name = %format_args!("{method}{}{}", if name.is_some() { " " } else { "" }, name.unwrap_or_default()),
        otel.kind = "server",
        mcp.method.name = %method,
        jsonrpc.request.id = %context.id,
        mcp.protocol.version = version.as_ref().map(ProtocolVersion::as_str),
        network.transport = if http { "tcp" } else { "pipe" },
        gen_ai.prompt.name = prompt,
        mcp.resource.uri = uri,
        error.type = tracing::field::Empty,
    );
    if !span.is_disabled() {
        super::propagate::continue_trace(&span, &context.meta);
    }
    span
}

/// Answers in `span`, recording the error's JSON-RPC code as `error.type` when it fails.
pub(super) async fn traced<T>(
    span: tracing::Span,
    answer: impl Future<Output = Result<T, ErrorData>>,
) -> Result<T, ErrorData> {
    if span.is_disabled() {
        return answer.await;
    }
    let result = tracing::Instrument::instrument(answer, span.clone()).await;
    if let Err(error) = &result {
        span.record("error.type", error.code.0);
    }
    result
}
