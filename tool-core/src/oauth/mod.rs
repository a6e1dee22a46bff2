//! The HTTP endpoint as an OAuth 2.1 resource server, as the MCP authorization spec
//! (2025-06-18 onwards) asks (feature `oauth`):
//!
//! - RFC 9728 metadata at `/.well-known/oauth-protected-resource` and at its path-suffixed
//!   form (`/.well-known/oauth-protected-resource/mcp` for a resource `https://host/mcp`),
//!   naming the authorization servers and the scopes;
//! - `401` with `WWW-Authenticate: Bearer resource_metadata="…"` for a request without a
//!   token, `error="invalid_token"` for one that fails verification;
//! - tokens verified by a [`TokenVerifier`]: [`JwtVerifier`] (JWKS, `iss`, `aud` equal to
//!   this server's canonical URI, `exp`/`nbf`), [`Introspection`] (RFC 7662), or your own;
//! - `#[tool(scopes = [..])]`: a `tools/call` whose token lacks one gets `403` with
//!   `error="insufficient_scope"` and the scopes to ask for (the spec's step-up), and the
//!   tool is left out of that token's `tools/list` unless
//!   [`ResourceServer::list_every_tool`];
//! - the verified [`Claims`](crate::auth::Claims) reach each tool through
//!   [`ToolContext::claims`](crate::ToolContext::claims).
//!
//! ```no_run
//! # #[cfg(feature = "oauth")]
//! # async fn run(registry: tool_core::Registry) -> std::io::Result<()> {
//! use tool_core::mcp::HttpOptions;
//! use tool_core::oauth::{JwtVerifier, ResourceServer};
//! let resource = "https://mcp.example.com/mcp";
//! let verifier = JwtVerifier::new("https://auth.example.com", resource, "https://auth.example.com/jwks.json");
//! let oauth = ResourceServer::new(resource, verifier)
//!     .unwrap()
//!     .authorization_server("https://auth.example.com");
//! let options = HttpOptions::default().allow_hosts(["mcp.example.com"]).oauth(oauth);
//! let listener = tokio::net::TcpListener::bind("0.0.0.0:8080").await?;
//! tool_core::mcp::serve_http_on(registry, listener, options, std::future::pending()).await
//! # }
//! ```

#[cfg(any(feature = "mcp", feature = "a2a-server"))]
pub(crate) mod challenge;
mod introspect;
mod jwt;
mod verify;

use std::collections::BTreeSet;
use std::sync::Arc;

use axum::http::Uri;
use serde_json::{Value, json};

pub use introspect::Introspection;
pub use jsonwebtoken::Algorithm;
pub use jwt::JwtVerifier;
pub use verify::{TokenError, TokenVerifier, VerifyFuture};

use crate::registry::Registry;

/// The well-known path of RFC 9728 metadata; a resource with a path adds it after.
const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// This server as an OAuth protected resource: its canonical URI (the audience its tokens
/// must name), the authorization servers that issue them, and how they are verified.
#[derive(Clone)]
pub struct ResourceServer {
    resource: String,
    resource_path: String,
    authorization_servers: Vec<String>,
    scopes_supported: Option<Vec<String>>,
    resource_name: Option<String>,
    documentation: Option<String>,
    #[cfg_attr(
        not(any(feature = "mcp", feature = "a2a-server")),
        expect(dead_code, reason = "only a server's guard verifies tokens")
    )]
    verifier: Arc<dyn TokenVerifier>,
    list_every_tool: bool,
}

impl core::fmt::Debug for ResourceServer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ResourceServer")
            .field("resource", &self.resource)
            .field("authorization_servers", &self.authorization_servers)
            .field("scopes_supported", &self.scopes_supported)
            .field("list_every_tool", &self.list_every_tool)
            .finish_non_exhaustive()
    }
}

/// A resource URI the spec does not allow: it must be absolute (`https://host[:port][/path]`,
/// `http` for local development) and without a fragment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidResource {
    /// The URI given.
    pub resource: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl core::fmt::Display for InvalidResource {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "`{}` cannot name an OAuth protected resource: {}", self.resource, self.reason)
    }
}

impl std::error::Error for InvalidResource {}

