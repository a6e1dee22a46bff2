#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The crate's own modules derive with its macros (`a2a::SkillRequest`, `retrieve::Search`,
// `toolbox::Calculation`), whose code names `::tool_core`.
#[cfg(any(feature = "a2a", feature = "retrieval", feature = "toolbox"))]
extern crate self as tool_core;

#[cfg(feature = "a2a")]
pub mod a2a;
#[cfg(feature = "agent")]
pub mod agent;
pub mod auth;
pub mod content;
pub mod context;
pub mod dispatch;
mod error;
#[cfg(feature = "mcp")]
pub mod mcp;
mod output;
pub mod param;
pub mod provider;
pub mod registry;
pub mod render;
#[cfg(feature = "retrieval")]
pub mod retrieve;
pub mod schema;
mod tool;
#[cfg(feature = "toolbox")]
pub mod toolbox;
mod validate;

/// What [`Registry::layer`] wraps: a tool call as a tower service (features `mcp` or
/// `agent`, whose call paths go through it).
#[cfg(any(feature = "mcp", feature = "agent"))]
pub mod layer {
    pub use crate::registry::layer::{BoxError, ToolRequest, ToolService};
}

#[doc(hidden)]
pub mod __private;

pub use crate::content::Content;
pub use crate::context::ToolContext;
pub use crate::error::{RegistryError, ToolError};
pub use crate::output::{IntoToolOutput, JsonText, Structured, StructuredText, ToolOutput};
pub use crate::param::{ToolArgs, ToolParam};
pub use crate::registry::{Entry, Registry};
pub use crate::tool::dynamic::DynamicTool;
pub use crate::tool::{Annotations, TaskSupport, Tool, ToolDef};
pub use crate::validate::violation::{Pointer, Violation, Violations};

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
/// Makes the `#[tool]` methods of an `impl` block tools, called on a value of the type: see
/// [`registry::ToolSet`] and [`Registry::add_all`].
#[cfg(feature = "macros")]
pub use tool_macros::tools;

#[cfg(test)]
mod readme {
    /// The README's reference is the macros' rustdoc, word for word.
    #[test]
    fn the_readme_holds_the_macro_docs() {
        let readme = include_str!("../README.md");
        assert!(readme.contains(include_str!("../docs/tool.md")), "README.md lacks docs/tool.md");
        assert!(readme.contains(include_str!("../docs/tool_args.md")), "README.md lacks docs/tool_args.md");
    }

    /// The tracing recipe the serving docs show is the file a test installs.
    #[test]
    fn the_serving_docs_hold_the_tested_tracing_recipe() {
        let serving = include_str!("../docs/serving.md");
        assert!(serving.contains(include_str!("../docs/otel-recipe.rs")), "serving.md lacks docs/otel-recipe.rs");
    }
}
