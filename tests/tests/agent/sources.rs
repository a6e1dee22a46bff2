//! Tool sources resolved per run (`ToolSources`): one name, one source; a failed source is
//! an error at start and an event during a run, never taking the other sources down; a
//! handoff and a live tool of one name are the run's error, not a silent replacement.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tool_core::agent::{Agent, Api, Conversation, Event, RunError, ScriptedModel};
use tool_core::registry::{ResolveError, SourceError, SourceFuture, ToolSource, ToolSources};
use tool_core::{DynamicTool, Registry, ToolContext, ToolOutput};

use crate::fixture::{answer, calls, registry};

/// A source whose one tool is `name`, which can be made to fail.
struct Flaky {
    label: String,
    name: &'static str,
    down: Arc<AtomicBool>,
}

impl ToolSource for Flaky {
    fn label(&self) -> &str {
        &self.label
    }

    fn tools(&self) -> SourceFuture<'_> {
        let down = self.down.load(Ordering::SeqCst);
        let name = self.name;
        Box::pin(async move {
            if down {
                return Err(SourceError::new("connection refused"));
            }
            let tool = DynamicTool::new(name, "A remote tool", r#"{"type":"object"}"#, move |_, _| async move {
                Ok(ToolOutput::text(format!("{name} answered")))
            })
            .unwrap();
            let mut registry = Registry::new();
            registry.add_dynamic(tool).unwrap();
            Ok(registry)
        })
    }
}

fn flaky(label: &str, name: &'static str) -> (Flaky, Arc<AtomicBool>) {
    let down = Arc::new(AtomicBool::new(false));
    (Flaky { label: label.to_owned(), name, down: Arc::clone(&down) }, down)
}

/// Reads the value shared with the native registry's calls.
#[tool_core::tool]
fn motto(ctx: &ToolContext) -> String {
    ctx.state::<String>().map_or_else(|e| e.to_string(), |s| s.as_str().to_owned())
}

#[tokio::test]
async fn sources_merge_into_one_registry_and_a_shared_name_is_an_error_naming_both() {
    let (weather, _) = flaky("mcp:weather", "mcp_weather_forecast");
    let (planner, _) = flaky("a2a:planner", "a2a_planner_plan");
    let mut native = Registry::new().with_state(String::from("carpe diem"));
    native.add(MottoTool).unwrap();
    let sources = ToolSources::new().native(native).source(weather).source(planner);
    let tools = sources.resolve().await.unwrap();
    assert_eq!(tools.names(), ["a2a_planner_plan", "mcp_weather_forecast", "motto"]);
    let context = tools.context();
    let motto = tools.call_async(&context, "motto", "{}").await.unwrap();
    assert_eq!(motto.to_text(), "carpe diem", "the native registry's state comes along");
    let remote = tools.call_async(&context, "mcp_weather_forecast", "{}").await.unwrap();
    assert_eq!(remote.to_text(), "mcp_weather_forecast answered");
    assert!(Arc::ptr_eq(&tools, &sources.current()));

    let (one, _) = flaky("mcp:one", "lookup");
    let (two, _) = flaky("mcp:two", "lookup");
    let clash = ToolSources::new().source(one).source(two).resolve().await.unwrap_err();
    assert_eq!(
        clash,
        ResolveError::Collision {
            name: "lookup".to_owned(),
            first: "mcp:one".to_owned(),
            second: "mcp:two".to_owned()
        }
    );
    assert_eq!(
        clash.to_string(),
        "the tool \"lookup\" is offered by both mcp:one and mcp:two; a name belongs to one source"
    );
}

#[tokio::test]
async fn a_failed_source_fails_the_start_and_is_left_out_of_a_run_with_an_event() {
    let (weather, down) = flaky("mcp:weather", "mcp_weather_forecast");
    let (planner, _) = flaky("a2a:planner", "a2a_planner_plan");
    let sources = Arc::new(ToolSources::new().native(registry()).source(weather).source(planner));
    down.store(true, Ordering::SeqCst);
    let failed = sources.resolve().await.unwrap_err();
    assert_eq!(failed.to_string(), "the tool source mcp:weather failed: connection refused");

    let model = Arc::new(ScriptedModel::new(
        Api::OpenAiChat,
        [calls(&[("a2a_planner_plan", "{}"), ("mcp_weather_forecast", "{}")]), answer("done")],
    ));
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let agent = Agent::new(Arc::clone(&model), Registry::new())
        .sources(Arc::clone(&sources))
        .on_event(move |event| sink.lock().unwrap().push(event.clone()));
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "plan").await.unwrap();
    let texts: Vec<String> = outcome.tool_runs.iter().map(|run| run.result.text()).collect();
    assert_eq!(texts[0], "a2a_planner_plan answered", "the other sources' tools are offered");
    assert!(texts[1].starts_with("unknown tool \"mcp_weather_forecast\""), "{}", texts[1]);
    let left_out: Vec<String> = events
        .lock()
        .unwrap()
        .iter()
        .filter_map(|event| match event {
            Event::ToolSourceLeftOut { problem } => Some(problem.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(left_out, ["the tool source mcp:weather failed: connection refused"]);

    // Back up: the next run resolves it again.
    down.store(false, Ordering::SeqCst);
    let model = ScriptedModel::new(Api::OpenAiChat, [calls(&[("mcp_weather_forecast", "{}")]), answer("done")]);
    let agent = Agent::new(model, Registry::new()).sources(sources);
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "weather").await.unwrap();
    assert_eq!(outcome.tool_runs[0].result.text(), "mcp_weather_forecast answered");
}

#[tokio::test]
async fn a_handoff_and_a_live_tool_of_one_name_are_the_runs_error() {
    let (shadow, _) = flaky("mcp:desk", "transfer_to_billing");
    let sources = Arc::new(ToolSources::new().source(shadow));
    let billing = Agent::new(ScriptedModel::new(Api::OpenAiChat, [answer("billing")]), Registry::new());
    let front = ScriptedModel::new(Api::OpenAiChat, [calls(&[("transfer_to_billing", "{}")]), answer("?")]);
    let agent = Agent::new(front, Registry::new())
        .sources(sources)
        .handoff("transfer_to_billing", "Hands billing questions on", billing)
        .unwrap();
    let error = agent.run(&mut Conversation::new(Api::OpenAiChat), "refund").await.unwrap_err();
    let RunError::Tools(ResolveError::Collision { name, first, .. }) = &error else { panic!("{error:?}") };
    assert_eq!((name.as_str(), first.as_str()), ("transfer_to_billing", "mcp:desk"));
    assert!(error.to_string().contains("offered by both mcp:desk and the handoff"), "{error}");
}