impl ResourceServer {
    /// The server at `resource`, its canonical URI (`https://mcp.example.com/mcp`: what
    /// clients connect to, and the audience its tokens must be issued for), checking tokens
    /// with `verifier`.
    ///
    /// # Errors
    /// [`InvalidResource`] for a URI that is not absolute `http(s)`, or has a fragment.
    pub fn new(resource: impl Into<String>, verifier: impl TokenVerifier) -> Result<Self, InvalidResource> {
        let resource = resource.into();
        let invalid = |reason| InvalidResource { resource: resource.clone(), reason };
        if resource.contains('#') {
            return Err(invalid("it has a fragment"));
        }
        let uri: Uri = resource.parse().map_err(|_| invalid("it is not a URI"))?;
        if !matches!(uri.scheme_str(), Some("https" | "http")) || uri.host().is_none() {
            return Err(invalid("it is not an absolute http(s) URI"));
        }
        let resource_path = uri.path().trim_end_matches('/').to_owned();
        Ok(ResourceServer {
            resource,
            resource_path,
            authorization_servers: Vec::new(),
            scopes_supported: None,
            resource_name: None,
            documentation: None,
            verifier: Arc::new(verifier),
            list_every_tool: false,
        })
    }

    /// An authorization server (its issuer URL) that issues tokens for this server.
    #[must_use]
    pub fn authorization_server(mut self, issuer: impl Into<String>) -> Self {
        self.authorization_servers.push(issuer.into());
        self
    }

    /// The scopes the metadata lists; by default, every scope a served tool requires.
    #[must_use]
    pub fn scopes_supported(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes_supported = Some(scopes.into_iter().map(Into::into).collect());
        self
    }

    /// A human-readable name in the metadata (`resource_name`).
    #[must_use]
    pub fn resource_name(mut self, name: impl Into<String>) -> Self {
        self.resource_name = Some(name.into());
        self
    }

    /// A page for developers in the metadata (`resource_documentation`).
    #[must_use]
    pub fn documentation(mut self, url: impl Into<String>) -> Self {
        self.documentation = Some(url.into());
        self
    }

    /// Lists every tool to every token; by default a token's `tools/list` leaves out the
    /// tools it lacks the scopes to call.
    #[must_use]
    pub fn list_every_tool(mut self) -> Self {
        self.list_every_tool = true;
        self
    }

    /// Whether a token's `tools/list` leaves out the tools it cannot call.
    #[cfg(feature = "mcp")]
    pub(crate) fn hides_unpermitted(&self) -> bool {
        !self.list_every_tool
    }

    /// The canonical URI.
    #[must_use]
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// The paths the metadata is served at: the path-suffixed form RFC 9728 derives from the
    /// resource URI and, for a resource with a path, the bare well-known path too (clients
    /// of the 2025-06-18 revision probe it).
    #[must_use]
    pub fn metadata_paths(&self) -> Vec<String> {
        let mut paths = vec![format!("{METADATA_PATH}{}", self.resource_path)];
        if !self.resource_path.is_empty() {
            paths.push(METADATA_PATH.to_owned());
        }
        paths
    }

    /// The URL of the metadata document, as challenges name it.
    #[must_use]
    pub fn metadata_url(&self) -> String {
        let origin_end = self.resource.find("://").map_or(0, |scheme| {
            let rest = &self.resource[scheme + 3..];
            scheme + 3 + rest.find('/').unwrap_or(rest.len())
        });
        format!("{}{METADATA_PATH}{}", &self.resource[..origin_end], self.resource_path)
    }

    /// The RFC 9728 metadata document for a server serving `registry`.
    #[must_use]
    pub fn metadata(&self, registry: &Registry) -> Value {
        self.metadata_of(registry.iter())
    }

    /// The RFC 9728 metadata document for a server serving `entries` (its tools, prompts and
    /// resources): the scopes they require, unless [`ResourceServer::scopes_supported`] said.
    pub(crate) fn metadata_of<'e>(&self, entries: impl Iterator<Item = &'e crate::registry::Entry>) -> Value {
        let scopes: Vec<String> = match &self.scopes_supported {
            Some(scopes) => scopes.clone(),
            None => entries
                .flat_map(|entry| entry.scopes().map(str::to_owned).collect::<Vec<_>>())
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect(),
        };
        let mut document = json!({
            "resource": self.resource,
            "authorization_servers": self.authorization_servers,
            "bearer_methods_supported": ["header"],
        });
        if !scopes.is_empty() {
            document["scopes_supported"] = json!(scopes);
        }
        if let Some(name) = &self.resource_name {
            document["resource_name"] = json!(name);
        }
        if let Some(url) = &self.documentation {
            document["resource_documentation"] = json!(url);
        }
        document
    }

    #[cfg(any(feature = "mcp", feature = "a2a-server"))]
    pub(crate) fn verifier(&self) -> &dyn TokenVerifier {
        &*self.verifier
    }
}
