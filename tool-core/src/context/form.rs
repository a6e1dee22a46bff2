//! A form known only at run time, and whether the caller is still there: what a tool needs
//! when its questions come from configuration, or when work it started outlives its call.

use serde_json::Value;

use super::{ElicitationAnswer, ElicitationRequest, HostError, ToolContext};

impl ToolContext {
    /// Asks the user to fill the form `requested_schema` (MCP elicitation), for a form built
    /// at run time; [`ToolContext::elicit`] is the typed way, which states its schema when
    /// the program is built and validates the answer. MCP forms are flat objects of
    /// strings, numbers, booleans, and single- or multiple-choice enums; the answer is
    /// returned as the client sent it, so read it as untrusted input.
    ///
    /// # Errors
    /// As [`ToolContext::sample`].
    pub async fn elicit_with_schema(
        &self,
        message: impl Into<String>,
        requested_schema: Value,
    ) -> Result<ElicitationAnswer, HostError> {
        let host = self.host.as_ref().ok_or(HostError::Unsupported { capability: "elicitation" })?;
        let request = ElicitationRequest { message: message.into(), requested_schema };
        self.unless_cancelled(host.elicit(request)).await
    }

    /// Whether the caller's connection is gone (an MCP session that ended, a client that
    /// left): work a tool spawned with a clone of its context, to log or notify past the
    /// call, stops then. Always `false` for a caller without a connection.
    #[must_use]
    pub fn connection_closed(&self) -> bool {
        self.host.as_ref().is_some_and(|host| host.is_closed())
    }
}
