//! An A2A server (feature `a2a-server`): a registry's tools or any [`Executor`] served as an
//! A2A agent over the JSON-RPC and HTTP+JSON bindings of protocol 1.0 (and JSON-RPC 0.3), with
//! its card at `/.well-known/agent-card.json`.
//!
//! Every method of the binding but push notifications: `SendMessage` (blocking, or at once
//! with `returnImmediately`), `SendStreamingMessage` and `SubscribeToTask` over server-sent
//! events, `GetTask`, `ListTasks`, `CancelTask`. Tasks live in the same
//! [`TaskStore`] as an MCP server's (in memory, or Redis), so
//! every replica answers `GetTask`, `ListTasks` and `CancelTask` for a task another one runs;
//! a task that asked for input is continued by whichever replica the answer reaches.
//!
//! ```no_run
//! # async fn example() -> std::io::Result<()> {
//! use tool_core::a2a::server::{A2aServer, Outcome};
//! use tool_core::a2a::{AgentSkill, Part};
//!
//! let server = A2aServer::new(|request: tool_core::a2a::server::Incoming, _task| async move {
//!     Outcome::Message(vec![Part::text(format!("echo: {}", request.text()))])
//! })
//! .with_info("echo", "Repeats what it is told", "1.0.0")
//! .with_skill(AgentSkill::new("echo", "Echo", "Repeats the message"));
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! server.serve(listener, std::future::pending()).await
//! # }
//! ```

#[cfg(feature = "agent")]
mod agent;
mod auth;
mod error;
mod executor;
mod handle;
mod host;
mod http;
mod list;
mod listed;
mod lookup;
mod model;
mod push;
mod push_delivery;
mod push_settings;
mod registry;
mod rest;
mod rpc;
mod run;
mod send;
mod shared;
mod stream;
mod v03;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

pub use executor::{ExecuteFuture, Executor};
pub use handle::TaskHandle;
pub use model::{Artifact, Incoming, Outcome};
pub use push_settings::PushSettings;

use super::AgentSkill;
use crate::tasks::{MemoryTaskStore, TaskSettings, TaskStore};
use auth::Auth;
use shared::Shared;

/// An A2A agent served over HTTP: build it, then [`router`](A2aServer::router) (to mount
/// beside other routes, an MCP endpoint for one) or [`serve`](A2aServer::serve).
pub struct A2aServer {
    shared: Shared,
}

impl core::fmt::Debug for A2aServer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("A2aServer").field("name", &self.shared.name).finish_non_exhaustive()
    }
}

impl A2aServer {
    /// A server whose messages `executor` handles, its tasks in memory.
    pub fn new(executor: impl Executor) -> Self {
        A2aServer {
            shared: Shared {
                name: "agent".to_owned(),
                description: String::new(),
                version: "1.0.0".to_owned(),
                skills: Vec::new(),
                url: None,
                auth: Auth::Open,
                executor: Box::new(executor),
                store: Arc::new(MemoryTaskStore::new()),
                settings: TaskSettings::default(),
                runs: Mutex::new(HashMap::new()),
                push: PushSettings::default(),
            },
        }
    }

    fn with(mut self, change: impl FnOnce(&mut Shared)) -> Self {
        change(&mut self.shared);
        self
    }

    /// The card's name, description and version.
    #[must_use]
    pub fn with_info(
        self,
        name: impl Into<String>,
        description: impl Into<String>,
        version: impl Into<String>,
    ) -> Self {
        let (name, description, version) = (name.into(), description.into(), version.into());
        self.with(|shared| {
            shared.name = name;
            shared.description = description;
            shared.version = version;
        })
    }

    /// Adds a skill to the card.
    #[must_use]
    pub fn with_skill(self, skill: AgentSkill) -> Self {
        self.with(|shared| shared.skills.push(skill))
    }

    /// The URL clients reach the JSON-RPC endpoint at, for the card (`http://host:port/`).
    /// [`serve`](A2aServer::serve) fills it in from its listener when it is not set.
    #[must_use]
    pub fn with_url(self, url: impl Into<String>) -> Self {
        let url = url.into();
        self.with(|shared| shared.url = Some(url))
    }

    /// Keeps tasks in `store` (one shared by replicas), under `settings`.
    #[must_use]
    pub fn with_task_store(self, store: impl TaskStore, settings: TaskSettings) -> Self {
        self.with(|shared| {
            shared.store = Arc::new(store);
            shared.settings = settings;
        })
    }

    /// How push notifications are taken and delivered ([`PushSettings::new`] unless set: on,
    /// to public addresses only; [`PushSettings::disabled`] turns them off).
    #[must_use]
    pub fn with_push(self, settings: PushSettings) -> Self {
        self.with(|shared| shared.push = settings)
    }

    /// Requires `Authorization: Bearer <token>` with a token `check` accepts on every request
    /// but the card's; the card then names the scheme.
    #[must_use]
    pub fn with_bearer(self, check: impl Fn(&str) -> bool + Send + Sync + 'static) -> Self {
        self.with(|shared| shared.auth = Auth::Bearer(Arc::new(check)))
    }

    /// Requires an OAuth access token that `oauth`'s verifier accepts (the MCP server's
    /// [`ResourceServer`](crate::oauth::ResourceServer): JWTs against the issuer's key
    /// set, or introspection) on every request but the card's and the RFC 9728 metadata's,
    /// which the server serves. A refusal is a `401` challenge naming that metadata. A task
    /// belongs to the token's issuer and subject: any other caller reads it as unknown, and
    /// `ListTasks` shows each caller its own.
    #[cfg(feature = "oauth")]
    #[must_use]
    pub fn with_oauth(self, oauth: crate::oauth::ResourceServer) -> Self {
        self.with(|shared| shared.auth = Auth::Token(oauth))
    }

    /// The agent card, as `/.well-known/agent-card.json` serves it.
    #[must_use]
    pub fn card(&self) -> Value {
        let shared = &self.shared;
        let skills: Vec<Value> = shared
            .skills
            .iter()
            .map(|skill| {
                json!({"id": skill.id, "name": skill.name, "description": skill.description, "tags": skill.tags, "examples": skill.examples})
            })
            .collect();
        let url = shared.url.clone().unwrap_or_else(|| "http://127.0.0.1/".to_owned());
        let mut card = json!({
            "name": shared.name,
            "description": shared.description,
            "version": shared.version,
            "supportedInterfaces": [
                {"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
                {"url": url.trim_end_matches('/'), "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
                {"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
            ],
            "capabilities": {"streaming": true, "pushNotifications": self.shared.push.enabled},
            "defaultInputModes": ["text/plain", "application/json"],
            "defaultOutputModes": ["text/plain", "application/json"],
            "skills": skills,
        });
        if let Some((schemes, requirements)) = shared.auth.card_members() {
            card["securitySchemes"] = schemes;
            card["securityRequirements"] = requirements;
        }
        card
    }

    /// An axum router serving the card and the JSON-RPC endpoint at `/`.
    pub fn router(self) -> axum::Router {
        let card = self.card();
        http::router(Arc::new(self.shared), card)
    }

    /// Serves on `listener` until `shutdown` completes.
    ///
    /// # Errors
    /// An I/O error of the listener.
    pub async fn serve(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let mut server = self;
        if server.shared.url.is_none() {
            let url = format!("http://{}/", listener.local_addr()?);
            server = server.with_url(url);
        }
        // Without it a reply's body waits for the client's delayed ACK of its head: 40 ms a
        // request against hyper's client (`bash tests/bench/a2a.sh`).
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, server.router()).with_graceful_shutdown(shutdown).await
    }
}
