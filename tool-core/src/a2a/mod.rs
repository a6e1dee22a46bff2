#![doc = include_str!("../../docs/a2a.md")]

mod card;
mod client;
mod credentials;
mod fetch;
mod http;
mod part;
mod request;
mod rest;
mod result;
#[cfg(feature = "a2a-server")]
pub mod server;
mod source;
mod stream;
mod wire;

use core::fmt;

pub use card::{AgentCard, AgentInterface, AgentSkill};
pub use client::RemoteAgent;
pub use part::Part;
pub use request::SkillRequest;
pub use source::SkillSource;

/// Which skills of a card become tools: all, or those an allow list names, less those a
/// block list names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SkillFilter {
    /// Only these skill ids, when not empty.
    pub allow: Vec<String>,
    /// Never these skill ids.
    pub block: Vec<String>,
}

impl SkillFilter {
    /// Every skill.
    #[must_use]
    pub fn all() -> Self {
        SkillFilter::default()
    }

    /// Only these skill ids.
    #[must_use]
    pub fn allow<S: Into<String>>(mut self, ids: impl IntoIterator<Item = S>) -> Self {
        self.allow = ids.into_iter().map(Into::into).collect();
        self
    }

    /// Never these skill ids.
    #[must_use]
    pub fn block<S: Into<String>>(mut self, ids: impl IntoIterator<Item = S>) -> Self {
        self.block = ids.into_iter().map(Into::into).collect();
        self
    }

    /// Whether the skill `id` becomes a tool.
    #[must_use]
    pub fn allows(&self, id: &str) -> bool {
        (self.allow.is_empty() || self.allow.iter().any(|allowed| allowed == id))
            && !self.block.iter().any(|blocked| blocked == id)
    }
}

/// Why a remote agent could not be reached or understood.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum A2aError {
    /// The request failed: no connection, no reply in time, an HTTP error.
    Http {
        /// The URL asked.
        url: String,
        /// What went wrong.
        message: String,
    },
    /// A card or a reply that is not what the protocol says.
    Malformed {
        /// What was wrong.
        message: String,
    },
    /// The card offers no interface this client speaks (JSON-RPC in 1.0 or 0.3, HTTP+JSON in
    /// 1.0).
    NoSupportedInterface {
        /// What it offers (`GRPC 1.0`).
        offered: Vec<String>,
    },
    /// The card's interface is on another origin than the card: no request, and no
    /// credential, goes there.
    UntrustedInterface {
        /// The card's URL.
        card: String,
        /// The interface's URL.
        interface: String,
    },
    /// The remote agent answered with an error (JSON-RPC's, or HTTP+JSON's `google.rpc.Status`).
    Rpc {
        /// Its code (`-32001` task not found, `-32009` version not supported…); from
        /// HTTP+JSON, the code its `ErrorInfo` reason names, else the HTTP status.
        code: i64,
        /// Its message.
        message: String,
    },
}

impl fmt::Display for A2aError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            A2aError::Http { url, message } => write!(f, "the request to {url} failed: {message}"),
            A2aError::Malformed { message } => f.write_str(message),
            A2aError::NoSupportedInterface { offered } => {
                write!(
                    f,
                    "the agent card offers no interface this client speaks (JSONRPC 1.0 or 0.3, HTTP+JSON 1.0): {offered:?}"
                )
            }
            A2aError::UntrustedInterface { card, interface } => {
                write!(f, "the agent card at {card} names an interface on another origin ({interface}): refused")
            }
            A2aError::Rpc { code, message } => write!(f, "the remote agent answered with error {code}: {message}"),
        }
    }
}

impl std::error::Error for A2aError {}
