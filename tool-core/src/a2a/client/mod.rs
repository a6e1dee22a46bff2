//! [`RemoteAgent`]: a remote A2A agent reached from its card, and its skills as tools.

mod connect;

use core::fmt::Write as _;
use core::time::Duration;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use eventsource_stream::Eventsource as _;
use futures_util::StreamExt as _;
use serde_json::Value;

use super::card::{AgentCard, AgentInterface};
use super::credentials::ClientCredentials;
use super::fetch::Source;
use super::http::{http_error, preview, read};
use super::request::SkillRequest;
use super::result::to_result;
use super::stream::Fold;
use super::wire::{self, Reply, TaskState, Version};
use super::{A2aError, SkillFilter};
use crate::context::ToolContext;
use crate::registry::Registry;
use crate::tool::dynamic::DynamicTool;

/// How long a cancellation of a remote task may take.
const CANCEL_WAIT: Duration = Duration::from_secs(5);

/// How long a task of an agent that does not stream is left before the first `GetTask`; the
/// wait doubles after each, up to [`POLL_MAX`].
const POLL_FIRST: Duration = Duration::from_millis(50);
const POLL_MAX: Duration = Duration::from_secs(1);

/// A remote A2A agent: its card, the interface the client speaks to it, and how requests are
/// sent (credentials, a timeout).
#[derive(Debug, Clone)]
pub struct RemoteAgent {
    inner: Arc<Inner>,
}

#[derive(Debug, Clone)]
struct Inner {
    card: AgentCard,
    interface: AgentInterface,
    version: Version,
    key: String,
    headers: Vec<(String, String)>,
    timeout: Duration,
    /// How long fetching the card may take (at connect and refresh).
    card_timeout: Duration,
    http: reqwest::Client,
    ids: Arc<AtomicU64>,
    /// Where the card came from, for [`RemoteAgent::refresh`].
    source: Option<Source>,
    /// OAuth 2 client credentials, when the program gave them.
    credentials: Option<Arc<ClientCredentials>>,
}

impl RemoteAgent {
    /// A remote agent from a card the program holds (from a registry, from configuration):
    /// its first supported interface is trusted as given.
    ///
    /// # Errors
    /// [`A2aError::NoSupportedInterface`].
    pub fn from_card(card: AgentCard) -> Result<Self, A2aError> {
        let interface = card.interface()?.clone();
        Ok(Self::with(card, interface, connect::client()))
    }

    fn with(card: AgentCard, interface: AgentInterface, http: reqwest::Client) -> Self {
        let key = sanitize(&card.name.to_ascii_lowercase());
        let version = Version::of(&interface.version);
        let inner = Inner {
            card,
            interface,
            version,
            key,
            headers: Vec::new(),
            timeout: Duration::from_mins(2),
            card_timeout: RemoteAgent::CARD_TIMEOUT,
            http,
            ids: Arc::new(AtomicU64::new(1)),
            source: None,
            credentials: None,
        };
        RemoteAgent { inner: Arc::new(inner) }
    }

    fn inner_mut(&mut self) -> &mut Inner {
        Arc::make_mut(&mut self.inner)
    }

    /// The card.
    #[must_use]
    pub fn card(&self) -> &AgentCard {
        &self.inner.card
    }

    /// The name in its tools' names (`a2a_<key>_<skill>`): the card's name, sanitised, unless
    /// set.
    #[must_use]
    pub fn key(mut self, key: &str) -> Self {
        self.inner_mut().key = sanitize(&key.to_ascii_lowercase());
        self
    }

    /// A bearer token sent with every request (to the card's origin only).
    #[must_use]
    pub fn bearer(self, token: &str) -> Self {
        self.header("authorization", &format!("Bearer {token}"))
    }

    /// OAuth 2 client credentials for the token endpoint the card's client-credentials flow
    /// names ([`AgentCard::token_url`]), asking for `scopes`: a token is asked for when first
    /// needed and again shortly before it expires, and sent as a bearer token to the card's
    /// origin only. The endpoint must be HTTPS (or HTTP on loopback): the secret goes there.
    ///
    /// # Errors
    /// [`A2aError::Malformed`] when the card names no such flow, or its endpoint is not HTTPS.
    pub fn client_credentials<S: Into<String>>(
        mut self,
        client_id: &str,
        client_secret: &str,
        scopes: impl IntoIterator<Item = S>,
    ) -> Result<Self, A2aError> {
        let Some(url) = self.inner.card.token_url.clone() else {
            return Err(A2aError::Malformed {
                message: format!("the card of {} names no OAuth 2 client-credentials flow", self.inner.card.name),
            });
        };
        let scopes = scopes.into_iter().map(Into::into).collect();
        self.inner_mut().credentials = Some(Arc::new(ClientCredentials::new(&url, client_id, client_secret, scopes)?));
        Ok(self)
    }

