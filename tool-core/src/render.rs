//! Rendering a [`Schema`] tree to JSON text during const evaluation.
//!
//! Every function here is a `const fn`, so `#[tool]` turns its arguments' schema into a
//! `&'static str` at compile time: a length pass sizes a byte array, a second pass fills it.
//! The two passes share one code path (the writer counts when it has no buffer), so the
//! length can never disagree with what is written.

use crate::schema::{Keyword, KeywordKind, KeywordValue, ObjectSchema, Property, Schema, has_keyword};

/// A JSON writer over a fixed buffer; with an empty buffer it only counts bytes.
pub(crate) struct Writer<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> Writer<'a> {
    pub(crate) const fn new(buf: &'a mut [u8]) -> Self {
        Writer { buf, len: 0 }
    }

    pub(crate) const fn len(&self) -> usize {
        self.len
    }

    const fn byte(&mut self, b: u8) {
        if self.len < self.buf.len() {
            self.buf[self.len] = b;
        }
        self.len += 1;
    }

    pub(crate) const fn raw(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            self.byte(bytes[i]);
            i += 1;
        }
    }

    /// Writes `s` as a quoted JSON string, escaped per RFC 8259.
    pub(crate) const fn string(&mut self, s: &str) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let bytes = s.as_bytes();
        self.byte(b'"');
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            match b {
                b'"' => self.raw("\\\""),
                b'\\' => self.raw("\\\\"),
                b'\n' => self.raw("\\n"),
                b'\r' => self.raw("\\r"),
                b'\t' => self.raw("\\t"),
                0x08 => self.raw("\\b"),
                0x0c => self.raw("\\f"),
                0..0x20 => {
                    self.raw("\\u00");
                    self.byte(HEX[(b >> 4) as usize]);
                    self.byte(HEX[(b & 0xf) as usize]);
                }
                _ => self.byte(b),
            }
            i += 1;
        }
        self.byte(b'"');
    }

    const fn int(&mut self, n: i128) {
        if n < 0 {
            self.byte(b'-');
        }
        let mut rest = n.unsigned_abs();
        let mut digits = [0u8; 40];
        let mut count = 0;
        loop {
            digits[count] = b'0' + (rest % 10) as u8;
            count += 1;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        while count > 0 {
            count -= 1;
            self.byte(digits[count]);
        }
    }

    /// Writes the separator and `"name":` of the next member of an object.
    const fn key(&mut self, first: &mut bool, name: &str) {
        if !*first {
            self.byte(b',');
        }
        *first = false;
        self.string(name);
        self.byte(b':');
    }

    const fn type_name(&mut self, first: &mut bool, name: &str, nullable: bool) {
        self.key(first, "type");
        if nullable {
            self.byte(b'[');
            self.string(name);
            self.raw(",\"null\"]");
        } else {
            self.string(name);
        }
    }

    /// Writes `"description"`: the field's own if it has one, else the type's.
    const fn description(&mut self, first: &mut bool, keywords: &[Keyword], own: Option<&'static str>) {
        let mut i = 0;
        while i < keywords.len() {
            if keywords[i].kind.eq(KeywordKind::Description) {
                self.key(first, "description");
                self.keyword_value(keywords[i].value, false);
                return;
            }
            i += 1;
        }
        if let Some(text) = own {
            self.key(first, "description");
            self.string(text);
        }
    }

    const fn keyword_value(&mut self, value: KeywordValue, add_null: bool) {
        match value {
            KeywordValue::Text(text) => self.string(text),
            KeywordValue::Json(json) if add_null => {
                // An `enum` list of a nullable field must admit `null` too, or the schema
                // would reject the `None` it advertises.
                let bytes = json.as_bytes();
                let mut i = 0;
                while i + 1 < bytes.len() {
                    self.byte(bytes[i]);
                    i += 1;
                }
                self.raw(",null]");
            }
            KeywordValue::Json(json) => self.raw(json),
        }
    }

    /// Writes every keyword but `description`, which [`Self::description`] places first.
    const fn keywords(&mut self, first: &mut bool, keywords: &[Keyword], nullable: bool) {
        let mut i = 0;
        while i < keywords.len() {
            let keyword = keywords[i];
            if !keyword.kind.eq(KeywordKind::Description) {
                self.key(first, keyword.kind.json_name());
                let add_null = nullable && keyword.kind.eq(KeywordKind::Enum);
                self.keyword_value(keyword.value, add_null);
            }
            i += 1;
        }
    }

    /// Writes `schema` as a JSON object, with the field-level `keywords` applied to it.
    pub(crate) const fn schema(&mut self, schema: &Schema, keywords: &[Keyword], nullable: bool) {
        let mut first = true;
        let first = &mut first;
        match *schema {
            Schema::Nullable(inner) => return self.schema(inner, keywords, true),
            Schema::Any => {
                self.byte(b'{');
                self.description(first, keywords, None);
            }
            Schema::Boolean => {
                self.byte(b'{');
                self.description(first, keywords, None);
                self.type_name(first, "boolean", nullable);
            }
            Schema::Integer { minimum, maximum } => {
                self.byte(b'{');
                self.description(first, keywords, None);
                self.type_name(first, "integer", nullable);
                if !has_keyword(keywords, KeywordKind::Minimum) {
                    self.key(first, "minimum");
                    self.int(minimum);
                }
                if !has_keyword(keywords, KeywordKind::Maximum) {
                    self.key(first, "maximum");
                    self.int(maximum);
                }
            }
            Schema::Number => {
                self.byte(b'{');
                self.description(first, keywords, None);
                self.type_name(first, "number", nullable);
            }
            Schema::String => {
                self.byte(b'{');
                self.description(first, keywords, None);
                self.type_name(first, "string", nullable);
            }
            Schema::Char => {
                self.byte(b'{');
                self.description(first, keywords, None);
                self.type_name(first, "string", nullable);
                if !has_keyword(keywords, KeywordKind::MinLength) {
                    self.key(first, "minLength");
                    self.int(1);
                }
                if !has_keyword(keywords, KeywordKind::MaxLength) {
                    self.key(first, "maxLength");
                    self.int(1);
                }
            }
            Schema::Array { items, unique_items, length } => {
                self.byte(b'{');
                self.description(first, keywords, None);
                self.type_name(first, "array", nullable);
                self.key(first, "items");
                self.schema(items, &[], false);
                if unique_items && !has_keyword(keywords, KeywordKind::UniqueItems) {
                    self.key(first, "uniqueItems");
                    self.raw("true");
                }
                if let Some(length) = length {
                    if !has_keyword(keywords, KeywordKind::MinItems) {
                        self.key(first, "minItems");
                        self.int(length as i128);
                    }
                    if !has_keyword(keywords, KeywordKind::MaxItems) {
                        self.key(first, "maxItems");
                        self.int(length as i128);
                    }
                }
            }
            Schema::Map { values } => {
                self.byte(b'{');
                self.description(first, keywords, None);
                self.type_name(first, "object", nullable);
                self.key(first, "additionalProperties");
                self.schema(values, &[], false);
            }
            Schema::Object(object) => {
                self.byte(b'{');
                self.description(first, keywords, object.description);
                self.type_name(first, "object", nullable);
                self.key(first, "properties");
                self.byte(b'{');
                let mut first_property = true;
                self.properties(&mut first_property, object);
                self.byte(b'}');
                if has_required(object) {
                    self.key(first, "required");
                    self.byte(b'[');
                    let mut first_required = true;
                    self.required(&mut first_required, object);
                    self.byte(b']');
                }
                self.key(first, "additionalProperties");
                self.raw("false");
            }
            Schema::StringEnum(set) => {
                self.byte(b'{');
                self.description(first, keywords, set.description);
                self.type_name(first, "string", nullable);
                if !has_keyword(keywords, KeywordKind::Enum) {
                    self.key(first, "enum");
                    self.byte(b'[');
                    let mut i = 0;
                    while i < set.values.len() {
                        if i > 0 {
                            self.byte(b',');
                        }
                        self.string(set.values[i]);
                        i += 1;
                    }
                    if nullable {
                        self.raw(",null");
                    }
                    self.byte(b']');
                }
            }
            Schema::AnyOf(any_of) => {
                self.byte(b'{');
                self.description(first, keywords, any_of.description);
                self.key(first, "anyOf");
                self.byte(b'[');
                let mut i = 0;
                while i < any_of.branches.len() {
                    if i > 0 {
                        self.byte(b',');
                    }
                    self.schema(&any_of.branches[i], &[], false);
                    i += 1;
                }
                if nullable {
                    self.raw(",{\"type\":\"null\"}");
                }
                self.byte(b']');
            }
        }
        self.keywords(first, keywords, nullable);
        self.byte(b'}');
    }

    /// Writes the members of `"properties"`, flattened structs included.
    const fn properties(&mut self, first: &mut bool, object: &ObjectSchema) {
        let mut i = 0;
        while i < object.properties.len() {
            let Property { name, schema, keywords, .. } = object.properties[i];
            self.key(first, name);
            self.schema(schema, keywords, false);
            i += 1;
        }
        let mut i = 0;
        while i < object.flatten.len() {
            if let Schema::Object(inner) = object.flatten[i] {
                self.properties(first, inner);
            }
            i += 1;
        }
    }

    const fn required(&mut self, first: &mut bool, object: &ObjectSchema) {
        let mut i = 0;
        while i < object.properties.len() {
            let property = object.properties[i];
            if property.required {
                if !*first {
                    self.byte(b',');
                }
                *first = false;
                self.string(property.name);
            }
            i += 1;
        }
        let mut i = 0;
        while i < object.flatten.len() {
            if let Schema::Object(inner) = object.flatten[i] {
                self.required(first, inner);
            }
            i += 1;
        }
    }

    /// Writes a tool definition: `{"name":…,"description":…,"parameters":…}`.
    pub(crate) const fn definition(&mut self, name: &str, description: &str, schema: &Schema) {
        self.raw("{\"name\":");
        self.string(name);
        self.raw(",\"description\":");
        self.string(description);
        self.raw(",\"parameters\":");
        self.schema(schema, &[], false);
        self.byte(b'}');
    }
}

