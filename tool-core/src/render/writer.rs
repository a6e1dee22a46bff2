//! The JSON writer that walks a [`Schema`] tree in one [`Dialect`].

use crate::render::dialect::{Dialect, Placement};
use crate::schema::{Keyword, KeywordKind, KeywordValue, ObjectSchema, Property, Schema, has_keyword, nested_keywords};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// A JSON writer into a growing buffer, in one pass: it runs once per text and process, so
/// a pass that sized the buffer first would cost more than the few reallocations it saves.
pub(crate) struct Writer {
    out: Vec<u8>,
    dialect: Dialect,
    /// State every integer type's full range, informative or not.
    full_ranges: bool,
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
    /// A string (a [`TextForm`](crate::schema::TextForm)'s `format`).
    Str(&'static str),
}

impl Writer {
    pub(crate) fn new(dialect: Dialect) -> Self {
        Writer { out: Vec::with_capacity(256), dialect, full_ranges: false }
    }

    /// A writer that states every integer type's full range ([`super::to_json_exact`]).
    pub(crate) fn with_full_ranges(mut self) -> Self {
        self.full_ranges = true;
        self
    }

    /// The text written.
    pub(crate) fn finish(self) -> String {
        // Only whole `str`s and ASCII are ever written, so the bytes are UTF-8.
        String::from_utf8(self.out).unwrap_or_default()
    }

    fn byte(&mut self, b: u8) {
        self.out.push(b);
    }

    pub(crate) fn raw(&mut self, s: &str) {
        self.out.extend_from_slice(s.as_bytes());
    }

