//! Delivering push notifications: the replica that runs a task follows its events and POSTs
//! each, as a `StreamResponse` (`{"statusUpdate": ..}`, `{"artifactUpdate": ..}`,
//! `{"task": ..}`), to every config the task has at that moment, in order, with the config's
//! token (`X-A2A-Notification-Token`) and authentication (`Authorization`). A webhook that is
//! down or slow is tried a bounded number of times, with a timeout and a backoff, and never
//! holds up the task. The rules of the toolbox's `fetch` apply to where it goes: http or https
//! only, a host that resolves to public addresses only (unless the server allows private ones),
//! the connection pinned to the addresses checked, no proxy, no redirect followed.

use std::sync::Arc;

use serde_json::Value;
use tokio::sync::broadcast;

use super::push_settings::PushSettings;
use super::shared::Shared;

/// Follows the events of the task `task` (from `events`, subscribed before its first) and
/// delivers each to the task's configs, until the run ends.
pub(super) fn follow(shared: Arc<Shared>, task: String, mut events: broadcast::Receiver<Value>) {
    if !shared.push.enabled {
        return;
    }
    tokio::spawn(async move {
        loop {
            let event = match events.recv().await {
                Ok(event) => event,
                Err(broadcast::error::RecvError::Lagged(missed)) => {
                    tracing::warn!(task = %task, missed, "a2a push: events were missed");
                    continue;
                }
                Err(broadcast::error::RecvError::Closed) => return,
            };
            let Ok(configs) = super::push::configs(&shared, &task).await else { continue };
            for config in configs {
                deliver(&shared.push, &config, &event).await;
            }
        }
    });
}

/// One notification to one config, tried as the settings say; failures are logged.
async fn deliver(settings: &PushSettings, config: &Value, event: &Value) {
    let url = config["url"].as_str().unwrap_or_default();
    let mut wait = settings.backoff;
    for attempt in 1..=settings.attempts.max(1) {
        match post(settings, config, event).await {
            Ok(()) => return,
            Err(Refused(problem)) => {
                tracing::warn!(%url, %problem, "a2a push: not delivered");
                return;
            }
            Err(Failed(problem)) if attempt == settings.attempts.max(1) => {
                tracing::warn!(%url, %problem, attempt, "a2a push: given up");
            }
            Err(Failed(problem)) => {
                tracing::debug!(%url, %problem, attempt, "a2a push: will retry");
                tokio::time::sleep(wait).await;
                wait = wait.saturating_mul(2);
            }
        }
    }
}

/// Why a try failed: for good (the target is not allowed), or for now.
enum Problem {
    Refused(String),
    Failed(String),
}

use Problem::{Failed, Refused};

async fn post(settings: &PushSettings, config: &Value, event: &Value) -> Result<(), Problem> {
    let url = config["url"].as_str().unwrap_or_default();
    let parsed = reqwest::Url::parse(url).map_err(|error| Refused(format!("not a URL: {error}")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(Refused(format!("only http and https webhooks are called, not {}:", parsed.scheme())));
    }
    let host = parsed.host_str().ok_or_else(|| Refused("the URL has no host".to_owned()))?;
    let host = host.trim_start_matches('[').trim_end_matches(']').to_owned();
    let port = parsed.port_or_known_default().unwrap_or(443);
    let client = crate::net::pinned_client(&host, port, settings.allow_private_addresses, settings.timeout)
        .await
        .map_err(|unreachable| match unreachable {
            crate::net::Unreachable::Refused(why) => Refused(why),
            crate::net::Unreachable::Failed(why) => Failed(why),
        })?;
    let mut request = client.post(parsed).header("content-type", "application/json").body(event.to_string());
    if let Some(token) = config["token"].as_str() {
        request = request.header("x-a2a-notification-token", token);
    }
    if let Some(scheme) = config.pointer("/authentication/scheme").and_then(Value::as_str) {
        let credentials = config.pointer("/authentication/credentials").and_then(Value::as_str).unwrap_or_default();
        request = request.header("authorization", format!("{scheme} {credentials}").trim_end().to_owned());
    }
    let response = request.send().await.map_err(|error| Failed(format!("the request failed: {error}")))?;
    let status = response.status();
    if status.is_redirection() {
        return Err(Refused(format!("{url} redirects ({status}); redirects are not followed")));
    }
    if status.is_success() { Ok(()) } else { Err(Failed(format!("{url} answered {status}"))) }
}
