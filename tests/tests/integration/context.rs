//! What a tool may know and ask through `ToolContext`: state without traps, cancellation it
//! can await, progress and logs per call, and sampling and elicitation through a host.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tool_core::context::elicitation_schema;
use tool_core::context::{
    CancellationToken, Elicitation, ElicitationAnswer, ElicitationRequest, Host, HostError, HostFuture, LogLevel,
    LogMessage, Progress, SamplingRequest, SamplingResponse,
};
use tool_core::provider::{self, Arguments, ToolCall};
use tool_core::{Content, Registry, ToolArgs, ToolContext, tool};
use tool_tests::block_on;

struct Db;

/// Reads the database from shared state.
#[tool]
pub fn count_rows(ctx: &ToolContext) -> Result<String, String> {
    let _db = ctx.state::<Mutex<Db>>()?;
    Ok("3 rows".to_owned())
}

#[test]
fn a_missing_state_names_what_was_asked_and_what_is_there() {
    let mut registry = Registry::new().with_state(Arc::new(Mutex::new(Db))).with_state(2.5_f64);
    registry.add(CountRowsTool).unwrap();
    let error = registry.call("count_rows", "{}").unwrap_err().to_string();
    assert_eq!(
        error,
        "tool \"count_rows\" failed: no shared state of type `std::sync::poison::mutex::Mutex<integration::context::Db>`; \
         the registry holds `alloc::sync::Arc<std::sync::poison::mutex::Mutex<integration::context::Db>>`, `f64`; \
         ask for exactly the type registered, `alloc::sync::Arc<std::sync::poison::mutex::Mutex<integration::context::Db>>`"
    );
}

#[test]
fn a_bare_context_gets_the_registry_state() {
    let mut registry = Registry::new().with_state(Mutex::new(Db));
    registry.add(CountRowsTool).unwrap();
    // The trap of the past: a fresh context silently dropped the registry's state.
    let output = registry.call_with(&ToolContext::new(), "count_rows", "{}").unwrap();
    assert_eq!(output.to_text(), "3 rows");
    let output = block_on(registry.call_async(&ToolContext::new().with_call_id("c1"), "count_rows", "{}")).unwrap();
    assert_eq!(output.to_text(), "3 rows");
}

/// Sleeps `ms` milliseconds without blocking its executor, unless cancelled first.
#[derive(Debug, ToolArgs)]
pub struct Nap {
    ms: u64,
}

/// A future that completes after `duration`, woken from a helper thread.
fn sleep(duration: Duration) -> impl Future<Output = ()> {
    let token = CancellationToken::new();
    let waker = token.clone();
    std::thread::spawn(move || {
        std::thread::sleep(duration);
        waker.cancel();
    });
    async move { token.cancelled().await }
}

/// Naps, reporting progress, and stops early when cancelled.
#[tool]
pub async fn nap(ctx: &ToolContext, args: Nap) -> String {
    ctx.report_progress(0.0, Some(1.0), Some("falling asleep"));
    let slept = sleep(Duration::from_millis(args.ms));
    let cancelled = ctx.cancelled();
    let mut slept = std::pin::pin!(slept);
    let mut cancelled = std::pin::pin!(cancelled);
    let woke_by_cancel = std::future::poll_fn(|cx| {
        if cancelled.as_mut().poll(cx).is_ready() {
            return std::task::Poll::Ready(true);
        }
        slept.as_mut().poll(cx).map(|()| false)
    })
    .await;
    if woke_by_cancel { "interrupted".to_owned() } else { format!("slept {} ms", args.ms) }
}

#[derive(Debug, ToolArgs)]
pub struct Gather {
    expect: usize,
}

/// How many `gather` calls have arrived (one test uses it, once), and the signal that all have.
static GATHERED: AtomicUsize = AtomicUsize::new(0);
static ALL_IN: OnceLock<CancellationToken> = OnceLock::new();

/// Waits until `expect` calls have arrived and says whether they all did: calls awaited one
/// at a time never gather, since the first waits for the others. It gives up after 30 s
/// rather than hang a test.
#[tool]
pub async fn gather(args: Gather) -> String {
    let all_in = ALL_IN.get_or_init(CancellationToken::new).clone();
    if GATHERED.fetch_add(1, Ordering::SeqCst) + 1 >= args.expect {
        all_in.cancel();
    }
    let gathered = all_in.cancelled();
    let gave_up = sleep(Duration::from_secs(30));
    let (mut gathered, mut gave_up) = (std::pin::pin!(gathered), std::pin::pin!(gave_up));
    std::future::poll_fn(|cx| {
        if gathered.as_mut().poll(cx).is_ready() {
            std::task::Poll::Ready(format!("{} together", args.expect))
        } else {
            gave_up.as_mut().poll(cx).map(|()| "alone".to_owned())
        }
    })
    .await
}

