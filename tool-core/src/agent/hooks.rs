//! What a program decides around each tool call: [`Hooks`] (prepare arguments, authorize,
//! block before the call, rewrite after it), the [`ApprovalPolicy`] that says which calls
//! need a human, and the [`Approver`] that gives the verdict. The runner calls them one at a
//! time and in call order, never concurrently, and enforces their answers itself: a denied
//! call never reaches its tool.

use core::future::Future;
use core::pin::Pin;
use core::time::Duration;

use serde_json::Value;

use crate::provider::{Arguments, CallResult, ToolCall};

/// A tool call as it ran, and what became of it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct ToolRun {
    /// The call as it ran (after `prepare` and an approver's edits).
    pub call: ToolCall,
    /// Its one result, sent to the model.
    pub result: CallResult,
    /// What the program keeps about the call and never sends to the model.
    pub details: Option<Value>,
    /// Whether this result asks to end the run (it ends when every result of a batch asks).
    pub terminate: bool,
    /// How long the call ran.
    pub elapsed: Duration,
}

impl ToolRun {
    /// `call` answered with `result` after `elapsed`, with no details, not ending the run.
    #[must_use]
    pub fn new(call: ToolCall, result: CallResult, elapsed: Duration) -> Self {
        ToolRun { call, result, details: None, terminate: false, elapsed }
    }
}

/// Callbacks around every tool call. Every method has a default that lets the call through.
pub trait Hooks: Send + Sync {
    /// Rewrites the call before its arguments are validated (fill a default, fix a name).
    fn prepare(&self, call: &mut ToolCall) {
        let _ = call;
    }

    /// A programmatic gate (scopes, tenancy): `Err(reason)` denies the call.
    ///
    /// # Errors
    /// The reason the call is not allowed; the model reads it.
    fn authorize(&self, call: &ToolCall) -> Result<(), String> {
        let _ = call;
        Ok(())
    }

    /// The last word before the call runs, after approval: `Err(reason)` blocks it.
    ///
    /// # Errors
    /// The reason the call is blocked; the model reads it.
    fn before_call(&self, call: &ToolCall) -> Result<(), String> {
        let _ = call;
        Ok(())
    }

    /// After the call: may rewrite the result, attach details, or ask to end the run.
    fn after_call(&self, run: &mut ToolRun) {
        let _ = run;
    }
}

/// The hooks that let every call through.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoHooks;

impl Hooks for NoHooks {}

/// Which calls need an approver's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ApprovalPolicy {
    /// Calls to tools marked `#[tool(requires_approval)]` (the default).
    #[default]
    PerTool,
    /// Every call.
    Always,
    /// Every call, but to these tools (and still the tools marked `requires_approval`).
    AllowList(Vec<String>),
    /// The program's word over the tools' own flags: calls to the tools in `waived` never
    /// need approval, even when marked `requires_approval`; calls to the tools in `required`
    /// always do; any other as its tool says. The one policy that can waive a tool's flag:
    /// name in `waived` only tools whose calls you have made safe another way.
    OverrideTools {
        /// Tools whose calls need approval, marked or not.
        required: Vec<String>,
        /// Tools whose calls never need approval, marked or not.
        waived: Vec<String>,
    },
}

impl ApprovalPolicy {
    /// Whether a call to `tool` needs a verdict; `marked` is the tool's own flag.
    #[must_use]
    pub fn needs_approval(&self, tool: &str, marked: bool) -> bool {
        match self {
            ApprovalPolicy::PerTool => marked,
            ApprovalPolicy::Always => true,
            ApprovalPolicy::AllowList(allowed) => marked || !allowed.iter().any(|name| name == tool),
            ApprovalPolicy::OverrideTools { required, waived } => {
                let names = |list: &[String]| list.iter().any(|name| name == tool);
                !names(waived) && (marked || names(required))
            }
        }
    }
}

/// An approver's answer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Verdict {
    /// Run the call as it is.
    Approve,
    /// Do not run it; the model reads the reason.
    Deny(String),
    /// Run it with these arguments instead.
    Edit(Arguments<'static>),
}

/// The future of [`Approver::approve`].
pub type VerdictFuture<'a> = Pin<Box<dyn Future<Output = Result<Verdict, String>> + Send + 'a>>;

/// Decides calls that need approval (a person at a prompt, a policy service). An error, a
/// timeout or a cancellation counts as a denial: approval fails closed.
pub trait Approver: Send + Sync {
    /// The verdict on `call`.
    fn approve<'a>(&'a self, call: &'a ToolCall) -> VerdictFuture<'a>;
}

impl<F, Fut> Approver for F
where
    F: Fn(&ToolCall) -> Fut + Send + Sync,
    Fut: Future<Output = Result<Verdict, String>> + Send + 'static,
{
    fn approve<'a>(&'a self, call: &'a ToolCall) -> VerdictFuture<'a> {
        Box::pin(self(call))
    }
}
