//! Who is calling: the verified [`Claims`] of a caller's access token, and the scope rule
//! every tool's `#[tool(scopes = [..])]` states ([`Entry::permits`](crate::Entry::permits)).
//!
//! The MCP server's OAuth layer (`oauth`, feature `oauth`) verifies tokens and hands
//! each call its claims through [`ToolContext::claims`](crate::ToolContext::claims); an
//! agent's authorizer hook can hold the same type and ask the same question, so one rule
//! decides in both places.

use core::fmt;

use serde_json::{Map, Value};

/// What a verified access token says about its bearer: the standard JWT claims of RFC 9068
/// (and RFC 7662 for introspected tokens) read into fields, and every claim as sent.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Claims {
    /// The user or service the token was issued for (`sub`).
    pub subject: Option<String>,
    /// The OAuth client that holds the token (`client_id`, else `azp`).
    pub client_id: Option<String>,
    /// The granted scopes (`scope`, space-separated; or a `scp` array).
    pub scopes: Vec<String>,
    /// Who issued it (`iss`).
    pub issuer: Option<String>,
    /// The resources it was issued for (`aud`, one or many).
    pub audience: Vec<String>,
    /// When it expires, in seconds since the Unix epoch (`exp`).
    pub expires_at: Option<u64>,
    /// Every claim, as the token or the introspection answer carried it.
    pub all: Map<String, Value>,
}

impl Claims {
    /// Reads the standard claims out of a JWT payload or an RFC 7662 introspection answer;
    /// a claim of the wrong JSON type is left out of its field (it stays in `all`).
    #[must_use]
    pub fn from_json(all: Map<String, Value>) -> Self {
        let text = |key: &str| all.get(key).and_then(Value::as_str).map(str::to_owned);
        let scopes = match (all.get("scope"), all.get("scp")) {
            (Some(Value::String(scope)), _) | (_, Some(Value::String(scope))) => {
                scope.split_ascii_whitespace().map(str::to_owned).collect()
            }
            (_, Some(Value::Array(scopes))) => scopes.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
            _ => Vec::new(),
        };
        let audience = match all.get("aud") {
            Some(Value::String(one)) => vec![one.clone()],
            Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
            _ => Vec::new(),
        };
        Claims {
            subject: text("sub"),
            client_id: text("client_id").or_else(|| text("azp")),
            scopes,
            issuer: text("iss"),
            audience,
            expires_at: all.get("exp").and_then(Value::as_u64),
            all,
        }
    }

    /// Whether the token grants `scope`.
    #[must_use]
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|granted| granted == scope)
    }

    /// Whether the bearer may call `tool`, which requires every scope in `required`
    /// ([`Entry::permits`](crate::Entry::permits) asks it for a registry's tool).
    ///
    /// # Errors
    /// [`InsufficientScope`] with the scopes the token lacks.
    pub fn grants<'a>(
        &self,
        tool: &str,
        required: impl IntoIterator<Item = &'a str> + Clone,
    ) -> Result<(), InsufficientScope> {
        let missing: Vec<String> =
            required.clone().into_iter().filter(|scope| !self.has_scope(scope)).map(str::to_owned).collect();
        if missing.is_empty() {
            Ok(())
        } else {
            let required = required.into_iter().map(str::to_owned).collect();
            Err(InsufficientScope { tool: tool.to_owned(), required, missing })
        }
    }
}

/// A token lacks scopes a tool requires.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct InsufficientScope {
    /// The tool asked for.
    pub tool: String,
    /// Every scope the tool requires (what a client asks for when it steps up).
    pub required: Vec<String>,
    /// The ones the token does not hold.
    pub missing: Vec<String>,
}

impl fmt::Display for InsufficientScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tool \"{}\" needs the scope", self.tool)?;
        if self.missing.len() > 1 {
            f.write_str("s")?;
        }
        for (index, scope) in self.missing.iter().enumerate() {
            f.write_str(if index == 0 { " " } else { ", " })?;
            write!(f, "`{scope}`")?;
        }
        f.write_str(", which the access token does not grant")
    }
}

impl std::error::Error for InsufficientScope {}
