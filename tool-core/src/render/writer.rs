//! The JSON writer that walks a [`Schema`] tree in one [`Dialect`], and the one JSON string
//! escaper of the crate ([`push_string`]).

use core::fmt::Write as _;

use crate::render::dialect::{Dialect, Placement};
use crate::schema::{Keyword, KeywordKind, KeywordValue, ObjectSchema, Property, Schema, has_keyword, nested_keywords};

/// A JSON writer into a growing buffer, in one pass: it runs once per text and process, so
/// a pass that sized the buffer first would cost more than the few reallocations it saves.
pub(crate) struct Writer<'a> {
    out: String,
    dialect: Dialect,
    /// State every integer type's full range, informative or not.
    full_ranges: bool,
    /// Descriptions set at run time for the root object's properties, by name.
    arguments: &'a [(String, String)],
    /// How many objects deep the writer is (the root's properties are at 1).
    depth: u32,
    /// The description the property being written gets instead of its own.
    pending: Option<&'a str>,
    /// The next schema's description was written already, outside its `anyOf` with `null`.
    described_outside: bool,
}

/// A bound that comes from the Rust type (`u8` → `maximum: 255`), not from `#[param]`.
#[derive(Clone, Copy)]
struct TypeBound {
    kind: KeywordKind,
    value: TypeValue,
}

/// Whether an integer type's own bound tells the model something: `0` for unsigned types
/// and the bounds of 8- and 16-bit types do; `u64::MAX` (which a double cannot even hold),
/// `i32::MIN` and the like only cost tokens. Dispatch enforces the full range either way.
fn informs(bound: i128) -> bool {
    bound.unsigned_abs() <= u128::from(u16::MAX)
}

#[derive(Clone, Copy)]
enum TypeValue {
    Int(i128),
    True,
    /// A string (a [`ParsedForm`](crate::schema::ParsedForm)'s `format`).
    Str(&'static str),
}

impl<'a> Writer<'a> {
    pub(crate) fn new(dialect: Dialect) -> Self {
        Writer {
            out: String::with_capacity(256),
            dialect,
            full_ranges: false,
            arguments: &[],
            depth: 0,
            pending: None,
            described_outside: false,
        }
    }

    /// A writer that describes the root object's properties named in `arguments` with
    /// their text there rather than their own (descriptions set at run time).
    pub(crate) fn with_arguments(mut self, arguments: &'a [(String, String)]) -> Self {
        self.arguments = arguments;
        self
    }

    /// A writer that states every integer type's full range ([`super::to_json_exact`]).
    pub(crate) fn with_full_ranges(mut self) -> Self {
        self.full_ranges = true;
        self
    }

    /// The text written.
    pub(crate) fn finish(self) -> String {
        self.out
    }

    fn byte(&mut self, b: u8) {
        self.out.push(char::from(b));
    }

    pub(crate) fn raw(&mut self, s: &str) {
        self.out.push_str(s);
    }

    /// Writes the inside of a JSON string: `s` escaped per RFC 8259, without quotes.
    fn escaped(&mut self, s: &str) {
        push_escaped(&mut self.out, s);
    }

    /// Writes `s` as a quoted JSON string.
    pub(crate) fn string(&mut self, s: &str) {
        self.byte(b'"');
        self.escaped(s);
        self.byte(b'"');
    }

    fn int(&mut self, n: i128) {
        // Writing to a `String` cannot fail.
        let _ = write!(self.out, "{n}");
    }

    /// Writes the separator and `"name":` of the next member of an object.
    fn key(&mut self, first: &mut bool, name: &str) {
        if !*first {
            self.byte(b',');
        }
        *first = false;
        self.string(name);
        self.byte(b':');
    }

    fn type_name(&mut self, first: &mut bool, name: &'static str, nullable: bool) {
        self.key(first, "type");
        let name = self.dialect.type_name(name);
        if nullable && self.dialect == Dialect::GeminiParameters {
            self.string(name);
            self.key(first, "nullable");
            self.raw("true");
        } else if nullable {
            self.byte(b'[');
            self.string(name);
            self.raw(",\"null\"]");
        } else {
            self.string(name);
        }
    }

