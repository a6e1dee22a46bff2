//! Telemetry, written once for every protocol and path: the spans of the OpenTelemetry
//! `GenAI` conventions (`invoke_agent`, `chat`, `execute_tool`) and their token usage, the one
//! way a step runs in its span ([`traced`]), and the W3C trace context.
//!
//! W3C trace context across every protocol the crate speaks: a [`Carrier`] (read) or
//! [`CarrierMut`] (written) is where a request carries `traceparent`, `tracestate` and
//! `baggage` (an MCP request's `params._meta`, SEP-414; an A2A request's HTTP headers),
//! [`inject`] writes a span's
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

/// `start()`'s future, started inside `span` (so the spans it opens are its children) and
/// polled in it; `record` then writes on the span what the outcome says (`error.type`, token
/// usage, a result). A span no subscriber wants costs one check: the future runs bare.
#[cfg(any(feature = "mcp", feature = "agent"))]
pub(crate) async fn traced<T, F: Future<Output = T>>(
    span: tracing::Span,
    start: impl FnOnce() -> F,
    record: impl FnOnce(&tracing::Span, &T),
) -> T {
    if span.is_disabled() {
        return start().await;
    }
    let future = span.in_scope(start);
    let outcome = tracing::Instrument::instrument(future, span.clone()).await;
    record(&span, &outcome);
    outcome
}

/// Token usage on an `invoke_agent` or `chat` span, as the `GenAI` conventions name it.
#[cfg(feature = "agent")]
pub(crate) fn record_usage(span: &tracing::Span, input_tokens: u64, output_tokens: u64) {
    span.record("gen_ai.usage.input_tokens", input_tokens);
    span.record("gen_ai.usage.output_tokens", output_tokens);
}

/// A run's span (`invoke_agent`) for a model of `provider`: its token usage and
/// `error.type` are recorded when it ends.
#[cfg(feature = "agent")]
pub(crate) fn invoke_agent_span(provider: &'static str) -> tracing::Span {
    tracing::info_span!(
        "invoke_agent",
        otel.name = "invoke_agent",
        gen_ai.operation.name = "invoke_agent",
        gen_ai.provider.name = provider,
        gen_ai.usage.input_tokens = tracing::field::Empty,
        gen_ai.usage.output_tokens = tracing::field::Empty,
        error.type = tracing::field::Empty,
    )
}

/// A model request's span (`chat`), inside its run's.
#[cfg(feature = "agent")]
pub(crate) fn chat_span(provider: &'static str) -> tracing::Span {
    tracing::info_span!(
        "chat",
        otel.name = "chat",
        otel.kind = "client",
        gen_ai.operation.name = "chat",
        gen_ai.provider.name = provider,
        gen_ai.usage.input_tokens = tracing::field::Empty,
        gen_ai.usage.output_tokens = tracing::field::Empty,
        error.type = tracing::field::Empty,
    )
}

/// The span of one tool call: `execute_tool {gen_ai.tool.name}` (`otel.name`, which
/// `tracing-opentelemetry` reads), with the operation, the tool's name, the call id, and
/// `error.type` once a call fails. Its fields are evaluated only when a subscriber wants it.
#[cfg(any(feature = "mcp", feature = "agent"))]
pub(crate) fn execute_tool_span(tool: &str, call_id: Option<&str>) -> tracing::Span {
    tracing::info_span!(
        "execute_tool",
        otel.name = %format_args!("execute_tool {tool}"),
        otel.kind = "internal",
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = tool,
        gen_ai.tool.call.id = call_id,
        gen_ai.tool.call.arguments = tracing::field::Empty,
        gen_ai.tool.call.result = tracing::field::Empty,
        error.type = tracing::field::Empty,
    )
}

/// Whether spans carry tool arguments and results, which may hold personal data: only when
/// `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` is `true`, the opt-in the
/// OpenTelemetry generative-AI instrumentations share. Read once.
#[cfg(any(feature = "mcp", feature = "agent"))]
pub(crate) fn capture_content() -> bool {
    static CAPTURE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *CAPTURE.get_or_init(|| {
        std::env::var("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT")
            .is_ok_and(|value| value.eq_ignore_ascii_case("true") || value == "1")
    })
}
