//! Spans as an OpenTelemetry pipeline exports them: tracing-opentelemetry into the SDK's
//! in-memory exporter, the W3C trace-context propagator installed.

use opentelemetry::trace::{SpanKind, TracerProvider as _};
use opentelemetry::{KeyValue, Value as OtelValue};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use tracing_subscriber::layer::SubscriberExt as _;

/// Records every span of this thread into an in-memory exporter while the guard lives.
pub struct Exported {
    exporter: InMemorySpanExporter,
    provider: SdkTracerProvider,
    _guard: tracing::subscriber::DefaultGuard,
}

impl Exported {
    pub fn start() -> Exported {
        opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
        let exporter = InMemorySpanExporter::default();
        let provider = SdkTracerProvider::builder().with_simple_exporter(exporter.clone()).build();
        let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("tool-tests"));
        let guard = tracing::subscriber::set_default(tracing_subscriber::registry().with(layer));
        Exported { exporter, provider, _guard: guard }
    }

    pub fn spans(&self) -> Vec<SpanData> {
        self.provider.force_flush().unwrap();
        self.exporter.get_finished_spans().unwrap()
    }
}

/// The one span named `name` of kind `kind`.
pub fn find<'a>(spans: &'a [SpanData], name: &str, kind: &SpanKind) -> &'a SpanData {
    let found: Vec<&SpanData> = spans.iter().filter(|span| span.name == name && span.span_kind == *kind).collect();
    let names: Vec<String> = spans.iter().map(|span| format!("{} ({:?})", span.name, span.span_kind)).collect();
    assert_eq!(found.len(), 1, "one `{name}` span of kind {kind:?} among {names:?}");
    found[0]
}

/// The value of attribute `key`.
#[allow(dead_code)] // not every binary reads attributes
pub fn attribute(span: &SpanData, key: &str) -> Option<OtelValue> {
    span.attributes.iter().find(|KeyValue { key: k, .. }| k.as_str() == key).map(|kv| kv.value.clone())
}
