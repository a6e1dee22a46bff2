//! An agent served as an A2A agent: each message a run of the agent loop in the conversation
//! of its context (kept in the task store, so any replica continues it), its approvals and its
//! tools' questions asked of the client as `INPUT_REQUIRED`, its answer the task's artifact.

use core::time::Duration;
use std::sync::Arc;

use serde_json::json;

use super::A2aServer;
use super::executor::{ExecuteFuture, Executor};
use super::handle::TaskHandle;
use super::host::{TaskHost, object};
use super::model::{Artifact, Incoming, Outcome};
use crate::a2a::Part;
use crate::agent::{Agent, Conversation, Verdict, VerdictFuture};
use crate::provider::ToolCall;
use crate::tasks::{StoreError, TaskRecord, TaskStore};

impl A2aServer {
    /// `agent` served: each message runs the agent loop on its text, in the conversation its
    /// context holds (a new context starts a new one). The conversation is kept in the task
    /// store, for the store's time to live, under the caller and the context, so whichever
    /// replica the next message reaches continues it, and no other caller can. A call that needs
    /// approval (the agent's [`ApprovalPolicy`](crate::agent::ApprovalPolicy)) and a tool's
    /// elicitation ask the client: the task is `INPUT_REQUIRED` with the question (and the
    /// call as a data part) until the client answers with the task's id ("yes", or
    /// `{"approve": true}`; anything else denies, its text the reason the model reads). The
    /// run's answer is the task's artifact; a run that fails fails the task; `CancelTask`
    /// cancels the run. The agent's approval timeout bounds each question.
    #[must_use]
    pub fn agent(agent: Agent) -> Self {
        A2aServer::new(Runs { agent })
    }
}

struct Runs {
    agent: Agent,
}

/// Approvals asked of the task's client.
struct TaskApprover(TaskHandle);

impl crate::agent::Approver for TaskApprover {
    fn approve<'a>(&'a self, call: &'a ToolCall) -> VerdictFuture<'a> {
        Box::pin(async move {
            let arguments = call.arguments.to_text().into_owned();
            let question = [
                Part::Text(format!("May I call the tool {} with {arguments}? Answer yes, or no and why.", call.name)),
                Part::Data(
                    json!({"tool": call.name, "arguments": serde_json::from_str::<serde_json::Value>(&arguments).unwrap_or_default()}),
                ),
            ];
            let answer = self.0.ask(question).await;
            Ok(match approval(&answer) {
                Ok(()) => Verdict::Approve,
                Err(reason) => Verdict::Deny(reason),
            })
        })
    }
}

impl Executor for Runs {
    fn execute(&self, request: Incoming, task: TaskHandle) -> ExecuteFuture {
        let agent = self.agent.asking(Arc::new(TaskApprover(task.clone())), Arc::new(TaskHost(task.clone())));
        Box::pin(async move {
            let (store, ttl, owner) = task.store();
            let key = format!("a2a-context:{}:{}", owner.unwrap_or_default(), request.context_id);
            let held = match store.load(&key).await {
                Ok(record) => record.and_then(|record| serde_json::from_str::<Conversation>(&record.state).ok()),
                Err(error) => return Outcome::Failed(error.to_string()),
            };
            let mut conversation = held.unwrap_or_else(|| agent.conversation());
            task.working([Part::text("working")]).await;
            let run = agent.run_until(&mut conversation, &request.text(), task.cancellation()).await;
            if let Err(error) = keep(store.as_ref(), &key, &conversation, ttl).await {
                tracing::warn!(%error, "a2a: the conversation could not be kept");
            }
            match run {
                Ok(outcome) => Outcome::Completed(vec![Artifact::new([Part::Text(outcome.text)]).with_name("answer")]),
                Err(error) => Outcome::Failed(error.to_string()),
            }
        })
    }
}

/// Writes `conversation` under `key`, making the record the first time.
async fn keep(
    store: &dyn TaskStore,
    key: &str,
    conversation: &Conversation,
    ttl: Option<Duration>,
) -> Result<(), StoreError> {
    let text = serde_json::to_string(conversation).map_err(|error| StoreError::new(error.to_string()))?;
    if !store.save(key, &text, false, 0).await? {
        store.create(key, TaskRecord::new(text, 0), ttl).await?;
    }
    Ok(())
}

/// Whether an answer approves: `{"approve": true}`, or text starting with yes (or approve,
/// ok); the reason given otherwise (the answer's text, or its data's `reason`).
fn approval(answer: &Incoming) -> Result<(), String> {
    if let Some(data) = object(answer) {
        if data["approve"].as_bool() == Some(true) {
            return Ok(());
        }
        let reason = data["reason"].as_str().unwrap_or("the user declined the call");
        return Err(reason.to_owned());
    }
    let text = answer.text();
    let first = text.split(|c: char| !c.is_alphanumeric()).next().unwrap_or_default().to_ascii_lowercase();
    if matches!(first.as_str(), "yes" | "y" | "approve" | "approved" | "ok") {
        Ok(())
    } else {
        Err(if text.trim().is_empty() { "the user declined the call".to_owned() } else { text })
    }
}
