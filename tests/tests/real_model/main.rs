//! The agent against a real model: `llama.cpp`'s server with Qwen2.5-Coder-1.5B-Instruct on
//! 127.0.0.1, through Chat Completions, Responses and Anthropic Messages. Run by
//! `bash tests/llm/run.sh`, which installs and starts the server and sets `TOOL_LLM_URL`;
//! `#[ignore]`d in the ordinary suite.
//!
//! Each test asserts what the crate guarantees, whatever the model writes: every call
//! answered exactly once and in order in the history sent back; a violation fed back with its
//! pointer; a typed answer validated; approvals asked before a call runs; deltas before the
//! call starts; a cancelled run answering what it started; no panic and no hang (each run is
//! bounded by a generous timeout). Temperature 0 and a fixed seed keep the model steady, and
//! what it did is printed, never asserted.
#![allow(clippy::print_stdout, clippy::print_stderr, reason = "a run against a real model prints what the model did")]

mod bfcl;
mod checks;
mod figures;
mod scenarios;

use std::time::Duration;

use tool_core::agent::clients::HttpModel;
use tool_core::agent::{Agent, Api};
use tool_core::provider::Sampling;
use tool_core::{Registry, ToolArgs, tool};

/// The three APIs the server speaks (it has no Gemini endpoint).
const APIS: [Api; 3] = [Api::OpenAiChat, Api::OpenAiResponses, Api::Anthropic];

/// A run may take this long before the test calls it a hang: a round is a few seconds on 2
/// cores, a run a few rounds.
const HANG: Duration = Duration::from_mins(5);

#[derive(Debug, ToolArgs)]
struct Weather {
    /// City name
    #[param(min_length = 1)]
    city: String,
    /// Days to forecast
    #[param(minimum = 1, maximum = 10)]
    days: u8,
}

/// Get the weather forecast for a city
#[tool(read_only)]
fn get_weather(args: Weather) -> String {
    format!("{}: sunny, 21 °C, every one of the next {} day(s)", args.city, args.days)
}

#[derive(Debug, ToolArgs)]
struct FilePath {
    /// The file's path
    #[param(min_length = 1)]
    path: String,
}

/// Delete a file
#[tool(requires_approval, destructive)]
fn delete_file(args: FilePath) -> String {
    format!("deleted {}", args.path)
}

/// The server's base URL, from `tests/llm/run.sh`.
fn server() -> String {
    std::env::var("TOOL_LLM_URL").expect("TOOL_LLM_URL: run these through `bash tests/llm/run.sh`")
}

/// A client of `api` on the server, streamed or not.
fn model(api: Api, stream: bool) -> HttpModel {
    let base = match api {
        Api::Anthropic => server(),
        _ => format!("{}/v1", server()),
    };
    // The default retries: a request on a kept-alive connection the server has since closed
    // fails before anything is sent, and is tried again.
    HttpModel::new(api, base, "qwen2.5-coder-1.5b-instruct").stream(stream)
}

/// The tools: the forecast and the file deletion that needs approval.
fn tools() -> Registry {
    let mut registry = Registry::new();
    registry.add(GetWeatherTool).unwrap().add(DeleteFileTool).unwrap();
    registry
}

/// An agent on `api` with the tools, steady sampling and a few rounds.
fn agent(api: Api, stream: bool) -> Agent {
    Agent::new(model(api, stream), tools())
        .system("You are a helpful assistant. Use the tools when the question needs them.")
        .sampling(Sampling::new().temperature(0.0).seed(42).max_tokens(400))
        .max_rounds(4)
        .call_timeout(Duration::from_secs(30))
}
