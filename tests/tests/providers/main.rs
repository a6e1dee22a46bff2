//! Every provider's dialect: tool lists, tool calls parsed from documented payloads (the
//! source is named at each), streaming, and the result messages, in call order. Its own
//! binary, so its `get_weather` (the name every provider's documentation uses) has the
//! registry to itself.

use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tool_core::provider::{
    self, Arguments, ArgumentsMode, ModelTurn, StreamReader, ToolCall, ToolChoice, anthropic, gemini, mcp_json, openai,
    parse_arguments,
};
use tool_core::{Registry, ToolArgs, ToolError, tool};
use tool_tests::block_on;

mod llama_server;
mod reasoning;
mod streams;

/// How many times `record` ran; only `partial_or_invalid_arguments_are_never_run` calls it.
static RECORDED: AtomicUsize = AtomicUsize::new(0);

#[derive(Debug, ToolArgs)]
struct RecordArgs {
    city: String,
}

/// Records a city
#[tool]
fn record(args: RecordArgs) -> String {
    RECORDED.fetch_add(1, Ordering::SeqCst);
    format!("recorded {}", args.city)
}

// The union of the argument shapes the providers' documented examples send.
#[derive(Debug, ToolArgs)]
struct WeatherArgs {
    /// City name
    #[param(min_length = 1)]
    city: Option<String>,
    /// City and state, e.g. San Francisco, CA
    location: Option<String>,
    #[param(enum = ["F", "C", "celsius", "fahrenheit"])]
    unit: Option<String>,
}

/// Get current weather for a city
#[tool]
fn get_weather(args: WeatherArgs) -> String {
    let place = args.city.or(args.location).unwrap_or_default();
    format!("Sunny in {place}, 22{}", args.unit.unwrap_or_else(|| "C".to_owned()))
}

#[derive(Debug, ToolArgs)]
struct TimeArgs {
    #[param(pattern = "^[A-Za-z]+/[A-Za-z_]+$")]
    zone: String,
}

/// The local time somewhere.
// An output: it serializes, and needs no `Deserialize`.
#[derive(Debug, serde::Serialize, tool_core::ToolSchema)]
struct LocalTime {
    zone: String,
    #[param(minimum = 0, maximum = 23)]
    hour: u8,
}

/// Get the local time in a zone
#[tool(strict, title = "Local time", read_only, idempotent, open_world = false)]
fn get_time(args: TimeArgs) -> tool_core::Structured<LocalTime> {
    tool_core::Structured(LocalTime { zone: args.zone, hour: 12 })
}

fn registry() -> Registry {
    Registry::collect().expect("unique names")
}

/// Folds `events` (each one's data) through `reader` into its turn.
fn fold(reader: &mut dyn StreamReader, events: impl IntoIterator<Item = String>) -> ModelTurn {
    for data in events {
        reader.push(&data, &mut |_| {}).expect("documented shape");
    }
    reader.finish().expect("a whole stream")
}

fn run(calls: &[ToolCall]) -> Vec<provider::CallResult> {
    let registry = registry();
    block_on(provider::run_calls(&registry, calls))
}

