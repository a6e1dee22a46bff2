use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::trace::{SdkTracerProvider, SpanExporter};
use tracing_subscriber::Layer as _;
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt as _;

/// Installs the subscriber below for the whole program. `exporter`:
/// `opentelemetry_otlp::SpanExporter::builder().with_http().build()?` in a program.
pub fn install(exporter: impl SpanExporter + 'static) -> SdkTracerProvider {
    let (subscriber, provider) = subscriber(exporter);
    tracing::subscriber::set_global_default(subscriber).expect("one subscriber");
    provider // keep it; `provider.shutdown()` flushes at exit
}

/// Spans exported through `exporter`, with the W3C trace context carried across MCP. rmcp's
/// own events stay out: at `debug` and `trace` they hold every request and result, tool
/// arguments included, and at `warn` every error answered, which would put them in the
/// exported spans; this crate's spans carry arguments only when asked to
/// (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`).
pub fn subscriber(
    exporter: impl SpanExporter + 'static,
) -> (impl tracing::Subscriber + Send + Sync, SdkTracerProvider) {
    opentelemetry::global::set_text_map_propagator(opentelemetry_sdk::propagation::TraceContextPropagator::new());
    let provider = SdkTracerProvider::builder().with_batch_exporter(exporter).build();
    let content = Targets::new().with_default(LevelFilter::TRACE).with_target("rmcp", LevelFilter::OFF);
    let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("my-server")).with_filter(content);
    (tracing_subscriber::registry().with(layer), provider)
}