    /// The type's own bounds, those a `#[param]` keyword does not already state.
    fn type_bounds(&self, schema: &Schema, keywords: &[Keyword]) -> [Option<TypeBound>; 3] {
        fn own(keywords: &[Keyword], kind: KeywordKind, value: TypeValue) -> Option<TypeBound> {
            if has_keyword(keywords, kind) { None } else { Some(TypeBound { kind, value }) }
        }
        let full_ranges = self.full_ranges;
        match *schema {
            Schema::Integer { minimum, maximum } => [
                if full_ranges || informs(minimum) {
                    own(keywords, KeywordKind::Minimum, TypeValue::Int(minimum))
                } else {
                    None
                },
                if full_ranges || informs(maximum) {
                    own(keywords, KeywordKind::Maximum, TypeValue::Int(maximum))
                } else {
                    None
                },
                None,
            ],
            Schema::Char => [
                own(keywords, KeywordKind::MinLength, TypeValue::Int(1)),
                own(keywords, KeywordKind::MaxLength, TypeValue::Int(1)),
                None,
            ],
            Schema::Parsed(form) => match form.format {
                Some(format) => [own(keywords, KeywordKind::Format, TypeValue::Str(format)), None, None],
                None => [None, None, None],
            },
            Schema::Tuple(items) => [
                own(keywords, KeywordKind::MinItems, TypeValue::Int(items.len() as i128)),
                own(keywords, KeywordKind::MaxItems, TypeValue::Int(items.len() as i128)),
                None,
            ],
            Schema::Array { unique_items, length, .. } => {
                let unique = if unique_items { own(keywords, KeywordKind::UniqueItems, TypeValue::True) } else { None };
                match length {
                    Some(n) => [
                        unique,
                        own(keywords, KeywordKind::MinItems, TypeValue::Int(n as i128)),
                        own(keywords, KeywordKind::MaxItems, TypeValue::Int(n as i128)),
                    ],
                    None => [unique, None, None],
                }
            }
            _ => [None, None, None],
        }
    }

    fn bound_placement(&self, bound: TypeBound) -> Placement {
        match bound.value {
            TypeValue::Int(n) => self.dialect.place(bound.kind, None, Some(n)),
            TypeValue::True => self.dialect.place(bound.kind, None, None),
            TypeValue::Str(text) => self.dialect.place(bound.kind, Some(KeywordValue::Text(text)), None),
        }
    }

    /// Writes a bound's value as JSON, or (`inside_string`) as it reads inside the
    /// description string.
    fn bound_value(&mut self, value: TypeValue, inside_string: bool) {
        match value {
            TypeValue::Int(n) => self.int(n),
            TypeValue::True => self.raw("true"),
            TypeValue::Str(text) if inside_string => {
                self.raw("\\\"");
                self.escaped(text);
                self.raw("\\\"");
            }
            TypeValue::Str(text) => self.string(text),
        }
    }

    /// Writes the type's own bounds that the dialect keeps.
    fn type_bounds_kept(&mut self, first: &mut bool, schema: &Schema, keywords: &[Keyword]) {
        for bound in self.type_bounds(schema, keywords).into_iter().flatten() {
            if matches!(self.bound_placement(bound), Placement::Keep) {
                self.key(first, bound.kind.json_name());
                self.bound_value(bound.value, false);
            }
        }
    }

    /// Writes, inside the description string, the constraints the dialect moves there:
    /// `minimum: 1, maximum: 10`.
    fn described(&mut self, schema: &Schema, keywords: &[Keyword]) {
        let mut first = true;
        for bound in self.type_bounds(schema, keywords).into_iter().flatten() {
            if matches!(self.bound_placement(bound), Placement::Describe) {
                if !first {
                    self.raw(", ");
                }
                first = false;
                self.raw(bound.kind.json_name());
                self.raw(": ");
                self.bound_value(bound.value, true);
            }
        }
        for &keyword in keywords {
            if matches!(self.dialect.place(keyword.kind, Some(keyword.value), None), Placement::Describe) {
                if !first {
                    self.raw(", ");
                }
                first = false;
                self.raw(keyword.kind.json_name());
                self.raw(": ");
                match keyword.value {
                    KeywordValue::Json(json) | KeywordValue::Text(json) => self.escaped(json),
                    // Nested keywords are written inside the elements' schema.
                    KeywordValue::Keywords(_) => {}
                }
            }
        }
    }

