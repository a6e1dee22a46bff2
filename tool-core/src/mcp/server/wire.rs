//! Between this crate's types and rmcp's model. Each conversion goes through the MCP wire
//! form that `provider::mcp_json` writes, so there is one rendering of every block, tool and
//! result, and rmcp's `#[non_exhaustive]` types are built by their own `Deserialize`; the
//! one exception is a text result, on every call's path, which a test holds to that form.

use std::sync::Arc;

#[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
use rmcp::model::{
    CallToolResult, ContentBlock, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
    ElicitationAction, ListRootsResult, LoggingLevel, Tool,
};
use serde_json::{Value, json};

use crate::content::Content;
use crate::context::{
    ElicitationAnswer, ElicitationRequest, HostError, LogLevel, Role, Root, SamplingRequest, SamplingResponse,
    UrlElicitation,
};
use crate::error::ToolError;
use crate::output::ToolOutput;
use crate::provider::mcp_json::{call_tool_result, content_block, tools_list};
use crate::registry::Registry;

/// rmcp's tool list for `registry`, from the MCP dialect, in the order the tools were
/// added: parsed once per registry, with each schema's keys in declaration order
/// (`preserve_order`).
pub(crate) fn tools(registry: &Registry) -> Result<Arc<[Tool]>, serde_json::Error> {
    let tools: Vec<Tool> = serde_json::from_str(&tools_list(registry.in_added_order()).json)?;
    Ok(tools.into())
}

/// A call's outcome as rmcp's `CallToolResult`, from its MCP wire form, marked
/// `resultType: "complete"` as 2026-07-28 requires (SEP-2322; rmcp strips it for older
/// revisions, as its own constructors expect).
pub(crate) fn call_result(outcome: &Result<ToolOutput, ToolError>) -> CallToolResult {
    if let Ok(output) = outcome
        && let Some(result) = text_result(output)
    {
        return result;
    }
    match serde_json::from_value::<CallToolResult>(call_tool_result(outcome)) {
        Ok(mut result) => {
            result.result_type = Some(rmcp::model::ResultType::COMPLETE);
            result
        }
        Err(_) => error_result("the result could not be sent"),
    }
}

/// The common result, text blocks and perhaps a structured object, built straight from
/// rmcp's constructors: through the wire form it would cost a `Value` tree and its parse,
/// a large share of the handler's work per call (`docs/performance.md`). The rest take the
/// wire form; a test shows both give the same JSON.
fn text_result(output: &ToolOutput) -> Option<CallToolResult> {
    let blocks = output.content();
    if !blocks.iter().all(|block| matches!(block, Content::Text(_))) {
        return None;
    }
    // A structured value that is not an object is left out, as the wire form leaves it out.
    let structured = output.structured().filter(|value| value.is_object()).cloned();
    let content = blocks.iter().filter_map(|block| {
        if let Content::Text(text) = block { Some(ContentBlock::text(text.as_str())) } else { None }
    });
    let mut result = CallToolResult::success(content.collect());
    result.structured_content = structured;
    Some(result)
}

/// A failed call as the result the model reads (`isError: true`), so it can correct itself.
pub(crate) fn error_result(text: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

#[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
pub(crate) fn logging_level(level: LogLevel) -> LoggingLevel {
    match level {
        LogLevel::Debug => LoggingLevel::Debug,
        LogLevel::Info => LoggingLevel::Info,
        LogLevel::Notice => LoggingLevel::Notice,
        LogLevel::Warning => LoggingLevel::Warning,
        LogLevel::Error => LoggingLevel::Error,
        LogLevel::Critical => LoggingLevel::Critical,
        LogLevel::Alert => LoggingLevel::Alert,
        LogLevel::Emergency => LoggingLevel::Emergency,
    }
}

#[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
pub(crate) fn log_level(level: LoggingLevel) -> LogLevel {
    match level {
        LoggingLevel::Debug => LogLevel::Debug,
        LoggingLevel::Info => LogLevel::Info,
        LoggingLevel::Notice => LogLevel::Notice,
        LoggingLevel::Warning => LogLevel::Warning,
        LoggingLevel::Error => LogLevel::Error,
        LoggingLevel::Critical => LogLevel::Critical,
        LoggingLevel::Alert => LogLevel::Alert,
        LoggingLevel::Emergency => LogLevel::Emergency,
    }
}

fn role(role: Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Assistant => "assistant",
    }
}

fn failed(what: &str, error: impl std::fmt::Display) -> HostError {
    HostError::Failed { message: format!("{what}: {error}") }
}

/// `sampling/createMessage` params for `request`, as JSON: numbers as given (rmcp's own
/// params hold the temperature as an `f32`, which widens `0.7` to `0.699999988079071`).
pub(crate) fn sampling_wire(request: &SamplingRequest) -> Value {
    let messages: Vec<Value> = request
        .messages
        .iter()
        .map(|message| json!({"role": role(message.role), "content": content_block(&message.content)}))
        .collect();
    let mut params = json!({"messages": messages, "maxTokens": request.max_tokens});
    if let Some(system_prompt) = &request.system_prompt {
        params["systemPrompt"] = json!(system_prompt);
    }
    if let Some(temperature) = request.temperature {
        params["temperature"] = json!(temperature);
    }
    if !request.stop_sequences.is_empty() {
        params["stopSequences"] = json!(request.stop_sequences);
    }
    if !request.model_hints.is_empty() {
        let hints: Vec<Value> = request.model_hints.iter().map(|name| json!({"name": name})).collect();
        params["modelPreferences"] = json!({"hints": hints});
    }
    params
}

