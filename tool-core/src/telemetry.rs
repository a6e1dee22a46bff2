//! W3C trace context across every protocol the crate speaks, written once: a [`Carrier`] (read)
//! or [`CarrierMut`] (written) is where a request carries `traceparent`, `tracestate` and `baggage` (an MCP request's
//! `params._meta`, SEP-414; an A2A request's HTTP headers), [`inject`] writes a span's
//! context into one, and [`continue_trace`] makes the caller's trace the parent of a server's
//! span, so one trace runs from an agent's `invoke_agent` through its `execute_tool` into the
//! remote server or agent. With the `otel` feature, through tracing-opentelemetry and the
//! propagator the program installed (`opentelemetry::global::set_text_map_propagator`);
//! without it, nothing is read or written.

/// Where a server reads a request's trace context: text values under text keys.
#[cfg(any(feature = "mcp", feature = "a2a-server"))]
pub(crate) trait Carrier {
    /// The value under `key`, when it is text.
    #[cfg_attr(not(feature = "otel"), expect(dead_code, reason = "read by the propagator (feature `otel`)"))]
    fn get(&self, key: &str) -> Option<&str>;
    /// Every key it holds.
    #[cfg_attr(not(feature = "otel"), expect(dead_code, reason = "read by the propagator (feature `otel`)"))]
    fn keys(&self) -> Vec<&str>;
}

/// Where a client writes its span's trace context.
#[cfg(any(feature = "mcp-client", all(feature = "a2a", feature = "otel")))]
pub(crate) trait CarrierMut {
    /// Sets `key` to `value`; a carrier that cannot hold it (a header name with a space) drops it.
    #[cfg_attr(not(feature = "otel"), expect(dead_code, reason = "written by the propagator (feature `otel`)"))]
    fn set(&mut self, key: &str, value: String);
}

/// Writes `span`'s trace context into `carrier`.
#[cfg(all(feature = "otel", any(feature = "mcp-client", feature = "a2a")))]
pub(crate) fn inject(span: &tracing::Span, carrier: &mut impl CarrierMut) {
    use tracing_opentelemetry::OpenTelemetrySpanExt as _;
    struct Writer<'a, C>(&'a mut C);
    impl<C: CarrierMut> opentelemetry::propagation::Injector for Writer<'_, C> {
        fn set(&mut self, key: &str, value: String) {
            self.0.set(key, value);
        }
    }
    let context = span.context();
    opentelemetry::global::get_text_map_propagator(|propagator| {
        propagator.inject_context(&context, &mut Writer(carrier));
    });
}

/// Makes the caller's trace in `carrier` the parent of `span`, when it carries one.
#[cfg(all(feature = "otel", any(feature = "mcp", feature = "a2a-server")))]
pub(crate) fn continue_trace(span: &tracing::Span, carrier: &impl Carrier) {
    use tracing_opentelemetry::OpenTelemetrySpanExt as _;
    struct Reader<'a, C>(&'a C);
    impl<C: Carrier> opentelemetry::propagation::Extractor for Reader<'_, C> {
        fn get(&self, key: &str) -> Option<&str> {
            self.0.get(key)
        }
        fn keys(&self) -> Vec<&str> {
            self.0.keys()
        }
    }
    if carrier.get("traceparent").is_none() {
        return;
    }
    let parent = opentelemetry::global::get_text_map_propagator(|propagator| propagator.extract(&Reader(carrier)));
    // Refused only for a span no OpenTelemetry layer records, which has nothing to continue.
    let _ = span.set_parent(parent);
}

#[cfg(all(not(feature = "otel"), feature = "mcp-client"))]
pub(crate) fn inject(_: &tracing::Span, _: &mut impl CarrierMut) {}

#[cfg(all(not(feature = "otel"), any(feature = "mcp", feature = "a2a-server")))]
pub(crate) fn continue_trace(_: &tracing::Span, _: &impl Carrier) {}

/// An MCP request's `params._meta`.
#[cfg(feature = "mcp")]
impl Carrier for rmcp::model::MetaObject {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(serde_json::Value::as_str)
    }
    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }
}

#[cfg(feature = "mcp-client")]
impl CarrierMut for rmcp::model::MetaObject {
    fn set(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), serde_json::Value::String(value));
    }
}

/// HTTP headers (A2A's requests).
#[cfg(feature = "a2a-server")]
impl Carrier for reqwest::header::HeaderMap {
    fn get(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(|value| value.to_str().ok())
    }
    fn keys(&self) -> Vec<&str> {
        self.keys().map(reqwest::header::HeaderName::as_str).collect()
    }
}

#[cfg(all(feature = "a2a", feature = "otel"))]
impl CarrierMut for reqwest::header::HeaderMap {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(name), Ok(value)) =
            (reqwest::header::HeaderName::try_from(key), reqwest::header::HeaderValue::try_from(value))
        {
            self.insert(name, value);
        }
    }
}
