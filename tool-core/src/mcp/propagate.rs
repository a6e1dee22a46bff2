//! W3C trace context across MCP (SEP-414): `traceparent`, `tracestate` and `baggage` travel
//! in a request's `params._meta`. The remote-MCP client writes its span's context there, and
//! the server continues the caller's trace from it, so one trace runs from an agent's
//! `invoke_agent` through its `execute_tool` to the remote server's `tools/call`. With the
//! `otel` feature, through tracing-opentelemetry and the propagator the program installed
//! (`opentelemetry::global::set_text_map_propagator`); without it, nothing is read or written.

use rmcp::model::MetaObject;

/// Writes `span`'s trace context into `meta`.
#[cfg(feature = "otel")]
#[cfg_attr(
    not(feature = "mcp-client"),
    expect(dead_code, reason = "the client writes the trace context (feature `mcp-client`)")
)]
pub(in crate::mcp) fn inject(span: &tracing::Span, meta: &mut MetaObject) {
    use tracing_opentelemetry::OpenTelemetrySpanExt as _;
    struct Writer<'a>(&'a mut MetaObject);
    impl opentelemetry::propagation::Injector for Writer<'_> {
        fn set(&mut self, key: &str, value: String) {
            self.0.0.insert(key.to_owned(), serde_json::Value::String(value));
        }
    }
    let context = span.context();
    opentelemetry::global::get_text_map_propagator(|propagator| propagator.inject_context(&context, &mut Writer(meta)));
}

/// Makes the caller's trace in `meta` the parent of `span`, when `meta` carries one.
#[cfg(feature = "otel")]
pub(in crate::mcp) fn continue_trace(span: &tracing::Span, meta: &MetaObject) {
    use tracing_opentelemetry::OpenTelemetrySpanExt as _;
    struct Reader<'a>(&'a MetaObject);
    impl opentelemetry::propagation::Extractor for Reader<'_> {
        fn get(&self, key: &str) -> Option<&str> {
            self.0.0.get(key).and_then(serde_json::Value::as_str)
        }
        fn keys(&self) -> Vec<&str> {
            self.0.0.keys().map(String::as_str).collect()
        }
    }
    if meta.get_traceparent().is_none() {
        return;
    }
    let parent = opentelemetry::global::get_text_map_propagator(|propagator| propagator.extract(&Reader(meta)));
    // Refused only for a span no OpenTelemetry layer records, which has nothing to continue.
    let _ = span.set_parent(parent);
}

#[cfg(not(feature = "otel"))]
#[cfg_attr(
    not(feature = "mcp-client"),
    expect(dead_code, reason = "the client writes the trace context (feature `mcp-client`)")
)]
pub(in crate::mcp) fn inject(_: &tracing::Span, _: &mut MetaObject) {}

#[cfg(not(feature = "otel"))]
pub(in crate::mcp) fn continue_trace(_: &tracing::Span, _: &MetaObject) {}
