//! The scenarios, each through every API the server speaks where the API matters.

use std::sync::{Arc, Mutex};

use tool_core::agent::{Answer, Api, Event, Hooks, RunError, Verdict};
use tool_core::context::CancellationToken;
use tool_core::provider::{Arguments, ToolCall};
use tool_core::{Registry, ToolArgs};

use super::checks::{answered_once_in_order, calls_and_results, settled};
use super::{APIS, HANG, agent};

/// Runs `user` on `api` with `agent`, bounded by [`HANG`]; the history and the outcome.
async fn run(
    agent: &tool_core::agent::Agent,
    user: &str,
) -> (tool_core::agent::Conversation, Result<tool_core::agent::RunOutcome, RunError>) {
    let mut conversation = agent.conversation();
    let outcome = tokio::time::timeout(HANG, agent.run(&mut conversation, user)).await.expect("the run hung");
    (conversation, outcome)
}

#[tokio::test]
#[ignore = "needs the real model: bash tests/llm/run.sh"]
async fn one_call_and_its_result() {
    for api in APIS {
        let (conversation, outcome) =
            run(&agent(api, false), "What is the weather in Paris for the next 3 days?").await;
        let outcome = outcome.unwrap_or_else(|error| panic!("{api:?}: {error}"));
        answered_once_in_order(api, &conversation, &outcome);
    }
}

#[tokio::test]
#[ignore = "needs the real model: bash tests/llm/run.sh"]
async fn two_calls_in_one_turn() {
    for api in APIS {
        let question = "What is the weather for the next 2 days in Paris, and for the next 5 days in Tokyo?";
        let (conversation, outcome) = run(&agent(api, false), question).await;
        settled(api, &conversation, &outcome);
    }
}

#[tokio::test]
#[ignore = "needs the real model: bash tests/llm/run.sh"]
async fn a_run_told_to_stop_after_its_tools_ends_with_their_outputs() {
    for api in APIS {
        let agent = agent(api, false).stop_after(tool_core::agent::StopAfter::FirstTools);
        let (conversation, outcome) = run(&agent, "What is the weather in Paris for the next 3 days?").await;
        let outcome = outcome.unwrap_or_else(|error| panic!("{api:?}: {error}"));
        let (calls, results) = calls_and_results(api, &conversation);
        assert_eq!(calls, results, "{api:?}: every call is answered");
        if outcome.tool_runs.is_empty() {
            // The model answered at once: nothing to stop after.
            assert_eq!(outcome.stopped, None, "{api:?}");
            continue;
        }
        // What the crate guarantees: one round, the model not asked again, the outputs as text.
        assert_eq!((outcome.rounds, outcome.stopped), (1, Some(tool_core::agent::Stopped::AfterTools)), "{api:?}");
        let outputs: Vec<String> = outcome
            .tool_runs
            .iter()
            .map(|run| match &run.result.outcome {
                Ok(output) => output.to_text().into_owned(),
                Err(error) => error.to_string(),
            })
            .collect();
        assert_eq!(outcome.text, outputs.join("\n\n"), "{api:?}");
    }
}

/// Turns the first forecast call's `days` into 99, which the schema refuses.
struct SpoilFirst(Mutex<bool>);

impl Hooks for SpoilFirst {
    fn prepare(&self, call: &mut ToolCall) {
        let mut spoilt = self.0.lock().unwrap();
        if call.name == "get_weather" && !*spoilt {
            *spoilt = true;
            let mut arguments: serde_json::Value = serde_json::from_str(&call.arguments.to_text()).unwrap_or_default();
            arguments["days"] = 99.into();
            call.arguments = Arguments::Value(arguments);
        }
    }
}

#[tokio::test]
#[ignore = "needs the real model: bash tests/llm/run.sh"]
async fn a_violation_goes_back_with_its_pointer() {
    let api = Api::OpenAiChat;
    let agent = agent(api, false).hooks(SpoilFirst(Mutex::new(false)));
    let (conversation, outcome) = run(&agent, "What is the weather in Rome for the next 2 days?").await;
    settled(api, &conversation, &outcome);
    let (calls, _) = calls_and_results(api, &conversation);
    let first = calls.first().expect("the model called the forecast");
    let sent = conversation.items().iter().find(|item| item["tool_call_id"] == first.as_str()).unwrap();
    let sent = sent["content"].as_str().unwrap();
    assert!(sent.contains("/days: must be <= 10, got 99"), "the violation and its pointer went back: {sent}");
}

