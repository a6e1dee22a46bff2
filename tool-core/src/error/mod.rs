//! [`ToolError`]: everything that can go wrong between a model's tool call and its result;
//! [`RegistryError`]: why a tool was refused a place in a registry.

mod registry;

pub use registry::RegistryError;

use core::fmt;

use crate::validate::violation::Violations;

/// Why a tool call produced no output. Each variant renders to text that tells the model
/// what to change (its `Display`). Serialized with its variant's name in snake case
/// (`{"unknown_tool": {"name": …, "available": […]}}`), as a journal keeps it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ToolError {
    /// No tool has this name.
    UnknownTool {
        /// The name the model asked for.
        name: String,
        /// Every registered name, sorted.
        available: Vec<String>,
    },
    /// A tool choice asks for a call ([`ToolChoice::Required`](crate::provider::ToolChoice::Required),
    /// a tool, a list of tools) and no tool is offered: no provider can honour it.
    NoTools,
    /// The arguments are not JSON (or are larger than the registry accepts).
    InvalidJson {
        /// The parser's message, with line and column.
        message: String,
    },
    /// The arguments are JSON but break the schema: every violation found.
    InvalidArguments {
        /// The tool called.
        tool: String,
        /// Every violation, each with its JSON pointer.
        violations: Violations,
    },
    /// The tool ran and returned `Err`; the text is the error's `Display`.
    Failed {
        /// The tool called.
        tool: String,
        /// The error's `Display` output.
        message: String,
    },
    /// The tool panicked; the panic was caught and the process goes on.
    Panicked {
        /// The tool called.
        tool: String,
        /// The panic payload, when it was a string.
        message: String,
    },
    /// An `async` tool was called through the blocking [`Registry::call`](crate::Registry::call).
    RequiresAsync {
        /// The tool called.
        tool: String,
    },
    /// The call ran longer than it was allowed and was stopped.
    TimedOut {
        /// The tool called.
        tool: String,
        /// The limit.
        after: core::time::Duration,
    },
    /// The call was cancelled before it finished (or before it started).
    Cancelled {
        /// The tool called.
        tool: String,
    },
    /// The call was not allowed to run: an authorization check, an approver or a hook said
    /// no, with the reason.
    Denied {
        /// The tool called.
        tool: String,
        /// Why.
        reason: String,
    },
    /// A layer around the tool turned the call away or cut it short (a concurrency or rate
    /// limit shed it, a timeout elapsed): the tool may not have run. Worth retrying later.
    Rejected {
        /// The tool called.
        tool: String,
        /// The layer's words.
        reason: String,
    },
}

impl ToolError {
    /// The variant's name in `snake_case` (`invalid_arguments`, `failed`, ..): a short, stable
    /// name for metrics and traces (OpenTelemetry's `error.type`).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            ToolError::UnknownTool { .. } => "unknown_tool",
            ToolError::NoTools => "no_tools",
            ToolError::InvalidJson { .. } => "invalid_json",
            ToolError::InvalidArguments { .. } => "invalid_arguments",
            ToolError::Failed { .. } => "failed",
            ToolError::Panicked { .. } => "panicked",
            ToolError::RequiresAsync { .. } => "requires_async",
            ToolError::TimedOut { .. } => "timed_out",
            ToolError::Cancelled { .. } => "cancelled",
            ToolError::Denied { .. } => "denied",
            ToolError::Rejected { .. } => "rejected",
        }
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolError::UnknownTool { name, available } => {
                write!(f, "unknown tool {name:?}; the available tools are: ")?;
                for (i, tool) in available.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(tool)?;
                }
                Ok(())
            }
            ToolError::NoTools => f.write_str("the tool choice asks for a tool call, but no tool is offered"),
            ToolError::InvalidJson { message } => {
                write!(f, "the arguments are not valid JSON ({message}); send a JSON object")
            }
            ToolError::InvalidArguments { tool, violations } => {
                write!(f, "invalid arguments for tool {tool:?}; fix these and call it again:\n{violations}")
            }
            ToolError::Failed { tool, message } => write!(f, "tool {tool:?} failed: {message}"),
            ToolError::Panicked { tool, message } => {
                write!(f, "tool {tool:?} crashed ({message}); this is a bug in the tool, not in your call")
            }
            ToolError::RequiresAsync { tool } => {
                write!(f, "tool {tool:?} is async and must be called with `call_async`")
            }
            ToolError::TimedOut { tool, after } => {
                write!(f, "tool {tool:?} did not finish within {} ms and was stopped", after.as_millis())
            }
            ToolError::Cancelled { tool } => write!(f, "the call to tool {tool:?} was cancelled"),
            ToolError::Denied { tool, reason } => {
                write!(f, "the call to tool {tool:?} was not allowed: {reason}; do not retry it unchanged")
            }
            ToolError::Rejected { tool, reason } => {
                write!(f, "the call to tool {tool:?} was turned away ({reason}); try again later")
            }
        }
    }
}

impl std::error::Error for ToolError {}
