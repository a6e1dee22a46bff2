//! How the full path checks a type ([`Check`]), and the check of an object's properties
//! interpreted from data: a derived struct states its [`Fields`] (its `ObjectSchema`, and per
//! property the aliases serde accepts and its type's [`Check`]) and the functions here walk
//! them. One non-generic body serves every struct, rather than a body generated per struct.

use serde_json::{Map, Value};

use crate::schema::{Keyword, ObjectSchema, Schema};
use crate::validate::apply::PatternCheck;
use crate::validate::checked::{Mark, then_keywords};
use crate::validate::keys::{missing, reject_unknown, validate_unit_variant};
use crate::validate::violation::{Pointer, Violations, wrong_type};

/// An object's properties, as the full path checks them.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct Fields {
    /// The object's schema: its own properties, in the order of the [`Field::Own`] entries.
    pub object: &'static ObjectSchema,
    /// The fields in declaration order.
    pub fields: &'static [Field],
    /// The check of the `pattern` keywords among the own properties', if there are any.
    pub patterns: Option<PatternCheck>,
}

impl Fields {
    /// No fields: a tool without arguments, and the stand-in of a derive that failed.
    pub const EMPTY: Fields = Fields { object: object_schema(&Schema::EMPTY_OBJECT), fields: &[], patterns: None };
    /// No fields, every key ignored: a `#[tool(open)]` fn without arguments.
    pub const OPEN_EMPTY: Fields =
        Fields { object: object_schema(&Schema::OPEN_EMPTY_OBJECT), fields: &[], patterns: None };
}

/// How the full path checks a value of one type ([`ToolParam::__CHECK`]).
///
/// [`ToolParam::__CHECK`]: crate::ToolParam::__CHECK
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub enum Check {
    /// With the type's own [`ToolParam::validate`] and [`ToolParam::coerce`].
    ///
    /// [`ToolParam::validate`]: crate::ToolParam::validate
    /// [`ToolParam::coerce`]: crate::ToolParam::coerce
    Fns {
        /// Checks a value.
        validate: fn(&mut Value, &mut Pointer, &mut Violations),
        /// Decodes a value leniently.
        coerce: fn(&mut Value),
    },
    /// As a struct's properties, walked as data: a derived struct generates no checking
    /// code of its own.
    Object(&'static Fields),
    /// As a unit-only enum's variant name.
    UnitVariant {
        /// The names serde accepts (aliases included).
        accepted: &'static [&'static str],
        /// The names the schema lists.
        listed: &'static [&'static str],
    },
}

impl Check {
    /// Checks `value`, recording every violation under `at`.
    pub fn validate(self, value: &mut Value, at: &mut Pointer, out: &mut Violations) {
        match self {
            Check::Fns { validate, .. } => validate(value, at, out),
            Check::Object(fields) => validate_object(value, fields, &[], at, out),
            Check::UnitVariant { accepted, listed } => validate_unit_variant(value, accepted, listed, at, out),
        }
    }

    /// The properties of a [`Check::Object`].
    ///
    /// # Panics
    /// At compile time, for any other check: only a [`ToolObject`](crate::param::ToolObject) asks,
    /// and the derive gives every one an object's.
    #[must_use]
    pub const fn fields(self) -> &'static Fields {
        match self {
            Check::Object(fields) => fields,
            _ => panic!("a struct deriving `ToolArgs` is checked as an object"),
        }
    }

    /// Decodes `value` leniently.
    pub fn coerce(self, value: &mut Value) {
        match self {
            Check::Fns { coerce, .. } => coerce(value),
            Check::Object(fields) => coerce_object(value, fields),
            // A variant name is a string; nothing is rewritten into one.
            Check::UnitVariant { .. } => {}
        }
    }
}

/// One field of a [`Fields`].
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub enum Field {
    /// The next of the object's own properties.
    Own {
        /// Other names serde accepts for it (`#[serde(alias)]`).
        aliases: &'static [&'static str],
        /// The field type's [`Check`].
        check: Check,
    },
    /// A `#[serde(flatten)]` struct, whose properties sit beside the object's own.
    Flatten(&'static Fields),
}

/// The `ObjectSchema` of a struct's schema, for its [`Fields`].
///
/// # Panics
/// At compile time, for a schema that is not an object: the derive only calls it on its
/// structs'.
#[must_use]
pub const fn object_schema(schema: &Schema) -> &'static ObjectSchema {
    match schema {
        Schema::Object(object) => object,
        _ => panic!("a struct deriving `ToolArgs` has an object schema"),
    }
}

