//! [`Agent`]'s builder: the model, the tools and every setting of its runs.

use core::time::Duration;
use std::sync::Arc;

use super::{Agent, ApprovalPolicy, Approver, Conversation, Event, Hooks, Model, NoHooks, RoundLimit, Settings, Tools};
use crate::provider::{Sampling, ToolChoice};
use crate::registry::Registry;

impl Agent {
    /// An agent with defaults: 10 rounds, then fail; 8 calls at a time; 60 s per call; tools
    /// marked `requires_approval` need an approver; strict schemas where they exist; the
    /// common model mistakes in arguments forgiven ([`Agent::lenient`]).
    pub fn new(model: impl Model + 'static, registry: impl Into<Arc<Registry>>) -> Self {
        Agent {
            model: Arc::new(model),
            tools: Tools::Fixed(registry.into()),
            system: None,
            instructions: None,
            max_rounds: 10,
            round_limit: RoundLimit::Fail,
            strict: true,
            tool_choice: None,
            sampling: None,
            output_mode: super::OutputMode::Tool,
            lenient: true,
            settings: Settings {
                max_concurrency: 8,
                sequential: false,
                early_calls: EarlyCalls::SafeTools,
                call_timeout: Duration::from_mins(1),
                cancel_grace: Duration::from_secs(1),
                approval: ApprovalPolicy::PerTool,
                approval_timeout: Duration::from_mins(5),
                approver: None,
                hooks: Arc::new(NoHooks),
                events: None,
                background_after: None,
                max_repeats: 3,
                stop_after: super::StopAfter::Never,
                repeats: super::repeats::Repeats::default(),
                snapshots: None,
                steering: None,
                host: None,
            },
            handoffs: Arc::new(Vec::new()),
            preloads: Arc::new(Vec::new()),
        }
    }

    /// Instructions for the whole conversation.
    #[must_use]
    pub fn system(mut self, text: impl Into<String>) -> Self {
        self.system = Some(text.into());
        self
    }

    /// Instructions written for each round from the run's state ([`TurnState`](super::TurnState): the round,
    /// the conversation so far), sent after the [`Agent::system`] prompt for that round alone
    /// (`None`: the system prompt alone). A step-by-step procedure, a reminder once some tool
    /// has answered, the date: what a fixed prompt cannot know when the agent is made.
    ///
    /// ```
    /// # use tool_core::agent::{Agent, Api, Conversation, ScriptedModel};
    /// let agent = Agent::new(ScriptedModel::new(Api::OpenAiChat, []), tool_core::Registry::new())
    ///     .system("You plan trips.")
    ///     .instructions(|turn| (turn.round > 1).then(|| "Answer now if the tools said enough.".to_owned()));
    /// # let _ = agent;
    /// ```
    #[must_use]
    pub fn instructions(
        mut self,
        write: impl Fn(&super::TurnState<'_>) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.instructions = Some(Arc::new(write));
        self
    }

    /// The most rounds (model turns with tool calls) in one run.
    #[must_use]
    pub fn max_rounds(mut self, rounds: usize) -> Self {
        self.max_rounds = rounds;
        self
    }

    /// What happens when the model still calls tools after the last round.
    #[must_use]
    pub fn on_round_limit(mut self, limit: RoundLimit) -> Self {
        self.round_limit = limit;
        self
    }

    /// The most calls of one batch running at once.
    #[must_use]
    pub fn max_concurrency(mut self, calls: usize) -> Self {
        self.settings.max_concurrency = calls;
        self
    }

    /// Runs every batch one call at a time.
    #[must_use]
    pub fn sequential(mut self, sequential: bool) -> Self {
        self.settings.sequential = sequential;
        self
    }

    /// Whether a call may start while the model is still writing its turn: as soon as the
    /// stream closes the call's arguments ([`Delta::ToolCallDone`](super::Delta::ToolCallDone))
    /// and it has been through its hooks and approval, rather than once the turn is whole; a
    /// round then takes about the longer of the stream and the calls rather than their sum.
    /// Which calls may ([`EarlyCalls`]): by default only those of tools that say a call is
    /// safe to make before the turn is known to end well ([`Entry::starts_early`]: read-only,
    /// idempotent, or `#[tool(early)]`), and a call to any other tool waits for the whole
    /// turn, with every call after it, so that a turn that fails runs none of them.
    /// Every rule of a batch holds either way:
    ///
    /// - phase 1 (`prepare`, `authorize`, approval, `before_call`) and
    ///   [`Event::ToolStarted`] go one call at a time, in call order, each before its call runs;
    ///   results, `after_call` and [`Event::ToolFinished`] come in call order once the turn is
    ///   whole and every call has ended; every call gets exactly one result;
    /// - a call to the run's answer tool (typed runs) and every call after it wait for the
    ///   whole turn; where the registry has a `sequential` tool, calls started early run one
    ///   at a time;
    /// - a turn cut off at the output limit after some calls started keeps them: they run to
    ///   their end and keep their results, and each call that had not started is answered
    ///   with an error saying it was cut off (with nothing started, the turn is dropped and
    ///   the model told why, as without early calls);
    /// - a turn that fails (the model's error) or a run cancelled before the turn is whole
    ///   cancels the calls started, which end within [`Agent::cancel_grace`] and are told
    ///   ([`Event::ToolFinished`]) before the run's error;
    /// - durable runs journal a whole turn, then its calls: they never start calls early.
    #[must_use]
    ///
    /// [`Entry::starts_early`]: crate::registry::Entry::starts_early
    pub fn early_calls(mut self, early: EarlyCalls) -> Self {
        self.settings.early_calls = early;
        self
    }

    /// How long a call may run before it is stopped and answered `TimedOut`.
    #[must_use]
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.settings.call_timeout = timeout;
        self
    }