#[test]
fn openai_chat_tools_snapshot() {
    let registry = registry();
    let list = openai::chat_tools(registry.iter().filter(|e| e.name().starts_with("get_")), false);
    assert!(list.fallbacks.is_empty());
    let tools: Value = serde_json::from_str(&list.json).expect("JSON");
    assert_eq!(list.to_value(), tools, "the list as a Value is the text, parsed");
    let definitions = registry.definitions();
    assert_eq!(definitions, serde_json::from_str::<Value>(&registry.definitions_json()).expect("JSON"));
    assert_eq!(definitions[0]["name"], "get_time");
    assert_eq!(
        tools,
        json!([
            {"type": "function", "function": {"name": "get_time", "description": "Get the local time in a zone",
                "parameters": {"type": "object", "properties": {"zone": {"type": "string", "pattern": "^[A-Za-z]+/[A-Za-z_]+$"}},
                    "required": ["zone"], "additionalProperties": false},
                "strict": true}},
            {"type": "function", "function": {"name": "get_weather", "description": "Get current weather for a city",
                "parameters": {"type": "object", "properties": {
                    "city": {"description": "City name", "anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}]},
                    "location": {"description": "City and state, e.g. San Francisco, CA", "anyOf": [{"type": "string"}, {"type": "null"}]},
                    "unit": {"anyOf": [{"type": "string", "enum": ["F", "C", "celsius", "fahrenheit"]}, {"type": "null"}]}},
                    "additionalProperties": false}}}
        ])
    );
    // Strict by default: get_weather's strict form drops `minLength` and requires all.
    let strict: Value = serde_json::from_str(&openai::responses_tools(registry.iter(), true).json).expect("JSON");
    assert_eq!(strict[1]["strict"], true);
    assert_eq!(strict[1]["type"], "function");
    assert_eq!(strict[1]["parameters"]["required"], json!(["city", "location", "unit"]));
    assert!(strict[1]["parameters"]["properties"]["city"].get("minLength").is_none());
}

/// openai-python `types/chat/chat_completion_message_function_tool_call.py`, as quoted in
/// OpenAI's Chat Completions reference (arguments are a JSON string).
#[test]
fn openai_chat_completion_is_parsed_and_answered() {
    let response = json!({
      "id": "chatcmpl-123", "object": "chat.completion",
      "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_abc123", "type": "function",
         "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\",\"unit\":null}"}}
      ]}, "finish_reason": "tool_calls"}]
    });
    let calls = openai::parse_chat_completion(&response).expect("documented shape");
    assert_eq!(
        calls,
        [ToolCall::new(
            "call_abc123".to_owned(),
            "get_weather".to_owned(),
            Arguments::Text(r#"{"city":"Paris","unit":null}"#.to_owned().into())
        )]
    );
    let messages = openai::tool_messages(&run(&calls));
    assert_eq!(messages, [json!({"role": "tool", "tool_call_id": "call_abc123", "content": "Sunny in Paris, 22C"})]);
    // A response without tool calls has none.
    let text_only = json!({"choices": [{"message": {"role": "assistant", "content": "Hi"}}]});
    assert!(openai::parse_chat_completion(&text_only).expect("valid").is_empty());
    assert!(openai::parse_chat_completion(&json!({})).is_err());
}

/// Streaming: `choices[].delta.tool_calls[] = {index, id?, type?, function:{name?, arguments?}}`
/// (openai-python `types/chat/chat_completion_chunk.py`, OpenAI's Chat Completions reference); fragments are
/// joined per index, two calls interleaved.
#[test]
fn openai_stream_deltas_are_accumulated_by_index() {
    let chunks = [
        json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}}]}),
        json!({"choices": [{"delta": {"tool_calls": [{"index": 1, "id": "call_2", "type": "function", "function": {"name": "get_time", "arguments": "{\"zo"}}]}}]}),
        json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{\"city\": \"Os"}}]}}]}),
        json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": "lo\"}"}}]}}]}),
        json!({"choices": [{"delta": {"tool_calls": [{"index": 1, "function": {"arguments": "ne\": \"Europe/Oslo\"}"}}]}}]}),
        json!({"choices": [{"delta": {}, "finish_reason": "tool_calls"}]}),
    ];
    let mut stream = openai::ChatStream::new();
    let calls = fold(&mut stream, chunks.iter().map(Value::to_string).chain(["[DONE]".to_owned()])).calls;
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].arguments, Arguments::Text(r#"{"city": "Oslo"}"#.to_owned().into()));
    let results = run(&calls);
    assert_eq!(
        results.iter().map(provider::CallResult::text).collect::<Vec<_>>(),
        ["Sunny in Oslo, 22C", r#"{"zone":"Europe/Oslo","hour":12}"#]
    );
}

/// openai-python `types/responses/response_function_tool_call.py` (OpenAI's Responses reference).
#[test]
fn openai_responses_output_is_parsed_and_answered() {
    let response = json!({"output": [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "id": "fc_123", "call_id": "call_abc", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}", "status": "completed"}
    ]});
    let calls = openai::parse_responses_output(&response).expect("documented shape");
    assert_eq!(calls[0].id, "call_abc");
    let outputs = openai::function_call_outputs(&run(&calls));
    assert_eq!(
        outputs,
        [json!({"type": "function_call_output", "call_id": "call_abc", "output": "Sunny in Paris, 22C"})]
    );
}

