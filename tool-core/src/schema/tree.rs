//! The compile-time schema tree: [`Schema`] and its parts.

use std::borrow::Cow;

/// One node of a JSON Schema, as the types and attributes describe it.
///
/// Only the shapes this crate emits exist here: the output is always inline (no `$ref`,
/// `$defs`, `$schema` or `$id`), because several providers reject references.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Schema {
    /// Any JSON value (`serde_json::Value`): `{}`.
    Any,
    /// `{"type":"boolean"}`.
    Boolean,
    /// `{"type":"integer"}` with the Rust type's own range, which dispatch always enforces;
    /// the schema states a bound only when it informs the model (`0` of unsigned types, the
    /// bounds of 8- and 16-bit types), not `u64::MAX` or `i32::MIN`.
    Integer {
        /// The smallest value the Rust type holds.
        minimum: i128,
        /// The largest value the Rust type holds.
        maximum: i128,
    },
    /// `{"type":"number"}`.
    Number,
    /// `{"type":"string"}`.
    String,
    /// A string of exactly one code point (`char`).
    Char,
    /// A string in the form a Rust type parses (a UUID, a date, a URL, an IP address), checked
    /// at dispatch by that type's own parser.
    Parsed(&'static ParsedForm),
    /// `{"type":"array","items":…}`.
    Array {
        /// The schema of every element.
        items: &'static Schema,
        /// Whether the Rust type keeps only distinct elements (sets).
        unique_items: bool,
        /// A fixed length (`[T; N]`), stated as both `minItems` and `maxItems`.
        length: Option<usize>,
    },
    /// An object whose every value has one schema (`HashMap<String, T>`).
    Map {
        /// The schema of every value (`additionalProperties`).
        values: &'static Schema,
    },
    /// An object with named properties (a struct deriving `ToolArgs`).
    Object(&'static ObjectSchema),
    /// The inner schema or `null` (`Option<T>`).
    Nullable(&'static Schema),
    /// A type's schema with keywords of its own: a newtype deriving `ToolArgs` whose field
    /// carries `#[param(..)]` keywords (`struct UserId(#[param(min_length = 1)] String)`).
    Constrained(&'static Constrained),
    /// An array of a fixed length whose every position has its own schema (a tuple):
    /// `prefixItems`, where the dialect has it.
    Tuple(&'static [Schema]),
    /// A string from a closed set (a unit-only enum deriving `ToolArgs`).
    StringEnum(&'static StringEnum),
    /// A value matching at least one of the branches (an enum with data).
    AnyOf(&'static AnyOf),
}

/// The form of a [`Schema::Parsed`]: the JSON Schema `format` where one names it, else a
/// description of the form for the model.
#[derive(Debug, Clone, Copy)]
pub struct ParsedForm {
    /// The `format` (`uuid`, `date-time`, `uri`...), when JSON Schema defines one that says
    /// exactly what the type accepts.
    pub format: Option<&'static str>,
    /// What the text looks like, for a form without a `format` (`a semantic version such as
    /// 1.4.0`).
    pub description: Option<&'static str>,
}

/// A schema and keywords that apply to it, wherever it is used.
#[derive(Debug, Clone, Copy)]
pub struct Constrained {
    /// The schema constrained.
    pub schema: &'static Schema,
    /// Its keywords; a field's own keywords of the same kind win.
    pub keywords: &'static [Keyword],
}

/// A closed set of strings, from a unit-only enum.
#[derive(Debug, Clone, Copy)]
pub struct StringEnum {
    /// The enum's doc comment.
    pub description: Option<&'static str>,
    /// The accepted strings, in declaration order.
    pub values: &'static [&'static str],
    /// Each value's doc comment (its human-readable title), in the same order, `None` for
    /// a variant without one.
    pub titles: &'static [Option<&'static str>],
    /// `#[tool_args(enum_names)]`: titles go into MCP elicitation forms as the deprecated
    /// `enumNames` list rather than `oneOf` `const`/`title` pairs.
    pub enum_names: bool,
}

/// The branches of an enum with data, one per variant.
#[derive(Debug, Clone, Copy)]
pub struct AnyOf {
    /// The enum's doc comment.
    pub description: Option<&'static str>,
    /// One schema per variant, in declaration order.
    pub branches: &'static [Schema],
}

/// The properties of an object that comes from a struct (or a struct-like enum variant).
#[derive(Debug, Clone, Copy)]
pub struct ObjectSchema {
    /// The struct's doc comment.
    pub description: Option<&'static str>,
    /// The properties in declaration order.
    pub properties: &'static [Property],
    /// Structs whose properties are merged into this one (`#[serde(flatten)]`).
    pub flatten: &'static [&'static Schema],
    /// `#[tool_args(open)]`: keys it does not name are ignored rather than refused, and
    /// JSON Schema's form states no `additionalProperties` (strict dialects still close it).
    pub open: bool,
}

/// One property of an [`ObjectSchema`].
#[derive(Debug, Clone, Copy)]
pub struct Property {
    /// The name on the wire, after `rename`/`rename_all`.
    pub name: &'static str,
    /// The schema of the field's type.
    pub schema: &'static Schema,
    /// Keywords from `#[param(..)]` and the doc comment, applied to the field's type.
    pub keywords: &'static [Keyword],
    /// Whether the property appears in `required`.
    pub required: bool,
}

/// A JSON Schema keyword with its value, from a `#[param(..)]` attribute or a doc comment.
#[derive(Debug, Clone, Copy)]
pub struct Keyword {
    /// Which keyword.
    pub kind: KeywordKind,
    /// Its value.
    pub value: KeywordValue,
}

/// The value of a [`Keyword`], typed as the macro read it from the attribute, so neither
/// validation nor rendering parses it again.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum KeywordValue {
    /// An integer, exact: a bound (`minimum = 1`) or an integer `default`.
    Int(i128),
    /// A number with a fraction or an exponent: a bound (`maximum = 0.5`) or a `default`.
    Float(f64),
    /// A length or a count: `min_length = 1`, `max_items = 8`.
    Count(u64),
    /// A string value, its content unescaped: `pattern = "^[a-z]+$"`, `format = "email"`, a
    /// string `default`.
    Str(&'static str),
    /// A boolean: `unique_items`, `deprecated`, a boolean `default`.
    Bool(bool),
    /// A list of literals: `enum = ["a", "b"]`, `examples = [1, 2]`.
    List(&'static [Lit]),
    /// Prose, written as an escaped JSON string (doc comments, `concat!`, `include_str!`).
    Text(&'static str),
    /// Keywords for the elements ([`KeywordKind::Items`]) or values
    /// ([`KeywordKind::Values`]) of the schema: `#[param(items(max_length = 32))]`.
    Keywords(&'static [Keyword]),
}

impl KeywordValue {
    /// The value as a JSON literal; `None` for nested keywords, which are not a value.
    pub(crate) const fn as_lit(self) -> Option<Lit> {
        Some(match self {
            Self::Int(n) => Lit::Int(n),
            Self::Float(x) => Lit::Float(x),
            Self::Count(n) => Lit::Int(n as i128),
            Self::Str(text) | Self::Text(text) => Lit::Str(text),
            Self::Bool(flag) => Lit::Bool(flag),
            Self::List(items) => Lit::List(items),
            Self::Keywords(_) => return None,
        })
    }
}

/// A JSON literal written in a `#[param]` attribute: an element of a
/// [`KeywordValue::List`], or a list of them.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Lit {
    /// An integer, exact.
    Int(i128),
    /// A number with a fraction or an exponent.
    Float(f64),
    /// A string, its content unescaped.
    Str(&'static str),
    /// A boolean.
    Bool(bool),
    /// A list.
    List(&'static [Lit]),
}

/// The keywords `keywords` nest under `kind` ([`KeywordKind::Items`] or
/// [`KeywordKind::Values`]), or none.
pub(crate) fn nested_keywords(keywords: &[Keyword], kind: KeywordKind) -> &'static [Keyword] {
    keywords
        .iter()
        .find_map(|keyword| match keyword.value {
            KeywordValue::Keywords(nested) if keyword.kind == kind => Some(nested),
            _ => None,
        })
        .unwrap_or(&[])
}

/// The keywords `#[param(..)]` can state. Each is the `snake_case` of the JSON Schema keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[expect(missing_docs, reason = "each variant is the keyword its name spells")]
#[non_exhaustive]
pub enum KeywordKind {
    /// `title`: the field's name for people (an MCP elicitation form's label).
    Title,
    Description,
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
    MultipleOf,
    MinLength,
    MaxLength,
    Pattern,
    Enum,
    MinItems,
    MaxItems,
    UniqueItems,
    Default,
    Format,
    Examples,
    /// `deprecated`: the field is kept for old callers and should not be used.
    Deprecated,
    MinProperties,
    MaxProperties,
    /// Keywords on every element of an array ([`KeywordValue::Keywords`]).
    Items,
    /// Keywords on every value of a map ([`KeywordValue::Keywords`]).
    Values,
}

impl KeywordKind {
    /// The keyword as JSON Schema spells it.
    #[must_use]
    pub const fn json_name(self) -> &'static str {
        match self {
            Self::Title => "title",
            Self::Description => "description",
            Self::Minimum => "minimum",
            Self::Maximum => "maximum",
            Self::ExclusiveMinimum => "exclusiveMinimum",
            Self::ExclusiveMaximum => "exclusiveMaximum",
            Self::MultipleOf => "multipleOf",
            Self::MinLength => "minLength",
            Self::MaxLength => "maxLength",
            Self::Pattern => "pattern",
            Self::Enum => "enum",
            Self::MinItems => "minItems",
            Self::MaxItems => "maxItems",
            Self::UniqueItems => "uniqueItems",
            Self::Default => "default",
            Self::Format => "format",
            Self::Examples => "examples",
            Self::Deprecated => "deprecated",
            Self::MinProperties => "minProperties",
            Self::MaxProperties => "maxProperties",
            Self::Items => "items",
            Self::Values => "additionalProperties",
        }
    }

    /// Whether the keyword applies to the elements or values of its schema rather than to
    /// the schema itself.
    #[must_use]
    pub const fn is_nested(self) -> bool {
        matches!(self, Self::Items | Self::Values)
    }

    pub(crate) const fn eq(self, other: Self) -> bool {
        self as u8 == other as u8
    }
}

/// Whether `keywords` states `kind`.
pub(crate) const fn has_keyword(keywords: &[Keyword], kind: KeywordKind) -> bool {
    let mut i = 0;
    while i < keywords.len() {
        if keywords[i].kind.eq(kind) {
            return true;
        }
        i += 1;
    }
    false
}

impl Schema {
    /// The empty argument list: an object with no properties.
    pub const EMPTY_OBJECT: Schema =
        Schema::Object(&ObjectSchema { description: None, properties: &[], flatten: &[], open: false });

    /// An argument list whose keys are all ignored: an open object with no properties.
    pub const OPEN_EMPTY_OBJECT: Schema =
        Schema::Object(&ObjectSchema { description: None, properties: &[], flatten: &[], open: true });

    /// The schema under every `Option` ([`Schema::Nullable`]) and newtype with keywords
    /// ([`Schema::Constrained`]), and whether any of them admits `null`: what a walk that
    /// does not read a newtype's own keywords looks at.
    ///
    /// ```
    /// use tool_core::ToolParam;
    /// use tool_core::schema::Schema;
    ///
    /// let (inner, nullable) = <Option<u8> as ToolParam>::SCHEMA.peel();
    /// assert!(nullable && matches!(inner, Schema::Integer { minimum: 0, maximum: 255 }));
    /// ```
    #[must_use]
    pub const fn peel(&self) -> (&Schema, bool) {
        let (mut schema, mut nullable) = (self, false);
        while let Some((inner, _)) = schema.wrapped() {
            nullable |= matches!(schema, Schema::Nullable(_));
            schema = inner;
        }
        (schema, nullable)
    }

    /// The schema this one wraps and the keywords the wrapper adds (none for an `Option`),
    /// or `None` when it is no wrapper: one layer of [`Schema::peel`], for the walks that
    /// read a newtype's keywords.
    pub(crate) const fn wrapped(&self) -> Option<(&'static Schema, &'static [Keyword])> {
        match *self {
            Schema::Nullable(inner) => Some((inner, &[])),
            Schema::Constrained(constrained) => Some((constrained.schema, constrained.keywords)),
            _ => None,
        }
    }

    /// [`Schema::peel`] with the keywords that apply to the schema under the wrappers: a
    /// field's `keywords`, then each newtype's own of a kind not stated already (a field's
    /// doc comment, say, wins over its type's).
    pub(crate) fn peel_keywords<'k>(&self, keywords: &'k [Keyword]) -> (&Schema, bool, Cow<'k, [Keyword]>) {
        let (mut schema, mut nullable, mut merged) = (self, false, Cow::Borrowed(keywords));
        while let Some((inner, own)) = schema.wrapped() {
            nullable |= matches!(schema, Schema::Nullable(_));
            for keyword in own {
                if !has_keyword(&merged, keyword.kind) {
                    merged.to_mut().push(*keyword);
                }
            }
            schema = inner;
        }
        (schema, nullable, merged)
    }
}