    /// Writes `"description"`: the field's own if it has one, else the type's, followed by
    /// what the dialect moved into it.
    fn description(&mut self, first: &mut bool, schema: &Schema, keywords: &[Keyword], own: Option<&'static str>) {
        if core::mem::take(&mut self.described_outside) {
            return;
        }
        let mut text: Option<&str> = own;
        for keyword in keywords {
            if let (KeywordKind::Description, KeywordValue::Text(found) | KeywordValue::Json(found)) =
                (keyword.kind, keyword.value)
            {
                text = Some(found);
            }
        }
        if let Some(set) = self.pending.take() {
            text = Some(set);
        }
        // JSON Schema keeps every keyword; the others skip the probe.
        let moved = self.dialect != Dialect::JsonSchema && {
            // Written and taken back: whether anything is moved is whether it writes.
            let mark = self.out.len();
            self.described(schema, keywords);
            let wrote = self.out.len() > mark;
            self.out.truncate(mark);
            wrote
        };
        // A unit enum's variant doc comments: listed in the description, which every
        // dialect accepts (Gemini and the strict modes have no `oneOf` of `const`s).
        let variants = match *schema {
            Schema::StringEnum(set) if set.titles.iter().any(Option::is_some) => Some(set),
            _ => None,
        };
        if text.is_none() && !moved && variants.is_none() {
            return;
        }
        self.key(first, "description");
        self.byte(b'"');
        let mut paragraph = false;
        if let Some(text) = text {
            self.escaped(text);
            paragraph = true;
        }
        if let Some(set) = variants {
            let mut lines = 0;
            for (value, title) in set.values.iter().zip(set.titles) {
                if let Some(title) = title {
                    self.raw(match (lines, paragraph) {
                        (0, false) => "",
                        (0, true) => "\\n\\n",
                        _ => "\\n",
                    });
                    lines += 1;
                    self.raw("- ");
                    self.escaped(value);
                    self.raw(": ");
                    self.escaped(title);
                }
            }
            paragraph = true;
        }
        if moved {
            if paragraph {
                self.raw("\\n\\n");
            }
            self.byte(b'{');
            self.described(schema, keywords);
            self.byte(b'}');
        }
        self.byte(b'"');
    }

    fn keyword_value(&mut self, value: KeywordValue, add_null: bool) {
        match value {
            KeywordValue::Text(text) => self.string(text),
            KeywordValue::Json(json) if add_null => {
                // An `enum` list of a nullable field must admit `null` too, or the schema
                // would reject the `None` it advertises.
                self.raw(json.strip_suffix(']').unwrap_or(json));
                self.raw(",null]");
            }
            KeywordValue::Json(json) => self.raw(json),
            KeywordValue::Keywords(_) => self.raw("{}"),
        }
    }

    /// Whether a nullable value is written as a type union (`["string","null"]`), whose
    /// `enum` must then list `null` too.
    fn unions_null(&self) -> bool {
        self.dialect == Dialect::OpenAiStrict
    }

    /// Writes every keyword the dialect keeps but `description`, which comes first.
    fn keywords(&mut self, first: &mut bool, keywords: &[Keyword], nullable: bool) {
        for &keyword in keywords {
            let kept = matches!(self.dialect.place(keyword.kind, Some(keyword.value), None), Placement::Keep);
            if kept && !keyword.kind.eq(KeywordKind::Description) && !keyword.kind.is_nested() {
                self.key(first, keyword.kind.json_name());
                let add_null = nullable && self.unions_null() && keyword.kind.eq(KeywordKind::Enum);
                self.keyword_value(keyword.value, add_null);
            }
        }
    }

