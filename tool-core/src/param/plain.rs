//! What the hidden arguments struct of a plain-parameter tool (`fn add(a: i32, b: u32)`)
//! reaches its fields' types through: [`PlainParam`], one trait for a type's schema, checks
//! and decoding, named by one body of the struct's `ToolParam` impl (its schema), and
//! [`Plain`], through which every other body reaches the type, and which falls back to
//! stand-ins when the type is not a `PlainParam`. The struct's `Deserialize` impl, written by
//! `#[tool]`, names nothing else of a parameter's type. A type with neither a schema nor
//! `Deserialize` is then one error at the parameter, in rustc's text and in the JSON
//! diagnostics an editor reads. (serde's derive would report a missing `Deserialize` three
//! times over, each with a note of its own, beside the missing schema.)
//!
//! The rest is what every such impl shares: [`FieldIndex`] reads an object's key as the
//! field it names, [`vacant`] refuses a field given twice.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, Visitor};

use crate::param::ToolParam;
use crate::schema::Schema;
use crate::validate::fields::Check;

/// A type a plain parameter can have: one with a schema ([`ToolParam`]) that decodes
/// without borrowing ([`DeserializeOwned`]). Each item is the one of those traits it names.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter",
    label = "a parameter's type needs a JSON Schema (`ToolParam`) and serde's `Deserialize`",
    note = "derive `ToolArgs` on your own structs and enums, beside `serde::Deserialize` on a generic enum (for an `Option`, a `Vec` or a map, on the type inside it); for another crate's type, take one that has both and convert it in the tool, or add `#[param(as = Type)]` naming a type of the same wire form"
)]
pub trait PlainParam: Sized {
    /// [`ToolParam::__SCHEMA_REF`].
    const __SCHEMA_REF: &'static Schema;
    /// [`ToolParam::OPTIONAL`].
    const OPTIONAL: bool;
    /// [`ToolParam::SERDE_EXACT`].
    const SERDE_EXACT: bool;
    /// [`ToolParam::__CHECK`].
    const __CHECK: Check;

    /// [`ToolParam::satisfies`].
    fn satisfies(&self) -> bool;

    /// The value of the map's entry, as this type.
    ///
    /// # Errors
    /// The deserializer's.
    fn next_value<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error>;

    /// The value of an absent field: `None` for an `Option`, otherwise serde's "missing
    /// field" error (a type that is not optional is required by its schema).
    ///
    /// # Errors
    /// "missing field `field`", unless the type is optional.
    fn missing<E: de::Error>(field: &'static str) -> Result<Self, E>;
}

// Not recommended: the error names `PlainParam`, whose message says what to do, rather than
// the traits behind it, one error each.
#[diagnostic::do_not_recommend]
impl<T: ToolParam + DeserializeOwned> PlainParam for T {
    const __SCHEMA_REF: &'static Schema = T::__SCHEMA_REF;
    const OPTIONAL: bool = T::OPTIONAL;
    const SERDE_EXACT: bool = T::SERDE_EXACT;
    const __CHECK: Check = T::__CHECK;

    #[inline]
    fn satisfies(&self) -> bool {
        ToolParam::satisfies(self)
    }

    #[inline]
    fn next_value<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
        map.next_value()
    }

    #[inline]
    fn missing<E: de::Error>(field: &'static str) -> Result<Self, E> {
        if T::OPTIONAL { T::deserialize(Absent(field, PhantomData)) } else { Err(E::missing_field(field)) }
    }
}

/// A plain parameter's type `T` as the generated code reaches it, but for its schema: through
/// `T`'s own traits when it is a [`PlainParam`] (the inherent items, which path resolution
/// takes first), through [`NotPlain`]'s stand-ins when it is not. The one error about such a
/// type is then at the one place `#[tool]` names `<T as PlainParam>`, the parameter's
/// schema, rather than at each of the places that reach it, which rustc's text folds into
/// one message but `--message-format=json` reports one by one.
#[derive(Debug)]
pub struct Plain<T>(PhantomData<T>);

// The items reach `T`'s `ToolParam` directly, not through `PlainParam`'s blanket impl: one
// constant fewer for the compiler to evaluate at each use.
impl<T: ToolParam + DeserializeOwned> Plain<T> {
    /// [`PlainParam::SERDE_EXACT`].
    pub const SERDE_EXACT: bool = T::SERDE_EXACT;
    /// [`PlainParam::__CHECK`].
    pub const __CHECK: Check = T::__CHECK;

    /// [`PlainParam::satisfies`].
    #[inline]
    #[must_use]
    pub fn satisfies(value: &T) -> bool {
        ToolParam::satisfies(value)
    }

    /// [`PlainParam::next_value`].
    ///
    /// # Errors
    /// The deserializer's.
    #[inline]
    pub fn next_value<'de, A: MapAccess<'de>>(map: &mut A) -> Result<T, A::Error> {
        map.next_value()
    }

    /// [`PlainParam::missing`].
    ///
    /// # Errors
    /// "missing field `field`", unless the type is optional.
    #[inline]
    pub fn missing<E: de::Error>(field: &'static str) -> Result<T, E> {
        <T as PlainParam>::missing(field)
    }
}

/// [`Plain`]'s items for a type that is no plain parameter: they only let the expansion
/// type-check, and never run, since the parameter's schema names `<T as PlainParam>`, which
/// fails the build.
pub trait NotPlain<T> {
    /// Stands in for [`PlainParam::SERDE_EXACT`].
    const SERDE_EXACT: bool = false;
    /// Stands in for [`PlainParam::__CHECK`].
    const __CHECK: Check = Check::UnitVariant { accepted: &[], listed: &[] };

