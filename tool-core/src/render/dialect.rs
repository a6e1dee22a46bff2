//! [`Dialect`]: the providers' variants of JSON Schema, and what each does with every
//! keyword the macros emit: keep it, drop it, or move it into the description text (the
//! strict dialects and Gemini's, for what they have no field for; Anthropic's official SDK
//! does the same). Whatever a dialect drops or moves is
//! still enforced at dispatch, which always validates against the full schema. MCP
//! elicitation forms, which refuse what they cannot show, decide here too: every `match` on a
//! keyword's place is in this file and names every keyword, so a new one is placed
//! everywhere at once.

use crate::schema::{Keyword, KeywordKind, KeywordValue, Lit, Schema};

/// A provider's flavour of JSON Schema, written from the same compile-time tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Dialect {
    /// Draft 2020-12 as emitted: `OpenAI` and Anthropic without `strict`, Gemini
    /// `parametersJsonSchema`, MCP `inputSchema`.
    JsonSchema,
    /// `OpenAI` Structured Outputs (`strict: true`): every property required, optional ones
    /// nullable, only the keywords strict mode supports.
    OpenAiStrict,
    /// Anthropic `strict: true`: the SDK's supported subset; other constraints are written
    /// into the description.
    AnthropicStrict,
    /// Gemini `parameters` (the `OpenAPI` subset): upper-case types, `nullable`, string
    /// `enum`s only, no `additionalProperties`.
    GeminiParameters,
}

impl Dialect {
    /// How many dialects there are, for a table with one slot per dialect.
    pub(crate) const COUNT: usize = 4;

    /// This dialect's slot in a table of [`Dialect::COUNT`]: `JsonSchema` first, then in the
    /// order of the variants.
    pub(crate) const fn index(self) -> usize {
        match self {
            Dialect::JsonSchema => 0,
            Dialect::OpenAiStrict => 1,
            Dialect::AnthropicStrict => 2,
            Dialect::GeminiParameters => 3,
        }
    }
}

/// What a dialect does with one keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeywordPlacement {
    Keep,
    Drop,
    Describe,
}

/// The `format`s `OpenAI` strict mode accepts.
const OPENAI_FORMATS: &[&str] = &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

/// The `format`s Anthropic strict mode accepts.
const ANTHROPIC_FORMATS: &[&str] =
    &["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"];

