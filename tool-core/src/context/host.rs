//! [`Host`]: whoever runs a tool call (an MCP client through the `mcp` server, an agent
//! loop, a test) and what a tool may ask of it: progress, log messages, an LLM completion
//! (sampling) and input from the user (elicitation). Tools never see the protocol; a host
//! that cannot do something says so with [`HostError::Unsupported`] instead of hanging.

use core::fmt;
use core::future::Future;
use core::pin::Pin;

use serde_json::Value;

use super::Progress;
use crate::content::Content;
use crate::error::ToolError;

/// The future a [`Host`] request returns.
pub type HostFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, HostError>> + Send + 'a>>;

/// What runs a tool call, and answers what the tool asks of its caller. Every method has a
/// default: a host implements what its channel supports.
pub trait Host: Send + Sync {
    /// A progress report from the tool.
    fn progress(&self, progress: &Progress) {
        let _ = progress;
    }

    /// Whether a log message at `level` would be delivered; tools may skip building one
    /// that would not.
    fn log_enabled(&self, level: LogLevel) -> bool {
        let _ = level;
        false
    }

    /// A log message from the tool (delivered only when [`Host::log_enabled`]).
    fn log(&self, message: LogMessage) {
        let _ = message;
    }

    /// Asks the caller's LLM for a completion (MCP `sampling/createMessage`).
    fn sample(&self, request: SamplingRequest) -> HostFuture<'_, SamplingResponse> {
        let _ = request;
        Box::pin(core::future::ready(Err(HostError::Unsupported { capability: "sampling" })))
    }

    /// Asks the user for input of the given schema (MCP `elicitation/create`).
    fn elicit(&self, request: ElicitationRequest) -> HostFuture<'_, ElicitationAnswer> {
        let _ = request;
        Box::pin(core::future::ready(Err(HostError::Unsupported { capability: "elicitation" })))
    }

    /// Asks the user to visit a URL (MCP URL-mode elicitation).
    fn elicit_url(&self, request: UrlElicitation) -> HostFuture<'_, ElicitationAnswer> {
        let _ = request;
        Box::pin(core::future::ready(Err(HostError::Unsupported { capability: "url elicitation" })))
    }

    /// Tells the caller the URL interaction `id` is complete.
    fn url_elicitation_complete(&self, id: &str) {
        let _ = id;
    }

    /// The call cannot go on until the user has visited `required`: a host whose protocol
    /// says so in its own words (MCP's `-32042`) answers the call that way.
    fn require_urls(&self, required: Vec<UrlElicitation>) {
        let _ = required;
    }

    /// Asks the caller for its roots (MCP `roots/list`).
    fn roots(&self) -> HostFuture<'_, Vec<Root>> {
        Box::pin(core::future::ready(Err(HostError::Unsupported { capability: "roots" })))
    }

    /// Whether the caller's connection is gone (an MCP session that ended); `false` for a
    /// host without one.
    fn is_closed(&self) -> bool {
        false
    }
}

/// A directory or file the caller lets the tool see (MCP's roots): a `file://` URI, and a
/// name for people.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Root {
    /// Where it is (`file:///home/ada/project`).
    pub uri: String,
    /// Its name for people, when the caller gave one.
    pub name: Option<String>,
}

impl Root {
    /// The root at `uri`, with no name.
    #[must_use]
    pub fn new(uri: impl Into<String>) -> Self {
        Root { uri: uri.into(), name: None }
    }

    /// Names it for people.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }
}

/// The severity of a log message: the syslog levels MCP uses, least severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[expect(missing_docs, reason = "each level is its syslog name")]
pub enum LogLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}

impl LogLevel {
    /// Every level, least severe first.
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The level's name on the wire (`"warning"`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A log message from a tool.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LogMessage {
    /// The id of the call logging, when it has one.
    pub call_id: Option<String>,
    /// How severe it is.
    pub level: LogLevel,
    /// The logger's name (MCP `logger`), when the tool gives one.
    pub logger: Option<String>,
    /// What to log: text or any JSON.
    pub data: Value,
}

/// Who wrote a message of a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The user.
    User,
    /// The model.
    Assistant,
}

/// One message of a sampling request.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SamplingMessage {
    /// Who wrote it.
    pub role: Role,
    /// What it says (text, an image or audio).
    pub content: Content,
}

impl SamplingMessage {
    /// A message `role` wrote.
    #[must_use]
    pub fn new(role: Role, content: Content) -> Self {
        SamplingMessage { role, content }
    }
}

/// A request for an LLM completion from the caller's model: [`SamplingRequest::new`], then
/// the `with_*` methods for what else to ask.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SamplingRequest {
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// A system prompt the caller may use.
    pub system_prompt: Option<String>,
    /// The most tokens to generate.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: Option<f64>,
    /// Sequences that end generation.
    pub stop_sequences: Vec<String>,
    /// Model names the tool would like (`"claude-3-sonnet"`), best first.
    pub model_hints: Vec<String>,
}

