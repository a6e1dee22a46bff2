//! Where each keyword and type bound goes in a dialect: written, folded into the
//! description, or dropped ([`Dialect::place`]), and the description that carries what the
//! dialect cannot state.

use super::Writer;
use crate::render::dialect::{Dialect, KeywordPlacement};
use crate::render::json_text::push_lit;
use crate::schema::{Keyword, KeywordKind, KeywordValue, Lit, Schema, has_keyword};

/// A bound that comes from the Rust type (`u8` → `maximum: 255`), not from `#[param]`.
#[derive(Clone, Copy)]
struct TypeBound {
    kind: KeywordKind,
    value: TypeValue,
}

/// Whether an integer type's own bound tells a model something in a dialect whose readers
/// do not enforce bounds (Anthropic's strict tools write them into the description; Gemini
/// may ignore them and reads them as doubles): `0` for unsigned types and the bounds of 8-
/// and 16-bit types do; `u64::MAX`, `i32::MIN` and the like only cost tokens there. Dispatch
/// enforces the full range either way; the other dialects state it (`Writer::new`).
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

impl Writer<'_> {
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

    fn bound_placement(&self, bound: TypeBound) -> KeywordPlacement {
        match bound.value {
            TypeValue::Int(n) => self.dialect.place(bound.kind, None, Some(n)),
            TypeValue::True => self.dialect.place(bound.kind, None, None),
            TypeValue::Str(text) => self.dialect.place(bound.kind, Some(KeywordValue::Str(text)), None),
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
    pub(super) fn type_bounds_kept(&mut self, first: &mut bool, schema: &Schema, keywords: &[Keyword]) {
        for bound in self.type_bounds(schema, keywords).into_iter().flatten() {
            if matches!(self.bound_placement(bound), KeywordPlacement::Keep) {
                self.key(first, bound.kind.json_name());
                self.bound_value(bound.value, false);
            }
        }
    }

    /// Writes, inside the description string, the constraints the dialect moves there:
    /// `minimum: 1, maximum: 10`.
    pub(super) fn described(&mut self, schema: &Schema, keywords: &[Keyword]) {
        let mut first = true;
        for bound in self.type_bounds(schema, keywords).into_iter().flatten() {
            if matches!(self.bound_placement(bound), KeywordPlacement::Describe) {
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
            if matches!(self.dialect.place(keyword.kind, Some(keyword.value), None), KeywordPlacement::Describe) {
                if !first {
                    self.raw(", ");
                }
                first = false;
                self.raw(keyword.kind.json_name());
                self.raw(": ");
                match keyword.value {
                    KeywordValue::Text(text) => self.escaped(text),
                    // Nested keywords are written inside the elements' schema.
                    KeywordValue::Keywords(_) => {}
                    // The value's JSON text, escaped as the description's own text.
                    typed => {
                        let mark = self.out.len();
                        self.keyword_value(typed, false);
                        let json = self.out.split_off(mark);
                        self.escaped(&json);
                    }
                }
            }
        }
    }

    /// Writes `"description"`: the field's own if it has one, else the type's, followed by
    /// what the dialect moved into it.
    pub(super) fn description(
        &mut self,
        first: &mut bool,
        schema: &Schema,
        keywords: &[Keyword],
        own: Option<&'static str>,
    ) {
        if core::mem::take(&mut self.described_outside) {
            return;
        }
        let mut text: Option<&str> = own;
        for keyword in keywords {
            if let (KeywordKind::Description, KeywordValue::Text(found) | KeywordValue::Str(found)) =
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
        match value.as_lit() {
            // An `enum` list of a nullable field must admit `null` too, or the schema would
            // reject the `None` it advertises.
            Some(Lit::List(items)) if add_null => {
                push_lit(&mut self.out, Lit::List(items));
                self.out.pop();
                self.raw(if items.is_empty() { "null]" } else { ",null]" });
            }
            Some(lit) => push_lit(&mut self.out, lit),
            None => self.raw("{}"),
        }
    }

    /// Whether a nullable value is written as a type union (`["string","null"]`), whose
    /// `enum` must then list `null` too.
    pub(super) fn unions_null(&self) -> bool {
        self.dialect == Dialect::OpenAiStrict
    }

    /// Writes every keyword the dialect keeps but `description`, which comes first.
    pub(super) fn keywords(&mut self, first: &mut bool, keywords: &[Keyword], nullable: bool) {
        for &keyword in keywords {
            let kept = matches!(self.dialect.place(keyword.kind, Some(keyword.value), None), KeywordPlacement::Keep);
            if kept && !keyword.kind.eq(KeywordKind::Description) && !keyword.kind.is_nested() {
                self.key(first, keyword.kind.json_name());
                let add_null = nullable && self.unions_null() && keyword.kind.eq(KeywordKind::Enum);
                self.keyword_value(keyword.value, add_null);
            }
        }
    }
}