    /// Writes the inside of a JSON string: `s` escaped per RFC 8259, without quotes. Runs
    /// that need no escape are copied whole.
    fn escaped(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let escape: &[u8] = match b {
                b'"' => b"\\\"",
                b'\\' => b"\\\\",
                b'\n' => b"\\n",
                b'\r' => b"\\r",
                b'\t' => b"\\t",
                0x08 => b"\\b",
                0x0c => b"\\f",
                0..0x20 => &[b'\\', b'u', b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 0xf) as usize]],
                _ => continue,
            };
            self.out.extend_from_slice(&bytes[start..i]);
            self.out.extend_from_slice(escape);
            start = i + 1;
        }
        self.out.extend_from_slice(&bytes[start..]);
    }

    /// Writes `s` as a quoted JSON string.
    pub(crate) fn string(&mut self, s: &str) {
        self.byte(b'"');
        self.escaped(s);
        self.byte(b'"');
    }

    fn int(&mut self, n: i128) {
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
    fn key(&mut self, first: &mut bool, name: &str) {
        if !*first {
            self.byte(b',');
        }
        *first = false;
        self.string(name);
        self.byte(b':');
    }

    fn is(&self, dialect: Dialect) -> bool {
        self.dialect as u8 == dialect as u8
    }

    fn type_name(&mut self, first: &mut bool, name: &'static str, nullable: bool) {
        self.key(first, "type");
        let name = self.dialect.type_name(name);
        if nullable && self.is(Dialect::GeminiParameters) {
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
            Schema::Text(form) => match form.format {
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
        let bounds = self.type_bounds(schema, keywords);
        let mut i = 0;
        while i < bounds.len() {
            if let Some(bound) = bounds[i]
                && matches!(self.bound_placement(bound), Placement::Keep)
            {
                self.key(first, bound.kind.json_name());
                self.bound_value(bound.value, false);
            }
            i += 1;
        }
    }

    /// Writes, inside the description string, the constraints the dialect moves there:
    /// `minimum: 1, maximum: 10`.
    fn described(&mut self, schema: &Schema, keywords: &[Keyword]) {
        let mut first = true;
        let bounds = self.type_bounds(schema, keywords);
        let mut i = 0;
        while i < bounds.len() {
            if let Some(bound) = bounds[i]
                && matches!(self.bound_placement(bound), Placement::Describe)
            {
                if !first {
                    self.raw(", ");
                }
                first = false;
                self.raw(bound.kind.json_name());
                self.raw(": ");
                self.bound_value(bound.value, true);
            }
            i += 1;
        }
        let mut i = 0;
        while i < keywords.len() {
            let keyword = keywords[i];
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
            i += 1;
        }
    }

    /// Writes `"description"`: the field's own if it has one, else the type's, followed by
    /// what the dialect moved into it.
    fn description(&mut self, first: &mut bool, schema: &Schema, keywords: &[Keyword], own: Option<&'static str>) {
        let mut text = own;
        let mut i = 0;
        while i < keywords.len() {
            if let (KeywordKind::Description, KeywordValue::Text(found) | KeywordValue::Json(found)) =
                (keywords[i].kind, keywords[i].value)
            {
                text = Some(found);
            }
            i += 1;
        }
        // JSON Schema keeps every keyword; the others skip the probe.
        let moved = !self.is(Dialect::JsonSchema) && {
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
        self.is(Dialect::JsonSchema) || self.is(Dialect::OpenAiStrict)
    }

    /// Writes every keyword the dialect keeps but `description`, which comes first.
    fn keywords(&mut self, first: &mut bool, keywords: &[Keyword], nullable: bool) {
        let mut i = 0;
        while i < keywords.len() {
            let keyword = keywords[i];
            let kept = matches!(self.dialect.place(keyword.kind, Some(keyword.value), None), Placement::Keep);
            if kept && !keyword.kind.eq(KeywordKind::Description) && !keyword.kind.is_nested() {
                self.key(first, keyword.kind.json_name());
                let add_null = nullable && self.unions_null() && keyword.kind.eq(KeywordKind::Enum);
                self.keyword_value(keyword.value, add_null);
            }
            i += 1;
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
        // Anthropic's strict transform refuses type unions: `null` is an `anyOf` branch.
        if nullable && self.is(Dialect::AnthropicStrict) && !matches!(*schema, Schema::Any) {
            self.raw("{\"anyOf\":[");
            self.schema(schema, keywords, false);
            self.raw(",{\"type\":\"null\"}]}");
            return;
        }
        let mut first = true;
        let first = &mut first;
        self.byte(b'{');
        let own = match *schema {
            Schema::Object(object) => object.description,
            Schema::StringEnum(set) => set.description,
            Schema::AnyOf(any_of) => any_of.description,
            Schema::Text(form) => form.description,
            _ => None,
        };
        self.description(first, schema, keywords, own);
        match *schema {
            Schema::Nullable(_) | Schema::Constrained(_) | Schema::Any => {}
            Schema::Boolean => self.type_name(first, "boolean", nullable),
            Schema::Integer { .. } => self.type_name(first, "integer", nullable),
            Schema::Number => self.type_name(first, "number", nullable),
            Schema::String | Schema::Char | Schema::Text(_) => self.type_name(first, "string", nullable),
            Schema::Tuple(items) => self.tuple(first, items, nullable),
            Schema::Array { items, .. } => {
                self.type_name(first, "array", nullable);
                self.key(first, "items");
                self.schema(items, nested_keywords(keywords, KeywordKind::Items), false);
            }
            Schema::Map { values } => {
                self.type_name(first, "object", nullable);
                // Gemini's `parameters` refuse `additionalProperties`; dispatch still checks.
                if !self.is(Dialect::GeminiParameters) {
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
                    let mut i = 0;
                    while i < set.values.len() {
                        if i > 0 {
                            self.byte(b',');
                        }
                        self.string(set.values[i]);
                        i += 1;
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
                let mut i = 0;
                while i < any_of.branches.len() {
                    if i > 0 {
                        self.byte(b',');
                    }
                    self.schema(&any_of.branches[i], &[], false);
                    i += 1;
                }
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
        if self.is(Dialect::JsonSchema) {
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
        let mut i = 0;
        while i < items.len() {
            if i > 0 {
                self.byte(b',');
            }
            self.schema(&items[i], &[], false);
            i += 1;
        }
        self.byte(b']');
    }

    fn object(&mut self, first: &mut bool, object: &ObjectSchema, nullable: bool) {
        self.type_name(first, "object", nullable);
        // Gemini refuses an `OBJECT` whose `properties` is empty.
        if !self.is(Dialect::GeminiParameters) || has_properties(object) {
            self.key(first, "properties");
            self.byte(b'{');
            let mut first_property = true;
            self.properties(&mut first_property, object);
            self.byte(b'}');
        }
        // OpenAI strict: every property is required; optional ones are nullable instead.
        let all = self.is(Dialect::OpenAiStrict);
        if has_required(object, all) {
            self.key(first, "required");
            self.byte(b'[');
            let mut first_required = true;
            self.required(&mut first_required, object, all);
            self.byte(b']');
        }
        if !self.is(Dialect::GeminiParameters) {
            self.key(first, "additionalProperties");
            self.raw("false");
        }
    }

    /// Writes the members of `"properties"`, flattened structs included.
    fn properties(&mut self, first: &mut bool, object: &ObjectSchema) {
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

    fn required(&mut self, first: &mut bool, object: &ObjectSchema, all: bool) {
        let mut i = 0;
        while i < object.properties.len() {
            let property = object.properties[i];
            if property.required || all {
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
                self.required(first, inner, all);
            }
            i += 1;
        }
    }
}

fn has_required(object: &ObjectSchema, all: bool) -> bool {
    let mut i = 0;
    while i < object.properties.len() {
        if object.properties[i].required || all {
            return true;
        }
        i += 1;
    }
    let mut i = 0;
    while i < object.flatten.len() {
        if let Schema::Object(inner) = object.flatten[i]
            && has_required(inner, all)
        {
            return true;
        }
        i += 1;
    }
    false
}

fn has_properties(object: &ObjectSchema) -> bool {
    if !object.properties.is_empty() {
        return true;
    }
    let mut i = 0;
    while i < object.flatten.len() {
        if let Schema::Object(inner) = object.flatten[i]
            && has_properties(inner)
        {
            return true;
        }
        i += 1;
    }
    false
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