    /// Moves a call to a task-capable tool (`#[tool(task = "..")]`) that is still running
    /// `after` into it to the background: the model is told it goes on and may carry on
    /// meanwhile; its result comes as a message at the start of a later round (a model that
    /// answers while calls are in the background is asked again when the next one ends). The
    /// call stays bounded by [`Agent::call_timeout`]; calls still in the background when the
    /// run ends are cancelled. Off by default: every call is awaited in its own round.
    ///
    /// [`RunOutcome::tool_runs`](super::RunOutcome::tool_runs) holds such a call twice: with the note the model got, then
    /// with its result.
    #[must_use]
    pub fn background_after(mut self, after: Duration) -> Self {
        self.settings.background_after = Some(after);
        self
    }

    /// How many times one call (the same tool with the same arguments) may run in a run:
    /// after that, the model gets a result telling it it has the answer already, and the call
    /// does not run. 3 unless set.
    #[must_use]
    pub fn max_repeats(mut self, runs: usize) -> Self {
        self.settings.max_repeats = runs;
        self
    }

    /// How long calls in flight have to finish after the run is cancelled.
    #[must_use]
    pub fn cancel_grace(mut self, grace: Duration) -> Self {
        self.settings.cancel_grace = grace;
        self
    }

    /// Whether tool schemas are sent strict where the provider and the schema allow.
    #[must_use]
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// How the model samples every turn (temperature, seed, output limit, stop sequences,
    /// members only one server knows). For one run, set it on a clone: an agent is a handful
    /// of shared pointers.
    #[must_use]
    pub fn sampling(mut self, sampling: Sampling) -> Self {
        self.sampling = Some(sampling);
        self
    }

    /// Whether the calls of this agent's runs forgive the common model mistakes (`"3"` for
    /// `3`, `"true"` for `true`; see [`ToolParam::coerce`](crate::ToolParam::coerce))
    /// before validation, whatever the registry's own [`DecodeOptions`](crate::dispatch::DecodeOptions)
    /// say. On by default: a model's slip costs a round otherwise. `false` takes exactly
    /// what the schema accepts, as an MCP server does by default.
    #[must_use]
    pub fn lenient(mut self, lenient: bool) -> Self {
        self.lenient = lenient;
        self
    }

    /// Which tools the model may or must call.
    #[must_use]
    pub fn tool_choice(mut self, choice: ToolChoice) -> Self {
        self.tool_choice = Some(choice);
        self
    }

