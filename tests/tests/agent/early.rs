//! Calls that start while the model writes (`Agent::early_calls`), on tokio's paused clock:
//! a recorded `llama.cpp` stream with two calls replayed through the real stream reader, an
//! event every 100 ms, against a tool that takes 2 s; what ran when is read off the clock.
//! The first call closes at the 14th event (1.4 s) as the second starts, the second at the
//! 27th (2.7 s, `finish_reason`), and the stream ends at the 28th (2.8 s, `[DONE]`).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;
use tool_core::agent::{
    Agent, Api, Conversation, DeltaSink, EarlyCalls, Event, Hooks, Model, ModelError, ModelFuture, ModelRequest,
    RunError, ToolRun,
};
use tool_core::context::CancellationToken;
use tool_core::provider::ToolCall;
use tool_core::{Registry, ToolArgs, ToolContext, tool};

/// What happened when, in milliseconds of virtual time since the test began.
struct Log {
    origin: Instant,
    lines: Mutex<Vec<(u64, String)>>,
}

impl Log {
    fn new() -> Arc<Self> {
        Arc::new(Log { origin: Instant::now(), lines: Mutex::default() })
    }

    fn note(&self, line: impl Into<String>) {
        let at = u64::try_from(self.origin.elapsed().as_millis()).unwrap();
        self.lines.lock().unwrap().push((at, line.into()));
    }

    fn lines(&self) -> Vec<(u64, String)> {
        self.lines.lock().unwrap().clone()
    }

    /// When `line` was noted.
    fn at(&self, line: &str) -> u64 {
        self.lines().iter().find(|(_, noted)| noted == line).unwrap_or_else(|| panic!("no {line:?}")).0
    }
}

#[derive(Debug, ToolArgs)]
struct Weather {
    city: String,
    #[param(minimum = 1, maximum = 10)]
    days: u8,
}

/// Takes 2 s, or stops when cancelled; changes nothing, so it may start before its turn ends
#[tool(read_only)]
async fn get_weather(ctx: &ToolContext, args: Weather) -> String {
    let log = ctx.state::<Arc<Log>>().expect("the log");
    log.note(format!("start {}", args.city));
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs(2)) => log.note(format!("end {}", args.city)),
        () = ctx.cancelled() => {
            log.note(format!("cancelled {}", args.city));
            return "interrupted".to_owned();
        }
    }
    format!("{} days of sun in {}", args.days, args.city)
}

/// Takes 2 s and acts on the world (no annotation says a call is safe before the turn ends)
#[tool]
async fn book_hotel(ctx: &ToolContext, args: Weather) -> String {
    let log = ctx.state::<Arc<Log>>().expect("the log");
    log.note(format!("book {}", args.city));
    tokio::time::sleep(Duration::from_secs(2)).await;
    format!("booked {} nights in {}", args.days, args.city)
}

/// Answers at once; a call to it makes its whole turn run one call at a time
#[tool(sequential)]
fn one_at_a_time() -> String {
    "ok".to_owned()
}

/// Replays recorded streams, one per turn, through `api`'s stream reader, an event every
/// 100 ms, noting when each request began and each stream ended.
struct Paced {
    api: Api,
    turns: Mutex<VecDeque<Vec<String>>>,
    log: Arc<Log>,
}

const GAP: Duration = Duration::from_millis(100);

impl Model for Paced {
    fn api(&self) -> Api {
        self.api
    }

    fn respond<'a>(&'a self, _request: ModelRequest<'a>, on_delta: DeltaSink<'a>) -> ModelFuture<'a> {
        let events = self.turns.lock().unwrap().pop_front();
        Box::pin(async move {
            let events = events.ok_or(ModelError::Exhausted)?;
            self.log.note("request");
            let mut reader = self.api.stream();
            for data in events {
                tokio::time::sleep(GAP).await;
                reader.push(&data, &mut |delta| on_delta(delta))?;
            }
            self.log.note("stream end");
            Ok(reader.finish()?)
        })
    }
}

