//! [`Entry`]: one tool in a registry, under the name the registry gives it: a `#[tool]` fn
//! (its compile-time [`ToolDef`]) or a [`DynamicTool`] made at run time. Everything a
//! provider dialect or a server needs is asked of the entry, so both kinds are listed and
//! called alike.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::Value;

use crate::render::json_text::ObjectWriter;
use crate::tool::dynamic::DynamicTool;
use crate::tool::{Annotations, StrictChoice, ToolDef};

/// One tool in a registry.
#[derive(Debug, Clone)]
pub struct Entry {
    pub(super) name: Arc<str>,
    pub(super) kind: Kind,
    definition_json: Cow<'static, str>,
}

/// What an entry holds.
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    Static(&'static ToolDef),
    Dynamic(Arc<DynamicTool>),
}

/// Why a tool made at run time has no strict form.
const DYNAMIC_NOT_STRICT: &str = "a tool made at run time has no compile-time schema to derive a strict form from";

impl Entry {
    pub(super) fn from_def(def: &'static ToolDef) -> Self {
        Entry {
            name: Arc::from(def.name()),
            kind: Kind::Static(def),
            definition_json: Cow::Borrowed(def.definition_json()),
        }
    }

    pub(super) fn from_dynamic(tool: Arc<DynamicTool>) -> Self {
        let name: Arc<str> = Arc::from(tool.name());
        let definition_json = Cow::Owned(definition(&name, &tool.description, &tool.parameters_json));
        Entry { name, kind: Kind::Dynamic(tool), definition_json }
    }

    /// The same tool under another name (a prefix added by [`Registry::merge_prefixed`](super::Registry::merge_prefixed)).
    pub(super) fn renamed(&self, name: String) -> Self {
        let definition_json = Cow::Owned(definition(&name, self.description(), self.parameters_json()));
        Entry { name: Arc::from(name), kind: self.kind.clone(), definition_json }
    }