#[test]
fn run_calls_runs_async_calls_together_each_with_its_id() {
    let mut registry = Registry::new();
    registry.add(GatherTool).unwrap();
    let calls: Vec<ToolCall> = (0..4)
        .map(|i| {
            ToolCall::new(
                format!("call_{i}"),
                "gather".to_owned(),
                Arguments::Text(r#"{"expect": 4}"#.to_owned().into()),
            )
        })
        .collect();
    let results = block_on(provider::run_calls(&registry, &calls));
    let ids: Vec<&str> = results.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["call_0", "call_1", "call_2", "call_3"]);
    assert!(results.iter().all(|r| r.text() == "4 together"), "{results:?}");
}

#[test]
fn an_async_tool_awaits_its_cancellation() {
    let mut registry = Registry::new();
    registry.add(NapTool).unwrap();
    let token = CancellationToken::new();
    let progress = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&progress);
    let context = registry
        .context()
        .with_call_id("long")
        .with_cancellation(token.clone())
        .with_progress(move |p: Progress| seen.lock().unwrap().push(p));
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        token.cancel();
    });
    let output = block_on(registry.call_async(&context, "nap", r#"{"ms": 60000}"#)).unwrap();
    canceller.join().unwrap();
    // Not the minute-long nap: the cancellation woke it.
    assert_eq!(output.to_text(), "interrupted");
    let progress = progress.lock().unwrap();
    assert_eq!(progress.len(), 1);
    assert_eq!(progress[0].call_id.as_deref(), Some("long"));
    assert_eq!(progress[0].message.as_deref(), Some("falling asleep"));
}

#[test]
fn a_dropped_wait_leaves_no_waker_and_cancel_is_idempotent() {
    let token = CancellationToken::new();
    {
        let mut waiting = std::pin::pin!(token.cancelled());
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        assert!(waiting.as_mut().poll(&mut cx).is_pending());
    }
    token.cancel();
    token.cancel();
    assert!(token.is_cancelled());
    block_on(token.cancelled());
}

/// The answer a contact form asks for.
#[derive(Debug, PartialEq, ToolArgs)]
pub struct Contact {
    /// Your name
    #[param(title = "Name", min_length = 1)]
    name: String,
    #[param(title = "Email address", format = "email")]
    email: String,
    #[param(minimum = 18, maximum = 120)]
    age: Option<u8>,
    #[param(default = true)]
    #[serde(default)]
    subscribe: bool,
    color: Option<Color>,
}

/// A color.
#[derive(Debug, PartialEq, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Red,
    Green,
}

/// A field's `title` labels it in a form, stays in plain JSON Schema, and is left out of the
/// dialects a model reads (it is for people).
#[test]
fn a_title_labels_a_form_field_and_no_model_reads_it() {
    use tool_core::render::{Dialect, json_schema};
    let plain: serde_json::Value = serde_json::from_str(&json_schema::<Contact>()).unwrap();
    assert_eq!(plain["properties"]["name"]["title"], "Name");
    for dialect in [Dialect::OpenAiStrict, Dialect::AnthropicStrict, Dialect::GeminiParameters] {
        let rendered: serde_json::Value =
            serde_json::from_str(&tool_core::render::to_json_in(&<Contact as tool_core::ToolParam>::SCHEMA, dialect))
                .unwrap();
        assert!(!rendered.to_string().contains("\"title\""), "{dialect:?}: {rendered}");
    }
}

#[test]
fn the_elicitation_schema_is_a_flat_object_of_primitives() {
    assert_eq!(
        elicitation_schema(&<Contact as tool_core::ToolParam>::SCHEMA),
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "title": "Name", "description": "Your name", "minLength": 1},
                "email": {"type": "string", "title": "Email address", "format": "email"},
                "age": {"type": "integer", "minimum": 18, "maximum": 120},
                "subscribe": {"type": "boolean", "default": true},
                "color": {"type": "string", "enum": ["red", "green"], "description": "A color."}
            },
            "required": ["name", "email"]
        })
    );
}

/// A host that answers sampling and elicitation from a script, and records logs.
#[derive(Default)]
struct ScriptedHost {
    answer: Mutex<Option<ElicitationAnswer>>,
    asked: Mutex<Vec<ElicitationRequest>>,
    logs: Mutex<Vec<LogMessage>>,
}

