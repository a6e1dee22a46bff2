//! An A2A agent served over JSON-RPC 1.0, the peer `tests/a2a/serve.sh` runs the official
//! Python client and the A2A TCK against. Its behaviour is chosen by the message's text:
//!
//! - `/hello`: a direct message, no task;
//! - `/weather`: the task asks "Which city?" (input required), and the answer completes it;
//! - `/fail`, `/reject`: the task fails, or is rejected, with the reason;
//! - `/data`: an artifact with a data part;
//! - `/slow`: works for a minute, reporting as it goes (for cancels and subscriptions);
//! - anything else: works a second, reporting it, then answers with an artifact, as the
//!   TCK's own reference agent does.
//!
//! The TCK's tests that continue, cancel or look into a task after a blocking `SendMessage`
//! need it still open then; their messages' ids say which (`cancel-test-…`), and the agent
//! asks for more input on those, as a real agent would mid-conversation. Its listing tests
//! (`list-test-…`) need the task working once `SendMessage` returns: the agent releases the
//! blocking reply and goes on working in the background (`TaskHandle::release`), as the
//! official SDKs' fire-and-forget agents do.
//!
//! Usage: `cargo run -p tool-examples --bin a2a_agent -- PORT [PUBLIC_URL]`: it listens on
//! `127.0.0.1:PORT`, and its card names `PUBLIC_URL` (the URL clients reach it at), or
//! `http://127.0.0.1:PORT/` when none is given.

use core::time::Duration;

use serde_json::json;
use tool_core::a2a::server::{A2aServer, Artifact, Incoming, Outcome, PushSettings, TaskHandle};
use tool_core::a2a::{AgentSkill, Part};

/// The message id prefixes of the TCK's tests that need their task open after it answers.
const KEEP_OPEN: &[&str] = &["text-", "cancel-test-", "mapping-test-", "test-history-"];

/// The message id prefix of the TCK's tests that list tasks still working.
const WORKING: &str = "list-test-";

async fn execute(request: Incoming, task: TaskHandle) -> Outcome {
    let text = request.text();
    if KEEP_OPEN.iter().any(|prefix| request.message_id.starts_with(prefix)) {
        return Outcome::InputRequired(vec![Part::text("Noted. Anything else?")]);
    }
    if request.message_id.starts_with(WORKING) {
        // The blocking reply goes now, with the task working; the work goes on.
        task.release().await;
        tokio::time::sleep(Duration::from_mins(1)).await;
        return Outcome::Completed(vec![Artifact::new([Part::text(format!("You said: {text}"))])]);
    }
    if request.continues {
        let forecast = format!("The forecast for {text}: sunny");
        return Outcome::Completed(vec![Artifact::new([Part::text(forecast)]).with_name("forecast")]);
    }
    match text.trim() {
        "/hello" => Outcome::Message(vec![Part::text("Hello! Send /weather for a forecast.")]),
        "/weather" => Outcome::InputRequired(vec![Part::text("Which city?")]),
        "/fail" => Outcome::Failed("the agent was asked to fail".to_owned()),
        "/reject" => Outcome::Rejected("the agent declines this request".to_owned()),
        "/data" => Outcome::Completed(vec![Artifact::new([Part::data(json!({"temperature": 21, "unit": "C"}))])]),
        "/slow" => {
            for step in 1..=60 {
                task.working([Part::text(format!("step {step} of 60"))]).await;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Outcome::Completed(vec![Artifact::new([Part::text("done")])])
        }
        _ => {
            task.working([Part::text("working on it")]).await;
            tokio::time::sleep(Duration::from_secs(1)).await;
            let reply = format!("You said: {text}");
            Outcome::Completed(vec![Artifact::new([Part::text(reply)]).with_name("response")])
        }
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port: u16 = std::env::args().nth(1).and_then(|port| port.parse().ok()).unwrap_or(9999);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    // Push notifications go to webhooks on this machine too (the TCK's listens on localhost).
    let mut server = A2aServer::new(execute).with_push(PushSettings::new().allow_private_addresses());
    if let Some(url) = std::env::args().nth(2) {
        server = server.with_url(url);
    }
    let server = server
        .with_info("Forecaster", "Answers, asks, fails and works on request", "1.0.0")
        .with_skill(
            AgentSkill::new("forecast", "Forecast", "A weather forecast; asks for the city")
                .with_tags(["weather"])
                .with_examples(["/weather"]),
        )
        .with_skill(AgentSkill::new("echo", "Echo", "Works a second, then repeats the message").with_tags(["echo"]));
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    server.serve(listener, shutdown).await
}