pub(crate) const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `name` is one of `list`.
const fn str_in(name: &str, list: &[&str]) -> bool {
    let mut i = 0;
    while i < list.len() {
        if str_eq(list[i], name) {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether a `format` (a `#[param]` string, or a type's own name) is one of `list`.
pub(crate) const fn format_in(value: Option<KeywordValue>, list: &[&str]) -> bool {
    match value {
        Some(KeywordValue::Str(name)) => str_in(name, list),
        _ => false,
    }
}

/// The `format`s an MCP elicitation form's string allows.
pub(crate) const ELICITATION_FORMATS: &[&str] = &["email", "uri", "date", "date-time"];

/// Why an MCP elicitation form (`ToolContext::elicit`) refuses `keyword`, or `None` when the
/// form keeps it: the form has no place to show the user most constraints. It sits beside
/// [`Dialect::place`] so that a new keyword is placed in every form in this one file.
pub(crate) const fn elicitation_refusal(keyword: &Keyword) -> Option<&'static str> {
    use KeywordKind as K;
    match keyword.kind {
        K::Title
        | K::Description
        | K::Minimum
        | K::Maximum
        | K::MinLength
        | K::MaxLength
        | K::Default
        | K::Enum
        | K::MinItems
        | K::MaxItems
        | K::Examples => None,
        K::Deprecated => Some("MCP's elicitation schema has no `deprecated`: ask only for the fields the tool uses"),
        K::Format => match keyword.value {
            KeywordValue::Str(name) if str_in(name, ELICITATION_FORMATS) => None,
            _ => {
                Some("an elicitation field's `format` must be `email`, `uri`, `date` or `date-time` (what MCP allows)")
            }
        },
        K::Pattern | K::ExclusiveMinimum | K::ExclusiveMaximum | K::MultipleOf | K::UniqueItems => Some(
            "MCP's elicitation schema has no `pattern`, `exclusive_minimum`, `exclusive_maximum`, `multiple_of` or `unique_items`: the user could not see the rule",
        ),
        K::MinProperties | K::MaxProperties | K::Items | K::Values => Some(
            "MCP's elicitation schema has no maps and no keywords on elements (`items(..)`, `values(..)`): the user could not see the rule",
        ),
    }
}

impl Dialect {
    /// What this dialect does with `kind`, whose value is `value` (or, for type-level
    /// bounds, the count `count`).
    pub(crate) const fn place(
        self,
        kind: KeywordKind,
        value: Option<KeywordValue>,
        count: Option<i128>,
    ) -> KeywordPlacement {
        // Every arm of each dialect's function names every keyword (no `_`): a new keyword
        // does not compile until each dialect decides where it goes.
        match self {
            Dialect::JsonSchema => KeywordPlacement::Keep,
            Dialect::OpenAiStrict => openai_strict(kind, value),
            Dialect::AnthropicStrict => anthropic_strict(kind, value, count),
            Dialect::GeminiParameters => gemini_parameters(kind, value),
        }
    }

    /// The JSON type name in this dialect (Gemini's `Type` enum is upper-case).
    pub(crate) const fn type_name(self, name: &'static str) -> &'static str {
        match self {
            Dialect::GeminiParameters => match name.as_bytes()[0] {
                b's' => "STRING",
                b'i' => "INTEGER",
                b'n' if name.len() == 6 => "NUMBER",
                b'n' => "NULL",
                b'b' => "BOOLEAN",
                b'a' => "ARRAY",
                _ => "OBJECT",
            },
            _ => name,
        }
    }

    /// Why this dialect cannot express `schema` in strict mode, if it cannot; `const` for
    /// the compile-time check of `#[tool(strict)]`.
    #[must_use]
    pub(crate) const fn strict_problem(self, schema: &Schema) -> Option<&'static str> {
        match self {
            Dialect::OpenAiStrict | Dialect::AnthropicStrict => problem(schema, 1),
            Dialect::JsonSchema | Dialect::GeminiParameters => None,
        }
    }
}

/// `OpenAI`'s limit on nesting in strict mode.
const MAX_DEPTH: usize = 10;

const fn problem(schema: &Schema, depth: usize) -> Option<&'static str> {
    if depth > MAX_DEPTH {
        return Some("the schema nests objects more than 10 levels deep, more than strict mode allows");
    }
    match *schema {
        Schema::Any => Some("a `serde_json::Value` has no strict form: strict mode needs every type stated"),
        Schema::Map { .. } => {
            Some("a map (`HashMap`/`BTreeMap`) has no strict form: strict objects list every property in advance")
        }
        Schema::Nullable(_) | Schema::Constrained(_) => problem(schema.peel().0, depth),
        Schema::Tuple(_) => {
            Some("a tuple has no strict form: strict mode has no `prefixItems` to give each position its own schema")
        }
        Schema::Array { items, .. } => problem(items, depth),
        Schema::Object(object) => {
            let mut i = 0;
            while i < object.properties.len() {
                if let Some(found) = problem(object.properties[i].schema, depth + 1) {
                    return Some(found);
                }
                i += 1;
            }
            let mut i = 0;
            while i < object.flatten.len() {
                if let Some(found) = problem(object.flatten[i], depth) {
                    return Some(found);
                }
                i += 1;
            }
            None
        }
        Schema::AnyOf(any_of) => {
            let mut i = 0;
            while i < any_of.branches.len() {
                if let Some(found) = problem(&any_of.branches[i], depth) {
                    return Some(found);
                }
                i += 1;
            }
            None
        }
        Schema::Boolean
        | Schema::Integer { .. }
        | Schema::Number
        | Schema::String
        | Schema::Char
        | Schema::Parsed(_)
        | Schema::StringEnum(_) => None,
    }
}

/// Where OpenAI's strict mode takes each keyword.
const fn openai_strict(kind: KeywordKind, value: Option<KeywordValue>) -> KeywordPlacement {
    use KeywordKind as K;
    match kind {
        // Nested keywords are placed, one by one, in the elements' schema.
        K::Description
        | K::Items
        | K::Values
        | K::Minimum
        | K::Maximum
        | K::ExclusiveMinimum
        | K::ExclusiveMaximum
        | K::MultipleOf
        | K::Pattern
        | K::Enum
        | K::MinItems
        | K::MaxItems => KeywordPlacement::Keep,
        K::Format if format_in(value, OPENAI_FORMATS) => KeywordPlacement::Keep,
        // Examples only illustrate; what constrains or fills a value, dispatch
        // enforces, so the model reads it in the description. A title is for people.
        K::Examples | K::Title => KeywordPlacement::Drop,
        K::Format
        | K::MinLength
        | K::MaxLength
        | K::UniqueItems
        | K::Default
        | K::Deprecated
        | K::MinProperties
        | K::MaxProperties => KeywordPlacement::Describe,
    }
}

/// Where Anthropic's strict tools take each keyword.
const fn anthropic_strict(kind: KeywordKind, value: Option<KeywordValue>, count: Option<i128>) -> KeywordPlacement {
    use KeywordKind as K;
    match kind {
        K::Description | K::Items | K::Values | K::Enum => KeywordPlacement::Keep,
        K::Format if format_in(value, ANTHROPIC_FORMATS) => KeywordPlacement::Keep,
        // A title is for people, not the model.
        K::Title => KeywordPlacement::Drop,
        // `minItems` of 0 or 1 only, per the SDK's transform.
        K::MinItems => match (value, count) {
            (Some(KeywordValue::Count(0 | 1)), _) | (None, Some(0 | 1)) => KeywordPlacement::Keep,
            _ => KeywordPlacement::Describe,
        },
        K::Format
        | K::Minimum
        | K::Maximum
        | K::ExclusiveMinimum
        | K::ExclusiveMaximum
        | K::MultipleOf
        | K::MinLength
        | K::MaxLength
        | K::Pattern
        | K::MaxItems
        | K::UniqueItems
        | K::Default
        | K::Examples
        | K::Deprecated
        | K::MinProperties
        | K::MaxProperties => KeywordPlacement::Describe,
    }
}

/// Where Gemini's `parameters` take each keyword.
const fn gemini_parameters(kind: KeywordKind, value: Option<KeywordValue>) -> KeywordPlacement {
    use KeywordKind as K;
    match kind {
        K::Description
        | K::Items
        | K::Values
        | K::Minimum
        | K::Maximum
        | K::MinLength
        | K::MaxLength
        | K::Pattern
        | K::Format
        | K::MinItems
        | K::MaxItems
        | K::MinProperties
        | K::MaxProperties
        | K::Default => KeywordPlacement::Keep,
        // The macro makes a list's values one type: the first says which.
        K::Enum => match value {
            Some(KeywordValue::List([Lit::Str(_), ..])) => KeywordPlacement::Keep,
            _ => KeywordPlacement::Describe,
        },
        K::Examples | K::Title => KeywordPlacement::Drop,
        K::ExclusiveMinimum | K::ExclusiveMaximum | K::MultipleOf | K::UniqueItems | K::Deprecated => {
            KeywordPlacement::Describe
        }
    }
}