/// Checks that `value` is an object with `fields` and no other keys but `extra` (an enum's
/// tag).
pub fn validate_object(value: &mut Value, fields: &Fields, extra: &[&str], at: &mut Pointer, out: &mut Violations) {
    let Value::Object(map) = value else {
        return wrong_type(value, "an object", at, out);
    };
    validate_properties(map, fields, extra, at, out);
}

/// `validate_object` of an object already known to be one.
pub fn validate_properties(
    map: &mut Map<String, Value>,
    fields: &Fields,
    extra: &[&str],
    at: &mut Pointer,
    out: &mut Violations,
) {
    validate_fields(map, fields, at, out);
    if fields.object.open {
        return;
    }
    let accepts = |key: &str| extra.contains(&key) || accepts_key(fields, key);
    // The names are listed only when a key is refused: the valid path builds nothing.
    if map.keys().any(|key| !accepts(key)) {
        let mut names: Vec<&str> = extra.to_vec();
        property_names(fields, &mut names);
        reject_unknown(map, &accepts, &names, at, out);
    }
}

fn validate_fields(map: &mut Map<String, Value>, fields: &Fields, at: &mut Pointer, out: &mut Violations) {
    let mut properties = fields.object.properties.iter();
    for field in fields.fields {
        match field {
            Field::Own { aliases, check } => {
                let Some(property) = properties.next() else { return };
                match lookup(map, property.name, aliases) {
                    Some((key, value)) => {
                        let mark = at.push_key(key);
                        checked(check, property.keywords, property.schema, fields.patterns, value, at, out);
                        at.truncate(mark);
                    }
                    None if property.required => missing(property.name, at, out),
                    None => {}
                }
            }
            Field::Flatten(inner) => validate_fields(map, inner, at, out),
        }
    }
}

/// Lenient decoding of an object with `fields`.
pub fn coerce_object(value: &mut Value, fields: &Fields) {
    if let Value::Object(map) = value {
        coerce_fields(map, fields);
    }
}

fn coerce_fields(map: &mut Map<String, Value>, fields: &Fields) {
    let mut properties = fields.object.properties.iter();
    for field in fields.fields {
        match field {
            Field::Own { aliases, check } => {
                let Some(property) = properties.next() else { return };
                if let Some((_, value)) = lookup(map, property.name, aliases) {
                    check.coerce(value);
                }
            }
            Field::Flatten(inner) => coerce_fields(map, inner),
        }
    }
}

/// The names of the properties, in order, those of flattened structs in their place.
fn property_names(fields: &Fields, out: &mut Vec<&str>) {
    let mut properties = fields.object.properties.iter();
    for field in fields.fields {
        match field {
            Field::Own { .. } => out.extend(properties.next().map(|property| property.name)),
            Field::Flatten(inner) => property_names(inner, out),
        }
    }
}

/// Whether `key` names one of the properties (aliases and flattened structs included).
#[must_use]
pub fn accepts_key(fields: &Fields, key: &str) -> bool {
    let mut properties = fields.object.properties.iter();
    fields.fields.iter().any(|field| match field {
        Field::Own { aliases, .. } => {
            properties.next().is_some_and(|property| property.name == key) || aliases.contains(&key)
        }
        Field::Flatten(inner) => accepts_key(inner, key),
    })
}

/// The property under its name or the first alias present, with the key found.
fn lookup<'m>(
    map: &'m mut Map<String, Value>,
    name: &'static str,
    aliases: &[&'static str],
) -> Option<(&'static str, &'m mut Value)> {
    let key = core::iter::once(name).chain(aliases.iter().copied()).find(|key| map.contains_key(*key))?;
    map.get_mut(key).map(|value| (key, value))
}

/// A newtype deriving `ToolArgs`: its field type's checks, then the keywords its schema
/// ([`Schema::Constrained`]) carries.
pub fn validate_constrained(
    schema: &Schema,
    check: Check,
    patterns: Option<PatternCheck>,
    value: &mut Value,
    at: &mut Pointer,
    out: &mut Violations,
) {
    match schema {
        Schema::Constrained(constrained) => {
            checked(&check, constrained.keywords, constrained.schema, patterns, value, at, out);
        }
        _ => check.validate(value, at, out),
    }
}

/// The type's check of `value`, then its keywords (`validate/checked.rs` says which).
fn checked(
    check: &Check,
    keywords: &[Keyword],
    schema: &Schema,
    patterns: Option<PatternCheck>,
    value: &mut Value,
    at: &mut Pointer,
    out: &mut Violations,
) {
    let mark = Mark::new(out);
    check.validate(value, at, out);
    then_keywords(mark, keywords, schema, patterns, value, at, out);
}
