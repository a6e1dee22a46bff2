#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// thiserror's discipline: a lint exception is an `#[expect]` with its reason, so one that no
// longer applies is reported.
#![warn(clippy::allow_attributes, clippy::allow_attributes_without_reason)]

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
#[cfg(any(feature = "toolbox", feature = "a2a-server"))]
mod net;
#[cfg(feature = "oauth")]
pub mod oauth;
mod output;
pub mod param;
pub mod provider;
pub mod registry;
pub mod render;
#[cfg(feature = "retrieval")]
pub mod retrieve;
pub mod schema;
#[cfg(any(feature = "mcp", feature = "a2a-server"))]
pub mod tasks;
#[cfg(any(feature = "mcp", feature = "agent", feature = "a2a-server", all(feature = "a2a", feature = "otel")))]
mod telemetry;
#[cfg(any(feature = "a2a", feature = "mcp-client-oauth"))]
mod token_cache;
mod tool;
#[cfg(feature = "toolbox")]
pub mod toolbox;
mod validate;

/// What [`Registry::layer`] wraps: a tool call as a tower service (features `mcp` or
/// `agent`, whose call paths go through it).
#[cfg(any(feature = "mcp", feature = "agent"))]
pub mod layer {
    pub use crate::registry::layer::{BoxError, ToolLayer, ToolRequest, ToolService};
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
    /// The rows of the table under the line `heading` (header and divider included).
    fn table_under<'a>(text: &'a str, heading: &str) -> Vec<&'a str> {
        let mut lines = text.lines().skip_while(|line| *line != heading);
        assert!(lines.next().is_some(), "no heading {heading}");
        lines.skip_while(|line| !line.starts_with('|')).take_while(|line| line.starts_with('|')).collect()
    }

    /// The README's key tables are the macros' rustdoc's, row for row.
    #[test]
    fn the_readme_key_tables_are_the_macro_docs() {
        let readme = include_str!("../README.md");
        for (in_readme, doc, in_doc) in [
            ("### `#[tool(..)]` keys", include_str!("../docs/tool.md"), "#### `#[tool(..)]` keys"),
            ("### `#[param(..)]` keys", include_str!("../docs/tool_args.md"), "#### `#[param(..)]` keys"),
        ] {
            let rows = table_under(readme, in_readme);
            assert!(rows.len() > 10, "{in_readme}: {} rows", rows.len());
            assert_eq!(rows, table_under(doc, in_doc), "README.md's {in_readme} differs from the macro's rustdoc");
        }
    }

    /// The tracing recipe the serving docs show is the file a test installs.
    #[test]
    fn the_serving_docs_hold_the_tested_tracing_recipe() {
        let serving = include_str!("../docs/serving.md");
        assert!(serving.contains(include_str!("../docs/otel-recipe.rs")), "serving.md lacks docs/otel-recipe.rs");
    }
}
