#![doc = include_str!("../../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "agent")]
pub mod agent;
mod context;
mod dispatch;
mod error;
#[cfg(feature = "mcp")]
pub mod mcp;
mod param;
pub mod provider;
mod registry;
pub mod render;
pub mod schema;
mod tool;
mod validate;

#[doc(hidden)]
pub mod __private;

pub use crate::context::{
    CancellationToken, Cancelled, Elicitation, ElicitationAnswer, ElicitationRequest, Host, HostError, HostFuture,
    LogLevel, LogMessage, Progress, Role, SamplingMessage, SamplingRequest, SamplingResponse, State, StateError,
    ToolContext, elicitation_problem, elicitation_schema,
};
pub use crate::dispatch::args::{NoArgs, ToolArgs, ToolObject};
pub use crate::dispatch::decode;
pub use crate::error::ToolError;
pub use crate::param::{ArrayParam, BoolParam, FloatParam, MapParam, NumberParam, StringParam, ToolParam};
pub use crate::registry::{Entry, Registry, RegistryError, ToolCrate, is_valid_tool_name};
pub use crate::render::dialect::Dialect;
pub use crate::schema::Schema;
pub use crate::tool::content::{Content, Media, Resource, ResourceContents, ResourceLink};
pub use crate::tool::dynamic::DynamicTool;
pub use crate::tool::output::{IntoToolOutput, Json, Structured, ToolOutput};
pub use crate::tool::{
    Annotations, Arguments, AsyncHandler, DecodeOptions, Dialects, Handler, StrictChoice, SyncHandler, Tool, ToolDef,
    ToolFuture,
};
pub use crate::validate::violation::{Pointer, Violation, Violations};

pub use crate::param::MapKey;

/// The JSON Schema of `T`, rendered from its compile-time tree (a `#[tool]` keeps its own
/// as [`ToolDef::parameters_json`]).
#[must_use]
pub fn render_schema<T: ToolParam + ?Sized>() -> String {
    render::to_json(&T::SCHEMA)
}

/// The JSON Schema of `T` with every rule dispatch enforces, the integer types' full ranges
/// included ([`render::to_json_exact`]).
#[must_use]
pub fn render_schema_exact<T: ToolParam + ?Sized>() -> String {
    render::to_json_exact(&T::SCHEMA)
}

#[cfg(feature = "macros")]
#[doc = include_str!("../docs/tool_args.md")]
pub use tool_macros::ToolArgs;
/// `#[derive(ToolArgs)]` under a name for types that are only outputs
/// (`#[derive(serde::Serialize, ToolSchema)]` for a [`Structured`] result): the same derive,
/// the same keys; the type need not deserialize.
#[cfg(feature = "macros")]
pub use tool_macros::ToolSchema;
#[cfg(feature = "macros")]
#[doc = include_str!("../docs/tool.md")]
pub use tool_macros::tool;

#[cfg(test)]
mod readme {
    /// The README's reference is the macros' rustdoc, word for word.
    #[test]
    fn the_readme_holds_the_macro_docs() {
        let readme = include_str!("../../README.md");
        assert!(readme.contains(include_str!("../docs/tool.md")), "README.md lacks docs/tool.md");
        assert!(readme.contains(include_str!("../docs/tool_args.md")), "README.md lacks docs/tool_args.md");
    }
}