/// [`sampling_wire`] checked against rmcp's model: a request rmcp could not read is refused
/// before it is sent.
#[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
pub(crate) fn sampling_params(request: &SamplingRequest) -> Result<Value, HostError> {
    let params = sampling_wire(request);
    serde_json::from_value::<CreateMessageRequestParams>(params.clone())
        .map_err(|e| failed("the sampling request could not be formed", e))?;
    Ok(params)
}

/// The client's completion, read from its wire form.
#[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
pub(crate) fn sampling_response(result: &CreateMessageResult) -> Result<SamplingResponse, HostError> {
    let wire = serde_json::to_value(result).map_err(|e| failed("unreadable sampling result", e))?;
    let role = if wire["role"] == "assistant" { Role::Assistant } else { Role::User };
    // A client may answer with one block or several; the first is what the model said.
    let block = match &wire["content"] {
        Value::Array(blocks) => blocks.first().cloned().unwrap_or(Value::Null),
        block => block.clone(),
    };
    Ok(SamplingResponse {
        role,
        content: crate::provider::mcp_json::content_from(&block),
        model: wire["model"].as_str().unwrap_or_default().to_owned(),
        stop_reason: wire["stopReason"].as_str().map(str::to_owned),
    })
}

/// `elicitation/create` params (a form) for `request`.
pub(crate) fn elicitation_params(request: ElicitationRequest) -> Result<ElicitRequestParams, HostError> {
    let params = json!({"mode": "form", "message": request.message, "requestedSchema": request.requested_schema});
    serde_json::from_value(params).map_err(|e| failed("the elicitation request could not be formed", e))
}

pub(crate) fn elicitation_answer(result: ElicitResult) -> ElicitationAnswer {
    match result.action {
        ElicitationAction::Accept => ElicitationAnswer::Accept(result.content.unwrap_or_else(|| json!({}))),
        ElicitationAction::Decline => ElicitationAnswer::Decline,
        _ => ElicitationAnswer::Cancel,
    }
}

/// MCP's `-32042`: the call cannot go on until the user has visited `required`.
pub(crate) fn url_elicitation_required(required: &[UrlElicitation]) -> rmcp::ErrorData {
    let elicitations: Vec<Value> = required
        .iter()
        .map(|url| json!({"mode": "url", "message": url.message, "url": url.url, "elicitationId": url.id}))
        .collect();
    let message = if required.len() == 1 {
        "This request requires the user to complete a URL elicitation first".to_owned()
    } else {
        format!("This request requires the user to complete {} URL elicitations first", required.len())
    };
    rmcp::ErrorData::new(rmcp::model::ErrorCode(-32042), message, Some(json!({"elicitations": elicitations})))
}

/// The client's roots, as it named them.
#[expect(deprecated, reason = "SEP-2577 deprecates roots; 2025 clients use them")]
pub(crate) fn roots(result: ListRootsResult) -> Vec<Root> {
    let root = |root: rmcp::model::Root| Root { uri: root.uri, name: root.name };
    result.roots.into_iter().map(root).collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{call_result, call_tool_result};
    use crate::content::{Content, Media};
    use crate::error::ToolError;
    use crate::output::ToolOutput;

    /// The direct path gives the JSON the wire form gives, for every shape it takes and for
    /// those it leaves to the wire form.
    #[test]
    fn text_results_are_the_wire_forms() {
        let outcomes: Vec<Result<ToolOutput, ToolError>> = vec![
            Ok(ToolOutput::text("bench")),
            Ok(ToolOutput::text("")),
            Ok(ToolOutput::new([])),
            Ok(ToolOutput::new([Content::Text("a".into()), Content::Text("b\n\"c\"".into())])),
            Ok(ToolOutput::text("{\"hour\":3}").with_structured(json!({"hour": 3}))),
            Ok(ToolOutput::text("[1]").with_structured(json!([1]))),
            Ok(ToolOutput::new([
                Content::Text("a".into()),
                Content::Image(Media { data: "AAAA".into(), mime_type: "image/png".into() }),
            ])),
            Err(ToolError::Failed { tool: "t".into(), message: "no".into() }),
        ];
        for outcome in &outcomes {
            let mut expected: rmcp::model::CallToolResult =
                serde_json::from_value(call_tool_result(outcome)).expect("the wire form parses");
            expected.result_type = Some(rmcp::model::ResultType::COMPLETE);
            assert_eq!(
                serde_json::to_value(call_result(outcome)).unwrap(),
                serde_json::to_value(expected).unwrap(),
                "{outcome:?}"
            );
        }
    }
}
