//! [`Entry`]: one tool in a registry, under the name the registry gives it: a `#[tool]` fn
//! (its compile-time [`ToolDef`]) or a [`DynamicTool`] made at run time. Everything a
//! server needs is asked of the entry, so both kinds are listed and called alike; what a
//! provider sends for an entry is `provider`'s to decide. A method of a `#[tools]` block is
//! a `ToolDef` too, held with the value it is called on.

use std::borrow::Cow;
use std::sync::Arc;

use super::descriptions::Described;
use crate::auth::{Claims, InsufficientScope};
use crate::render::Dialect;
use crate::render::json_text::definition;
use crate::schema::Schema;
use crate::tool::dynamic::DynamicTool;
use crate::tool::{Annotations, Receiver, TaskSupport, ToolDef, ToolOptions};

/// One tool in a registry.
#[derive(Debug, Clone)]
pub struct Entry {
    pub(super) name: Arc<str>,
    pub(super) kind: Kind,
    pub(super) definition_json: Cow<'static, str>,
    /// Descriptions set at run time ([`Registry::describe`](super::Registry::describe)).
    pub(super) described: Option<Arc<Described>>,
    /// When it was added to its registry ([`UNPLACED`] until it is): an MCP server lists
    /// tools in this order, as the servers it ports do.
    pub(super) added: u64,
}

/// The `added` of an entry no registry has placed yet.
pub(super) const UNPLACED: u64 = u64::MAX;