    /// A header sent with every request (an API key the card's security scheme names).
    #[must_use]
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.inner_mut().headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// How long a message may wait for its reply, a token from the token endpoint included
    /// (2 minutes unless set).
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.inner_mut().timeout = timeout;
        self
    }

    /// How long fetching the card again may take ([`RemoteAgent::refresh`]; [`RemoteAgent::CARD_TIMEOUT`]
    /// unless set, or the bound [`RemoteAgent::connect_within`] was given).
    #[must_use]
    pub fn card_timeout(mut self, timeout: Duration) -> Self {
        self.inner_mut().card_timeout = timeout;
        self
    }

    /// The key its tools' names carry (`a2a_<key>_<skill id>`).
    pub(crate) fn key_name(&self) -> &str {
        &self.inner.key
    }

    /// One tool per skill `filter` lets through, named `a2a_<key>_<skill id>` (sanitised to
    /// every provider's rules, at most 64 characters, made unique with `_2`, `_3`…),
    /// described by the skill's description, tags and examples, taking a [`SkillRequest`].
    ///
    /// # Errors
    /// A [`RegistryError`](crate::RegistryError) if a tool cannot be made.
    pub fn tools(&self, filter: &SkillFilter) -> Result<Registry, crate::RegistryError> {
        let mut registry = Registry::new();
        for skill in self.inner.card.skills.iter().filter(|skill| filter.allows(&skill.id)) {
            // 60, so that a suffix making it unique still fits in 64.
            let base = crate::tool::name::qualified("a2a", &self.inner.key, &skill.id, 60);
            let mut name = base.clone();
            let mut n = 1;
            while registry.get(&name).is_some() {
                n += 1;
                name = format!("{base}_{n}");
            }
            let mut description = skill.description.clone();
            if !skill.tags.is_empty() {
                let _ = write!(description, "\nTags: {}.", skill.tags.join(", "));
            }
            if !skill.examples.is_empty() {
                let _ = write!(description, "\nExamples: {}", skill.examples.join("; "));
            }
            let _ = write!(
                description,
                "\n(The skill \"{}\" of the remote agent \"{}\".)",
                skill.name, self.inner.card.name
            );
            let agent = self.clone();
            let tool = name.clone();
            registry.add_dynamic(DynamicTool::typed(name, description, move |context, request: SkillRequest| {
                let (agent, tool) = (agent.clone(), tool.clone());
                async move { to_result(&tool, agent.call(&context, &request).await?) }
            })?)?;
        }
        Ok(registry)
    }

    /// Sends a request's message and waits for the reply: streamed where the card says the
    /// agent streams (each status update's text reported as the call's progress), within the
    /// timeout and the call's cancellation; a task left unfinished by either is canceled on
    /// the remote agent. `Err` is the tool's failure message.
    async fn call(&self, context: &ToolContext, request: &SkillRequest) -> Result<Reply, String> {
        let inner = &self.inner;
        let id = inner.ids.fetch_add(1, Ordering::Relaxed);
        let message_id = format!("tool-core-{}-{id}", std::process::id());
        let (task_id, context_id) = (request.task_id.as_deref(), request.context_id.as_deref());
        let body = wire::send_message(
            inner.version,
            inner.card.streaming,
            id,
            &message_id,
            &request.message,
            task_id,
            context_id,
        );
        let mut fold = Fold::default();
        let outcome = tokio::select! {
            outcome = self.exchange(&body, &mut fold, context) => outcome.map_err(|error| error.to_string()),
            () = tokio::time::sleep(inner.timeout) => Err(format!("no reply within {} s", inner.timeout.as_secs_f64())),
            () = context.cancelled() => Err("the call was cancelled".to_owned()),
        };
        match (outcome, fold.task_id()) {
            (Ok(reply), _) => Ok(reply),
            (Err(stopped), Some(task)) if !task.is_empty() => {
                let cancel = wire::cancel_task(inner.version, id, task);
                let canceled = tokio::time::timeout(CANCEL_WAIT, self.post(&cancel)).await;
                let how = if matches!(canceled, Ok(Ok(_))) { "was canceled" } else { "could not be canceled" };
                Err(format!("{stopped}; the remote task {task} {how}"))
            }
            (Err(stopped), _) => Err(stopped),
        }
    }

    /// One request and its reply, whole or streamed into `fold`.
    async fn exchange(&self, body: &Value, fold: &mut Fold, context: &ToolContext) -> Result<Reply, A2aError> {
        if !self.inner.card.streaming {
            // Answered at once with the task, which is then followed until it settles: its
            // id is known from the start, so a timeout or a cancellation can cancel it.
            let mut reply = wire::reply(&self.post(body).await?)?;
            let mut wait = POLL_FIRST;
            while let Reply::Task(task) = &reply {
                if !matches!(task.state, TaskState::Other(_)) {
                    break;
                }
                fold.hold(task.clone());
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(POLL_MAX);
                let get = wire::get_task(self.inner.version, body["id"].as_u64().unwrap_or_default(), &task.id);
                reply = Reply::Task(wire::task_reply(&self.post(&get).await?)?);
            }
            return Ok(reply);
        }
        let url = &self.inner.interface.url;
        let token = self.token().await?;
        let response = self.request(body, token.as_deref()).header("accept", "text/event-stream").send().await;
        let response = response.map_err(|error| http_error(url, &error))?;
        let streamed = response
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("text/event-stream"));
        if !streamed {
            let status = response.status();
            let body = read(response, url).await?;
            let reply: Value = serde_json::from_slice(&body).map_err(|error| A2aError::Malformed {
                message: format!("the reply from {url} ({status}) is not JSON ({error}): {}", preview(&body)),
            })?;
            let reply =
                if self.inner.interface.is_rest() { super::rest::response(status.as_u16(), reply) } else { reply };
            return wire::reply(&reply);
        }
        let mut events = response.bytes_stream().eventsource();
        let mut updates = 0_u32;
        while let Some(event) = events.next().await {
            let event = event
                .map_err(|error| A2aError::Malformed { message: format!("the stream from {url} broke: {error}") })?;
            let data = if self.inner.interface.is_rest() { super::rest::event(&event.data) } else { event.data };
            if let Some(text) = fold.push(&data)? {
                updates += 1;
                context.report_progress(f64::from(updates), None, Some(&text));
            }
        }
        core::mem::take(fold).finish()
    }

    /// A POST of `body` to the interface, with the version, the caller's trace context and the
    /// program's headers.
    fn request(&self, body: &Value, token: Option<&str>) -> reqwest::RequestBuilder {
        let inner = &self.inner;
        let (method, url, body) = if inner.interface.is_rest() {
            super::rest::request(&inner.interface.url, body)
        } else {
            (reqwest::Method::POST, inner.interface.url.clone(), Some(body.clone()))
        };
        let mut builder =
            inner.http.request(method, url).header("a2a-version", inner.version.header()).headers(trace_headers());
        if let Some(body) = body {
            builder = builder.header("content-type", "application/json").body(body.to_string());
        }
        if let Some(token) = token {
            builder = builder.bearer_auth(token);
        }
        for (name, value) in &inner.headers {
            builder = builder.header(name.as_str(), value.as_str());
        }
        builder
    }

    /// The OAuth token to send, when the program gave client credentials.
    async fn token(&self) -> Result<Option<String>, A2aError> {
        match &self.inner.credentials {
            Some(credentials) => Ok(Some(credentials.token(&self.inner.http).await?)),
            None => Ok(None),
        }
    }

    /// A whole JSON-RPC exchange.
    async fn post(&self, request: &Value) -> Result<Value, A2aError> {
        let url = &self.inner.interface.url;
        let token = self.token().await?;
        let response = self.request(request, token.as_deref()).send().await.map_err(|error| http_error(url, &error))?;
        let status = response.status();
        let body = read(response, url).await?;
        let reply = serde_json::from_slice(&body).map_err(|error| A2aError::Malformed {
            message: format!("the reply from {url} ({status}) is not JSON ({error}): {}", preview(&body)),
        })?;
        Ok(if self.inner.interface.is_rest() { super::rest::response(status.as_u16(), reply) } else { reply })
    }
}

/// The origin (scheme, host, port) of `url`.
fn origin(url: &str) -> Result<String, A2aError> {
    let parsed = reqwest::Url::parse(url)
        .map_err(|error| A2aError::Malformed { message: format!("{url} is not a URL ({error})") })?;
    Ok(parsed.origin().ascii_serialization())
}

/// `text` with every character a provider refuses in a tool name replaced by `_`.
fn sanitize(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect()
}

/// The headers carrying the current span's trace context (none without the `otel` feature).
#[cfg(feature = "otel")]
fn trace_headers() -> reqwest::header::HeaderMap {
    let mut headers = reqwest::header::HeaderMap::new();
    crate::telemetry::inject(&tracing::Span::current(), &mut headers);
    headers
}

#[cfg(not(feature = "otel"))]
fn trace_headers() -> reqwest::header::HeaderMap {
    reqwest::header::HeaderMap::new()
}