/// anthropic-sdk-python `types/tool_use_block.py` and the tool-use guide's example
/// (Anthropic's Messages reference): `input` is an object; results come first in the user message.
#[test]
fn anthropic_message_is_parsed_and_answered() {
    let message = json!({"id": "msg_01", "role": "assistant", "stop_reason": "tool_use", "content": [
        {"type": "text", "text": "I'll check the weather."},
        {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather",
         "input": {"location": "San Francisco, CA", "unit": "celsius"}},
        {"type": "tool_use", "id": "toolu_02", "name": "get_weather", "input": {"city": "", "unit": "kelvin"}}
    ]});
    let calls = anthropic::parse_message(&message).expect("documented shape");
    let reply = anthropic::tool_results_message(&run(&calls), Some("Anything else?"));
    assert_eq!(reply["role"], "user");
    assert_eq!(
        reply["content"][0],
        json!({"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
        "content": "Sunny in San Francisco, CA, 22celsius", "is_error": false})
    );
    assert_eq!(reply["content"][1]["is_error"], true);
    assert!(reply["content"][1]["content"].as_str().is_some_and(|t| t.contains("/unit: must be one of")));
    assert_eq!(reply["content"][2], json!({"type": "text", "text": "Anything else?"}));
    let tools: Value = serde_json::from_str(&anthropic::tools(registry().iter(), false).json).expect("JSON");
    assert_eq!(tools[0]["strict"], true); // get_time asks for it
    assert!(tools[1].get("strict").is_none());
    assert_eq!(tools[1]["input_schema"]["type"], "object");
}

/// Streaming events as the Messages streaming guide shows them: `content_block_start`
/// with a `tool_use`, then `input_json_delta` fragments.
#[test]
fn anthropic_input_json_deltas_are_accumulated() {
    let events = [
        json!({"type": "message_start", "message": {"id": "msg_1", "content": []}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Let me check"}}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": ""}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"location\": \"San Fra"}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "ncisco, CA\"}"}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
        json!({"type": "message_stop"}),
    ];
    let turn = fold(&mut anthropic::MessageStream::new(), events.iter().map(Value::to_string));
    assert_eq!(turn.text, "Let me check");
    let calls = turn.calls;
    assert_eq!(calls.len(), 1);
    assert_eq!(run(&calls)[0].text(), "Sunny in San Francisco, CA, 22C");
}

