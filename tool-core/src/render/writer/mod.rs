//! The JSON writer that walks a [`Schema`] tree in one [`Dialect`]: its structure here, where
//! each keyword goes in [`keywords`].

mod keywords;

use crate::render::dialect::Dialect;
use crate::render::json_text::{push_escaped, push_int};
use crate::schema::{Keyword, KeywordKind, ObjectSchema, Property, Schema, has_keyword, nested_keywords};

/// A JSON writer into a growing buffer, in one pass: it runs once per text and process, so
/// a pass that sized the buffer first would cost more than the few reallocations it saves.
pub(crate) struct Writer<'a> {
    out: String,
    dialect: Dialect,
    /// State every integer type's full range, informative or not.
    full_ranges: bool,
    /// Close every object, `#[tool_args(open)]` ones too: an output's schema, which states
    /// what the server sends (a struct's own fields), whatever its input accepts.
    closed: bool,
    /// Descriptions set at run time for the root object's properties, by name.
    arguments: &'a [(String, String)],
    /// How many objects deep the writer is (the root's properties are at 1).
    depth: u32,
    /// The description the property being written gets instead of its own.
    pending: Option<&'a str>,
    /// The next schema's description was written already, outside its `anyOf` with `null`.
    described_outside: bool,
}

impl<'a> Writer<'a> {
    pub(crate) fn new(dialect: Dialect) -> Self {
        Writer {
            out: String::with_capacity(256),
            dialect,
            // Where the schema's readers enforce bounds (a validator reading an MCP
            // `inputSchema` or a run-time twin; OpenAI's strict decoding), every integer
            // type's range is stated, so none of them accepts a value the tool refuses.
            full_ranges: matches!(dialect, Dialect::JsonSchema | Dialect::OpenAiStrict),
            closed: false,
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

    /// A writer that appends to `out`.
    pub(crate) fn with_buffer(mut self, out: String) -> Self {
        self.out = out;
        self
    }

    /// A writer that closes open objects too ([`super::to_json_output`]).
    pub(crate) fn closing_every_object(mut self) -> Self {
        self.closed = true;
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
        push_int(&mut self.out, n);
    }

    /// Writes the separator and `"name":` of the next member of an object, `name` being
    /// one of JSON Schema's own words, which need no escape.
    fn key(&mut self, first: &mut bool, name: &'static str) {
        debug_assert!(name.bytes().all(|b| b.is_ascii_alphabetic()), "{name}");
        self.separator(first);
        self.byte(b'"');
        self.raw(name);
        self.raw("\":");
    }

    /// Writes the separator and `"name":` of a property, whose name is escaped.
    fn property_key(&mut self, first: &mut bool, name: &str) {
        self.separator(first);
        self.string(name);
        self.byte(b':');
    }

    fn separator(&mut self, first: &mut bool) {
        if !*first {
            self.byte(b',');
        }
        *first = false;
    }

    /// Writes one of JSON Schema's own words as a JSON string, which needs no escape.
    fn word(&mut self, word: &'static str) {
        self.byte(b'"');
        self.raw(word);
        self.byte(b'"');
    }

    fn type_name(&mut self, first: &mut bool, name: &'static str, nullable: bool) {
        self.key(first, "type");
        let name = self.dialect.type_name(name);
        if nullable && self.dialect == Dialect::GeminiParameters {
            self.word(name);
            self.key(first, "nullable");
            self.raw("true");
        } else if nullable {
            self.byte(b'[');
            self.word(name);
            self.raw(",\"null\"]");
        } else {
            self.word(name);
        }
    }

    /// Writes `schema` as a JSON object, with the field-level `keywords` applied to it.
    pub(crate) fn schema(&mut self, schema: &Schema, keywords: &[Keyword], nullable: bool) {
        if schema.wrapped().is_some() {
            // The field's keywords (its doc comment, say) win over the type's own.
            let (inner, inner_nullable, merged) = schema.peel_keywords(keywords);
            return self.schema(inner, &merged, nullable || inner_nullable);
        }
        if nullable && self.null_as_branch(schema) {
            self.null_branch(schema, keywords);
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
            Schema::StringEnum(set) => self.string_enum(first, set.values, keywords, nullable),
            Schema::AnyOf(any_of) => self.any_of(first, any_of.branches, nullable),
        }
        self.type_bounds_kept(first, schema, keywords);
        self.keywords(first, keywords, nullable);
        self.byte(b'}');
    }

    /// Whether a nullable `schema` is written as an `anyOf` with a `null` branch. Anthropic's
    /// strict transform refuses type unions, and clients that map plain JSON Schema onto a
    /// single-`type` dialect (Gemini's `OpenAPI` subset; the MCP Inspector's `--strict`
    /// portability report flags it) may drop them: `null` is an `anyOf` branch. Only
    /// OpenAI's strict mode asks for the union (`"type": ["string", "null"]`).
    fn null_as_branch(&self, schema: &Schema) -> bool {
        match self.dialect {
            Dialect::AnthropicStrict => !matches!(*schema, Schema::Any),
            Dialect::JsonSchema => !matches!(*schema, Schema::Any | Schema::AnyOf(_)),
            _ => false,
        }
    }

    /// `{"anyOf": [schema, {"type": "null"}]}`.
    fn null_branch(&mut self, schema: &Schema, keywords: &[Keyword]) {
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
    }

    /// A string enum's type and values (unless the field's own `enum` keyword replaces them).
    fn string_enum(&mut self, first: &mut bool, values: &[&str], keywords: &[Keyword], nullable: bool) {
        self.type_name(first, "string", nullable);
        if has_keyword(keywords, KeywordKind::Enum) {
            return;
        }
        self.key(first, "enum");
        self.byte(b'[');
        for (i, value) in values.iter().enumerate() {
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

    /// `anyOf` over `branches`, with a `null` branch when nullable.
    fn any_of(&mut self, first: &mut bool, branches: &[Schema], nullable: bool) {
        self.key(first, "anyOf");
        self.byte(b'[');
        self.schema_items(branches);
        if nullable {
            self.raw(",{\"type\":");
            self.word(self.dialect.type_name("null"));
            self.byte(b'}');
        }
        self.byte(b']');
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
        // JSON Schema (a strict dialect, and an output's schema, close every object).
        let open = object.open && !self.closed && self.dialect == Dialect::JsonSchema;
        if self.dialect != Dialect::GeminiParameters && !open {
            self.key(first, "additionalProperties");
            self.raw("false");
        }
    }

    /// Writes the members of `"properties"`, flattened structs included.
    fn properties(&mut self, first: &mut bool, object: &ObjectSchema) {
        for &Property { name, schema, keywords, .. } in object.properties {
            self.property_key(first, name);
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