    /// Writes `schema` as a JSON object, with the field-level `keywords` applied to it.
    pub(crate) fn schema(&mut self, schema: &Schema, keywords: &[Keyword], nullable: bool) {
        if let Schema::Nullable(inner) = *schema {
            return self.schema(inner, keywords, true);
        }
        if let Schema::Constrained(constrained) = *schema {
            // The field's keywords (its doc comment, say) win over the type's own.
            let merged: Vec<Keyword> = keywords
                .iter()
                .chain(constrained.keywords.iter().filter(|own| !has_keyword(keywords, own.kind)))
                .copied()
                .collect();
            return self.schema(constrained.schema, &merged, nullable);
        }
        // Anthropic's strict transform refuses type unions, and clients that map plain JSON
        // Schema onto a single-`type` dialect (Gemini's OpenAPI subset; the MCP Inspector's
        // `--strict` portability report flags it) may drop them: `null` is an `anyOf` branch.
        // Only OpenAI's strict mode asks for the union (`"type": ["string", "null"]`).
        let branch = match self.dialect {
            Dialect::AnthropicStrict => !matches!(*schema, Schema::Any),
            Dialect::JsonSchema => !matches!(*schema, Schema::Any | Schema::AnyOf(_)),
            _ => false,
        };
        if nullable && branch {
            self.byte(b'{');
            let mut first = true;
            if self.dialect == Dialect::JsonSchema {
                // The description stays where readers look for it, beside `anyOf`.
                let mark = self.out.len();
                self.description(&mut first, schema, keywords, own_description(schema));
                self.described_outside = self.out.len() > mark;
            }
            self.key(&mut first, "anyOf");
            self.byte(b'[');
            self.schema(schema, keywords, false);
            self.described_outside = false;
            self.raw(",{\"type\":\"null\"}]}");
            return;
        }
        let mut first = true;
        let first = &mut first;
        self.byte(b'{');
        self.description(first, schema, keywords, own_description(schema));
        match *schema {
            Schema::Nullable(_) | Schema::Constrained(_) | Schema::Any => {}
            Schema::Boolean => self.type_name(first, "boolean", nullable),
            Schema::Integer { .. } => self.type_name(first, "integer", nullable),
            Schema::Number => self.type_name(first, "number", nullable),
            Schema::String | Schema::Char | Schema::Parsed(_) => self.type_name(first, "string", nullable),
            Schema::Tuple(items) => self.tuple(first, items, nullable),
            Schema::Array { items, .. } => {
                self.type_name(first, "array", nullable);
                self.key(first, "items");
                self.schema(items, nested_keywords(keywords, KeywordKind::Items), false);
            }
            Schema::Map { values } => {
                self.type_name(first, "object", nullable);
                // Gemini's `parameters` refuse `additionalProperties`; dispatch still checks.
                if self.dialect != Dialect::GeminiParameters {
                    self.key(first, "additionalProperties");
                    self.schema(values, nested_keywords(keywords, KeywordKind::Values), false);
                }
            }
            Schema::Object(object) => self.object(first, object, nullable),
            Schema::StringEnum(set) => {
                self.type_name(first, "string", nullable);
                if !has_keyword(keywords, KeywordKind::Enum) {
                    self.key(first, "enum");
                    self.byte(b'[');
                    for (i, value) in set.values.iter().enumerate() {
                        if i > 0 {
                            self.byte(b',');
                        }
                        self.string(value);
                    }
                    if nullable && self.unions_null() {
                        self.raw(",null");
                    }
                    self.byte(b']');
                }
            }
            Schema::AnyOf(any_of) => {
                self.key(first, "anyOf");
                self.byte(b'[');
                self.schema_items(any_of.branches);
                if nullable {
                    self.raw(",{\"type\":");
                    self.string(self.dialect.type_name("null"));
                    self.byte(b'}');
                }
                self.byte(b']');
            }
        }
        self.type_bounds_kept(first, schema, keywords);
        self.keywords(first, keywords, nullable);
        self.byte(b'}');
    }

    /// `prefixItems` (closed by `"items":false`) in JSON Schema; the dialects without it get
    /// `items` as an `anyOf` of the positions' schemas, and `minItems`/`maxItems` in both.
    fn tuple(&mut self, first: &mut bool, items: &[Schema], nullable: bool) {
        self.type_name(first, "array", nullable);
        if self.dialect == Dialect::JsonSchema {
            self.key(first, "prefixItems");
            self.schema_list(items);
            self.key(first, "items");
            self.raw("false");
        } else {
            self.key(first, "items");
            self.raw("{\"anyOf\":");
            self.schema_list(items);
            self.byte(b'}');
        }
    }

    fn schema_list(&mut self, items: &[Schema]) {
        self.byte(b'[');
        self.schema_items(items);
        self.byte(b']');
    }

