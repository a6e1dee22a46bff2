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

#[derive(Debug, tool_core::ToolArgs)]
struct SlowWeather {
    /// City name
    #[param(min_length = 1)]
    city: String,
    /// Days to forecast
    #[param(minimum = 1, maximum = 10)]
    days: u8,
}

/// Get the weather forecast for a city
#[tool_core::tool(name = "get_weather", read_only)]
async fn slow_weather(args: SlowWeather) -> String {
    // A tool that takes seconds, as a fetch or a query does.
    tokio::time::sleep(Duration::from_secs(2)).await;
    format!("{}: sunny, 21 °C, every one of the next {} day(s)", args.city, args.days)
}

/// One run's first round, stopped before the second request: the calls of its turn, and in
/// milliseconds from the request: the turn's end (its stream), the first call's start and the
/// round's end (the last call's). `None` when the turn held fewer than two calls.
struct Round {
    calls: u32,
    stream: f64,
    first_start: f64,
    end: f64,
}

async fn first_round(api: Api, early: bool, one_at_a_time: bool) -> Option<Round> {
    use tool_core::agent::Event;
    let mut registry = tool_core::Registry::new();
    registry.add(SlowWeatherTool).unwrap();
    let marks = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = std::sync::Arc::clone(&marks);
    let cancel = tool_core::context::CancellationToken::new();
    let stop = cancel.clone();
    let agent = Agent::new(model(api, true), registry)
        .system("You are a helpful assistant. Use the tools when the question needs them.")
        // `llama.cpp` lets a turn hold one call unless asked for more.
        .sampling(Sampling::new().temperature(0.0).seed(42).max_tokens(300).parallel_tool_calls(true))
        .max_concurrency(if one_at_a_time { 1 } else { 8 })
        .early_calls(if early { tool_core::agent::EarlyCalls::SafeTools } else { tool_core::agent::EarlyCalls::Never })
        .on_event(move |event| {
            let mark = match event {
                Event::ModelRequest { round: 1, .. } => "request",
                Event::ModelResponse { round: 1, .. } => "response",
                Event::ToolStarted { .. } => "started",
                Event::ToolFinished { .. } => "finished",
                Event::TurnStarted { round: 2 } => {
                    // The figure is the first round's: the run stops here.
                    stop.cancel();
                    return;
                }
                _ => return,
            };
            sink.lock().unwrap().push((mark, Instant::now()));
        });
    let mut conversation = agent.conversation();
    let question = "Get the 2-day weather forecast for Paris and the 5-day forecast for Tokyo.";
    let _ = tokio::time::timeout(super::HANG, agent.run_until(&mut conversation, question, &cancel)).await;
    let marks = marks.lock().unwrap().clone();
    let at = |mark: &str| marks.iter().find(|(name, _)| *name == mark).map(|(_, at)| *at);
    let ms = |from: Instant, to: Instant| to.duration_since(from).as_secs_f64() * 1e3;
    let (request, response, first) = (at("request")?, at("response")?, at("started")?);
    let finished: Vec<Instant> = marks.iter().filter(|(name, _)| *name == "finished").map(|(_, at)| *at).collect();
    let round = Round {
        calls: u32::try_from(finished.len()).unwrap_or(u32::MAX),
        stream: ms(request, response),
        first_start: ms(request, first),
        end: ms(request, *finished.iter().max()?),
    };
    (round.calls >= 2).then_some(round)
}

/// The median of `values`.
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

#[tokio::test]
#[ignore = "a benchmark against the real model: bash tests/bench/early.sh"]
async fn a_round_with_and_without_early_calls() {
    let api = Api::OpenAiChat;
    println!("| calls run | early calls | runs | turn's stream | first call starts | round | round after the stream |");
    println!("|---|---|---|---|---|---|---|");
    for one_at_a_time in [false, true] {
        // A first run, not counted, fills the server's prompt cache.
        let _ = first_round(api, false, one_at_a_time).await;
        let (mut with, mut without) = (Vec::new(), Vec::new());
        // Interleaved, so that the server's prompt cache and the machine's load favour neither;
        // bounded: a model that keeps writing one call gives fewer runs, said in the table;
        // each pair in turn starts with the other.
        for pair in 0..8 {
            if with.len() == 5 && without.len() == 5 {
                break;
            }
            for early in [pair % 2 == 0, pair % 2 == 1] {
                let runs = if early { &mut with } else { &mut without };
                if let Some(round) = first_round(api, early, one_at_a_time).await
                    && runs.len() < 5
                {
                    runs.push(round);
                }
            }
        }
        for (early, runs) in [(true, &with), (false, &without)] {
            let pick = |value: fn(&Round) -> f64| median(runs.iter().map(value).collect());
            println!(
                "| {} | {early} | {} ({} calls each) | {:.0} ms | {:.0} ms | {:.0} ms | {:.0} ms |",
                if one_at_a_time { "one at a time" } else { "together" },
                runs.len(),
                median(runs.iter().map(|run| f64::from(run.calls)).collect()),
                pick(|run| run.stream),
                pick(|run| run.first_start),
                pick(|run| run.end),
                pick(|run| run.end - run.stream),
            );
        }
    }
}
