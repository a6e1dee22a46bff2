//! [`Descriptions`] set at run time: a tool's, and its arguments', chosen when the server
//! starts (from configuration, from the machine: "the local time zone is Europe/Paris")
//! rather than at compile time; and [`Described`], an entry's descriptions with the texts
//! written from its compile-time tree with them in place, once per dialect.

use std::sync::OnceLock;

use crate::render::Dialect;
use crate::schema::Schema;

/// Descriptions for one tool, to set with [`Registry::describe`](crate::Registry::describe).
///
/// ```
/// use tool_core::{Registry, tool};
/// use tool_core::registry::Descriptions;
///
/// /// Gets the current time in a time zone.
/// #[tool]
/// fn current_time(timezone: String) -> String {
///     timezone
/// }
///
/// let local = "Europe/Paris"; // read from the machine at start-up
/// let mut registry = Registry::new();
/// registry.add(CurrentTimeTool)?.describe(
///     "current_time",
///     Descriptions::new().argument("timezone", format!("IANA time zone name; use '{local}' when the user names none")),
/// )?;
/// let schema = registry.get("current_time").unwrap().parameters_json();
/// assert!(schema.contains("use 'Europe/Paris' when the user names none"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Descriptions {
    tool: Option<String>,
    pub(super) arguments: Vec<(String, String)>,
}

impl Descriptions {
    /// No description changed yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The tool's description.
    #[must_use]
    pub fn tool(mut self, text: impl Into<String>) -> Self {
        self.tool = Some(text.into());
        self
    }

    /// The description of the argument `name` (its name on the wire, a property of the
    /// arguments object).
    #[must_use]
    pub fn argument(mut self, name: impl Into<String>, text: impl Into<String>) -> Self {
        let name = name.into();
        let text = text.into();
        match self.arguments.iter_mut().find(|(argument, _)| *argument == name) {
            Some(slot) => slot.1 = text,
            None => self.arguments.push((name, text)),
        }
        self
    }
}

/// An entry's descriptions, and the texts written with them (one per dialect).
#[derive(Debug)]
pub(crate) struct Described {
    pub(super) descriptions: Descriptions,
    /// The arguments' tree, when there is one to write the descriptions into (not for a
    /// tool made at run time from JSON Schema, whose tool description alone can be set).
    pub(super) schema: Option<&'static Schema>,
    pub(super) texts: OnceLock<Vec<Result<String, &'static str>>>,
}

impl Described {
    /// The tool's description, if set.
    pub(crate) fn tool(&self) -> Option<&str> {
        self.descriptions.tool.as_deref()
    }

    /// The parameters in `dialect`, with these descriptions; the reason a strict dialect
    /// cannot express them otherwise.
    pub(crate) fn parameters_in(&self, dialect: Dialect) -> Option<Result<&str, &'static str>> {
        let schema = self.schema?;
        let texts = self.texts.get_or_init(|| {
            [Dialect::JsonSchema, Dialect::OpenAiStrict, Dialect::AnthropicStrict, Dialect::GeminiParameters]
                .into_iter()
                .map(|dialect| match dialect.strict_problem(schema) {
                    Some(problem) if dialect != Dialect::JsonSchema => Err(problem),
                    _ => Ok(crate::render::to_json_described(schema, dialect, &self.descriptions.arguments)),
                })
                .collect()
        });
        texts.get(dialect.index()).map(|text| text.as_deref().map_err(|problem| *problem))
    }
}