/// python-genai `FunctionCall` (Gemini's generateContent reference): `args` is an object, `id` may be missing.
#[test]
fn gemini_candidate_is_parsed_with_stable_ids_and_answered() {
    let response = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"id": "fc-1", "name": "get_weather", "args": {"city": "Paris"}}},
        {"functionCall": {"name": "get_weather", "args": {"city": ""}}}
    ]}}]});
    let calls = gemini::parse_candidate(&response).expect("documented shape");
    assert_eq!(calls[0].id, "fc-1");
    assert_eq!(calls[1].id, "gemini-call-1-get_weather");
    assert_eq!(gemini::parse_candidate(&response).expect("same"), calls, "ids are stable");
    let reply = gemini::function_responses(&run(&calls));
    assert_eq!(
        reply["parts"][0],
        json!({"functionResponse": {"id": "fc-1", "name": "get_weather", "response": {"output": "Sunny in Paris, 22C"}}})
    );
    assert!(reply["parts"][1]["functionResponse"]["response"]["error"].as_str().is_some_and(|e| e.contains("/city")));
    let tools: Value =
        serde_json::from_str(&gemini::tools(registry().iter(), gemini::SchemaField::Parameters).json).expect("JSON");
    assert_eq!(
        tools[0]["functionDeclarations"][1]["parameters"]["properties"]["city"],
        json!({"description": "City name", "type": "STRING", "nullable": true, "minLength": 1})
    );
    let json_schema: Value =
        serde_json::from_str(&gemini::tools(registry().iter(), gemini::SchemaField::ParametersJsonSchema).json)
            .expect("JSON");
    assert!(json_schema[0]["functionDeclarations"][1]["parametersJsonSchema"]["additionalProperties"] == false);
}

/// The MCP specification's `tools/call` example (server/tools.mdx, MCP specification).
#[test]
fn mcp_tools_call_is_parsed_and_answered() {
    let request = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"location": "New York"}}});
    let call = mcp_json::parse_tools_call(&request).expect("documented shape");
    assert_eq!(call.id, "2");
    let results = run(std::slice::from_ref(&call));
    assert_eq!(
        mcp_json::call_tool_response(&request["id"], &results[0]),
        json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "Sunny in New York, 22C"}], "isError": false}})
    );
    // Invalid arguments are a tool execution error; an unknown tool a protocol error.
    let bad = mcp_json::parse_tools_call(&json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": 1}}})).expect("shape");
    assert_eq!(mcp_json::call_tool_response(&json!(3), &run(&[bad])[0])["result"]["isError"], true);
    let unknown = mcp_json::parse_tools_call(
        &json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "invalid_tool_name"}}),
    )
    .expect("shape");
    assert_eq!(
        mcp_json::call_tool_response(&json!(4), &run(&[unknown])[0]),
        json!({"jsonrpc": "2.0", "id": 4, "error": {"code": -32602, "message": "Unknown tool: invalid_tool_name"}})
    );
    let tools: Value = serde_json::from_str(&mcp_json::tools_list(registry().iter()).json).expect("JSON");
    assert_eq!(tools[1]["inputSchema"]["type"], "object");
    assert!(tools[1].get("annotations").is_none());
    assert_eq!(tools[0]["title"], "Local time");
    assert_eq!(
        tools[0]["outputSchema"],
        json!({"description": "The local time somewhere.", "type": "object",
        "properties": {"zone": {"type": "string"}, "hour": {"type": "integer", "minimum": 0, "maximum": 23}},
        "required": ["zone", "hour"], "additionalProperties": false})
    );
    assert!(tools[1].get("outputSchema").is_none());
    // Structured output is sent as structuredContent, and as text.
    let call = mcp_json::parse_tools_call(&json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "get_time", "arguments": {"zone": "Asia/Tokyo"}}})).expect("shape");
    let answer = mcp_json::call_tool_response(&json!(9), &run(&[call])[0]);
    assert_eq!(answer["result"]["structuredContent"], json!({"zone": "Asia/Tokyo", "hour": 12}));
    assert_eq!(answer["result"]["content"][0]["text"], r#"{"zone":"Asia/Tokyo","hour":12}"#);
    assert_eq!(
        tools[0]["annotations"],
        json!({"title": "Local time", "readOnlyHint": true, "idempotentHint": true, "openWorldHint": false})
    );
}

