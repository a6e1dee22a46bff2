#![doc = include_str!("../../docs/registry.md")]

mod call;
mod describe;
mod descriptions;
mod entry;
#[cfg(any(feature = "mcp", feature = "agent"))]
pub(crate) mod layer;
mod name_hash;
#[cfg(feature = "runtime-schema")]
mod output_check;
mod select;
mod sources;
mod validate;

use std::sync::Arc;

use std::collections::HashMap;

#[cfg(feature = "runtime-schema")]
pub use crate::output::OutputMismatch;
#[cfg(any(feature = "mcp", feature = "agent"))]
#[cfg(any(feature = "mcp", feature = "agent"))]
pub(crate) use call::RunPlace;
#[cfg(feature = "agent")]
pub(crate) use call::multi_thread;
pub use descriptions::Descriptions;
pub use entry::Entry;
use name_hash::BuildNameHasher;
pub use select::ToolCrate;
pub use sources::{ResolveError, SourceError, SourceFuture, ToolSource, ToolSources};

use crate::context::{State, ToolContext};
use crate::dispatch::DecodeOptions;
use crate::error::RegistryError;
use crate::tool::dynamic::DynamicTool;
use crate::tool::name::is_valid_tool_name;
pub use crate::tool::set::{IntoToolSet, ToolSet};
use crate::tool::{Receiver, Tool, ToolDef};