const fn has_required(object: &ObjectSchema) -> bool {
    let mut i = 0;
    while i < object.properties.len() {
        if object.properties[i].required {
            return true;
        }
        i += 1;
    }
    let mut i = 0;
    while i < object.flatten.len() {
        if let Schema::Object(inner) = object.flatten[i]
            && has_required(inner)
        {
            return true;
        }
        i += 1;
    }
    false
}

/// The length in bytes of [`parameters`]' output.
#[must_use]
pub const fn parameters_len(schema: &Schema) -> usize {
    let mut writer = Writer::new(&mut []);
    writer.schema(schema, &[], false);
    writer.len()
}

/// `schema` rendered as JSON Schema, into an array of [`parameters_len`] bytes.
///
/// # Panics
/// When `N` is not [`parameters_len`]; in a `const` that is a compile error, not a panic.
#[must_use]
pub const fn parameters<const N: usize>(schema: &Schema) -> [u8; N] {
    let mut buf = [0u8; N];
    let mut writer = Writer::new(&mut buf);
    writer.schema(schema, &[], false);
    assert!(writer.len() == N, "parameters_len disagrees with parameters");
    buf
}

/// The length in bytes of [`definition`]'s output.
#[must_use]
pub const fn definition_len(name: &str, description: &str, schema: &Schema) -> usize {
    let mut writer = Writer::new(&mut []);
    writer.definition(name, description, schema);
    writer.len()
}

/// A tool definition `{"name","description","parameters"}`, into [`definition_len`] bytes.
///
/// # Panics
/// When `N` is not [`definition_len`]; in a `const` that is a compile error, not a panic.
#[must_use]
pub const fn definition<const N: usize>(name: &str, description: &str, schema: &Schema) -> [u8; N] {
    let mut buf = [0u8; N];
    let mut writer = Writer::new(&mut buf);
    writer.definition(name, description, schema);
    assert!(writer.len() == N, "definition_len disagrees with definition");
    buf
}

/// The rendered bytes as text; they are UTF-8 by construction (escaped UTF-8 input).
///
/// # Panics
/// Never for rendered output; in a `const`, invalid UTF-8 would be a compile error.
#[must_use]
pub const fn utf8(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("rendered schema is not UTF-8"),
    }
}

/// Renders `schema` to a `String` at run time, for schemas that no `#[tool]` rendered at
/// compile time (an argument type used on its own). Walks the constant tree, not types.
#[must_use]
pub fn to_json(schema: &Schema) -> String {
    let mut buf = vec![0u8; parameters_len(schema)];
    Writer::new(&mut buf).schema(schema, &[], false);
    String::from_utf8(buf).unwrap_or_default()
}