    /// The name the model calls it by in this registry.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The compile-time definition of a `#[tool]` fn; `None` for a tool made at run time.
    #[must_use]
    pub fn def(&self) -> Option<&'static ToolDef> {
        match &self.kind {
            Kind::Static(def) => Some(def),
            Kind::Dynamic(_) => None,
        }
    }

    /// The tool made at run time, if this is one.
    #[must_use]
    pub fn dynamic(&self) -> Option<&DynamicTool> {
        match &self.kind {
            Kind::Static(_) => None,
            Kind::Dynamic(tool) => Some(tool),
        }
    }

    /// What it does, for the model.
    #[must_use]
    pub fn description(&self) -> &str {
        match &self.kind {
            Kind::Static(def) => def.description(),
            Kind::Dynamic(tool) => &tool.description,
        }
    }

    /// Its arguments' JSON Schema, as text.
    #[must_use]
    pub fn parameters_json(&self) -> &str {
        match &self.kind {
            Kind::Static(def) => def.parameters_json(),
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
            Kind::Static(def) => def.title(),
            Kind::Dynamic(tool) => tool.title.as_deref(),
        }
    }

    /// Hints about its behaviour (MCP `annotations`).
    #[must_use]
    pub fn annotations(&self) -> Annotations {
        match &self.kind {
            Kind::Static(def) => def.annotations(),
            Kind::Dynamic(tool) => tool.annotations,
        }
    }

    /// The JSON Schema of its structured output, when it states one.
    #[must_use]
    pub fn output_schema(&self) -> Option<&str> {
        match &self.kind {
            Kind::Static(def) => def.output_schema(),
            Kind::Dynamic(_) => None,
        }
    }

    /// Whether a batch holding a call to it runs one call at a time.
    #[must_use]
    pub fn sequential(&self) -> bool {
        match &self.kind {
            Kind::Static(def) => def.sequential(),
            Kind::Dynamic(tool) => tool.sequential,
        }
    }

    /// Whether an agent loop asks its approver before every call.
    #[must_use]
    pub fn requires_approval(&self) -> bool {
        match &self.kind {
            Kind::Static(def) => def.requires_approval(),
            Kind::Dynamic(tool) => tool.requires_approval,
        }
    }

    /// The `OpenAI` parameters, strict where the tool and its schema allow
    /// ([`ToolDef::openai_parameters`]); a tool made at run time is sent non-strict.
    #[must_use]
    pub fn openai_parameters(&self, strict_by_default: bool) -> StrictChoice<'_> {
        match &self.kind {
            Kind::Static(def) => def.openai_parameters(strict_by_default),
            Kind::Dynamic(tool) => dynamic_choice(tool, strict_by_default),
        }
    }

    /// The Anthropic `input_schema`, chosen as [`Entry::openai_parameters`] is.
    #[must_use]
    pub fn anthropic_input_schema(&self, strict_by_default: bool) -> StrictChoice<'_> {
        match &self.kind {
            Kind::Static(def) => def.anthropic_input_schema(strict_by_default),
            Kind::Dynamic(tool) => dynamic_choice(tool, strict_by_default),
        }
    }

    /// The Gemini `parameters` (the `OpenAPI` subset).
    #[must_use]
    pub fn gemini_parameters(&self) -> Cow<'_, str> {
        match &self.kind {
            Kind::Static(def) => Cow::Borrowed(def.dialects().gemini_parameters()),
            Kind::Dynamic(tool) => Cow::Owned(crate::provider::gemini::parameters_from(&tool.parameters).to_string()),
        }
    }

    /// What [`Entry::gemini_parameters`] cannot state of the schema, if anything (dispatch
    /// still enforces it).
    #[must_use]
    pub fn gemini_parameters_loss(&self) -> Option<&'static str> {
        match &self.kind {
            Kind::Static(def) => def.dialects().gemini_parameters_loss(),
            Kind::Dynamic(tool) => crate::provider::gemini::value_loss(&tool.parameters),
        }
    }

    /// Whether the tool takes any arguments: `false` for an object schema without
    /// properties (Gemini then declares it without `parameters`).
    #[must_use]
    pub fn takes_arguments(&self) -> bool {
        match &self.kind {
            Kind::Static(def) => crate::provider::gemini::tree_takes_arguments(def.schema()),
            Kind::Dynamic(tool) => crate::provider::gemini::value_takes_arguments(&tool.parameters),
        }
    }

    /// Where the tool comes from, for messages: the Rust path of a `#[tool]` fn.
    pub(super) fn origin(&self) -> &'static str {
        match &self.kind {
            Kind::Static(def) => def.rust_path(),
            Kind::Dynamic(_) => "a tool made at run time",
        }
    }

    /// The kind, for dispatch.
    pub(crate) fn kind(&self) -> &Kind {
        &self.kind
    }
}

fn dynamic_choice(tool: &DynamicTool, strict_by_default: bool) -> StrictChoice<'_> {
    StrictChoice {
        parameters: &tool.parameters_json,
        strict: false,
        fallback: strict_by_default.then_some(DYNAMIC_NOT_STRICT),
    }
}

fn definition(name: &str, description: &str, parameters: &str) -> String {
    let mut json = String::with_capacity(name.len() + description.len() + parameters.len() + 48);
    ObjectWriter::new(&mut json)
        .string("name", name)
        .string("description", description)
        .raw("parameters", parameters)
        .end();
    json
}

/// A parsed argument object, for tools made at run time.
pub(crate) fn value_of(arguments: crate::tool::Arguments<'_>, limit: usize) -> Result<Value, crate::ToolError> {
    match arguments {
        crate::tool::Arguments::Value(value) => Ok(value),
        crate::tool::Arguments::Text(text) if text.len() > limit => Err(crate::ToolError::InvalidJson {
            message: format!("{} bytes is more than the {limit} bytes this registry accepts", text.len()),
        }),
        crate::tool::Arguments::Text(text) => {
            serde_json::from_str(text).map_err(|error| crate::ToolError::InvalidJson { message: error.to_string() })
        }
    }
}