/// What an entry holds.
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    Static(&'static ToolDef),
    /// A method, with the value every call borrows as `&self`. Hand the shim `&**receiver`:
    /// an `Arc` is itself `Any`, so `&receiver` would coerce to the wrong one.
    Method(&'static ToolDef, Arc<Receiver>),
    Dynamic(Arc<DynamicTool>),
}

impl Entry {
    pub(super) fn from_def(def: &'static ToolDef) -> Self {
        Entry {
            name: Arc::from(def.name()),
            kind: Kind::Static(def),
            definition_json: Cow::Borrowed(def.definition_json()),
            described: None,
            added: UNPLACED,
        }
    }

    pub(super) fn from_method(def: &'static ToolDef, receiver: Arc<Receiver>) -> Self {
        Entry {
            name: Arc::from(def.name()),
            kind: Kind::Method(def, receiver),
            definition_json: Cow::Borrowed(def.definition_json()),
            described: None,
            added: UNPLACED,
        }
    }

    pub(super) fn from_dynamic(tool: Arc<DynamicTool>) -> Self {
        let name: Arc<str> = Arc::from(tool.name());
        let definition_json = Cow::Owned(definition(&name, &tool.description, &tool.parameters_json));
        Entry { name, kind: Kind::Dynamic(tool), definition_json, described: None, added: UNPLACED }
    }

    /// The same tool under another name (a prefix added by [`Registry::merge_prefixed`](super::Registry::merge_prefixed)).
    pub(super) fn renamed(&self, name: String) -> Self {
        let definition_json = Cow::Owned(definition(&name, self.description(), self.parameters_json()));
        Entry {
            name: Arc::from(name),
            kind: self.kind.clone(),
            definition_json,
            described: self.described.clone(),
            added: UNPLACED,
        }
    }

    /// The name the model calls it by in this registry.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The compile-time definition of a `#[tool]` fn or method; `None` for a tool made at
    /// run time.
    #[must_use]
    pub fn def(&self) -> Option<&'static ToolDef> {
        match &self.kind {
            Kind::Static(def) | Kind::Method(def, _) => Some(def),
            Kind::Dynamic(_) => None,
        }
    }

    /// The tool made at run time, if this is one.
    #[must_use]
    pub fn dynamic(&self) -> Option<&DynamicTool> {
        match &self.kind {
            Kind::Static(_) | Kind::Method(..) => None,
            Kind::Dynamic(tool) => Some(tool),
        }
    }

    /// What it does, for the model.
    #[must_use]
    pub fn description(&self) -> &str {
        if let Some(text) = self.described.as_deref().and_then(Described::tool) {
            return text;
        }
        match &self.kind {
            Kind::Static(def) | Kind::Method(def, _) => def.description(),
            Kind::Dynamic(tool) => &tool.description,
        }
    }

    /// Its arguments' JSON Schema, as text.
    #[must_use]
    pub fn parameters_json(&self) -> &str {
        if let Some(Ok(text)) = self.described_parameters(Dialect::JsonSchema) {
            return text;
        }
        match &self.kind {
            Kind::Static(def) | Kind::Method(def, _) => def.parameters_json(),
            Kind::Dynamic(tool) => &tool.parameters_json,
        }
    }

    /// `{"name":…,"description":…,"parameters":…}` under this registry's name.
    #[must_use]
    pub fn definition_json(&self) -> &str {
        &self.definition_json
    }

    /// A human-readable name (MCP `title`).
    #[must_use]
    pub fn title(&self) -> Option<&str> {
        match &self.kind {
            Kind::Static(def) | Kind::Method(def, _) => def.title(),
            Kind::Dynamic(tool) => tool.title.as_deref(),
        }
    }

    /// Its `#[tool(..)]` options, wherever they are held.
    pub(crate) fn options(&self) -> &ToolOptions {
        match &self.kind {
            Kind::Static(def) | Kind::Method(def, _) => def.options(),
            Kind::Dynamic(tool) => &tool.options,
        }
    }

    /// Hints about its behaviour (MCP `annotations`).
    #[must_use]
    pub fn annotations(&self) -> Annotations {
        self.options().annotations
    }

    /// The JSON Schema of its structured output, when it states one.
    #[must_use]
    pub fn output_schema(&self) -> Option<&str> {
        match &self.kind {
            Kind::Static(def) | Kind::Method(def, _) => def.output_schema(),
            Kind::Dynamic(tool) => tool.output_schema(),
        }
    }

    /// Whether a batch holding a call to it runs one call at a time.
    #[must_use]
    pub fn sequential(&self) -> bool {
        self.options().sequential
    }

    /// Whether an agent loop may start a call to it before the model's turn is known to end
    /// well (the agent's `EarlyCalls::SafeTools`, its default): it
    /// says so (`#[tool(early)]`, [`DynamicTool::early`](crate::DynamicTool::early)), or its
    /// annotations say a call changes nothing (`read_only`) or nothing more when repeated
    /// (`idempotent`). Any other call waits for the whole turn: a turn that then fails runs
    /// none of its calls.
    #[must_use]
    pub fn starts_early(&self) -> bool {
        if self.is_deferred() {
            return false;
        }
        let options = self.options();
        options.early || options.annotations.read_only == Some(true) || options.annotations.idempotent == Some(true)
    }

    /// Whether its calls are handed back to the application rather than run
    /// ([`DynamicTool::deferred`](crate::DynamicTool::deferred)): such a call never starts
    /// early, even with `EarlyCalls::Every`.
    #[must_use]
    pub fn is_deferred(&self) -> bool {
        matches!(&self.kind, Kind::Dynamic(tool) if tool.is_deferred())
    }

    /// Whether an agent loop asks its approver before every call.
    #[must_use]
    pub fn requires_approval(&self) -> bool {
        self.options().requires_approval
    }

    /// Whether an MCP client may follow a call as a task.
    #[must_use]
    pub fn task_support(&self) -> TaskSupport {
        self.options().task
    }

    /// The OAuth scopes a caller's token must hold to see and call it.
    pub fn scopes(&self) -> impl Iterator<Item = &str> + Clone + '_ {
        let (fixed, owned): (&[&str], &[String]) = match &self.kind {
            Kind::Static(def) | Kind::Method(def, _) => (def.scopes(), &[]),
            Kind::Dynamic(tool) => (&[], &tool.scopes),
        };
        fixed.iter().copied().chain(owned.iter().map(String::as_str))
    }

    /// Whether the bearer of `claims` may see and call it: the token must grant every scope
    /// it requires. The MCP server's OAuth layer asks this; so can an agent's `authorize` hook.
    ///
    /// # Errors
    /// [`InsufficientScope`] with the scopes the token lacks.
    pub fn permits(&self, claims: &Claims) -> Result<(), InsufficientScope> {
        claims.grants(self.name(), self.scopes())
    }

    /// Where the tool comes from, for messages: the Rust path of a `#[tool]` fn.
    pub(super) fn origin(&self) -> &'static str {
        match &self.kind {
            Kind::Static(def) | Kind::Method(def, _) => def.rust_path(),
            Kind::Dynamic(_) => "a tool made at run time",
        }
    }

    /// The arguments' compile-time tree: a `#[tool]`'s, or a typed tool made at run time's.
    pub(crate) fn schema_tree(&self) -> Option<&'static Schema> {
        match &self.kind {
            Kind::Static(def) | Kind::Method(def, _) => Some(def.schema()),
            Kind::Dynamic(tool) => tool.schema(),
        }
    }

    /// The parameters in `dialect` with descriptions set at run time, when some were set
    /// and there is a tree to write them into.
    pub(crate) fn described_parameters(&self, dialect: Dialect) -> Option<Result<&str, &'static str>> {
        self.described.as_deref()?.parameters_in(dialect)
    }

    /// The kind, for dispatch.
    pub(crate) fn kind(&self) -> &Kind {
        &self.kind
    }
}