impl Host for ScriptedHost {
    fn log_enabled(&self, level: LogLevel) -> bool {
        level >= LogLevel::Info
    }

    fn log(&self, message: LogMessage) {
        self.logs.lock().unwrap().push(message);
    }

    fn sample(&self, request: SamplingRequest) -> HostFuture<'_, SamplingResponse> {
        let prompt = request.messages[0].content.as_text().unwrap_or_default().to_owned();
        Box::pin(async move {
            Ok(SamplingResponse::new(Content::text(format!("echo: {prompt}")), "scripted").with_stop_reason("endTurn"))
        })
    }

    fn elicit(&self, request: ElicitationRequest) -> HostFuture<'_, ElicitationAnswer> {
        self.asked.lock().unwrap().push(request);
        let answer = self.answer.lock().unwrap().take();
        Box::pin(async move { answer.ok_or(HostError::Failed { message: "no scripted answer".to_owned() }) })
    }
}

#[test]
fn elicitation_answers_are_validated_like_arguments() {
    let host = Arc::new(ScriptedHost::default());
    let context = ToolContext::new().with_host(Arc::clone(&host) as Arc<dyn Host>);

    *host.answer.lock().unwrap() =
        Some(ElicitationAnswer::Accept(json!({"name": "Ada", "email": "ada@example.com", "color": "green"})));
    let accepted = block_on(context.elicit::<Contact>("Who are you?")).unwrap();
    assert_eq!(
        accepted,
        Elicitation::Accepted(Contact {
            name: "Ada".to_owned(),
            email: "ada@example.com".to_owned(),
            age: None,
            subscribe: false,
            color: Some(Color::Green),
        })
    );
    assert_eq!(host.asked.lock().unwrap()[0].message, "Who are you?");

    *host.answer.lock().unwrap() = Some(ElicitationAnswer::Accept(json!({"name": "", "email": "nope", "age": 7})));
    let Err(HostError::InvalidAnswer(error)) = block_on(context.elicit::<Contact>("Again?")) else {
        panic!("an invalid answer must be refused");
    };
    let text = error.to_string();
    for expected in ["/name: must be at least 1 character long", "/email: must be a valid email", "/age: must be >= 18"]
    {
        assert!(text.contains(expected), "{text}");
    }

    *host.answer.lock().unwrap() = Some(ElicitationAnswer::Decline);
    assert_eq!(block_on(context.elicit::<Contact>("Please?")).unwrap(), Elicitation::Declined);
}

#[test]
fn sampling_and_logs_go_through_the_host() {
    let host = Arc::new(ScriptedHost::default());
    let context = ToolContext::new().with_call_id("c9").with_host(Arc::clone(&host) as Arc<dyn Host>);
    let response = block_on(context.sample(SamplingRequest::new("hi", 100))).unwrap();
    assert_eq!(response.content, Content::text("echo: hi"));
    context.log(LogLevel::Debug, "dropped: below the host's level");
    context.log(LogLevel::Warning, json!({"disk": "low"}));
    let logs = host.logs.lock().unwrap();
    assert_eq!(logs.len(), 1);
    assert_eq!(logs[0].data, json!({"disk": "low"}));
    assert_eq!(logs[0].call_id.as_deref(), Some("c9"));
}

#[test]
fn without_a_host_requests_fail_at_once() {
    let context = ToolContext::new();
    assert_eq!(
        block_on(context.sample(SamplingRequest::new("hi", 10))).unwrap_err(),
        HostError::Unsupported { capability: "sampling" }
    );
    let error = block_on(context.elicit::<Contact>("?")).unwrap_err();
    assert_eq!(error.to_string(), "the caller does not support elicitation");
    assert!(!context.log_enabled(LogLevel::Emergency));
}

#[test]
fn a_request_in_flight_ends_when_the_call_is_cancelled() {
    struct Silent;
    impl Host for Silent {
        fn sample(&self, _: SamplingRequest) -> HostFuture<'_, SamplingResponse> {
            Box::pin(std::future::pending())
        }
    }
    let token = CancellationToken::new();
    let context = ToolContext::new().with_host(Arc::new(Silent)).with_cancellation(token.clone());
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(20));
        token.cancel();
    });
    assert_eq!(block_on(context.sample(SamplingRequest::new("hi", 10))).unwrap_err(), HostError::Cancelled);
    canceller.join().unwrap();
}
