//! [`Client`]: who made a call, as its protocol told the server (MCP's `clientInfo`,
//! capabilities and negotiated revision), for a tool to adapt to and for a visibility rule
//! to offer tools, prompts or resources only to clients that can use them.

/// The client that made a call: its name, version and title, the protocol revision it
/// speaks, and what it may be asked.
///
/// Read it from [`ToolContext::client`](crate::ToolContext::client), in a tool or in an MCP
/// server's visibility rules. An MCP server fills it from `initialize` (revisions up to
/// 2025-11-25) or from each request's `_meta` (from 2026-07-28).
///
/// ```
/// use tool_core::context::{Client, ClientCapabilities};
/// let mut capabilities = ClientCapabilities::default();
/// capabilities.sampling = true;
/// let client = Client::new("inspector", "2.12.0").with_capabilities(capabilities);
/// assert!(client.capabilities().sampling && !client.capabilities().elicitation);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Client {
    name: String,
    version: String,
    title: Option<String>,
    protocol_version: Option<String>,
    capabilities: ClientCapabilities,
}

impl Client {
    /// A client named `name` at `version`, with no title, no known revision and no
    /// capability.
    #[must_use]
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Client {
            name: name.into(),
            version: version.into(),
            title: None,
            protocol_version: None,
            capabilities: ClientCapabilities::default(),
        }
    }

    /// Its name for people (`clientInfo.title`).
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The protocol revision the call was made in (`"2025-11-25"`).
    #[must_use]
    pub fn with_protocol_version(mut self, version: impl Into<String>) -> Self {
        self.protocol_version = Some(version.into());
        self
    }

    /// What it may be asked.
    #[must_use]
    pub fn with_capabilities(mut self, capabilities: ClientCapabilities) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// Its programmatic name (`clientInfo.name`).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its version (`clientInfo.version`).
    #[must_use]
    pub fn version(&self) -> &str {
        &self.version
    }

    /// Its name for people, when it gave one.
    #[must_use]
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The protocol revision of the call, when known. Revisions are dates, so they compare
    /// as strings: `client.protocol_version() >= Some("2025-11-25")`.
    #[must_use]
    pub fn protocol_version(&self) -> Option<&str> {
        self.protocol_version.as_deref()
    }

    /// What it may be asked.
    #[must_use]
    pub fn capabilities(&self) -> ClientCapabilities {
        self.capabilities
    }
}

/// What a client declared it can do. A tool that asks for something the client lacks gets
/// [`HostError::Unsupported`](crate::context::HostError::Unsupported) at once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
#[expect(clippy::struct_excessive_bools, reason = "each is a capability the client declared or not, read by name")]
pub struct ClientCapabilities {
    /// It answers sampling requests ([`ToolContext::sample`](crate::ToolContext::sample)).
    pub sampling: bool,
    /// It shows elicitation forms ([`ToolContext::elicit`](crate::ToolContext::elicit)).
    pub elicitation: bool,
    /// It sends its user to a URL the server names (URL-mode elicitation, 2025-11-25).
    pub url_elicitation: bool,
    /// It lists its roots, the directories or files it lets the server see.
    pub roots: bool,
    /// It tells the server when its roots change.
    pub roots_list_changed: bool,
    /// It may run a call as a task.
    pub tasks: bool,
    /// It runs the server's sampling requests as tasks of its own (2025-11-25's
    /// `capabilities.tasks.requests.sampling.createMessage`); the server then follows them
    /// itself, and [`ToolContext::sample`](crate::ToolContext::sample) still returns the answer.
    pub sampling_as_task: bool,
    /// It runs the server's elicitation requests as tasks of its own (2025-11-25's
    /// `capabilities.tasks.requests.elicitation.create`), followed as for sampling.
    pub elicitation_as_task: bool,
}
