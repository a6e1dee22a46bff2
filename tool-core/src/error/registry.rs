//! [`RegistryError`]: why a registry, or a tool made at run time, refused a tool.

use core::fmt;

/// Why a registry could not take a tool.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegistryError {
    /// Two tools have the same name.
    DuplicateName {
        /// The name both use.
        name: String,
        /// The Rust path of the tool already registered.
        first: &'static str,
        /// The Rust path of the tool refused.
        second: &'static str,
    },
    /// A name breaks `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`.
    InvalidName {
        /// The name refused.
        name: String,
    },
    /// A selective collection found no tool: the tools' crate is not linked into the binary
    /// (see [`ToolCrate`](crate::registry::ToolCrate)), or the group or module is misspelt.
    NoneCollected {
        /// What was asked for: `group "admin"`, `module my_app::tools`, `crate my_tools`.
        selection: String,
    },
    /// What was asked for is not there (a tool to describe, one of its arguments).
    NotFound {
        /// What was looked for.
        what: String,
    },
    /// A method of a `#[tools]` block was added alone; it needs the value it is called on.
    NeedsReceiver {
        /// The tool.
        name: String,
        /// The method's Rust path.
        method: &'static str,
    },
    /// A tool made at run time has parameters that are not an object schema.
    InvalidSchema {
        /// The tool.
        name: String,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegistryError::DuplicateName { name, first, second } => write!(
                f,
                "two tools are named {name:?}: `{first}` and `{second}`; rename one with `#[tool(name = \"..\")]`"
            ),
            RegistryError::InvalidName { name } => {
                write!(f, "{name:?} is not a valid tool name: it must match ^[A-Za-z_][A-Za-z0-9_-]{{0,63}}$")
            }
            RegistryError::NoneCollected { selection } => write!(
                f,
                "no `#[tool]` of {selection} is linked into this binary: check the spelling, and if the tools live in \
                 another crate, call `tool_core::tool_crate!()` at its root and collect with \
                 `Registry::collect_crates(&[&that_crate::TOOLS])`, which names the crate so the linker keeps it"
            ),
            RegistryError::NotFound { what } => write!(f, "there is no {what}"),
            RegistryError::NeedsReceiver { name, method } => {
                write!(f, "tool {name:?} is the method `{method}`: add it with its receiver, `registry.add_all(value)`")
            }
            RegistryError::InvalidSchema { name, reason } => {
                write!(f, "the parameters of tool {name:?} are not a usable JSON Schema: {reason}")
            }
        }
    }
}

impl std::error::Error for RegistryError {}
