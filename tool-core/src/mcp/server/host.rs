//! The [`Host`] of one MCP tool call: progress with the request's `progressToken`, log
//! messages at the session's level, and sampling and elicitation as requests to the client,
//! each refused at once when the client did not declare the capability. On protocol
//! revisions from 2026-07-28, where a server may no longer send requests, sampling and
//! elicitation become an `InputRequiredResult` round instead (see [`crate::mcp::server::rounds`]).

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

#[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
use rmcp::model::{
    CustomNotification, ElicitRequestParams, LoggingMessageNotificationParam, ProgressNotificationParam, ProgressToken,
    ProtocolVersion, ServerNotification,
};
use rmcp::{Peer, RoleServer};
use serde_json::json;
use tokio::sync::{mpsc, oneshot};

use crate::context::{
    ClientCapabilities, ElicitationAnswer, ElicitationRequest, Host, HostError, HostFuture, LogLevel, LogMessage,
    Progress, Root, SamplingRequest, SamplingResponse, UrlElicitation,
};
use crate::mcp::server::revision;
use crate::mcp::server::rounds::Rounds;
use crate::mcp::server::tasks::asked;
use crate::mcp::server::wire;

/// The session's `logging/setLevel`, as the index of a [`LogLevel`]; [`LEVEL_UNSET`] until
/// the client sets one, when every message is sent (the spec leaves the choice to the server).
pub(crate) type SessionLevel = Arc<AtomicU8>;

/// No `logging/setLevel` yet.
pub(crate) const LEVEL_UNSET: u8 = u8::MAX;

/// Notifications, sent in the order the tool made them.
#[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
enum Outgoing {
    Progress(ProgressNotificationParam),
    Log(LoggingMessageNotificationParam),
    Other(ServerNotification),
    Flush(oneshot::Sender<()>),
}

/// Where a call's log messages go, and at which level.
pub(crate) enum Logging {
    /// A session's level (legacy revisions), read at each message so a change applies at once.
    Session(SessionLevel),
    /// The request's own `_meta` level (2026-07-28); `None` sends nothing.
    Request(Option<LogLevel>),
}

impl Logging {
    /// Whether a message at `level` goes out.
    pub(crate) fn enabled(&self, level: LogLevel) -> bool {
        match self {
            Logging::Session(session) => match session.load(Ordering::Relaxed) {
                LEVEL_UNSET => true,
                minimum => level as u8 >= minimum,
            },
            Logging::Request(minimum) => minimum.is_some_and(|minimum| level >= minimum),
        }
    }
}

/// The host of one call.
pub(crate) struct McpHost {
    peer: Peer<RoleServer>,
    progress_token: Option<ProgressToken>,
    logging: Logging,
    capabilities: ClientCapabilities,
    outbox: Arc<Outbox>,
    rounds: Option<Arc<Rounds>>,
    /// What the user must visit before the call can go on, when the tool said so (its
    /// `-32042`), read when the call ends.
    required: Mutex<Vec<UrlElicitation>>,
}

/// Sends a call's notifications in order; [`Outbox::flush`] waits until all are sent, so
/// that none arrives after the call's result. The sending task starts with the first
/// notification: most calls send none.
pub(crate) struct Outbox {
    peer: Peer<RoleServer>,
    sender: OnceLock<mpsc::UnboundedSender<Outgoing>>,
    /// The call's protocol revision, which says what its messages may carry.
    revision: Option<ProtocolVersion>,
}

impl Outbox {
    pub(crate) fn new(peer: &Peer<RoleServer>, revision: Option<ProtocolVersion>) -> Arc<Self> {
        Arc::new(Outbox { peer: peer.clone(), sender: OnceLock::new(), revision })
    }

    fn send(&self, message: Outgoing) {
        let _ = self.sender.get_or_init(|| self.start()).send(message);
    }

    #[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
    fn start(&self) -> mpsc::UnboundedSender<Outgoing> {
        let (sender, mut receiver) = mpsc::unbounded_channel();
        let peer = self.peer.clone();
        tokio::spawn(async move {
            while let Some(message) = receiver.recv().await {
                // A closed transport fails the send; the tool goes on, as it would had the
                // client simply stopped listening.
                match message {
                    Outgoing::Progress(params) => {
                        let _ = peer.notify_progress(params).await;
                    }
                    Outgoing::Log(params) => {
                        let _ = peer.notify_logging_message(params).await;
                    }
                    Outgoing::Other(notification) => {
                        let _ = peer.send_notification(notification).await;
                    }
                    Outgoing::Flush(done) => {
                        let _ = done.send(());
                    }
                }
            }
        });
        sender
    }

    pub(crate) async fn flush(&self) {
        let Some(sender) = self.sender.get() else { return };
        let (done, sent) = oneshot::channel();
        if sender.send(Outgoing::Flush(done)).is_ok() {
            let _ = sent.await;
        }
    }
}

