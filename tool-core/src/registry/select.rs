//! Collecting only some of the `#[tool]`s linked into a binary: by group, by module, or by
//! crate. `inventory` gathers every tool of every linked crate, a dependency's included, so a
//! program that serves tools says which ones; and a selection that finds nothing is an error,
//! because it almost always means the crate holding the tools was never linked.

use super::{Registration, Registry};
use crate::error::RegistryError;
use crate::tool::ToolDef;

/// A crate's `#[tool]`s, named from another crate: [`tool_crate!`](crate::tool_crate) defines
/// one at the root of the crate that holds the tools, and the binary hands it to
/// [`Registry::collect_crates`].
///
/// Naming it is what makes the linker keep the crate: a dependency that no code of the binary
/// refers to is not linked at all, and its tools would silently be missing.
#[derive(Debug)]
pub struct ToolCrate {
    path: &'static str,
}

impl ToolCrate {
    /// What [`tool_crate!`](crate::tool_crate) expands to.
    #[doc(hidden)]
    #[must_use]
    pub const fn __new(path: &'static str) -> Self {
        ToolCrate { path }
    }

    /// The crate's name as `module_path!` writes it (`my_tools`).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        self.path
    }
}

/// Defines `pub static TOOLS: tool_core::registry::ToolCrate` (or the name given) for the crate it is
/// called at the root of, so a binary can collect exactly that crate's tools and the linker
/// cannot drop them:
///
/// ```
/// // In the crate holding the tools, at its root (lib.rs):
/// tool_core::tool_crate!();
///
/// // In the binary:
/// # mod my_tools { tool_core::tool_crate!(); }
/// # fn main() {
/// let registry = tool_core::Registry::collect_crates(&[&my_tools::TOOLS]);
/// // This doc test's crate defines no tool: the selection is loudly empty.
/// assert!(registry.is_err());
/// # }
/// ```
#[macro_export]
macro_rules! tool_crate {
    () => {
        $crate::tool_crate!(TOOLS);
    };
    ($name:ident) => {
        /// This crate's `#[tool]`s, for `tool_core::Registry::collect_crates`.
        pub static $name: $crate::registry::ToolCrate = $crate::registry::ToolCrate::__new(::core::module_path!());
    };
}

impl Registry {
    /// The `#[tool(group = "..")]`s of `group`, from every linked crate.
    ///
    /// # Errors
    /// [`RegistryError::NoneCollected`] when no tool of the group is linked;
    /// [`RegistryError::DuplicateName`] when two share a name.
    pub fn collect_group(group: &str) -> Result<Self, RegistryError> {
        Self::collect_selected(&format!("group {group:?}"), |def| def.group() == Some(group))
    }

    /// The `#[tool]`s defined in the module `path` (`my_app::tools`) or a module inside it.
    /// A crate's name selects the whole crate, but only if something else makes the linker
    /// keep it: prefer [`Registry::collect_crates`] for another crate.
    ///
    /// # Errors
    /// [`RegistryError::NoneCollected`] when none is linked;
    /// [`RegistryError::DuplicateName`] when two share a name.
    pub fn collect_module(path: &str) -> Result<Self, RegistryError> {
        let path = path.trim_start_matches("::");
        Self::collect_selected(&format!("module {path}"), |def| in_module(def, path))
    }

    /// The `#[tool]`s of each crate named, each of which must have at least one: a crate that
    /// contributes none is reported by name.
    ///
    /// # Errors
    /// [`RegistryError::NoneCollected`] naming the first crate with no tool linked;
    /// [`RegistryError::DuplicateName`] when two share a name.
    pub fn collect_crates(crates: &[&ToolCrate]) -> Result<Self, RegistryError> {
        let mut entries = Vec::new();
        for krate in crates {
            let found = Self::collect_selected(&format!("crate {}", krate.path), |def| in_module(def, krate.path))?;
            entries.extend(found.entries);
        }
        Self::from_entries(entries)
    }

    fn collect_selected(selection: &str, selected: impl Fn(&ToolDef) -> bool) -> Result<Self, RegistryError> {
        let entries: Vec<_> = inventory::iter::<Registration>
            .into_iter()
            .filter(|registration| selected(registration.0))
            .map(|registration| super::Entry::from_def(registration.0))
            .collect();
        if entries.is_empty() {
            return Err(RegistryError::NoneCollected { selection: selection.to_owned() });
        }
        Self::from_entries(entries)
    }
}

/// Whether the tool is defined in the module `path` or one inside it (`rust_path` is the
/// module path and the fn's name).
fn in_module(def: &ToolDef, path: &str) -> bool {
    def.rust_path().strip_prefix(path).is_some_and(|rest| rest.starts_with("::"))
}