impl SamplingRequest {
    /// A request with one user message of text.
    #[must_use]
    pub fn new(prompt: impl Into<String>, max_tokens: u32) -> Self {
        SamplingRequest {
            messages: vec![SamplingMessage { role: Role::User, content: Content::Text(prompt.into()) }],
            system_prompt: None,
            max_tokens,
            temperature: None,
            stop_sequences: Vec::new(),
            model_hints: Vec::new(),
        }
    }

    /// Adds a message to the conversation.
    #[must_use]
    pub fn with_message(mut self, role: Role, content: Content) -> Self {
        self.messages.push(SamplingMessage { role, content });
        self
    }

    /// A system prompt the caller may use.
    #[must_use]
    pub fn with_system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(prompt.into());
        self
    }

    /// The sampling temperature.
    #[must_use]
    pub fn with_temperature(mut self, temperature: f64) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// Sequences that end generation.
    #[must_use]
    pub fn with_stop_sequences(mut self, sequences: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.stop_sequences = sequences.into_iter().map(Into::into).collect();
        self
    }

    /// Model names the tool would like, best first.
    #[must_use]
    pub fn with_model_hints(mut self, hints: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.model_hints = hints.into_iter().map(Into::into).collect();
        self
    }
}

/// The caller's completion.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SamplingResponse {
    /// Who wrote it (the assistant).
    pub role: Role,
    /// What the model answered.
    pub content: Content,
    /// The model that answered.
    pub model: String,
    /// Why generation stopped (`"endTurn"`), when said.
    pub stop_reason: Option<String>,
}

impl SamplingResponse {
    /// The assistant's `content`, from `model`.
    #[must_use]
    pub fn new(content: Content, model: impl Into<String>) -> Self {
        SamplingResponse { role: Role::Assistant, content, model: model.into(), stop_reason: None }
    }

    /// Why generation stopped (`"endTurn"`).
    #[must_use]
    pub fn with_stop_reason(mut self, reason: impl Into<String>) -> Self {
        self.stop_reason = Some(reason.into());
        self
    }
}

/// A request for input from the user, with the JSON Schema of what to ask (a flat object).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ElicitationRequest {
    /// What to tell the user.
    pub message: String,
    /// The schema of the answer (MCP `requestedSchema`).
    pub requested_schema: Value,
}

/// The user's answer, as the host received it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ElicitationAnswer {
    /// The user submitted this content.
    Accept(Value),
    /// The user said no.
    Decline,
    /// The user dismissed the request.
    Cancel,
}

/// The user's answer to [`ToolContext::elicit`](crate::ToolContext::elicit), decoded and
/// validated as `T`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Elicitation<T> {
    /// The user submitted a valid `T`.
    Accepted(T),
    /// The user said no.
    Declined,
    /// The user dismissed the request.
    Cancelled,
}

/// Why a request to the caller produced no answer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum HostError {
    /// The caller does not offer this (an MCP client that did not declare the capability,
    /// or a context with no host).
    Unsupported {
        /// `"sampling"`, `"elicitation"`, `"url elicitation"` or `"roots"`.
        capability: &'static str,
    },
    /// The call was cancelled while waiting.
    Cancelled,
    /// The caller answered with an error, or the channel failed.
    Failed {
        /// What went wrong.
        message: String,
    },
    /// The user's answer breaks the requested schema.
    InvalidAnswer(ToolError),
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostError::Unsupported { capability } => {
                write!(f, "the caller does not support {capability}")
            }
            HostError::Cancelled => f.write_str("the call was cancelled while waiting for the caller"),
            HostError::Failed { message } => write!(f, "the caller answered with an error: {message}"),
            HostError::InvalidAnswer(error) => write!(f, "the answer does not fit the requested schema: {error}"),
        }
    }
}

impl std::error::Error for HostError {}

/// So that `ctx.sample(..).await?` works in a tool returning `Result<_, String>`.
impl From<HostError> for String {
    fn from(error: HostError) -> Self {
        error.to_string()
    }
}

/// A URL the user is asked to visit, with the message that says why, and the id the server
/// knows the interaction by (it ties the URL to the completion the server announces later).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UrlElicitation {
    /// Why the user should go there.
    pub message: String,
    /// Where (an `https:` URL the client shows and opens only with the user's consent).
    pub url: String,
    /// The server's id for the interaction.
    pub id: String,
}

impl UrlElicitation {
    /// The user is asked to visit `url` for the reason `message`, known as `id`.
    #[must_use]
    pub fn new(message: impl Into<String>, url: impl Into<String>, id: impl Into<String>) -> Self {
        UrlElicitation { message: message.into(), url: url.into(), id: id.into() }
    }
}
