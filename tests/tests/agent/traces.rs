//! The spans of a run, in the OpenTelemetry gen-AI conventions: `invoke_agent` with the run's
//! token usage, a `chat` span per model request with its own, and each tool call's
//! `execute_tool` inside the run.

use tool_core::agent::{Agent, Api, Conversation, ScriptedModel};
use tracing_subscriber::layer::SubscriberExt;

use crate::fixture::{answer, calls, registry};
use crate::recorder::Recorder;

#[tokio::test]
async fn a_run_is_an_invoke_agent_span_around_its_chats_and_tool_calls() {
    let recorder = Recorder::default();
    let _default = tracing::subscriber::set_default(tracing_subscriber::registry().with(recorder.clone()));
    let model = ScriptedModel::new(Api::OpenAiChat, [calls(&[("nap", r#"{"ms": 0}"#)]), answer("rested")]);
    let outcome = Agent::new(model, registry()).run(&mut Conversation::new(Api::OpenAiChat), "rest").await.unwrap();
    assert_eq!(outcome.text, "rested");

    let spans = recorder.spans();
    let run = spans.iter().find(|span| span.name == "invoke_agent").expect("the run's span");
    assert_eq!(run.field("gen_ai.operation.name"), Some("invoke_agent"));
    assert_eq!(run.field("gen_ai.provider.name"), Some("openai"));
    assert_eq!(run.field("gen_ai.usage.input_tokens"), Some(outcome.usage.input_tokens.to_string().as_str()));
    assert_eq!(run.field("gen_ai.usage.output_tokens"), Some(outcome.usage.output_tokens.to_string().as_str()));
    let chats: Vec<_> = spans.iter().filter(|span| span.name == "chat").collect();
    assert_eq!(chats.len(), 2, "one per model request");
    assert!(chats.iter().all(|chat| chat.parent == Some(run.id) && chat.field("otel.kind") == Some("client")));
    assert_eq!(chats[1].field("gen_ai.usage.input_tokens"), Some("20"));
    let tool = spans.iter().find(|span| span.name == "execute_tool").expect("the call's span");
    assert_eq!(tool.parent, Some(run.id));
    assert_eq!(tool.field("gen_ai.tool.name"), Some("nap"));
    assert_eq!(tool.field("gen_ai.tool.call.id"), Some("call_0"));
    assert_eq!(tool.field("error.type"), None);
}
