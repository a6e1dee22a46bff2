//! URL-mode elicitation (MCP 2025-11-25): the user completes something at a URL, outside the
//! client (a sign-in, a payment, a consent), rather than in a form. A tool asks with
//! [`ToolContext::elicit_url`], says when it is done with
//! [`ToolContext::url_elicitation_complete`], or ends its call with
//! [`ToolContext::url_elicitation_required`] when it cannot go on until the user has been
//! there (MCP's `-32042` error).

use super::{Elicitation, ElicitationAnswer, HostError, ToolContext, UrlElicitation};

impl ToolContext {
    /// Asks the user to visit a URL. `Accepted(())` means they agreed to go: what happens
    /// there reaches the server by its own way (the URL's page), not through this answer.
    ///
    /// # Errors
    /// [`HostError::Unsupported`] when the client did not declare URL elicitation, else as
    /// [`ToolContext::sample`].
    pub async fn elicit_url(&self, request: UrlElicitation) -> Result<Elicitation<()>, HostError> {
        let host = self.host.as_ref().ok_or(HostError::Unsupported { capability: "url elicitation" })?;
        Ok(match self.unless_cancelled(host.elicit_url(request)).await? {
            ElicitationAnswer::Accept(_) => Elicitation::Accepted(()),
            ElicitationAnswer::Decline => Elicitation::Declined,
            ElicitationAnswer::Cancel => Elicitation::Cancelled,
        })
    }

    /// Tells the client the interaction `id` is complete (MCP
    /// `notifications/elicitation/complete`), so it may retry what waited for it.
    pub fn url_elicitation_complete(&self, id: &str) {
        if let Some(host) = &self.host {
            host.url_elicitation_complete(id);
        }
    }

    /// Ends the call: it cannot go on until the user has visited `required`. An MCP client
    /// that declared URL elicitation gets the protocol's error (`-32042`, the URLs in its
    /// data) in place of the call's result; any other caller reads the returned text, which
    /// the tool returns as its error.
    ///
    /// ```
    /// # use tool_core::{ToolContext, context::UrlElicitation};
    /// /// Pays, once the user has authorised it
    /// #[tool_core::tool]
    /// async fn pay(ctx: &ToolContext) -> Result<String, String> {
    ///     let sign_in = UrlElicitation::new("Sign in to your bank", "https://bank.example/auth?s=42", "auth-42");
    ///     Err(ctx.url_elicitation_required([sign_in]))
    /// }
    /// ```
    #[must_use]
    pub fn url_elicitation_required(&self, required: impl IntoIterator<Item = UrlElicitation>) -> String {
        let required: Vec<UrlElicitation> = required.into_iter().collect();
        let text = required.iter().map(|url| format!("{} ({})", url.message, url.url)).collect::<Vec<_>>().join("; ");
        if let Some(host) = &self.host {
            host.require_urls(required);
        }
        format!("the user must first complete: {text}")
    }
}