/// The data of each event of a recorded stream.
fn recorded(name: &str) -> Vec<String> {
    let path = format!("{}/tests/providers/llama_server/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    text.split("\n\n")
        .map(|event| event.lines().filter_map(|line| line.strip_prefix("data: ")).collect::<Vec<_>>().join("\n"))
        .filter(|data| !data.is_empty())
        .collect()
}

/// The recorded turn: `get_weather` for Paris (2 days), then Tokyo (5 days).
fn two_calls() -> Vec<String> {
    recorded("04b-parallel-stream.sse.txt")
}

/// A Chat Completions stream of `get_weather` calls (id, arguments), each in two pieces,
/// ended by `finish_reason`.
fn chat_stream(calls: &[(&str, &str)], finish_reason: &str) -> Vec<String> {
    let named: Vec<(&str, &str, &str)> = calls.iter().map(|(id, arguments)| (*id, "get_weather", *arguments)).collect();
    chat_stream_of(&named, finish_reason)
}

/// A Chat Completions stream of `calls` (id, tool, arguments), each in two pieces, ended by
/// `finish_reason`.
fn chat_stream_of(calls: &[(&str, &str, &str)], finish_reason: &str) -> Vec<String> {
    let mut events = Vec::new();
    for (index, (id, name, arguments)) in calls.iter().enumerate() {
        let (head, tail) = arguments.split_at(arguments.len() / 2);
        events.push(
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": index, "id": id, "type": "function",
            "function": {"name": name, "arguments": head}}]}}]}),
        );
        events.push(json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": index, "function": {"arguments": tail}}]}}]}));
    }
    events.push(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": finish_reason}]}));
    let mut events: Vec<String> = events.iter().map(Value::to_string).collect();
    events.push("[DONE]".to_owned());
    events
}

/// The answer that ends a run.
fn answer() -> Vec<String> {
    vec![
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": "sunny"}}]}).to_string(),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}).to_string(),
        "[DONE]".to_owned(),
    ]
}

/// Events with the time they came.
type Timed = Arc<Mutex<Vec<(u64, Event)>>>;

/// An agent over `turns`, its tools sharing `log`, its events kept (with the time).
fn paced_agent(log: &Arc<Log>, turns: Vec<Vec<String>>, sequential_tool: bool) -> (Agent, Timed) {
    let mut registry = Registry::new().with_state(Arc::clone(log));
    registry.add(GetWeatherTool).unwrap();
    registry.add(BookHotelTool).unwrap();
    if sequential_tool {
        registry.add(OneAtATimeTool).unwrap();
    }
    let model = Paced { api: Api::OpenAiChat, turns: Mutex::new(turns.into()), log: Arc::clone(log) };
    let events = Arc::new(Mutex::new(Vec::new()));
    let (sink, clock) = (Arc::clone(&events), Arc::clone(log));
    let agent = Agent::new(model, registry).on_event(move |event| {
        if !matches!(event, Event::ToolCallDelta { .. } | Event::TextDelta(_)) {
            let at = u64::try_from(clock.origin.elapsed().as_millis()).unwrap();
            sink.lock().unwrap().push((at, event.clone()));
        }
    });
    (agent, events)
}

/// The events of `kind` ("started", "finished", "response"), with the time and the call id.
fn times(events: &[(u64, Event)], kind: &str) -> Vec<(u64, String)> {
    events
        .iter()
        .filter_map(|(at, event)| match (kind, event) {
            ("started", Event::ToolStarted { id, .. }) | ("finished", Event::ToolFinished { id, .. }) => {
                Some((*at, id.clone()))
            }
            ("response", Event::ModelResponse { round, .. }) => Some((*at, round.to_string())),
            _ => None,
        })
        .collect()
}

