//! One trace across two agents joined by A2A: the first agent's tool call (a remote skill)
//! carries `traceparent` over HTTP, and the served agent's request and run continue it.
//! A binary of its own: spans are recorded by a subscriber of this thread, and tests on other
//! threads hitting the same span callsites with none could leave them disabled here.

use std::time::Duration;

use opentelemetry::trace::SpanKind;
use serde_json::json;
use tool_core::Registry;
use tool_core::a2a::server::A2aServer;
use tool_core::a2a::{AgentSkill, RemoteAgent, SkillFilter};
use tool_core::agent::{Agent, Api, Conversation, ScriptedModel};

use exported::{Exported, find};

#[path = "../support/exported.rs"]
mod exported;

fn answer(text: &str) -> serde_json::Value {
    json!({"choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]})
}

#[tokio::test]
async fn one_trace_runs_from_one_agent_into_the_other() {
    let exported = Exported::start();
    let forecaster = Agent::new(ScriptedModel::new(Api::OpenAiChat, [answer("sunny in Oslo")]), Registry::new());
    let server = A2aServer::agent(forecaster)
        .with_info("Forecaster", "Forecasts", "1.0.0")
        .with_skill(AgentSkill::new("forecast", "Forecast", "A city's weather"));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(server.serve(listener, std::future::pending()));

    let remote = RemoteAgent::connect(&format!("{base}/.well-known/agent-card.json")).await.unwrap();
    let tools = remote.tools(&SkillFilter::all()).unwrap();
    let call = json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "a2a_forecaster_forecast", "arguments": r#"{"message": "Oslo?"}"#}}]},
        "finish_reason": "tool_calls"}]});
    let planner = Agent::new(ScriptedModel::new(Api::OpenAiChat, [call, answer("pack sunglasses")]), tools)
        .call_timeout(Duration::from_secs(10));
    let outcome = planner.run(&mut Conversation::new(Api::OpenAiChat), "plan").await.unwrap();
    assert_eq!(outcome.tool_runs[0].result.text(), "sunny in Oslo");

    // The server's spans close as its run ends, just after the reply went out.
    let mut spans = exported.spans();
    for _ in 0..100 {
        let closed = |name: &str| spans.iter().any(|span| span.name == name);
        if closed("a2a task") && closed("SendStreamingMessage") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
        spans = exported.spans();
    }
    let agents: Vec<_> = spans.iter().filter(|span| span.name == "invoke_agent").collect();
    assert_eq!(agents.len(), 2, "both agents' runs");
    let planner = agents.iter().find(|span| span.parent_span_id == opentelemetry::trace::SpanId::INVALID).unwrap();
    let call = find(&spans, "execute_tool a2a_forecaster_forecast", &SpanKind::Internal);
    let server = find(&spans, "SendStreamingMessage", &SpanKind::Server);
    let trace = planner.span_context.trace_id();
    for span in &spans {
        assert_eq!(span.span_context.trace_id(), trace, "{} is in the planner's trace", span.name);
    }
    assert_eq!(server.parent_span_id, call.span_context.span_id(), "the server continued the caller's trace");
    let task = find(&spans, "a2a task", &SpanKind::Internal);
    assert_eq!(task.parent_span_id, server.span_context.span_id());
    let forecaster = agents.iter().find(|span| span.span_context.span_id() != planner.span_context.span_id()).unwrap();
    assert_eq!(forecaster.parent_span_id, task.span_context.span_id(), "the served agent's run is the task's");
}