impl McpHost {
    pub(crate) fn new(
        peer: Peer<RoleServer>,
        progress_token: Option<ProgressToken>,
        logging: Logging,
        capabilities: ClientCapabilities,
        outbox: Arc<Outbox>,
        rounds: Option<Arc<Rounds>>,
    ) -> Self {
        McpHost { peer, progress_token, logging, capabilities, outbox, rounds, required: Mutex::default() }
    }

    /// The URLs the tool said the user must visit first, taken.
    pub(crate) fn take_required(&self) -> Vec<UrlElicitation> {
        core::mem::take(&mut *self.required.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Host for McpHost {
    fn progress(&self, progress: &Progress) {
        if let Some(token) = &self.progress_token {
            let mut params = ProgressNotificationParam::new(token.clone(), progress.progress);
            if let Some(total) = progress.total {
                params = params.with_total(total);
            }
            // A progress message is 2025-03-26's.
            if let Some(message) = &progress.message
                && !revision::before(self.outbox.revision.as_ref(), &ProtocolVersion::V_2025_03_26)
            {
                params = params.with_message(message.clone());
            }
            self.outbox.send(Outgoing::Progress(params));
        }
    }

    fn log_enabled(&self, level: LogLevel) -> bool {
        self.logging.enabled(level)
    }

    fn is_closed(&self) -> bool {
        self.peer.is_transport_closed()
    }

    #[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
    fn log(&self, message: LogMessage) {
        let mut params = LoggingMessageNotificationParam::new(wire::logging_level(message.level), message.data);
        if let Some(logger) = message.logger {
            params = params.with_logger(logger);
        }
        self.outbox.send(Outgoing::Log(params));
    }

    fn sample(&self, request: SamplingRequest) -> HostFuture<'_, SamplingResponse> {
        Box::pin(async move {
            if !self.capabilities.sampling {
                return Err(HostError::Unsupported { capability: "sampling" });
            }
            if let Some(rounds) = &self.rounds {
                return rounds.sample(&request).await;
            }
            // Sent as JSON of our own rather than rmcp's params, whose `f32` temperature would
            // reach the client widened.
            let params = wire::sampling_params(&request)?;
            let method = "sampling/createMessage";
            let answer = asked::ask(&self.peer, method, params, self.capabilities.sampling_as_task).await?;
            wire::sampling_response(&asked::read(answer, "sampling")?)
        })
    }

    fn elicit(&self, request: ElicitationRequest) -> HostFuture<'_, ElicitationAnswer> {
        Box::pin(async move {
            if !self.capabilities.elicitation {
                return Err(HostError::Unsupported { capability: "elicitation" });
            }
            if let Some(rounds) = &self.rounds {
                return rounds.elicit(request).await;
            }
            let (params, as_task) = if revision::before(self.outbox.revision.as_ref(), &ProtocolVersion::V_2025_11_25) {
                // 2025-06-18's form has no `mode`, which rmcp's params always carry.
                (json!({"message": request.message, "requestedSchema": request.requested_schema}), false)
            } else {
                let params = serde_json::to_value(wire::elicitation_params(request)?)
                    .map_err(|e| HostError::Failed { message: format!("the form could not be written: {e}") })?;
                (params, self.capabilities.elicitation_as_task)
            };
            let answer = asked::ask(&self.peer, "elicitation/create", params, as_task).await?;
            Ok(wire::elicitation_answer(asked::read(answer, "elicitation")?))
        })
    }

    fn elicit_url(&self, request: UrlElicitation) -> HostFuture<'_, ElicitationAnswer> {
        Box::pin(async move {
            if !self.capabilities.url_elicitation {
                return Err(HostError::Unsupported { capability: "url elicitation" });
            }
            if let Some(rounds) = &self.rounds {
                return rounds.elicit_url(&request).await;
            }
            let params = ElicitRequestParams::UrlElicitationParams {
                meta: None,
                message: request.message,
                url: request.url,
                elicitation_id: request.id,
            };
            let result = self.peer.create_elicitation(params).await;
            Ok(wire::elicitation_answer(result.map_err(|e| HostError::Failed { message: e.to_string() })?))
        })
    }

    fn url_elicitation_complete(&self, id: &str) {
        let params = serde_json::json!({"elicitationId": id});
        let notification = CustomNotification::new("notifications/elicitation/complete", Some(params));
        self.outbox.send(Outgoing::Other(ServerNotification::CustomNotification(notification)));
    }

    fn require_urls(&self, required: Vec<UrlElicitation>) {
        // Only a client that can follow a URL is told to (the tool's text reaches the others).
        if self.capabilities.url_elicitation {
            self.required.lock().unwrap_or_else(PoisonError::into_inner).extend(required);
        }
    }

    #[expect(deprecated, reason = "SEP-2577 deprecates roots; 2025 clients use them")]
    fn roots(&self) -> HostFuture<'_, Vec<Root>> {
        Box::pin(async move {
            if !self.capabilities.roots {
                return Err(HostError::Unsupported { capability: "roots" });
            }
            if let Some(rounds) = &self.rounds {
                return rounds.roots().await;
            }
            let result = self.peer.list_roots().await;
            Ok(wire::roots(result.map_err(|e| HostError::Failed { message: e.to_string() })?))
        })
    }
}
