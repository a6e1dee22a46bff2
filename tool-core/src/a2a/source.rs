//! A remote agent's skills as a [`ToolSource`]: listed anew each time a run resolves its
//! tools, from its card (fetched again once its `Cache-Control` says it is stale, and only
//! then), under the skill filter given.

use std::sync::{Mutex, PoisonError};

use super::SkillFilter;
use super::client::RemoteAgent;
use crate::registry::{SourceError, SourceFuture, ToolSource};

/// The skills of a [`RemoteAgent`] that a [`SkillFilter`] lets through, as a tool source
/// labelled `a2a:<key>`; made by [`RemoteAgent::source`].
#[derive(Debug)]
pub struct SkillSource {
    label: String,
    agent: Mutex<RemoteAgent>,
    filter: SkillFilter,
}

impl RemoteAgent {
    /// Its skills that `filter` lets through, as a [`ToolSource`] for
    /// [`ToolSources`](crate::registry::ToolSources).
    #[must_use]
    pub fn source(&self, filter: SkillFilter) -> SkillSource {
        SkillSource { label: format!("a2a:{}", self.key_name()), agent: Mutex::new(self.clone()), filter }
    }
}

impl ToolSource for SkillSource {
    fn label(&self) -> &str {
        &self.label
    }

    fn tools(&self) -> SourceFuture<'_> {
        Box::pin(async move {
            let held = self.agent.lock().unwrap_or_else(PoisonError::into_inner).clone();
            let fresh = held.refresh().await.map_err(|error| SourceError::new(error.to_string()))?;
            let tools = fresh.tools(&self.filter).map_err(|error| SourceError::new(error.to_string()))?;
            *self.agent.lock().unwrap_or_else(PoisonError::into_inner) = fresh;
            Ok(tools)
        })
    }
}