#[derive(Debug, ToolArgs)]
struct Forecast {
    /// The city
    #[param(min_length = 1)]
    city: String,
    /// The forecast, in a few words
    #[param(min_length = 1)]
    summary: String,
}

#[tokio::test]
#[ignore = "needs the real model: bash tests/llm/run.sh"]
async fn a_typed_answer_in_the_same_run_as_a_tool() {
    for api in APIS {
        let agent = agent(api, false);
        let mut conversation = agent.conversation();
        let question = "Look up the weather in Oslo for the next 2 days, then give me the forecast.";
        let answer = tokio::time::timeout(HANG, agent.run_for::<Forecast>(&mut conversation, question, 2))
            .await
            .expect("the run hung");
        match answer {
            Ok(Answer { value, run, .. }) => {
                answered_once_in_order(api, &conversation, &run);
                assert!(!value.city.is_empty() && !value.summary.is_empty(), "validated: {value:?}");
                println!("  {api:?} answer: {value:?}");
            }
            // The model may never give a valid answer: the crate's part is to say so, typed.
            Err(error @ (RunError::InvalidOutput { .. } | RunError::RoundLimit { .. })) => {
                println!("  {api:?} no valid answer: {error}");
            }
            Err(error) => panic!("{api:?}: {error}"),
        }
    }
}

#[tokio::test]
#[ignore = "needs the real model: bash tests/llm/run.sh"]
async fn streamed_call_deltas_come_before_the_call_starts() {
    for api in APIS {
        let events: Arc<Mutex<Vec<Event>>> = Arc::default();
        let sink = Arc::clone(&events);
        let agent = agent(api, true).on_event(move |event| sink.lock().unwrap().push(event.clone()));
        let (conversation, outcome) = run(&agent, "What is the weather in Berlin for the next 4 days?").await;
        let outcome = outcome.unwrap_or_else(|error| panic!("{api:?}: {error}"));
        answered_once_in_order(api, &conversation, &outcome);
        let events = events.lock().unwrap();
        for tool_run in &outcome.tool_runs {
            let started = events
                .iter()
                .position(|e| matches!(e, Event::ToolStarted { id, .. } if *id == tool_run.call.id))
                .expect("each call that ran started");
            let delta = events
                .iter()
                .position(|e| matches!(e, Event::ToolCallDelta { name, .. } if *name == tool_run.call.name));
            assert!(delta.is_some_and(|delta| delta < started), "{api:?}: the call streamed before it started");
        }
    }
}

#[tokio::test]
#[ignore = "needs the real model: bash tests/llm/run.sh"]
async fn an_approval_is_asked_before_the_call_runs() {
    let api = Api::OpenAiChat;
    let asked: Arc<Mutex<Vec<String>>> = Arc::default();
    let record = Arc::clone(&asked);
    let approver = move |call: &ToolCall| {
        record.lock().unwrap().push(call.id.clone());
        async { Ok(Verdict::Deny("the user said no".to_owned())) }
    };
    let agent = agent(api, false).approval(
        tool_core::agent::ApprovalPolicy::PerTool,
        approver,
        std::time::Duration::from_secs(5),
    );
    let (conversation, outcome) = run(&agent, "Delete the file /tmp/notes.txt").await;
    // A model denied may ask again until the round limit: the crate's part is that nothing
    // ran unapproved.
    settled(api, &conversation, &outcome);
    let deletions: Vec<String> = conversation
        .items()
        .iter()
        .flat_map(|item| item["tool_calls"].as_array().cloned().unwrap_or_default())
        .filter(|call| call["function"]["name"] == "delete_file")
        .map(|call| call["id"].as_str().unwrap_or_default().to_owned())
        .collect();
    let asked = asked.lock().unwrap().clone();
    assert!(!asked.is_empty() && asked.iter().all(|id| deletions.contains(id)), "{asked:?} of {deletions:?}");
    let texts: Vec<&str> = conversation.items().iter().filter_map(|item| item["content"].as_str()).collect();
    assert!(!texts.iter().any(|text| text.starts_with("deleted ")), "none ran without approval: {texts:?}");
    println!("  {api:?}: {} deletion(s) asked for, {} put to the approver", deletions.len(), asked.len());
}

#[derive(ToolArgs)]
struct City {
    /// The city
    #[param(min_length = 1)]
    city: String,
}