const PARIS: &str = "AHSEAmCuAzguOtOfMf3Iti55dNPzXZfn";
const TOKYO: &str = "LIc0BMZXGrGZSyYbNVcemMmSmN6uVYGI";

#[tokio::test(start_paused = true)]
async fn each_call_starts_when_the_stream_closes_it_and_events_and_results_keep_call_order() {
    let log = Log::new();
    let (agent, events) = paced_agent(&log, vec![two_calls(), answer()], false);
    let mut conversation = Conversation::new(Api::OpenAiChat);
    let outcome = agent.run(&mut conversation, "weather").await.unwrap();
    assert_eq!((log.at("start Paris"), log.at("start Tokyo"), log.at("stream end")), (1_400, 2_700, 2_800));
    assert_eq!((log.at("end Paris"), log.at("end Tokyo")), (3_400, 4_700));
    let events = events.lock().unwrap().clone();
    // Each `ToolStarted` as its call starts, in call order; the results once every call ended.
    assert_eq!(times(&events, "started"), [(1_400, PARIS.to_owned()), (2_700, TOKYO.to_owned())]);
    assert_eq!(times(&events, "response")[0], (2_800, "1".to_owned()));
    assert_eq!(times(&events, "finished"), [(4_700, PARIS.to_owned()), (4_700, TOKYO.to_owned())]);
    let ids: Vec<&str> = outcome.tool_runs.iter().map(|run| run.call.id.as_str()).collect();
    assert_eq!(ids, [PARIS, TOKYO]);
    let results: Vec<(&str, &str)> = conversation.items()[2..4]
        .iter()
        .map(|item| (item["tool_call_id"].as_str().unwrap(), item["content"].as_str().unwrap()))
        .collect();
    assert_eq!(results, [(PARIS, "2 days of sun in Paris"), (TOKYO, "5 days of sun in Tokyo")]);
    assert_eq!(log.at("request"), 0);
    assert_eq!(log.lines().iter().filter(|(_, line)| line == "request").nth(1).unwrap().0, 4_700);
}

#[tokio::test(start_paused = true)]
async fn without_early_calls_every_call_waits_for_the_whole_turn() {
    let log = Log::new();
    let (agent, events) = paced_agent(&log, vec![two_calls(), answer()], false);
    agent.early_calls(EarlyCalls::Never).run(&mut Conversation::new(Api::OpenAiChat), "weather").await.unwrap();
    assert_eq!((log.at("start Paris"), log.at("start Tokyo"), log.at("end Tokyo")), (2_800, 2_800, 4_800));
    let started = times(&events.lock().unwrap(), "started");
    assert_eq!(started, [(2_800, PARIS.to_owned()), (2_800, TOKYO.to_owned())]);
}

#[tokio::test(start_paused = true)]
async fn one_call_at_a_time_the_first_runs_while_the_second_is_written() {
    // Round time, early against late: 5.4 s against 6.8 s with one call at a time.
    let mut ends = Vec::new();
    for early in [EarlyCalls::SafeTools, EarlyCalls::Never] {
        let log = Log::new();
        let (agent, _) = paced_agent(&log, vec![two_calls(), answer()], false);
        let agent = agent.max_concurrency(1).early_calls(early);
        agent.run(&mut Conversation::new(Api::OpenAiChat), "weather").await.unwrap();
        ends.push((log.at("start Paris"), log.at("start Tokyo"), log.at("end Tokyo")));
    }
    assert_eq!(ends, [(1_400, 3_400, 5_400), (2_800, 4_800, 6_800)]);
}

#[tokio::test(start_paused = true)]
async fn a_registry_with_a_sequential_tool_runs_early_calls_one_at_a_time() {
    let log = Log::new();
    let (agent, _) = paced_agent(&log, vec![two_calls(), answer()], true);
    agent.run(&mut Conversation::new(Api::OpenAiChat), "weather").await.unwrap();
    // Tokyo waits for the one place Paris holds until the turn is whole and has no call to
    // the sequential tool: then the bound is lifted.
    assert_eq!((log.at("start Paris"), log.at("start Tokyo"), log.at("end Tokyo")), (1_400, 2_800, 4_800));
}

