//! Two agents in two processes, one trace: a planner whose tool is a forecaster served over
//! A2A by a child process of this same program. The planner's call carries its span's
//! `traceparent`; the forecaster's server continues it, so both processes print the same
//! trace id.
//!
//! ```sh
//! cargo run -p tool-examples --bin a2a_delegate     # scripted models, no network
//! ```
//!
//! It starts `a2a_delegate serve PORT` itself, and stops it at the end.
#![allow(clippy::print_stdout, clippy::print_stderr)] // an example prints what it shows

use std::time::Duration;

use opentelemetry::trace::{TraceContextExt as _, TracerProvider as _};
use serde_json::{Value, json};
use tool_core::Registry;
use tool_core::a2a::server::A2aServer;
use tool_core::a2a::{AgentSkill, RemoteAgent, SkillFilter};
use tool_core::agent::{Agent, Api, Conversation, ScriptedModel};
use tracing_opentelemetry::OpenTelemetrySpanExt as _;
use tracing_subscriber::layer::SubscriberExt as _;

/// Spans with real ids, and the W3C propagator that carries them across processes.
fn tracing_on() -> opentelemetry_sdk::trace::SdkTracerProvider {
    opentelemetry::global::set_text_map_propagator(opentelemetry_sdk::propagation::TraceContextPropagator::new());
    let provider = opentelemetry_sdk::trace::SdkTracerProvider::builder().build();
    let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("a2a_delegate"));
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(layer)).expect("one subscriber");
    provider
}

fn trace_id() -> String {
    tracing::Span::current().context().span().span_context().trace_id().to_string()
}

fn answer(text: &str) -> Value {
    json!({"choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]})
}

#[derive(tool_core::ToolArgs)]
struct City {
    /// The city
    #[param(min_length = 1)]
    city: String,
}

/// Today's weather in a city
#[tool_core::tool]
fn weather_now(args: City) -> String {
    // Runs in the forecaster's process, inside the run the planner's call started.
    println!("forecaster (pid {}): trace {}, weather_now({})", std::process::id(), trace_id(), args.city);
    format!("sunny in {}, 24 °C", args.city)
}

/// The child: a forecaster agent, with a tool of its own, served over A2A on `port`.
async fn serve(port: u16) -> std::io::Result<()> {
    let call = json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "weather_now", "arguments": r#"{"city": "Rome"}"#}}]},
        "finish_reason": "tool_calls"}]});
    let mut tools = Registry::new();
    tools.add(WeatherNowTool).map_err(std::io::Error::other)?;
    let model = ScriptedModel::new(Api::OpenAiChat, [call, answer("Sunny in Rome, 24 °C")]);
    let server = A2aServer::agent(Agent::new(model, tools))
        .with_info("Forecaster", "Forecasts the weather", "1.0.0")
        .with_skill(AgentSkill::new("forecast", "Forecast", "A city's weather"));
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    server.serve(listener, std::future::pending()).await
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let provider = tracing_on();
    let args: Vec<String> = std::env::args().collect();
    if let [_, command, port] = args.as_slice()
        && command == "serve"
    {
        return Ok(serve(port.parse()?).await?);
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let mut child = std::process::Command::new(std::env::current_exe()?).args(["serve", &port.to_string()]).spawn()?;
    let card = format!("http://127.0.0.1:{port}/.well-known/agent-card.json");
    let mut forecaster = None;
    for _ in 0..100 {
        if let Ok(agent) = RemoteAgent::connect(&card).await {
            forecaster = Some(agent);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let tools = forecaster.ok_or("the forecaster did not start")?.tools(&SkillFilter::all())?;
    let call = json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "a2a_forecaster_forecast", "arguments": r#"{"message": "Rome tomorrow?"}"#}}]},
        "finish_reason": "tool_calls"}]});
    let model = ScriptedModel::new(Api::OpenAiChat, [call, answer("Pack sunglasses for Rome.")]);
    let planner = Agent::new(model, tools);
    let span = tracing::info_span!("plan");
    println!("planner (pid {}): trace {}", std::process::id(), span.context().span().span_context().trace_id());
    let outcome =
        tracing::Instrument::instrument(planner.run(&mut Conversation::new(Api::OpenAiChat), "Plan my day"), span)
            .await;
    child.kill()?;
    child.wait()?;
    let outcome = outcome?;
    println!("the forecaster said: {}", outcome.tool_runs[0].result.text());
    println!("the planner answers: {}", outcome.text);
    provider.shutdown()?;
    Ok(())
}
