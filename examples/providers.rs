//! One set of tools in every provider's dialect, and a recorded response from each provider
//! (the examples of their documentation) parsed, run and answered.
#![allow(clippy::print_stdout)] // an example prints what it shows

use serde_json::json;
use tool_core::provider::{self, ToolChoice, anthropic, gemini, mcp_json, openai};
use tool_core::{Registry, ToolArgs, tool};

#[derive(Debug, ToolArgs)]
struct WeatherArgs {
    /// City name
    #[param(min_length = 1, max_length = 80)]
    city: Option<String>,
    /// City and state, e.g. San Francisco, CA
    location: Option<String>,
    #[param(enum = ["celsius", "fahrenheit"])]
    unit: Option<String>,
}

/// Get the current weather
#[tool(title = "Weather", read_only, idempotent)]
fn get_weather(args: WeatherArgs) -> String {
    let place = args.city.or(args.location).unwrap_or_default();
    format!("Sunny in {place}, 22 {}", args.unit.as_deref().unwrap_or("celsius"))
}

/// Runs the calls on a minimal executor: the crate imposes no runtime.
fn run(registry: &Registry, calls: &[provider::ToolCall]) -> Vec<provider::CallResult> {
    let mut future = Box::pin(provider::run_calls(registry, calls));
    let waker = std::task::Waker::noop();
    let mut cx = std::task::Context::from_waker(waker);
    loop {
        // Every tool here is plain, so the future is ready on the first poll.
        if let std::task::Poll::Ready(results) = future.as_mut().poll(&mut cx) {
            return results;
        }
    }
}

/// Prints a tool list exactly as it would be sent (key order included).
fn show(title: &str, json: &str) {
    println!("== {title}\n{json}\n");
}

fn main() {
    let registry = Registry::collect().expect("tool names are unique");

    show("OpenAI Chat Completions tools (strict by default)", &openai::chat_tools(registry.iter(), true).json);
    show("OpenAI Responses tools", &openai::responses_tools(registry.iter(), false).json);
    show("Anthropic tools (strict)", &anthropic::tools(registry.iter(), true).json);
    show(
        "Gemini functionDeclarations (parameters)",
        &gemini::tools(registry.iter(), gemini::SchemaField::Parameters).json,
    );
    show("MCP tools/list", &mcp_json::tools_list(registry.iter()).json);
    let choice = ToolChoice::Tool("get_weather".to_owned());
    println!(
        "== tool_choice: OpenAI {}, Anthropic {}, Gemini {}\n",
        openai::chat_tool_choice(&choice, &registry).expect("known tool"),
        anthropic::tool_choice(&choice, &registry, false).expect("known tool"),
        gemini::tool_config(&choice, &registry).expect("known tool")
    );

    let chat = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "call_abc123", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
        {"id": "call_def456", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"\",\"unit\":\"kelvin\"}"}}
    ]}, "finish_reason": "tool_calls"}]});
    let calls = openai::parse_chat_completion(&chat).expect("documented shape");
    println!("== OpenAI answers\n{:#}\n", json!(openai::tool_messages(&run(&registry, &calls))));

    let message = json!({"role": "assistant", "stop_reason": "tool_use", "content": [
        {"type": "text", "text": "I'll check the weather."},
        {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather", "input": {"location": "San Francisco, CA", "unit": "celsius"}}
    ]});
    let calls = anthropic::parse_message(&message).expect("documented shape");
    println!("== Anthropic answer\n{:#}\n", anthropic::tool_results_message(&run(&registry, &calls), None));

    let candidate = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}
    ]}}]});
    let calls = gemini::parse_candidate(&candidate).expect("documented shape");
    println!("== Gemini answer\n{:#}\n", gemini::function_responses(&run(&registry, &calls)));

    let request = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"location": "New York"}}});
    let call = mcp_json::parse_tools_call(&request).expect("documented shape");
    let results = run(&registry, std::slice::from_ref(&call));
    println!("== MCP answer\n{:#}", mcp_json::call_tool_response(&request["id"], &results[0]));
}