    /// Stands in for [`PlainParam::satisfies`].
    #[must_use]
    fn satisfies(_: &T) -> bool {
        false
    }

    /// Stands in for [`PlainParam::next_value`].
    ///
    /// # Errors
    /// Always.
    fn next_value<'de, A: MapAccess<'de>>(_: &mut A) -> Result<T, A::Error> {
        Err(de::Error::custom("not a tool parameter"))
    }

    /// Stands in for [`PlainParam::missing`].
    ///
    /// # Errors
    /// Always.
    fn missing<E: de::Error>(field: &'static str) -> Result<T, E> {
        Err(E::missing_field(field))
    }
}

impl<T> NotPlain<T> for Plain<T> {}

/// The value of an absent field of a type that only decodes (a stand-in type, `as`, has
/// its schema): what serde's derive gives, `None` for an `Option`, else "missing field".
///
/// # Errors
/// "missing field `field`", unless `T` decodes from nothing.
pub fn missing_value<T: DeserializeOwned, E: de::Error>(field: &'static str) -> Result<T, E> {
    T::deserialize(Absent(field, PhantomData))
}

/// Reads an object key as the index of the field it names, by the struct's own `match`
/// (`usize::MAX` for a key it does not name). One type for every struct, where serde's
/// derive writes a field enum and its visitor for each; the `match` compares each name as a
/// constant, which a search of a list of names would not.
#[derive(Clone, Copy, Debug)]
pub struct FieldIndex(pub fn(&str) -> usize);

impl<'de> DeserializeSeed<'de> for FieldIndex {
    type Value = usize;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl Visitor<'_> for FieldIndex {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    #[inline]
    fn visit_str<E: de::Error>(self, key: &str) -> Result<usize, E> {
        Ok((self.0)(key))
    }

    #[inline]
    fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<usize, E> {
        Ok(core::str::from_utf8(key).map_or(usize::MAX, self.0))
    }
}

/// [`FieldIndex`] for a struct that refuses a key it does not name (serde's
/// `deny_unknown_fields`): such a key is serde's "unknown field" error, listing the names.
#[derive(Clone, Copy, Debug)]
pub struct KnownField(pub fn(&str) -> usize, pub &'static [&'static str]);

impl<'de> DeserializeSeed<'de> for KnownField {
    type Value = usize;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl Visitor<'_> for KnownField {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<usize, E> {
        match (self.0)(key) {
            usize::MAX => Err(E::unknown_field(key, self.1)),
            index => Ok(index),
        }
    }

    fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<usize, E> {
        self.visit_str(&String::from_utf8_lossy(key))
    }
}

/// Reads an enum's variant, by name or by number, as the index of the variant it names, by
/// the enum's own `match` (`usize::MAX` for a name it does not list), with serde's derive's
/// errors: an unknown name lists the names (`.1`), a number past the last variant (`.2` of
/// them) names the range.
#[derive(Clone, Copy, Debug)]
pub struct VariantIndex(pub fn(&str) -> usize, pub &'static [&'static str], pub usize);

impl<'de> DeserializeSeed<'de> for VariantIndex {
    type Value = usize;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl Visitor<'_> for VariantIndex {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("variant identifier")
    }

    fn visit_u64<E: de::Error>(self, index: u64) -> Result<usize, E> {
        match usize::try_from(index) {
            Ok(index) if index < self.2 => Ok(index),
            _ => Err(E::invalid_value(
                de::Unexpected::Unsigned(index),
                &format!("variant index 0 <= i < {}", self.2).as_str(),
            )),
        }
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<usize, E> {
        match (self.0)(name) {
            usize::MAX => Err(E::unknown_variant(name, self.1)),
            index => Ok(index),
        }
    }

    fn visit_bytes<E: de::Error>(self, name: &[u8]) -> Result<usize, E> {
        self.visit_str(&String::from_utf8_lossy(name))
    }
}

/// Refuses a second value for a field, before it is read (serde's derive does the same: a
/// key given twice is an error, not the last one winning, and it names where the key was).
///
/// # Errors
/// "duplicate field `field`".
#[inline]
pub fn vacant<T, E: de::Error>(slot: &Option<T>, field: &'static str) -> Result<(), E> {
    if slot.is_some() { Err(E::duplicate_field(field)) } else { Ok(()) }
}

/// The deserializer of an absent field: `None` to an `Option`, "missing field" to anything
/// else (what serde's derive hands an optional type).
pub(crate) struct Absent<E>(pub(crate) &'static str, pub(crate) PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for Absent<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, E> {
        Err(E::missing_field(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Error = serde_json::Error;

    #[test]
    fn a_key_is_the_index_of_its_name() {
        let names = FieldIndex(|key| match key {
            "a" => 0,
            "bee" | "b" => 1,
            "c" => 2,
            _ => usize::MAX,
        });
        assert_eq!(Visitor::visit_str::<Error>(names, "bee").unwrap(), 1);
        assert_eq!(Visitor::visit_bytes::<Error>(names, b"c").unwrap(), 2);
        assert_eq!(Visitor::visit_str::<Error>(names, "be").unwrap(), usize::MAX);
    }

    #[test]
    fn an_absent_option_is_none_and_anything_else_is_missing() {
        assert_eq!(<Option<u8> as PlainParam>::missing::<Error>("n").unwrap(), None);
        let error = <u8 as PlainParam>::missing::<Error>("n").unwrap_err();
        assert_eq!(error.to_string(), "missing field `n`");
    }

    #[test]
    fn a_field_is_read_once() {
        vacant::<u8, Error>(&None, "n").unwrap();
        let error = vacant::<u8, Error>(&Some(1), "n").unwrap_err();
        assert_eq!(error.to_string(), "duplicate field `n`");
    }
}