#[test]
fn partial_or_invalid_arguments_are_never_run() {
    let calls = [
        ToolCall::new("a", "record", Arguments::Text(r#"{"city": "Par"#.into())),
        ToolCall::new("b", "record", Arguments::Text("city=Paris".into())),
        ToolCall::new("c", "record", Arguments::Text("```json\n{\"city\": \"Rome\",}\n```".into())),
    ];
    let results = run(&calls);
    assert_eq!(
        results.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        ["a", "b", "c"],
        "one result per call, in order"
    );
    assert!(matches!(&results[0].outcome, Err(ToolError::InvalidJson { message }) if message.contains("end early")));
    assert!(matches!(&results[1].outcome, Err(ToolError::InvalidJson { .. })));
    assert_eq!(results[2].text(), "recorded Rome"); // repaired
    assert_eq!(RECORDED.load(Ordering::SeqCst), 1, "only the repaired call ran");
    assert_eq!(parse_arguments(r#"{"city": "Par"#).mode, ArgumentsMode::Partial);
}

#[test]
fn tool_choice_in_every_vocabulary_checks_names() {
    let registry = registry();
    let named = ToolChoice::Tool("get_weather".to_owned());
    assert_eq!(
        openai::chat_tool_choice(&named, &registry).expect("known"),
        json!({"type": "function", "function": {"name": "get_weather"}})
    );
    assert_eq!(
        openai::responses_tool_choice(&named, &registry).expect("known"),
        json!({"type": "function", "name": "get_weather"})
    );
    assert_eq!(
        anthropic::tool_choice(&named, &registry, true).expect("known"),
        json!({"type": "tool", "name": "get_weather", "disable_parallel_tool_use": true})
    );
    assert_eq!(
        gemini::tool_config(&named, &registry).expect("known"),
        json!({"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}})
    );
    let allowed = ToolChoice::Allowed { tools: vec!["get_time".to_owned()], required: true };
    assert_eq!(openai::chat_tool_choice(&allowed, &registry).expect("known")["allowed_tools"]["mode"], "required");
    assert_eq!(anthropic::tool_choice(&ToolChoice::Required, &registry, false).expect("ok")["type"], "any");
    assert_eq!(
        gemini::tool_config(&ToolChoice::None, &registry).expect("ok"),
        json!({"functionCallingConfig": {"mode": "NONE"}})
    );
    assert_eq!(openai::chat_tool_choice(&ToolChoice::Auto, &registry).expect("ok"), json!("auto"));
    let unknown = ToolChoice::Tool("nope".to_owned());
    assert!(matches!(openai::chat_tool_choice(&unknown, &registry), Err(ToolError::UnknownTool { .. })));
    assert!(
        anthropic::tool_choice(
            &ToolChoice::Allowed { tools: vec!["nope".to_owned()], required: false },
            &registry,
            false
        )
        .is_err()
    );
}

#[test]
fn a_tool_choice_that_asks_for_a_call_needs_a_tool_in_every_vocabulary() {
    let empty = Registry::new();
    let asking = [
        ToolChoice::Required,
        ToolChoice::Tool("get_weather".to_owned()),
        ToolChoice::Allowed { tools: vec!["get_weather".to_owned()], required: false },
    ];
    for choice in &asking {
        for api in
            [provider::Api::OpenAiChat, provider::Api::OpenAiResponses, provider::Api::Anthropic, provider::Api::Gemini]
        {
            assert_eq!(api.tool_choice(choice, &empty), Err(ToolError::NoTools), "{api:?} {choice:?}");
        }
        assert_eq!(openai::chat_tool_choice(choice, &empty), Err(ToolError::NoTools));
        assert_eq!(openai::responses_tool_choice(choice, &empty), Err(ToolError::NoTools));
        assert_eq!(anthropic::tool_choice(choice, &empty, false), Err(ToolError::NoTools));
        assert_eq!(gemini::tool_config(choice, &empty), Err(ToolError::NoTools));
    }
    // Letting the model decide, or asking for no call, needs no tool.
    assert_eq!(openai::chat_tool_choice(&ToolChoice::Auto, &empty), Ok(json!("auto")));
    assert!(gemini::tool_config(&ToolChoice::None, &empty).is_ok());
    assert_eq!(ToolError::NoTools.kind(), "no_tools");
}
