//! W3C trace context across A2A: the client writes its span's `traceparent` (and
//! `tracestate`, `baggage`) as HTTP headers, and the server continues the caller's trace from
//! them, so one trace runs from an agent's tool call into the remote agent's run. With the
//! `otel` feature, through tracing-opentelemetry and the propagator the program installed
//! (`opentelemetry::global::set_text_map_propagator`); without it, nothing is read or written.

use reqwest::header::HeaderMap;

/// The headers carrying the current span's trace context.
#[cfg(feature = "otel")]
pub(crate) fn headers() -> HeaderMap {
    use tracing_opentelemetry::OpenTelemetrySpanExt as _;
    struct Writer(HeaderMap);
    impl opentelemetry::propagation::Injector for Writer {
        fn set(&mut self, key: &str, value: String) {
            if let (Ok(name), Ok(value)) =
                (reqwest::header::HeaderName::try_from(key), reqwest::header::HeaderValue::try_from(value))
            {
                self.0.insert(name, value);
            }
        }
    }
    let context = tracing::Span::current().context();
    let mut writer = Writer(HeaderMap::new());
    opentelemetry::global::get_text_map_propagator(|propagator| propagator.inject_context(&context, &mut writer));
    writer.0
}

#[cfg(not(feature = "otel"))]
pub(crate) fn headers() -> HeaderMap {
    HeaderMap::new()
}

/// Makes the caller's trace in `headers` the parent of `span`, when they carry one.
#[cfg(all(feature = "otel", feature = "a2a-server"))]
pub(crate) fn continue_trace(span: &tracing::Span, headers: &HeaderMap) {
    use tracing_opentelemetry::OpenTelemetrySpanExt as _;
    struct Reader<'a>(&'a HeaderMap);
    impl opentelemetry::propagation::Extractor for Reader<'_> {
        fn get(&self, key: &str) -> Option<&str> {
            self.0.get(key).and_then(|value| value.to_str().ok())
        }
        fn keys(&self) -> Vec<&str> {
            self.0.keys().map(reqwest::header::HeaderName::as_str).collect()
        }
    }
    if !headers.contains_key("traceparent") {
        return;
    }
    let parent = opentelemetry::global::get_text_map_propagator(|propagator| propagator.extract(&Reader(headers)));
    // Refused only for a span no OpenTelemetry layer records, which has nothing to continue.
    let _ = span.set_parent(parent);
}

#[cfg(all(not(feature = "otel"), feature = "a2a-server"))]
pub(crate) fn continue_trace(_: &tracing::Span, _: &HeaderMap) {}