#[tokio::test]
#[ignore = "needs the real model: bash tests/llm/run.sh"]
async fn a_sub_agent_answers_its_parent() {
    let api = Api::OpenAiChat;
    let child = agent(api, false)
        .into_tool("weather_expert", "Answers questions about a city's weather", |input: City| {
            format!("What is the weather in {} for the next 2 days?", input.city)
        })
        .unwrap();
    let mut tools = Registry::new();
    tools.add_dynamic(child).unwrap();
    let parent = tool_core::agent::Agent::new(super::model(api, false), tools)
        .sampling(tool_core::provider::Sampling::new().temperature(0.0).seed(42).max_tokens(400))
        .max_rounds(3);
    let (conversation, outcome) = run(&parent, "Ask the weather expert about Madrid.").await;
    settled(api, &conversation, &outcome);
}

#[tokio::test]
#[ignore = "needs the real model: bash tests/llm/run.sh"]
async fn cancelling_mid_stream_ends_the_run_and_answers_what_it_started() {
    for api in APIS {
        let cancel = CancellationToken::new();
        let on_first = cancel.clone();
        let agent = agent(api, true).on_event(move |event| {
            if matches!(event, Event::TextDelta(_) | Event::ToolCallDelta { .. }) {
                on_first.cancel();
            }
        });
        let mut conversation = agent.conversation();
        let run = agent.run_until(&mut conversation, "What is the weather in Lisbon for the next 3 days?", &cancel);
        let outcome = tokio::time::timeout(HANG, run).await.expect("the run hung");
        assert_eq!(outcome, Err(RunError::Cancelled), "{api:?}");
        let (calls, results) = calls_and_results(api, &conversation);
        assert_eq!(calls, results, "{api:?}: every call the history holds is answered");
    }
}

#[tokio::test]
#[ignore = "needs the real model: bash tests/llm/run.sh"]
async fn calls_started_while_the_model_writes_keep_every_order() {
    for api in APIS {
        let events: Arc<Mutex<Vec<Event>>> = Arc::default();
        let sink = Arc::clone(&events);
        // `llama.cpp` writes one call a turn unless asked for more; its Messages endpoint reads
        // OpenAI's member too, which Anthropic's own API has no need of.
        let sampling = tool_core::provider::Sampling::new()
            .temperature(0.0)
            .seed(42)
            .max_tokens(400)
            .parallel_tool_calls(true)
            .extra("parallel_tool_calls", true);
        // A model that keeps calling is asked for a last answer without tools: how many rounds
        // it takes is the model's business, the order of what it started is the crate's.
        let agent = agent(api, true)
            .sampling(sampling)
            .on_round_limit(tool_core::agent::RoundLimit::FinalAnswer)
            .on_event(move |event| sink.lock().unwrap().push(event.clone()));
        let question = "Get the 2-day weather forecast for Paris and the 5-day forecast for Tokyo.";
        let (conversation, outcome) = run(&agent, question).await;
        let outcome = outcome.unwrap_or_else(|error| panic!("{api:?}: {error}"));
        answered_once_in_order(api, &conversation, &outcome);
        let events = events.lock().unwrap();
        let position = |wanted: &dyn Fn(&Event) -> bool| events.iter().position(wanted);
        let ids: Vec<&str> = outcome.tool_runs.iter().map(|run| run.call.id.as_str()).collect();
        let mut early = 0;
        for (index, id) in ids.iter().enumerate() {
            let started = position(&|e| matches!(e, Event::ToolStarted { id: i, .. } if i == id)).expect("started");
            let finished = position(&|e| matches!(e, Event::ToolFinished { id: i, .. } if i == id)).expect("finished");
            assert!(started < finished, "{api:?}: {id} started before it finished");
            // A call starts only once its arguments are whole: no delta of it comes after.
            let last_delta = events.iter().rposition(|e| matches!(e, Event::ToolCallDelta { id: i, .. } if i == id));
            assert!(last_delta.is_none_or(|delta| delta < started), "{api:?}: {id} started with its arguments whole");
            if let Some(next) = ids.get(index + 1) {
                let next_started = position(&|e| matches!(e, Event::ToolStarted { id: i, .. } if i == next)).unwrap();
                let next_finished = position(&|e| matches!(e, Event::ToolFinished { id: i, .. } if i == next)).unwrap();
                assert!(started < next_started && finished < next_finished, "{api:?}: call order kept");
            }
            let response = events[..started].iter().filter(|e| matches!(e, Event::ModelResponse { .. })).count();
            let requests = events[..started].iter().filter(|e| matches!(e, Event::ModelRequest { .. })).count();
            early += usize::from(response < requests);
        }
        println!("  {api:?}: {} call(s), {early} started while the model wrote", ids.len());
    }
}