    /// Writes `items` as the elements of a JSON array, without its brackets.
    fn schema_items(&mut self, items: &[Schema]) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.byte(b',');
            }
            self.schema(item, &[], false);
        }
    }

    fn object(&mut self, first: &mut bool, object: &ObjectSchema, nullable: bool) {
        self.type_name(first, "object", nullable);
        // Gemini refuses an `OBJECT` whose `properties` is empty.
        if self.dialect != Dialect::GeminiParameters || has_properties(object) {
            self.key(first, "properties");
            self.byte(b'{');
            let mut first_property = true;
            self.depth += 1;
            self.properties(&mut first_property, object);
            self.depth -= 1;
            self.byte(b'}');
        }
        // OpenAI strict: every property is required; optional ones are nullable instead.
        let all = self.dialect == Dialect::OpenAiStrict;
        if has_required(object, all) {
            self.key(first, "required");
            self.byte(b'[');
            let mut first_required = true;
            self.required(&mut first_required, object, all);
            self.byte(b']');
        }
        // Gemini's `parameters` refuse `additionalProperties`; an open object states none in
        // JSON Schema (a strict dialect closes every object).
        if self.dialect != Dialect::GeminiParameters && !(object.open && self.dialect == Dialect::JsonSchema) {
            self.key(first, "additionalProperties");
            self.raw("false");
        }
    }

    /// Writes the members of `"properties"`, flattened structs included.
    fn properties(&mut self, first: &mut bool, object: &ObjectSchema) {
        for &Property { name, schema, keywords, .. } in object.properties {
            self.key(first, name);
            let arguments = self.arguments;
            if self.depth == 1 {
                self.pending = arguments.iter().find(|(argument, _)| argument == name).map(|(_, text)| text.as_str());
            }
            self.schema(schema, keywords, false);
            self.pending = None;
        }
        for inner in flattened(object) {
            self.properties(first, inner);
        }
    }

    fn required(&mut self, first: &mut bool, object: &ObjectSchema, all: bool) {
        for property in object.properties.iter().filter(|property| property.required || all) {
            if !*first {
                self.byte(b',');
            }
            *first = false;
            self.string(property.name);
        }
        for inner in flattened(object) {
            self.required(first, inner, all);
        }
    }
}

/// The object schemas flattened into `object` (`#[serde(flatten)]`).
fn flattened(object: &ObjectSchema) -> impl Iterator<Item = &'static ObjectSchema> {
    object.flatten.iter().filter_map(|inner| match inner {
        Schema::Object(inner) => Some(*inner),
        _ => None,
    })
}

fn has_required(object: &ObjectSchema, all: bool) -> bool {
    object.properties.iter().any(|property| property.required || all)
        || flattened(object).any(|inner| has_required(inner, all))
}

/// Whether an object schema has any property, its flattened structs' included.
pub(crate) fn has_properties(object: &ObjectSchema) -> bool {
    !object.properties.is_empty() || flattened(object).any(has_properties)
}

/// Appends `s` escaped per RFC 8259, without quotes. Runs that need no escape are copied
/// whole (slicing at an ASCII byte is always on a character boundary).
fn push_escaped(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..0x20 => {
                out.push_str(&s[start..i]);
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xf)]));
                start = i + 1;
                continue;
            }
            _ => continue,
        };
        out.push_str(&s[start..i]);
        out.push_str(escape);
        start = i + 1;
    }
    out.push_str(&s[start..]);
}

/// Appends `s` as a quoted JSON string.
pub(crate) fn push_string(out: &mut String, s: &str) {
    out.push('"');
    push_escaped(out, s);
    out.push('"');
}

/// The description a schema carries itself (a type's doc comment).
fn own_description(schema: &Schema) -> Option<&'static str> {
    match *schema {
        Schema::Object(object) => object.description,
        Schema::StringEnum(set) => set.description,
        Schema::AnyOf(any_of) => any_of.description,
        Schema::Parsed(form) => form.description,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{Dialect, Writer};

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let every_ascii: String = (0u8..0x80).map(char::from).collect();
        for text in [every_ascii.as_str(), "", "plain", "\"", "ends with \\", "ünïcödé 🎉\u{7f}\u{1f}x"] {
            let mut writer = Writer::new(Dialect::JsonSchema);
            writer.string(text);
            assert_eq!(writer.finish(), serde_json::to_string(text).expect("a str serializes"), "{text:?}");
        }
    }
}
