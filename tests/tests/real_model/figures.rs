//! The loop's own share of a run's time (`bash tests/bench/llm.sh`, figures in
//! `docs/performance.md`): an agent run with one call (question, call, result, answer)
//! against the same two requests sent bare with reqwest, bodies written by hand, interleaved
//! in the same process. Prompt caching is off on both sides (`cache_prompt: false`), so each
//! request costs the server the same whichever comes first. Prints; asserts nothing about
//! time.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tool_core::agent::{Agent, Api};
use tool_core::provider::Sampling;

use super::{model, server, tools};

const QUESTION: &str = "What is the weather in Paris for the next 3 days?";

/// The sampling both sides use.
fn sampling() -> Sampling {
    Sampling::new().temperature(0.0).seed(42).max_tokens(200).extra("cache_prompt", false)
}

/// The body a bare client writes for `history` on `api`.
fn bare_body(api: Api, history: &[Value], tools: &Value) -> (String, Value) {
    let base = server();
    match api {
        Api::OpenAiChat => (
            format!("{base}/v1/chat/completions"),
            json!({"model": "m", "messages": history, "tools": tools, "temperature": 0.0, "seed": 42,
                   "max_completion_tokens": 200, "cache_prompt": false}),
        ),
        Api::OpenAiResponses => (
            format!("{base}/v1/responses"),
            json!({"model": "m", "input": history, "tools": tools, "temperature": 0.0, "max_output_tokens": 200,
                   "cache_prompt": false}),
        ),
        _ => (
            format!("{base}/v1/messages"),
            json!({"model": "m", "max_tokens": 200, "messages": history, "tools": tools, "temperature": 0.0,
                   "cache_prompt": false}),
        ),
    }
}

#[tokio::test]
#[ignore = "a benchmark against the real model: bash tests/bench/llm.sh"]
async fn the_loops_share_of_a_run() {
    let client = reqwest::Client::new();
    let registry = tools();
    println!("| API | agent run (2 requests) | the same 2 requests, bare | loop's share |");
    println!("|---|---|---|---|");
    for api in super::APIS {
        let tools = api.tools(&registry, true);
        let (mut with_agent, mut bare) = (Duration::ZERO, Duration::ZERO);
        let runs = 3_u32;
        for _ in 0..runs {
            let agent = Agent::new(model(api, false), super::tools()).sampling(sampling()).max_rounds(2);
            let mut conversation = agent.conversation();
            let started = Instant::now();
            let outcome = agent.run(&mut conversation, QUESTION).await;
            with_agent += started.elapsed();
            let rounds = outcome.as_ref().map_or(0, |outcome| outcome.rounds);
            // The requests the agent sent: the history before each of its turns.
            let items = conversation.items();
            let turns: Vec<usize> = (0..items.len())
                .filter(|&i| is_assistant(api, &items[i]) && (i == 0 || !is_assistant(api, &items[i - 1])))
                .collect();
            let started = Instant::now();
            for &turn in turns.iter().take(rounds) {
                let (url, body) = bare_body(api, &items[..turn], &tools);
                let response = client.post(url).json(&body).send().await.expect("the server answers");
                let _: Value = response.json().await.expect("a JSON response");
            }
            bare += started.elapsed();
        }
        let (agent_ms, bare_ms) =
            (with_agent.as_secs_f64() * 1e3 / f64::from(runs), bare.as_secs_f64() * 1e3 / f64::from(runs));
        println!("| {api:?} | {agent_ms:.0} ms | {bare_ms:.0} ms | {:+.1}% |", (agent_ms - bare_ms) / bare_ms * 100.0);
    }
}

/// Whether `item` is the model's turn in `api`'s history.
fn is_assistant(api: Api, item: &Value) -> bool {
    match api {
        Api::OpenAiResponses => item["type"] == "function_call" || item["type"] == "message",
        _ => item["role"] == "assistant",
    }
}