/// What `#[tool]` submits to `inventory` for [`Registry::collect`].
#[doc(hidden)]
#[derive(Debug)]
pub struct Registration(pub &'static ToolDef);

inventory::collect!(Registration);

/// Tools by name, in a stable order (sorted by name), with O(1) lookup.
///
/// `Send + Sync`: share one registry between threads and tasks.
#[derive(Debug, Clone)]
pub struct Registry {
    entries: Vec<Entry>,
    // Names are short and chosen by the program, not by an attacker, so a fast hash beats
    // SipHash's flooding resistance here: the lookup is on every call's hot path.
    index: HashMap<Arc<str>, usize, BuildNameHasher>,
    state: Arc<State>,
    options: DecodeOptions,
    /// The `added` number the next tool gets.
    next_added: u64,
    // The context of calls made without one, built once rather than per call.
    context: ToolContext,
    #[cfg(any(feature = "mcp", feature = "agent"))]
    layers: layer::Layers,
    /// Set: results are checked against their output schemas, or shaped.
    #[cfg(feature = "runtime-schema")]
    output_checks: Option<Arc<output_check::OutputChecks>>,
}

impl Default for Registry {
    fn default() -> Self {
        let state = Arc::new(State::default());
        let context = ToolContext::new().with_state(Arc::clone(&state));
        Registry {
            entries: Vec::new(),
            index: HashMap::default(),
            state,
            options: DecodeOptions::default(),
            next_added: 0,
            context,
            #[cfg(any(feature = "mcp", feature = "agent"))]
            layers: layer::Layers::default(),
            #[cfg(feature = "runtime-schema")]
            output_checks: cfg!(debug_assertions).then(output_check::OutputChecks::on),
        }
    }
}

impl Registry {
    /// An empty registry.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Every `#[tool]` linked into this binary, from any crate or module, a dependency's
    /// included. To serve only some, use [`Registry::collect_group`],
    /// [`Registry::collect_module`] or [`Registry::collect_crates`], which also fail loudly
    /// when they find nothing.
    ///
    /// # Errors
    /// [`RegistryError::DuplicateName`] naming both tools when two share a name.
    pub fn collect() -> Result<Self, RegistryError> {
        let mut entries: Vec<Entry> =
            inventory::iter::<Registration>.into_iter().map(|registration| Entry::from_def(registration.0)).collect();
        // Link order varies between builds: collected tools are added in name order.
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Self::from_entries(entries)
    }

    /// Adds one tool (a generated `…Tool` value or a `&'static ToolDef`).
    ///
    /// # Errors
    /// [`RegistryError::DuplicateName`] when the name is taken;
    /// [`RegistryError::NeedsReceiver`] for a method of a `#[tools]` block, which
    /// [`Registry::add_all`] adds with its receiver.
    pub fn add(&mut self, tool: impl Tool) -> Result<&mut Self, RegistryError> {
        let def = tool.def();
        if def.handler().is_method() {
            return Err(RegistryError::NeedsReceiver { name: def.name().to_owned(), method: def.rust_path() });
        }
        self.insert(Entry::from_def(def))?;
        self.reindex();
        Ok(self)
    }

    /// Adds every tool of a `#[tools]` block, each called on `tools` (shared, so an
    /// `Arc<S>` the caller keeps is accepted as it is).
    ///
    /// # Errors
    /// [`RegistryError::DuplicateName`] when a name is taken; nothing is added then.
    pub fn add_all(&mut self, tools: impl IntoToolSet) -> Result<&mut Self, RegistryError> {
        self.add_set(tools.into_shared())
    }

    fn add_set<S: ToolSet>(&mut self, tools: Arc<S>) -> Result<&mut Self, RegistryError> {
        let receiver: Arc<Receiver> = tools;
        let mut entries = self.entries.clone();
        entries.extend(S::tool_defs().iter().map(|def| Entry::from_method(def, Arc::clone(&receiver))));
        self.set_entries(entries)?;
        Ok(self)
    }

    /// Adds the method `def` of a `#[tools]` block, called on `receiver` (a prompt's or a
    /// resource's, which their own collections keep).
    #[cfg(feature = "mcp")]
    pub(crate) fn add_method(&mut self, def: &'static ToolDef, receiver: Arc<Receiver>) -> Result<(), RegistryError> {
        self.insert(Entry::from_method(def, receiver))?;
        self.reindex();
        Ok(())
    }

    /// Adds a tool made at run time.
    ///
    /// # Errors
    /// [`RegistryError::DuplicateName`] when the name is taken.
    pub fn add_dynamic(&mut self, tool: DynamicTool) -> Result<&mut Self, RegistryError> {
        self.insert(Entry::from_dynamic(Arc::new(tool)))?;
        self.reindex();
        Ok(self)
    }

    /// Adds every tool of `other` as `{prefix}{name}`, as MCP aggregators do
    /// (`mcp_weather_` + `get_forecast`).
    ///
    /// # Errors
    /// [`RegistryError::InvalidName`] when a prefixed name is not a valid tool name, and
    /// [`RegistryError::DuplicateName`] when it is taken; nothing is added then.
    pub fn merge_prefixed(&mut self, prefix: &str, other: &Registry) -> Result<&mut Self, RegistryError> {
        let mut entries = self.entries.clone();
        for entry in other.in_added_order() {
            let name = format!("{prefix}{}", entry.name);
            if !is_valid_tool_name(&name) {
                return Err(RegistryError::InvalidName { name });
            }
            entries.push(entry.renamed(name));
        }
        self.set_entries(entries)?;
        Ok(self)
    }

    /// Adds every tool of `other` under its own name (a tool source's, `sources`).
    pub(crate) fn absorb(&mut self, other: &Registry) -> Result<(), RegistryError> {
        let mut entries = self.entries.clone();
        entries
            .extend(other.in_added_order().into_iter().map(|entry| Entry { added: entry::UNPLACED, ..entry.clone() }));
        self.set_entries(entries)
    }

    /// Puts back an entry taken out with [`Registry::remove`] (a server's hidden tool).
    #[cfg(feature = "mcp")]
    pub(crate) fn restore(&mut self, entry: Entry) -> Result<(), RegistryError> {
        self.insert(entry)?;
        self.reindex();
        Ok(())
    }

    /// Removes a tool; returns it if it was there.
    pub fn remove(&mut self, name: &str) -> Option<Entry> {
        let position = *self.index.get(name)?;
        let entry = self.entries.remove(position);
        self.reindex();
        Some(entry)
    }

    /// Shares `value` with every call's [`ToolContext::state`].
    #[must_use]
    pub fn with_state<T: core::any::Any + Send + Sync>(mut self, value: T) -> Self {
        let mut state = State::clone(&self.state);
        state.insert(value);
        self.state = Arc::new(state);
        self.context = self.context();
        self
    }

    /// Sets how arguments are decoded (lenient or not, the size limit).
    #[must_use]
    pub fn with_options(mut self, options: DecodeOptions) -> Self {
        self.options = options;
        self
    }

    /// How this registry decodes arguments.
    #[must_use]
    pub fn options(&self) -> &DecodeOptions {
        &self.options
    }

    /// The tool with this name.
    #[must_use]
    #[inline]
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.index.get(name).map(|&i| &self.entries[i])
    }

    /// Every tool, sorted by name.
    #[must_use]
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &Entry> {
        self.entries.iter()
    }

    /// How many tools there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The sorted tool names.
    #[must_use]
    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(Entry::name).collect()
    }

    /// `[{"name":…,"description":…,"parameters":…}, …]` for every tool, sorted by name.
    #[must_use]
    pub fn definitions_json(&self) -> String {
        let size = self.entries.iter().map(|e| e.definition_json().len() + 1).sum::<usize>() + 2;
        let mut json = String::with_capacity(size);
        json.push('[');
        for (i, entry) in self.entries.iter().enumerate() {
            if i > 0 {
                json.push(',');
            }
            json.push_str(entry.definition_json());
        }
        json.push(']');
        json
    }

    /// [`Registry::definitions_json`] as a `serde_json::Value`.
    #[must_use]
    pub fn definitions(&self) -> serde_json::Value {
        serde_json::from_str(&self.definitions_json()).unwrap_or(serde_json::Value::Null)
    }

    /// The state every call's context shares.
    #[must_use]
    pub fn state(&self) -> &Arc<State> {
        &self.state
    }

    /// A context for one call, sharing this registry's state.
    #[must_use]
    pub fn context(&self) -> ToolContext {
        ToolContext::new().with_state(Arc::clone(&self.state))
    }

    fn insert(&mut self, entry: Entry) -> Result<(), RegistryError> {
        let mut entry = entry;
        if let Some(existing) = self.entries.iter().find(|e| e.name == entry.name) {
            return Err(RegistryError::DuplicateName {
                name: entry.name.to_string(),
                first: existing.origin(),
                second: entry.origin(),
            });
        }
        self.place(core::slice::from_mut(&mut entry));
        self.entries.push(entry);
        Ok(())
    }

    /// Numbers the entries not placed yet, in the order given, after every one placed.
    fn place(&mut self, entries: &mut [Entry]) {
        for entry in entries.iter_mut().filter(|entry| entry.added == entry::UNPLACED) {
            entry.added = self.next_added;
            self.next_added += 1;
        }
    }

    /// Every tool, in the order it was added (collected tools in name order, the methods of
    /// a `#[tools]` block in declaration order); a tool put back after a removal keeps its
    /// place.
    pub(crate) fn in_added_order(&self) -> Vec<&Entry> {
        let mut entries: Vec<&Entry> = self.entries.iter().collect();
        entries.sort_by_key(|entry| entry.added);
        entries
    }

    fn reindex(&mut self) {
        self.entries.sort_by(|a, b| a.name.cmp(&b.name));
        self.index_sorted();
    }

    fn index_sorted(&mut self) {
        self.index = self.entries.iter().enumerate().map(|(i, entry)| (Arc::clone(&entry.name), i)).collect();
    }

    /// A registry of `entries`; see [`Registry::set_entries`].
    fn from_entries(entries: Vec<Entry>) -> Result<Self, RegistryError> {
        let mut registry = Self::new();
        registry.set_entries(entries)?;
        Ok(registry)
    }

    /// Replaces the tools with `entries`, or fails, changing nothing, when two share a name,
    /// naming them in the order given. Sorting first finds every duplicate among neighbours,
    /// so a collection of n tools costs O(n log n) rather than a scan per tool.
    fn set_entries(&mut self, mut entries: Vec<Entry>) -> Result<(), RegistryError> {
        let next_added = self.next_added;
        self.place(&mut entries);
        // Stable: two entries of one name stay in the order given.
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        if let Some(pair) = entries.windows(2).find(|pair| pair[0].name == pair[1].name) {
            // Refused: nothing changes, the numbers given out included.
            self.next_added = next_added;
            return Err(RegistryError::DuplicateName {
                name: pair[0].name.to_string(),
                first: pair[0].origin(),
                second: pair[1].origin(),
            });
        }
        self.entries = entries;
        self.index_sorted();
        Ok(())
    }
}
