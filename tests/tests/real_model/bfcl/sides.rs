//! The two ways a case is put to the model: one Chat Completions request written by hand, as
//! BFCL's own `OpenAI` handler writes it, and the agent loop with the same functions as
//! `DynamicTool`s, stopped once a batch of calls has run (`StopAfter::when`), so that a call
//! the tools refused goes back to the model to be mended.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tool_core::agent::{Agent, Api, Event, StopAfter};
use tool_core::provider::Sampling;
use tool_core::{DynamicTool, Registry, ToolOutput};

use super::data::{Case, Category, tool};
use super::grade::Call;

/// The most tokens either side lets the model write in a turn: four calls fit.
const MAX_TOKENS: u32 = 512;

/// What one side got for a case.
#[derive(Debug, Default)]
pub struct Answer {
    /// The calls, as the model made them (bare) or as the functions received them (loop).
    pub calls: Vec<Call>,
    /// From the request to the answer.
    pub elapsed: Duration,
    /// The model's turns.
    pub rounds: usize,
    /// Why the side ended without calls, when it failed rather than answered in text.
    pub error: Option<String>,
}

/// Steady sampling, the same on both sides; no prompt cache, so that whichever side goes first
/// pays what the other does. Several calls a turn only where the category wants them, as a
/// user asks `llama.cpp` for them.
fn sampling(category: Category) -> Sampling {
    let sampling = Sampling::new().temperature(0.0).seed(42).max_tokens(MAX_TOKENS).extra("cache_prompt", false);
    if category == Category::Parallel { sampling.parallel_tool_calls(true) } else { sampling }
}

/// The hand-written request and its calls.
pub async fn bare(client: &reqwest::Client, case: &Case) -> Answer {
    let tools: Vec<Value> = case.functions.iter().map(tool).collect();
    let mut body = json!({
        "model": "qwen2.5-coder-1.5b-instruct",
        "messages": [{"role": "user", "content": case.question}],
        "tools": tools,
        "temperature": 0.0,
        "seed": 42,
        "max_completion_tokens": MAX_TOKENS,
        "cache_prompt": false,
    });
    if case.category == Category::Parallel {
        body["parallel_tool_calls"] = json!(true);
    }
    let started = Instant::now();
    let sent =
        client.post(format!("{}/v1/chat/completions", crate::server())).json(&body).timeout(crate::HANG).send().await;
    let reply: Result<Value, String> = match sent {
        Ok(response) => response.json().await.map_err(|error| error.to_string()),
        Err(error) => Err(error.to_string()),
    };
    let elapsed = started.elapsed();
    let reply = match reply {
        Ok(reply) => reply,
        Err(error) => return Answer { elapsed, error: Some(error), ..Answer::default() },
    };
    let calls = reply["choices"][0]["message"]["tool_calls"].as_array().cloned().unwrap_or_default();
    let calls = calls
        .iter()
        .map(|call| {
            let function = &call["function"];
            let text = function["arguments"].as_str().unwrap_or_default();
            // Arguments that are not JSON stay text, which no answer accepts (BFCL's decoding fails).
            let arguments = serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()));
            (function["name"].as_str().unwrap_or_default().to_owned(), arguments)
        })
        .collect();
    let error = reply.get("error").map(Value::to_string);
    Answer { calls, elapsed, rounds: 1, error }
}

/// The agent loop, with the crate's defaults (streaming, every call checked against its
/// schema) and at most three turns, and the calls its functions received: stopped once a
/// batch has run (`stop`), or left to give its answer, as a run without a stop behaviour is.
pub async fn through_loop(case: &Case, stop: bool) -> Answer {
    let received: Arc<Mutex<Vec<Call>>> = Arc::default();
    let mut registry = Registry::new();
    for function in &case.functions {
        let offered = tool(function);
        let name = offered["function"]["name"].as_str().unwrap_or_default().to_owned();
        let sink = Arc::clone(&received);
        let recorded = name.clone();
        let made = DynamicTool::new(
            name,
            offered["function"]["description"].as_str().unwrap_or_default(),
            &offered["function"]["parameters"].to_string(),
            move |_context, arguments| {
                sink.lock().unwrap().push((recorded.clone(), Value::Object(arguments)));
                async { Ok(ToolOutput::text("done")) }
            },
        );
        if let Err(error) = made.and_then(|made| registry.add_dynamic(made).map(|_| ())) {
            return Answer { error: Some(format!("the loop refused the tool: {error}")), ..Answer::default() };
        }
    }
    let turns = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&turns);
    let stop_after =
        if stop { StopAfter::when(|runs| runs.iter().all(|run| run.result.outcome.is_ok())) } else { StopAfter::Never };
    let agent = Agent::new(crate::model(Api::OpenAiChat, true), registry)
        .sampling(sampling(case.category))
        .max_rounds(3)
        .stop_after(stop_after)
        .on_event(move |event| {
            if let Event::ModelResponse { .. } = event {
                counted.fetch_add(1, Ordering::Relaxed);
            }
        });
    let mut conversation = agent.conversation();
    let started = Instant::now();
    let outcome = tokio::time::timeout(crate::HANG, agent.run(&mut conversation, case.question.as_str())).await;
    let elapsed = started.elapsed();
    let error = match outcome {
        Ok(Ok(_)) => None,
        Ok(Err(error)) => Some(error.to_string()),
        Err(_) => Some("no answer in time".to_owned()),
    };
    let rounds = turns.load(Ordering::Relaxed);
    let calls = received.lock().unwrap().clone();
    Answer { calls, elapsed, rounds, error }
}
