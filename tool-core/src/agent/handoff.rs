//! Handoffs ([`Agent::handoff`]): the model hands the conversation to another agent, which
//! answers from there with its own model, instructions, tools and limits, in the same run.
//!
//! Each handoff is a tool without arguments that the model calls like any other (hooks and
//! approval apply to it); once its batch has run, the run goes on with the agent it names
//! on the same conversation. Both agents must speak the same [`Api`]: the history is kept in
//! that API's shape, and this crate does not translate one shape into another.

use core::fmt;
use std::sync::Arc;

use super::model::Api;
use super::record::CallFacts;
use super::{Agent, Tools};
use crate::error::{RegistryError, ToolError};
use crate::output::ToolOutput;
use crate::registry::{Registry, ResolveError};
use crate::tool::dynamic::DynamicTool;

/// One agent the model may hand the conversation to, and the tool that does it.
#[derive(Clone)]
pub(super) struct Handoff {
    pub(super) name: String,
    pub(super) tool: DynamicTool,
    pub(super) agent: Arc<Agent>,
}

/// Why [`Agent::handoff`] refused an agent.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum HandoffError {
    /// The two agents keep their conversations in different shapes.
    DifferentApi {
        /// This agent's.
        from: Api,
        /// The other's.
        to: Api,
    },
    /// The tool's name is refused (a provider's rule, or a tool of that name is there).
    Tool(RegistryError),
}

impl fmt::Display for HandoffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandoffError::DifferentApi { from, to } => write!(
                f,
                "a handoff keeps the conversation, so both agents must speak one API: this one speaks {from:?}, the other {to:?}"
            ),
            HandoffError::Tool(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for HandoffError {}

impl From<RegistryError> for HandoffError {
    fn from(error: RegistryError) -> Self {
        HandoffError::Tool(error)
    }
}

impl Agent {
    /// Lets the model hand the conversation to `to`: a tool named `tool` (no arguments),
    /// described for the model by `description`, which the model calls like any other; once
    /// its batch has run, the run goes on with `to` (its model, instructions, tools, limits,
    /// hooks and approval; this run's event sink) on the same conversation, until `to`
    /// answers or hands it on. [`RunOutcome::handoffs`](super::RunOutcome::handoffs) names
    /// the agents it went to; [`Event::HandedOff`](super::Event::HandedOff) marks each.
    ///
    /// ```
    /// # use tool_core::agent::{Agent, Api, ScriptedModel};
    /// # use tool_core::Registry;
    /// # let (billing_model, model) = (ScriptedModel::new(Api::Anthropic, []), ScriptedModel::new(Api::Anthropic, []));
    /// let billing = Agent::new(billing_model, Registry::new()).system("You answer billing questions.");
    /// let triage = Agent::new(model, Registry::new())
    ///     .system("Hand billing questions to billing.")
    ///     .handoff("transfer_to_billing", "Hands the conversation to the billing desk", billing)?;
    /// # Ok::<(), tool_core::agent::HandoffError>(())
    /// ```
    ///
    /// # Errors
    /// [`HandoffError::DifferentApi`] when `to` speaks another [`Api`];
    /// [`HandoffError::Tool`] for a name some provider refuses or one this agent's tools (or
    /// handoffs) already use.
    pub fn handoff(
        mut self,
        tool: impl Into<String>,
        description: impl Into<String>,
        to: Agent,
    ) -> Result<Self, HandoffError> {
        let (from, api) = (self.model.api(), to.model.api());
        if from != api {
            return Err(HandoffError::DifferentApi { from, to: api });
        }
        let name = tool.into();
        let reply = format!("The conversation was handed over ({name}); the next agent answers from here.");
        let tool = DynamicTool::without_arguments(name.clone(), description, move |_| {
            let reply = ToolOutput::text(reply.clone());
            async move { Ok::<_, ToolError>(reply) }
        })?;
        match &mut self.tools {
            // Fixed tools take the handoff's once, here; a clash shows now.
            Tools::Fixed(registry) => {
                let mut with_handoff = (**registry).clone();
                with_handoff.add_dynamic(tool.clone())?;
                *registry = Arc::new(with_handoff);
            }
            // Live ones get every handoff's each round (`tools_now`); a clash with another
            // handoff shows now, one with a live tool when a run starts (`handoff_clash`).
            Tools::Live(_) | Tools::Sources(_) => {
                let mut probe = Registry::new();
                for other in self.handoffs.iter() {
                    probe.add_dynamic(other.tool.clone())?;
                }
                probe.add_dynamic(tool.clone())?;
            }
        }
        Arc::make_mut(&mut self.handoffs).push(Handoff { name, tool, agent: Arc::new(to) });
        Ok(self)
    }

    /// The tools a round offers: the agent's, and one per handoff (fixed tools hold theirs
    /// since [`Agent::handoff`]; live ones are given theirs at each read).
    pub(super) fn tools_now(&self) -> Arc<Registry> {
        match &self.tools {
            Tools::Fixed(registry) => Arc::clone(registry),
            live if self.handoffs.is_empty() => live.current(),
            live => {
                let mut with_handoffs = (*live.current()).clone();
                for handoff in self.handoffs.iter() {
                    // Refused only when a live tool has the name, which `handoff_clash`
                    // makes the run's error before any round.
                    let _ = with_handoffs.add_dynamic(handoff.tool.clone());
                }
                Arc::new(with_handoffs)
            }
        }
    }

    /// A handoff whose tool's name a live tool has taken: two sources for one name.
    pub(super) fn handoff_clash(&self) -> Option<ResolveError> {
        if matches!(self.tools, Tools::Fixed(_)) {
            return None;
        }
        let live = self.tools.current();
        let handoff = self.handoffs.iter().find(|handoff| live.get(&handoff.name).is_some())?;
        let first = match &self.tools {
            Tools::Sources(sources) => sources.labels().collect::<Vec<_>>().join(", "),
            _ => "the live tools".to_owned(),
        };
        Some(ResolveError::Collision {
            name: handoff.name.clone(),
            first,
            second: format!("the handoff to another agent ({})", handoff.name),
        })
    }

    /// The handoff a batch made: the first call of a handoff tool that went through.
    pub(super) fn handed_to<R: CallFacts>(&self, calls: &[R]) -> Option<&Handoff> {
        calls
            .iter()
            .filter(|call| !call.failed())
            .find_map(|call| self.handoffs.iter().find(|handoff| handoff.name == call.tool()))
    }
}
