//! The tool loop: a model, the travel tools, the events of the run as they happen, and a
//! typed answer (`TripPlan`), given through a final-answer tool beside the others and checked
//! by its generated validator.
//!
//! ```sh
//! cargo run -p tool-examples --bin agent                      # a scripted model, no network
//! OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_MODEL=llama3.2 cargo run -p tool-examples --bin agent
//! ANTHROPIC_API_KEY=sk-ant-... cargo run -p tool-examples --bin agent
//! ```
//!
//! With `OPENAI_BASE_URL` set it speaks Chat Completions to that server (any
//! OpenAI-compatible one; `OPENAI_API_KEY` and `OPENAI_MODEL` if it needs them); with
//! `ANTHROPIC_API_KEY` set, Anthropic Messages. Otherwise a scripted model replays a
//! recorded conversation.
#![allow(clippy::print_stdout, clippy::print_stderr)] // an example prints what it shows

use std::io::Write as _;
use std::time::Duration;

use serde_json::json;
use tool_core::ToolArgs;
use tool_core::agent::clients::HttpModel;
use tool_core::agent::{Agent, Api, ApprovalPolicy, Event, Model, ScriptedModel, Verdict};
use tool_core::provider::ToolCall;

/// The answer the run must end with.
#[derive(Debug, ToolArgs)]
struct TripPlan {
    /// Two sentences for the traveller
    #[param(min_length = 1)]
    summary: String,
    /// The whole trip's cost, in euros
    #[param(minimum = 0)]
    total_eur: f64,
    /// How many of the forecast days are sunny in Rome
    #[param(maximum = 10)]
    sunny_days: u8,
}

const QUESTION: &str = "I want two nights in Rome and three in Florence. What will the weather be like in Rome \
                        over the next 2 days, and what will the trip cost in EUR?";

/// The model to use: a real one when the environment names one, else the script.
fn model() -> (Box<dyn Model>, &'static str) {
    if std::env::var_os("OPENAI_BASE_URL").is_some() {
        (Box::new(HttpModel::from_env(Api::OpenAiChat)), "OpenAI-compatible server")
    } else if std::env::var_os("ANTHROPIC_API_KEY").is_some() {
        (Box::new(HttpModel::from_env(Api::Anthropic)), "Anthropic")
    } else {
        (Box::new(script()), "scripted model")
    }
}

/// Two recorded Chat Completions turns: both tools called at once, then the answer.
fn script() -> ScriptedModel {
    ScriptedModel::new(
        Api::OpenAiChat,
        [
            json!({"choices": [{"message": {"role": "assistant", "content": "Let me check both.", "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Rome\", \"days\": 2}"}},
                {"id": "call_2", "type": "function", "function": {"name": "estimate_trip",
                    "arguments": "{\"stops\": [{\"city\": \"Rome\", \"nights\": 2}, {\"city\": \"Florence\", \"nights\": 3}], \"currency\": \"EUR\"}"}}
            ]}, "finish_reason": "tool_calls"}], "usage": {"prompt_tokens": 310, "completion_tokens": 61}}),
            json!({"choices": [{"message": {"role": "assistant",
                "content": "{\"summary\": \"Rome will be sunny for the next two days. Five nights come to about 600 EUR.\", \"total_eur\": 600, \"sunny_days\": 2}"},
                "finish_reason": "stop"}], "usage": {"prompt_tokens": 402, "completion_tokens": 24}}),
        ],
    )
}

/// Prints each event as it happens.
fn print(event: &Event) {
    match event {
        Event::TurnStarted { round } => println!("\n-- round {round}"),
        Event::TextDelta(text) => {
            print!("{text}");
            let _ = std::io::stdout().flush();
        }
        Event::ModelResponse { stop, usage, calls, .. } => {
            println!(
                "\n   [model: {stop:?}, {calls} call(s), {} in / {} out tokens]",
                usage.input_tokens, usage.output_tokens
            );
        }
        Event::ToolStarted { id, name } => println!("   -> {name} ({id})"),
        Event::ToolFinished { id, name, is_error, elapsed, .. } => {
            let outcome = if *is_error { "error" } else { "ok" };
            println!("   <- {name} ({id}): {outcome} in {} µs", elapsed.as_micros());
        }
        Event::RunFinished { rounds, usage } => {
            println!("\n-- done in {rounds} rounds, {} tokens", usage.input_tokens + usage.output_tokens);
        }
        _ => {}
    }
}

/// Approves every booking: a real program would ask a person here.
fn approve(call: &ToolCall) -> impl Future<Output = Result<Verdict, String>> + use<> {
    eprintln!("   (approving {} without asking: this is an example)", call.name);
    async { Ok(Verdict::Approve) }
}

#[tokio::main]
async fn main() {
    let (model, which) = model();
    println!("model: {which}\nuser: {QUESTION}");
    let agent = Agent::new(model, tool_examples::registry(120.0))
        .system("You plan trips. Use the tools, then answer with the plan.")
        .max_rounds(4)
        .call_timeout(Duration::from_secs(30))
        .approval(ApprovalPolicy::PerTool, approve, Duration::from_mins(1))
        .on_event(print);
    let mut conversation = agent.conversation();
    match agent.run_for::<TripPlan>(&mut conversation, QUESTION, 2).await {
        Ok(answer) => println!("answer: {:#?}", answer.value),
        Err(error) => {
            eprintln!("the run failed: {error}");
            std::process::exit(1);
        }
    }
}
