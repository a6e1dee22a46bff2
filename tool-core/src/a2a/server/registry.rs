//! A registry served as an A2A agent: one skill per tool, a message naming the tool to call
//! in a data part (`{"tool": "get_weather", "arguments": {"city": "Paris"}}`), the arguments
//! validated as every call's are, the result an artifact.

use std::sync::Arc;

use serde_json::Value;

use super::A2aServer;
use super::executor::{ExecuteFuture, Executor};
use super::handle::TaskHandle;
use super::host::TaskHost;
use super::model::{Artifact, Incoming, Outcome};
use crate::a2a::{AgentSkill, Part};
use crate::{Registry, ToolError};

impl A2aServer {
    /// `registry`'s tools served as an agent: a skill per tool (its name as the id, its
    /// description), called by a message with a data part `{"tool": name, "arguments": {..}}`
    /// (or a text part holding that JSON; a registry of one tool also takes its arguments alone). The arguments are validated
    /// as any call's: a call that breaks the schema is rejected, every violation named; a
    /// tool's error fails the task; its result (text, and its structured content as a data
    /// part) is the task's artifact, and its progress the task's status updates.
    #[must_use]
    pub fn registry(registry: Registry) -> Self {
        let skills: Vec<AgentSkill> = registry
            .iter()
            .map(|entry| {
                AgentSkill::new(entry.name(), entry.title().unwrap_or(entry.name()), entry.description())
                    .with_examples([format!(r#"a data part {{"tool": "{}", "arguments": {{..}}}}"#, entry.name())])
            })
            .collect();
        let mut server = A2aServer::new(Tools { registry: Arc::new(registry) });
        for skill in skills {
            server = server.with_skill(skill);
        }
        server
    }
}

struct Tools {
    registry: Arc<Registry>,
}

impl Executor for Tools {
    fn execute(&self, request: Incoming, task: TaskHandle) -> ExecuteFuture {
        let registry = Arc::clone(&self.registry);
        Box::pin(async move {
            let (name, arguments) = match choose(&registry, &request) {
                Ok(call) => call,
                Err(reason) => return Outcome::Rejected(reason),
            };
            let (sender, mut progress) = tokio::sync::mpsc::unbounded_channel();
            let context = registry
                .context()
                .with_call_id(request.message_id.clone())
                .with_cancellation(task.cancellation().clone())
                .with_host(Arc::new(TaskHost(task.clone())))
                .with_progress(move |update| {
                    let _ = sender.send(update);
                });
            let call = async {
                let result = registry.call_async(&context, &name, &arguments).await;
                drop(context);
                result
            };
            // Progress in the order the tool reported it, while it runs.
            let forward = async {
                while let Some(update) = progress.recv().await {
                    let note = update.message.unwrap_or_else(|| match update.total {
                        Some(total) => format!("{} of {total}", update.progress),
                        None => update.progress.to_string(),
                    });
                    task.working([Part::Text(note)]).await;
                }
            };
            let (result, ()) = tokio::join!(call, forward);
            match result {
                Ok(output) => {
                    let mut parts = vec![Part::Text(output.to_text().into_owned())];
                    parts.extend(output.structured().cloned().map(Part::Data));
                    Outcome::Completed(vec![Artifact::new(parts).with_name(name)])
                }
                Err(
                    error @ (ToolError::InvalidArguments { .. }
                    | ToolError::InvalidJson { .. }
                    | ToolError::UnknownTool { .. }),
                ) => Outcome::Rejected(error.to_string()),
                Err(error) => Outcome::Failed(error.to_string()),
            }
        })
    }
}

/// The tool a message calls and its arguments (as JSON text).
fn choose(registry: &Registry, request: &Incoming) -> Result<(String, String), String> {
    // A data part; or, from a client that sends text alone, a text part holding the JSON.
    let data = request.parts.iter().find_map(|part| match part {
        Part::Data(data) => Some(data.clone()),
        Part::Text(text) => serde_json::from_str::<Value>(text.as_str()).ok().filter(Value::is_object),
        Part::File { .. } => None,
    });
    match data.as_ref() {
        Some(Value::Object(call)) if call.get("tool").is_some_and(Value::is_string) => {
            let name = call["tool"].as_str().unwrap_or_default().to_owned();
            let arguments = call.get("arguments").cloned().unwrap_or_else(|| Value::Object(serde_json::Map::new()));
            Ok((name, arguments.to_string()))
        }
        Some(arguments @ Value::Object(_)) if registry.len() == 1 => {
            let name = registry.names()[0].to_owned();
            Ok((name, arguments.to_string()))
        }
        _ => Err(format!(
            "name the tool to call in a data part: {{\"tool\": <name>, \"arguments\": {{..}}}}; this agent's tools: {}",
            registry.names().join(", ")
        )),
    }
}
