//! `SendMessage` and `SendStreamingMessage`: a message checked as 1.0 defines it, then a new
//! task's run, an answer handed to the executor waiting for it (here, or through the store on
//! the replica that runs it), or a new run of a task that asked and ended its turn.

use std::sync::{Arc, PoisonError};

use serde_json::{Map, Value, json};

use super::error::RpcError;
use super::handle::TaskHandle;
use super::lookup::{find, state, trim};
use super::model::Incoming;
use super::run::{ANSWER, Run, is_settled, is_terminal, store_key};
use super::shared::Shared;
use super::stream::{Answer, Events};
use crate::a2a::part;

/// Checks a `Message` as 1.0 defines it: every violation named by its path.
fn check_message(message: Option<&Value>) -> Result<&Map<String, Value>, RpcError> {
    let message = message
        .and_then(Value::as_object)
        .ok_or_else(|| RpcError::invalid_params("params.message: a Message object is required"))?;
    let mut problems = Vec::new();
    if message.get("messageId").and_then(Value::as_str).is_none_or(str::is_empty) {
        problems.push("params.message.messageId: a non-empty string is required".to_owned());
    }
    match message.get("role").and_then(Value::as_str) {
        Some("ROLE_USER" | "ROLE_AGENT") => {}
        _ => problems.push("params.message.role: must be ROLE_USER or ROLE_AGENT".to_owned()),
    }
    match message.get("parts").and_then(Value::as_array) {
        Some(parts) if !parts.is_empty() => {
            for (index, part) in parts.iter().enumerate() {
                let kinds = ["text", "raw", "url", "data"].iter().filter(|kind| part.get(**kind).is_some()).count();
                if kinds != 1 {
                    problems
                        .push(format!("params.message.parts[{index}]: must hold exactly one of text, raw, url, data"));
                }
            }
        }
        _ => problems.push("params.message.parts: a non-empty array of parts is required".to_owned()),
    }
    for key in ["taskId", "contextId"] {
        if message.get(key).is_some_and(|id| !id.is_string()) {
            problems.push(format!("params.message.{key}: must be a string"));
        }
    }
    if problems.is_empty() { Ok(message) } else { Err(RpcError::invalid_params(problems.join("; "))) }
}

/// What the reply waits for, and how it is given.
struct Reply {
    stream: bool,
    immediately: bool,
    history_length: Option<u64>,
}

pub(super) async fn send(
    shared: &Arc<Shared>,
    params: &Map<String, Value>,
    stream: bool,
    owner: Option<String>,
) -> Result<Answer, RpcError> {
    let message = check_message(params.get("message"))?;
    let configuration = params.get("configuration").unwrap_or(&Value::Null);
    let reply = Reply {
        stream,
        immediately: configuration["returnImmediately"].as_bool().unwrap_or(false),
        history_length: configuration["historyLength"].as_u64(),
    };
    let asked_context = message.get("contextId").and_then(Value::as_str);
    let Some(task_id) = message.get("taskId").and_then(Value::as_str) else {
        let context_id = asked_context.map_or_else(|| uuid::Uuid::new_v4().to_string(), str::to_owned);
        let incoming = incoming(message, uuid::Uuid::new_v4().to_string(), context_id, false);
        super::push::from_send(shared, &incoming.task_id, configuration).await?;
        return start(shared, incoming, None, owner, &reply).await;
    };
    let (run, task) = find(shared, task_id, owner.as_deref()).await?;
    let context_id = task["contextId"].as_str().unwrap_or_default().to_owned();
    if asked_context.is_some_and(|asked| asked != context_id) {
        return Err(RpcError::invalid_params(format!(
            "params.message.contextId: task {task_id} belongs to context {context_id}"
        )));
    }
    let incoming = incoming(message, task_id.to_owned(), context_id, true);
    super::push::from_send(shared, task_id, configuration).await?;
    if let Some(run) = run {
        // Running here: the answer goes to the executor that asked, if one did.
        let (events, settled) = (run.events.subscribe(), run.settled.subscribe());
        if !run.resume(incoming) {
            return Err(RpcError::unsupported(format!("task {task_id} is still working: send when it asks for input")));
        }
        return answer(&run, events, settled, &reply).await;
    }
    if is_terminal(state(&task)) {
        return Err(RpcError::unsupported(format!("task {task_id} is in a terminal state ({})", state(&task))));
    }
    let key = store_key(task_id);
    let record = shared.store.load(&key).await.map_err(|error| RpcError::internal(error.to_string()))?;
    if record.is_some_and(|record| record.lease_until_ms > now_ms()) {
        return answer_elsewhere(shared, task_id, &task, &incoming, owner.as_deref(), &reply).await;
    }
    start(shared, incoming, Some(task), owner, &reply).await
}

