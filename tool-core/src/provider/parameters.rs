//! Which parameters schema a provider is sent for a tool: the compile-time tree's text in the
//! provider's [`Dialect`] (kept per definition by [`ToolDef::parameters_in`]), or, for a tool
//! made at run time, its JSON Schema as given (converted for Gemini). Strict mode is chosen
//! here: where the tool asks for it, or by default, and where its schema allows it.
//!
//! [`ToolDef::parameters_in`]: crate::ToolDef::parameters_in

use std::borrow::Cow;

use crate::registry::Entry;
use crate::render::Dialect;

/// Why a tool made at run time is never sent in a strict dialect.
const DYNAMIC_NOT_STRICT: &str = "a tool made at run time has no compile-time schema to derive a strict form from";

/// The parameters to send in a strict-capable dialect, and whether strict mode is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrictChoice<'a> {
    /// The parameters schema text.
    pub parameters: Cow<'a, str>,
    /// Whether to send `strict: true`.
    pub strict: bool,
    /// Why strict mode was wanted (by default) but not possible for this tool.
    pub fallback: Option<&'static str>,
}

/// The parameters of `entry` in `dialect`, or why the dialect cannot express them (a strict
/// dialect and a map, say, or any strict dialect and a tool made at run time).
///
/// # Errors
/// The reason `dialect` has no form of this tool's schema.
pub fn parameters(entry: &Entry, dialect: Dialect) -> Result<Cow<'_, str>, &'static str> {
    if let Some(described) = entry.described_parameters(dialect) {
        return described.map(Cow::Borrowed);
    }
    if let Some(def) = entry.def() {
        return def.parameters_in(dialect).map(Cow::Borrowed);
    }
    // A typed tool made at run time has a compile-time tree: every dialect, written per call
    // (a few microseconds; the tool's definition is not `'static` to keep them in).
    if let Some(schema) = entry.dynamic().and_then(crate::DynamicTool::schema) {
        return match dialect {
            Dialect::JsonSchema => Ok(Cow::Borrowed(entry.parameters_json())),
            _ => match dialect.strict_problem(schema) {
                Some(problem) => Err(problem),
                None => Ok(Cow::Owned(crate::render::to_json_in(schema, dialect))),
            },
        };
    }
    match dialect {
        Dialect::GeminiParameters => Ok(super::gemini::entry_parameters(entry)),
        Dialect::OpenAiStrict | Dialect::AnthropicStrict => Err(DYNAMIC_NOT_STRICT),
        Dialect::JsonSchema => Ok(Cow::Borrowed(entry.parameters_json())),
    }
}

/// The parameters of `entry` for a strict-capable `dialect` (`OpenAI` or Anthropic strict):
/// strict when the tool asks for it (`#[tool(strict)]`), or when `strict_by_default` and the
/// tool does not opt out, and in either case only where its schema allows it; the plain JSON
/// Schema otherwise, with the reason when strict mode was wanted.
#[must_use]
pub fn strict_choice(entry: &Entry, dialect: Dialect, strict_by_default: bool) -> StrictChoice<'_> {
    let wanted = entry.def().and_then(crate::ToolDef::strict).unwrap_or(strict_by_default);
    let plain = || Cow::Borrowed(entry.parameters_json());
    if !wanted {
        return StrictChoice { parameters: plain(), strict: false, fallback: None };
    }
    match parameters(entry, dialect) {
        Ok(parameters) => StrictChoice { parameters, strict: true, fallback: None },
        Err(reason) => StrictChoice { parameters: plain(), strict: false, fallback: Some(reason) },
    }
}