#[derive(Default)]
struct Phases {
    log: Mutex<Vec<(String, String)>>,
    clock: Mutex<Option<Arc<Log>>>,
}

impl Phases {
    fn note(&self, phase: &str, id: &str) {
        if let Some(clock) = &*self.clock.lock().unwrap() {
            clock.note(format!("{phase} {id}"));
        }
        self.log.lock().unwrap().push((phase.to_owned(), id.to_owned()));
    }
}

struct PhaseHooks(Arc<Phases>);

impl Hooks for PhaseHooks {
    fn authorize(&self, call: &ToolCall) -> Result<(), String> {
        self.0.note("authorize", &call.id);
        Ok(())
    }

    fn before_call(&self, call: &ToolCall) -> Result<(), String> {
        self.0.note("before", &call.id);
        Ok(())
    }

    fn after_call(&self, run: &mut ToolRun) {
        self.0.note("after", &run.call.id);
    }
}

#[tokio::test(start_paused = true)]
async fn hooks_run_in_call_order_before_each_call_and_after_every_call_once_the_turn_is_whole() {
    let log = Log::new();
    let phases = Arc::new(Phases::default());
    *phases.clock.lock().unwrap() = Some(Arc::clone(&log));
    let (agent, _) = paced_agent(&log, vec![two_calls(), answer()], false);
    agent.hooks(PhaseHooks(Arc::clone(&phases))).run(&mut Conversation::new(Api::OpenAiChat), "weather").await.unwrap();
    let order: Vec<String> =
        phases.log.lock().unwrap().iter().map(|(phase, id)| format!("{phase} {}", &id[..5])).collect();
    assert_eq!(
        order,
        ["authorize AHSEA", "before AHSEA", "authorize LIc0B", "before LIc0B", "after AHSEA", "after LIc0B"]
    );
    assert_eq!(log.at(&format!("before {PARIS}")), 1_400);
    assert_eq!(log.at(&format!("before {TOKYO}")), 2_700);
    assert_eq!(log.at(&format!("after {PARIS}")), 4_700, "after_call waits for the whole batch");
}