fn incoming(message: &Map<String, Value>, task_id: String, context_id: String, continues: bool) -> Incoming {
    let mut stored = message.clone();
    stored.insert("taskId".to_owned(), json!(task_id));
    stored.insert("contextId".to_owned(), json!(context_id));
    Incoming {
        parts: part::parts(&message["parts"]),
        message_id: message["messageId"].as_str().unwrap_or_default().to_owned(),
        continues,
        task_id,
        context_id,
        message: Value::Object(stored),
    }
}

fn now_ms() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    u64::try_from(now.as_millis()).unwrap_or(u64::MAX)
}

/// A new run of `incoming`, on a new task or on `existing`.
async fn start(
    shared: &Arc<Shared>,
    incoming: Incoming,
    existing: Option<Value>,
    owner: Option<String>,
    reply: &Reply,
) -> Result<Answer, RpcError> {
    let run = Run::new(Arc::clone(&shared.store), shared.settings.clone(), &incoming, existing, owner);
    shared.runs.lock().unwrap_or_else(PoisonError::into_inner).insert(run.id.clone(), Arc::clone(&run));
    // Subscribed before the run's first event.
    super::push_delivery::follow(Arc::clone(shared), run.id.clone(), run.events.subscribe());
    if reply.immediately {
        run.announce().await;
    }
    let (events, settled) = (run.events.subscribe(), run.settled.subscribe());
    let execute = shared.executor.execute(incoming, TaskHandle { run: Arc::clone(&run) });
    let (shared_for_run, running) = (Arc::clone(shared), Arc::clone(&run));
    // The run has a span of its own, a child of the request's (and so in the caller's trace),
    // which lasts as long as the task runs, across its questions to the client.
    let run_span = tracing::info_span!("a2a.task", otel.name = "a2a task", a2a.task.id = %run.id);
    tokio::spawn(tracing::Instrument::instrument(
        async move {
            running.drive(execute).await;
            shared_for_run.runs.lock().unwrap_or_else(PoisonError::into_inner).remove(&running.id);
        },
        run_span,
    ));
    answer(&run, events, settled, reply).await
}

/// The reply to a message `run` took: its events, the task at once, or the task once it
/// settles.
async fn answer(
    run: &Run,
    events: tokio::sync::broadcast::Receiver<Value>,
    mut settled: tokio::sync::watch::Receiver<Option<Value>>,
    reply: &Reply,
) -> Result<Answer, RpcError> {
    if reply.stream {
        // A stream opens with the task, once there is one (a new run makes it as it goes).
        let first =
            if reply.immediately || run.is_announced() { vec![json!({"task": run.task()})] } else { Vec::new() };
        return Ok(Answer::Stream(Events::new(first, events)));
    }
    if reply.immediately {
        return Ok(Answer::Result(json!({"task": trim(run.task(), reply.history_length)})));
    }
    let settled =
        settled.wait_for(Option::is_some).await.map_err(|_| RpcError::internal("the run ended without a reply"))?;
    let mut result = settled.clone().unwrap_or_default();
    if let Some(task) = result.get_mut("task") {
        *task = trim(task.take(), reply.history_length);
    }
    Ok(Answer::Result(result))
}

/// An answer to a task another replica runs and that waits for it: written to the store,
/// where that replica looks; the reply is the task once it settles again (or once that
/// replica stops vouching for it).
async fn answer_elsewhere(
    shared: &Shared,
    task_id: &str,
    task: &Value,
    incoming: &Incoming,
    owner: Option<&str>,
    reply: &Reply,
) -> Result<Answer, RpcError> {
    let key = store_key(task_id);
    let answer = [(ANSWER.to_owned(), incoming.message.to_string())];
    shared.store.respond(&key, &answer).await.map_err(|error| RpcError::internal(error.to_string()))?;
    let asked_at = task.pointer("/status/timestamp").cloned();
    let mut latest = task.clone();
    if !reply.immediately {
        loop {
            tokio::time::sleep(shared.settings.input_poll).await;
            let (_, now) = find(shared, task_id, owner).await?;
            let moved = now.pointer("/status/timestamp").cloned() != asked_at;
            latest = now;
            if moved && is_settled(state(&latest)) {
                break;
            }
            let record = shared.store.load(&key).await.map_err(|error| RpcError::internal(error.to_string()))?;
            if record.is_none_or(|record| record.lease_until_ms <= now_ms()) {
                break;
            }
        }
    }
    let latest = trim(latest, reply.history_length);
    if reply.stream {
        let (_, closed) = tokio::sync::broadcast::channel(1);
        return Ok(Answer::Stream(Events::new(vec![json!({"task": latest})], closed)));
    }
    Ok(Answer::Result(json!({"task": latest})))
}