    /// Callbacks around every call.
    #[must_use]
    pub fn hooks(mut self, hooks: impl Hooks + 'static) -> Self {
        self.settings.hooks = Arc::new(hooks);
        self
    }

    /// Which calls need approval, who gives it, and how long it may take.
    #[must_use]
    pub fn approval(mut self, policy: ApprovalPolicy, approver: impl Approver + 'static, timeout: Duration) -> Self {
        self.settings.approval = policy;
        self.settings.approver = Some(Arc::new(approver));
        self.settings.approval_timeout = timeout;
        self
    }

    /// This agent for one run whose approvals and questions go to a caller of its own (the
    /// A2A server's task), its approval policy and everything else kept.
    #[cfg(feature = "a2a-server")]
    pub(crate) fn asking(&self, approver: Arc<dyn Approver>, host: Arc<dyn crate::context::Host>) -> Self {
        let mut agent = self.clone();
        agent.settings.approver = Some(approver);
        agent.settings.host = Some(host);
        agent
    }

    /// Answers what a tool asks of its caller beyond progress (which goes to the events):
    /// elicitation (`ctx.elicit::<Form>()`, a person at the keyboard filling the tool's form),
    /// sampling, log messages. Without one, a tool that asks is told the caller does not
    /// support it.
    #[must_use]
    pub fn host(mut self, host: impl crate::context::Host + 'static) -> Self {
        self.settings.host = Some(Arc::new(host));
        self
    }

    /// Receives every [`Event`] as it happens. Each call adds a subscriber (a UI, a log, a
    /// metrics sink): every one receives every event, in the order they were added.
    #[must_use]
    pub fn on_event(mut self, sink: impl Fn(&Event) + Send + Sync + 'static) -> Self {
        self.settings.events = Some(match self.settings.events.take() {
            None => Arc::new(sink),
            Some(earlier) => Arc::new(move |event: &Event| {
                earlier(event);
                sink(event);
            }),
        });
        self
    }

    /// An empty conversation in the model's shape.
    #[must_use]
    pub fn conversation(&self) -> Conversation {
        Conversation::new(self.model.api())
    }

    /// The tools, as the next round will offer them.
    #[must_use]
    pub fn registry(&self) -> Arc<Registry> {
        self.tools_now()
    }

    /// Reads the tools from `source` at the start of every round, so tools added, removed
    /// or described anew while a run goes on are offered from its next round (a call in
    /// flight finishes with the registry it started with). With a running MCP server's
    /// tools: `agent.live_tools(move || handle.registry())` for its
    /// [`ToolsHandle`](crate::mcp::ToolsHandle) `handle`.
    #[must_use]
    pub fn live_tools(mut self, source: impl Fn() -> Arc<Registry> + Send + Sync + 'static) -> Self {
        self.tools = Tools::Live(Arc::new(source));
        self
    }

    /// Resolves the tools from `sources` at the start of every run (and offers what they
    /// resolved to at each round): a source that fails then is left out of that run with an
    /// [`Event::ToolSourceLeftOut`], the others stay. Call
    /// [`ToolSources::resolve`](crate::registry::ToolSources::resolve) first to fail fast
    /// at start.
    #[must_use]
    pub fn sources(mut self, sources: Arc<crate::registry::ToolSources>) -> Self {
        self.tools = Tools::Sources(sources);
        self
    }
}

/// Which calls an agent loop starts while the model still writes its turn
/// ([`Agent::early_calls`](super::Agent::early_calls)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum EarlyCalls {
    /// None: every call waits for the whole turn.
    Never,
    /// Calls to the tools that say a call is safe before the turn is known to end well
    /// ([`Entry::starts_early`](crate::registry::Entry::starts_early)); the first call to any
    /// other tool, and every call after it, waits for the whole turn. A turn that then fails
    /// has run only calls that change nothing, or nothing a repeat would not.
    #[default]
    SafeTools,
    /// Every call, whatever its tool does: a turn that fails after a call started leaves
    /// that call's effects (it is cancelled and answered, but may have acted).
    Every,
}