#[tokio::test(start_paused = true)]
async fn a_turn_cut_off_after_a_call_started_keeps_it_and_answers_the_cut_call() {
    let cut = chat_stream(&[("a", r#"{"city": "Paris", "days": 2}"#), ("b", r#"{"city": "To"#)], "length");
    let log = Log::new();
    let (agent, _) = paced_agent(&log, vec![cut.clone(), answer()], false);
    let mut conversation = Conversation::new(Api::OpenAiChat);
    let outcome = agent.run(&mut conversation, "weather").await.unwrap();
    assert_eq!(log.at("start Paris"), 300, "started as the second call began");
    let ran: Vec<&str> = outcome.tool_runs.iter().map(|run| run.call.id.as_str()).collect();
    assert_eq!(ran, ["a"], "the cut call never ran");
    let items = conversation.items();
    assert_eq!(items[1]["tool_calls"].as_array().unwrap().len(), 2, "the turn is kept");
    assert_eq!(items[1]["tool_calls"][1]["function"]["arguments"], "{}", "broken text never goes back");
    assert_eq!(
        (items[2]["tool_call_id"].as_str(), items[2]["content"].as_str()),
        (Some("a"), Some("2 days of sun in Paris"))
    );
    let told = items[3]["content"].as_str().unwrap();
    assert_eq!(items[3]["tool_call_id"], "b");
    assert!(told.contains("cut off at the output limit") && told.contains("did not run"), "{told}");

    // Without early calls, as before: nothing runs and the turn is dropped.
    let log = Log::new();
    let (agent, _) = paced_agent(&log, vec![cut, answer()], false);
    let mut conversation = Conversation::new(Api::OpenAiChat);
    let outcome = agent.early_calls(EarlyCalls::Never).run(&mut conversation, "weather").await.unwrap();
    assert!(outcome.tool_runs.is_empty());
    assert!(conversation.items()[1]["content"].as_str().unwrap().starts_with("Your last reply was cut off"));
}

#[tokio::test(start_paused = true)]
async fn an_invalid_later_call_changes_nothing_for_a_call_already_started() {
    let turn = chat_stream(
        &[("a", r#"{"city": "Paris", "days": 2}"#), ("b", r#"{"city": "Tokyo", "days": 99}"#)],
        "tool_calls",
    );
    let log = Log::new();
    let (agent, _) = paced_agent(&log, vec![turn, answer()], false);
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "weather").await.unwrap();
    assert_eq!((log.at("start Paris"), log.at("end Paris")), (300, 2_300));
    let texts: Vec<String> = outcome.tool_runs.iter().map(|run| run.result.text()).collect();
    assert_eq!(texts[0], "2 days of sun in Paris");
    assert!(texts[1].contains("days") && texts[1].contains("10"), "{}", texts[1]);
    assert!(!log.lines().iter().any(|(_, line)| line == "start Tokyo"));
}

#[tokio::test(start_paused = true)]
async fn cancelling_the_run_while_the_model_writes_reaches_the_calls_started() {
    let log = Log::new();
    let (agent, events) = paced_agent(&log, vec![two_calls(), answer()], false);
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_secs(2)).await;
        trigger.cancel();
    });
    let error = agent.run_until(&mut Conversation::new(Api::OpenAiChat), "weather", &cancel).await.unwrap_err();
    assert!(matches!(error, RunError::Cancelled), "{error:?}");
    assert_eq!((log.at("start Paris"), log.at("cancelled Paris")), (1_400, 2_000));
    assert!(!log.lines().iter().any(|(_, line)| line == "start Tokyo"), "{:?}", log.lines());
    let finished: Vec<(u64, String, bool)> = events
        .lock()
        .unwrap()
        .iter()
        .filter_map(|(at, event)| match event {
            Event::ToolFinished { id, is_error, .. } => Some((*at, id.clone(), *is_error)),
            _ => None,
        })
        .collect();
    assert_eq!(finished, [(2_000, PARIS.to_owned(), false)], "told, with the tool's own answer to cancellation");
}

#[tokio::test(start_paused = true)]
async fn a_stream_that_fails_after_a_call_started_cancels_it_and_says_so() {
    let mut broken = two_calls();
    broken.truncate(20);
    let log = Log::new();
    let (agent, events) = paced_agent(&log, vec![broken], false);
    let error = agent.run(&mut Conversation::new(Api::OpenAiChat), "weather").await.unwrap_err();
    assert!(matches!(error, RunError::Model { .. }), "{error:?}");
    assert_eq!((log.at("start Paris"), log.at("cancelled Paris")), (1_400, 2_000));
    let finished = times(&events.lock().unwrap(), "finished");
    assert_eq!(finished, [(2_000, PARIS.to_owned())]);
}

/// The turn: weather for Paris (safe), a booking in Rome (acts), weather for Oslo (safe, but
/// after the booking).
fn weather_booking_weather() -> Vec<String> {
    chat_stream_of(
        &[
            ("a", "get_weather", r#"{"city": "Paris", "days": 2}"#),
            ("b", "book_hotel", r#"{"city": "Rome", "days": 3}"#),
            ("c", "get_weather", r#"{"city": "Oslo", "days": 1}"#),
        ],
        "tool_calls",
    )
}

#[tokio::test(start_paused = true)]
async fn by_default_a_call_that_acts_waits_for_the_whole_turn_and_so_does_every_call_after_it() {
    let log = Log::new();
    let (agent, _) = paced_agent(&log, vec![weather_booking_weather(), answer()], false);
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "plan").await.unwrap();
    // The stream: a closes at 300 ms, b at 500, c at 700 (`finish_reason`), the turn ends at 800.
    assert_eq!(log.at("start Paris"), 300, "a read-only call starts as the stream closes it");
    assert_eq!((log.at("book Rome"), log.at("start Oslo"), log.at("stream end")), (800, 800, 800));
    let ran: Vec<&str> = outcome.tool_runs.iter().map(|run| run.call.id.as_str()).collect();
    assert_eq!(ran, ["a", "b", "c"]);

    // Opted in for every tool, the booking starts as soon as it is written.
    let log = Log::new();
    let (agent, _) = paced_agent(&log, vec![weather_booking_weather(), answer()], false);
    agent.early_calls(EarlyCalls::Every).run(&mut Conversation::new(Api::OpenAiChat), "plan").await.unwrap();
    assert_eq!((log.at("start Paris"), log.at("book Rome"), log.at("start Oslo")), (300, 500, 700));
}

#[tokio::test(start_paused = true)]
async fn a_turn_that_fails_never_runs_a_call_that_acts() {
    // The stream breaks at 600 ms, after the booking was written whole (500), before the turn
    // ended well.
    let mut broken = weather_booking_weather();
    broken.truncate(6);
    let log = Log::new();
    let (agent, _) = paced_agent(&log, vec![broken], false);
    let error = agent.run(&mut Conversation::new(Api::OpenAiChat), "plan").await.unwrap_err();
    let RunError::Model { partial, .. } = &error else { panic!("{error:?}") };
    // Nothing is lost: the calls the model wrote whole are the program's to read.
    let written: Vec<(&str, &str)> = partial.calls.iter().map(|call| (call.id.as_str(), call.name.as_str())).collect();
    assert_eq!(written, [("a", "get_weather"), ("b", "book_hotel")]);
    assert_eq!(partial.calls[1].arguments.to_text(), r#"{"city": "Rome", "days": 3}"#);
    assert_eq!(log.at("start Paris"), 300, "the read-only call had started");
    assert!(!log.lines().iter().any(|(_, line)| line.starts_with("book")), "{:?}", log.lines());

    // The same failure with every tool opted in: the booking had started (and acted).
    let mut broken = weather_booking_weather();
    broken.truncate(6);
    let log = Log::new();
    let (agent, _) = paced_agent(&log, vec![broken], false);
    let error = agent.early_calls(EarlyCalls::Every).run(&mut Conversation::new(Api::OpenAiChat), "plan").await;
    assert!(error.is_err());
    assert_eq!(log.at("book Rome"), 500);
}

#[test]
fn a_tool_says_a_call_may_start_early_by_its_annotations_or_its_key() {
    let mut registry = Registry::new();
    registry.add(GetWeatherTool).unwrap();
    registry.add(BookHotelTool).unwrap();
    let dynamic = |name: &str| {
        tool_core::DynamicTool::new(name, "d", r#"{"type":"object"}"#, |_, _| async {
            Ok(tool_core::ToolOutput::text("ok"))
        })
        .unwrap()
    };
    registry.add_dynamic(dynamic("plain")).unwrap();
    registry.add_dynamic(dynamic("keyed").early()).unwrap();
    registry
        .add_dynamic(dynamic("idempotent").with_annotations(tool_core::Annotations::new().idempotent(true)))
        .unwrap();
    let early: Vec<(&str, bool)> = ["get_weather", "book_hotel", "plain", "keyed", "idempotent"]
        .into_iter()
        .map(|name| (name, registry.get(name).unwrap().starts_early()))
        .collect();
    assert_eq!(
        early,
        [("get_weather", true), ("book_hotel", false), ("plain", false), ("keyed", true), ("idempotent", true)]
    );
}
