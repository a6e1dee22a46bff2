//! The agent's spans, in the OpenTelemetry `GenAI` conventions: a run is `invoke_agent`, each
//! model request a `chat` inside it (each tool call is the registry's `execute_tool`).

use super::model::Api;

/// A run's span, in the OpenTelemetry gen-AI conventions: its token usage and `error.type`
/// are recorded when it ends.
pub(super) fn invoke_agent_span(api: Api) -> tracing::Span {
    tracing::info_span!(
        "invoke_agent",
        otel.name = "invoke_agent",
        gen_ai.operation.name = "invoke_agent",
        gen_ai.provider.name = api.provider_name(),
        gen_ai.usage.input_tokens = tracing::field::Empty,
        gen_ai.usage.output_tokens = tracing::field::Empty,
        error.type = tracing::field::Empty,
    )
}

/// A model request's span, inside its run's.
pub(super) fn chat_span(api: Api) -> tracing::Span {
    tracing::info_span!(
        "chat",
        otel.name = "chat",
        otel.kind = "client",
        gen_ai.operation.name = "chat",
        gen_ai.provider.name = api.provider_name(),
        gen_ai.usage.input_tokens = tracing::field::Empty,
        gen_ai.usage.output_tokens = tracing::field::Empty,
        error.type = tracing::field::Empty,
    )
}
