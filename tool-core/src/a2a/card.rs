//! An agent's card (`/.well-known/agent-card.json`) as the client reads it, from a 1.0 card
//! (`supportedInterfaces`) or a 0.3 one (a top-level `url`, `preferredTransport`,
//! `protocolVersion` and `additionalInterfaces`): its name, its skills, and the interfaces
//! the client can speak, in the card's order of preference.

use serde::Deserialize;
use serde_json::Value;

use super::A2aError;

/// A remote agent's card, as far as the client reads it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AgentCard {
    /// The agent's name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// What it can do, each skill a tool.
    pub skills: Vec<AgentSkill>,
    /// Where it is reached, most preferred first.
    pub interfaces: Vec<AgentInterface>,
    /// Whether it streams its replies (`capabilities.streaming`).
    pub streaming: bool,
    /// The token endpoint of its OAuth 2 client-credentials flow, when its security schemes
    /// name one (1.0's `oauth2SecurityScheme`, 0.3's `type: oauth2`).
    pub token_url: Option<String>,
}

/// One skill of a card.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct AgentSkill {
    /// Its id, unique in the card.
    pub id: String,
    /// Its name.
    pub name: String,
    /// What it does.
    #[serde(default)]
    pub description: String,
    /// Keywords.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Example requests.
    #[serde(default)]
    pub examples: Vec<String>,
}

impl AgentSkill {
    /// A skill `id`, named and described, with no tags or examples yet.
    pub fn new(id: impl Into<String>, name: impl Into<String>, description: impl Into<String>) -> Self {
        AgentSkill {
            id: id.into(),
            name: name.into(),
            description: description.into(),
            tags: Vec::new(),
            examples: Vec::new(),
        }
    }

    /// Its keywords.
    #[must_use]
    pub fn with_tags<S: Into<String>>(mut self, tags: impl IntoIterator<Item = S>) -> Self {
        self.tags = tags.into_iter().map(Into::into).collect();
        self
    }

    /// Example requests.
    #[must_use]
    pub fn with_examples<S: Into<String>>(mut self, examples: impl IntoIterator<Item = S>) -> Self {
        self.examples = examples.into_iter().map(Into::into).collect();
        self
    }
}

/// One way to reach an agent.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct AgentInterface {
    /// Its URL.
    pub url: String,
    /// Its binding: `JSONRPC`, `HTTP+JSON`, `GRPC`…
    pub binding: String,
    /// The protocol's version: `1.0` or `0.3`.
    pub version: String,
    /// The tenant to echo on every request, if any.
    pub tenant: Option<String>,
}

impl AgentInterface {
    /// Whether this client speaks it: JSON-RPC in 1.0 or 0.3, or HTTP+JSON in 1.0.
    #[must_use]
    pub fn is_supported(&self) -> bool {
        (self.binding.eq_ignore_ascii_case("JSONRPC") && matches!(self.version.as_str(), "1.0" | "0.3"))
            || (self.is_rest() && self.version == "1.0")
    }

    /// Whether it is the HTTP+JSON binding.
    pub(crate) fn is_rest(&self) -> bool {
        self.binding.eq_ignore_ascii_case("HTTP+JSON")
    }
}

/// The members of a card the client reads, both versions' together.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Wire {
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    skills: Vec<AgentSkill>,
    supported_interfaces: Option<Vec<WireInterface>>,
    url: Option<String>,
    preferred_transport: Option<String>,
    protocol_version: Option<String>,
    #[serde(default)]
    additional_interfaces: Vec<WireInterface>,
    #[serde(default)]
    capabilities: Value,
    #[serde(default)]
    security_schemes: Value,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireInterface {
    url: String,
    #[serde(alias = "transport")]
    protocol_binding: Option<String>,
    protocol_version: Option<String>,
    tenant: Option<String>,
}

impl AgentCard {
    /// Reads a card of either version.
    ///
    /// # Errors
    /// [`A2aError::Malformed`] when it is not a card.
    pub fn from_value(card: Value) -> Result<Self, A2aError> {
        let wire: Wire = serde_json::from_value(card)
            .map_err(|error| A2aError::Malformed { message: format!("the agent card is not one: {error}") })?;
        let interfaces = if let Some(interfaces) = wire.supported_interfaces {
            interfaces
                .into_iter()
                .map(|interface| AgentInterface {
                    url: interface.url,
                    binding: interface.protocol_binding.unwrap_or_default(),
                    version: interface.protocol_version.unwrap_or_else(|| "1.0".to_owned()),
                    tenant: interface.tenant,
                })
                .collect()
        } else {
            // A 0.3 card: its main URL and transport, then the others, all of its version.
            let version = wire.protocol_version.unwrap_or_else(|| "0.3".to_owned());
            let main = wire.url.map(|url| AgentInterface {
                url,
                binding: wire.preferred_transport.unwrap_or_else(|| "JSONRPC".to_owned()),
                version: version.clone(),
                tenant: None,
            });
            let others = wire.additional_interfaces.into_iter().map(|interface| AgentInterface {
                url: interface.url,
                binding: interface.protocol_binding.unwrap_or_else(|| "JSONRPC".to_owned()),
                version: version.clone(),
                tenant: None,
            });
            main.into_iter().chain(others).collect()
        };
        let streaming = wire.capabilities["streaming"].as_bool().unwrap_or(false);
        let token_url =
            wire.security_schemes.as_object().into_iter().flat_map(|schemes| schemes.values()).find_map(|scheme| {
                let oauth =
                    scheme.get("oauth2SecurityScheme").or_else(|| (scheme["type"] == "oauth2").then_some(scheme))?;
                oauth.pointer("/flows/clientCredentials/tokenUrl")?.as_str().map(str::to_owned)
            });
        Ok(AgentCard {
            name: wire.name,
            description: wire.description,
            skills: wire.skills,
            interfaces,
            streaming,
            token_url,
        })
    }

    /// The first interface this client speaks.
    ///
    /// # Errors
    /// [`A2aError::NoSupportedInterface`] when there is none.
    pub fn interface(&self) -> Result<&AgentInterface, A2aError> {
        self.interfaces.iter().find(|interface| interface.is_supported()).ok_or_else(|| {
            A2aError::NoSupportedInterface {
                offered: self.interfaces.iter().map(|i| format!("{} {}", i.binding, i.version)).collect(),
            }
        })
    }
}
