//! What the `Deserialize` impls `#[derive(ToolArgs)]` writes for enums with data share: how
//! each tagging finds the variant, with serde's derive's errors, so that each impl holds only
//! its own `match` on the variant's index.
//!
//! Internal and adjacent tagging and untagged enums must see more of the value than the
//! variant's own content before they know the variant (the tag may come after it, or there is
//! none). serde's derive buffers into its private `Content`; these buffer into
//! [`serde_json::Value`], which every tool's arguments are, and which, as `Content` does,
//! reports a buffered value's errors without a position.

use core::fmt;
use core::marker::PhantomData;

use serde::Deserialize as _;
use serde::de::value::MapDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, IgnoredAny, MapAccess, VariantAccess, Visitor};
use serde_json::Value;

use crate::param::plain::{Absent, VariantIndex};

/// An internally tagged enum's object (`#[serde(tag = "..")]`): the variant its tag names and
/// its other entries, in order and with any repeated key, as serde's derive buffers them.
#[derive(Clone, Copy, Debug)]
pub struct TaggedObject {
    /// The tag's key.
    pub tag: &'static str,
    /// Reads the tag's value.
    pub variant: VariantIndex,
    /// What a value that is not an object is said to miss.
    pub expecting: &'static str,
}

/// The entries of an internally tagged enum's object beside its tag.
#[derive(Debug)]
pub struct Entries(Vec<(String, Value)>);

impl<'de> Visitor<'de> for TaggedObject {
    type Value = (usize, Entries);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut tag = None;
        let mut rest = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == self.tag {
                if tag.is_some() {
                    return Err(de::Error::duplicate_field(self.tag));
                }
                tag = Some(map.next_value_seed(self.variant)?);
            } else {
                rest.push((key, map.next_value::<Value>()?));
            }
        }
        match tag {
            Some(index) => Ok((index, Entries(rest))),
            None => Err(de::Error::missing_field(self.tag)),
        }
    }
}

/// Decodes an internally tagged variant's content from its object's other entries.
///
/// # Errors
/// The content's error, without a position (as serde's derive reports it).
pub fn from_entries<S: DeserializeSeed<'static>, E: de::Error>(seed: S, entries: Entries) -> Result<S::Value, E> {
    let map = MapDeserializer::<_, serde_json::Error>::new(entries.0.into_iter());
    seed.deserialize(map).map_err(E::custom)
}

/// An internally tagged unit variant: its object may hold other keys, which are passed over
/// (serde's derive's reading).
///
/// # Errors
/// Only those `deserializer` raises.
pub fn tagged_unit<'de, D: Deserializer<'de>>(deserializer: D) -> Result<(), D::Error> {
    IgnoredAny::deserialize(deserializer).map(drop)
}

/// A unit variant's content where it has one (adjacent tagging, untagged): `null`, or absent.
#[derive(Clone, Copy, Debug)]
pub struct UnitContent(pub &'static str);

impl<'de> Visitor<'de> for UnitContent {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unit variant {}", self.0)
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// Reads a unit variant's content: `null`, or none at all.
///
/// # Errors
/// "invalid type: .., expected unit variant `E::V`" for anything else.
pub fn unit_content<'de, D: Deserializer<'de>>(deserializer: D, variant: &'static str) -> Result<(), D::Error> {
    deserializer.deserialize_option(UnitContent(variant))
}

/// Tries a buffered value as one untagged variant: `Some` when it decodes.
pub fn untagged<'a, S: DeserializeSeed<'a>>(seed: S, value: &'a Value) -> Option<S::Value> {
    seed.deserialize(value).ok()
}

/// An adjacently tagged enum (`#[serde(tag = "t", content = "c")]`): reads the tag and the
/// content in either order, the content through `seed` once the variant is known (buffered
/// if it comes first), other keys passed over or, under `deny_unknown_fields`, refused; a
/// key given twice is an error, as in serde's derive.
#[derive(Debug)]
pub struct AdjacentlyTagged<S> {
    /// The tag's key.
    pub tag: &'static str,
    /// The content's key.
    pub content: &'static str,
    /// The variants' lookup.
    pub variant: VariantIndex,
    /// The enum's Rust name, for the tag's errors.
    pub enum_name: &'static str,
    /// Refuses other keys.
    pub deny_unknown_fields: bool,
    /// What a value that is not an object is said to miss.
    pub expecting: &'static str,
    /// The seed of a variant's content, by index.
    pub seed: fn(usize) -> S,
}

/// Which of an adjacently tagged object's keys.
enum Key {
    Tag,
    Content,
}

/// Reads a key of an adjacently tagged object as which it is (`None`: another), comparing it where it lies
/// (no `String` per key); under `deny_unknown_fields` another key is refused, with serde's
/// derive's error.
#[derive(Clone, Copy)]
struct KeySeed {
    tag: &'static str,
    content: &'static str,
    deny_unknown_fields: bool,
}

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Option<Key>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<Key>, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl Visitor<'_> for KeySeed {
    type Value = Option<Key>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} or {:?}", self.tag, self.content)
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Option<Key>, E> {
        if key == self.tag {
            Ok(Some(Key::Tag))
        } else if key == self.content {
            Ok(Some(Key::Content))
        } else if self.deny_unknown_fields {
            Err(E::invalid_value(de::Unexpected::Str(key), &self))
        } else {
            Ok(None)
        }
    }

    fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<Option<Key>, E> {
        self.visit_str(&String::from_utf8_lossy(key))
    }
}

impl<S> AdjacentlyTagged<S> {
    /// The next key that is the tag or the content, others passed over (or refused).
    fn next_key<'de, A: MapAccess<'de>>(&self, map: &mut A) -> Result<Option<Key>, A::Error> {
        let seed = KeySeed { tag: self.tag, content: self.content, deny_unknown_fields: self.deny_unknown_fields };
        while let Some(found) = map.next_key_seed(seed)? {
            if found.is_some() {
                return Ok(found);
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(None)
    }

    /// After the content: any later tag or content key is a duplicate.
    fn rest<'de, A: MapAccess<'de>, T>(&self, map: &mut A, value: T) -> Result<T, A::Error> {
        match self.next_key(map)? {
            Some(Key::Tag) => Err(de::Error::duplicate_field(self.tag)),
            Some(Key::Content) => Err(de::Error::duplicate_field(self.content)),
            None => Ok(value),
        }
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for AdjacentlyTagged<S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<S::Value, A::Error> {
        let tag = AdjacentTag(self.variant, self.enum_name);
        match self.next_key(&mut map)? {
            Some(Key::Tag) => {
                let index = map.next_value_seed(tag)?;
                match self.next_key(&mut map)? {
                    Some(Key::Tag) => Err(de::Error::duplicate_field(self.tag)),
                    Some(Key::Content) => {
                        let value = map.next_value_seed((self.seed)(index))?;
                        self.rest(&mut map, value)
                    }
                    None => (self.seed)(index).deserialize(Absent(self.content, PhantomData)),
                }
            }
            Some(Key::Content) => {
                let content = map.next_value::<Value>()?;
                match self.next_key(&mut map)? {
                    Some(Key::Tag) => {
                        let index = map.next_value_seed(tag)?;
                        let value = (self.seed)(index).deserialize(content).map_err(de::Error::custom)?;
                        self.rest(&mut map, value)
                    }
                    Some(Key::Content) => Err(de::Error::duplicate_field(self.content)),
                    None => Err(de::Error::missing_field(self.tag)),
                }
            }
            None => Err(de::Error::missing_field(self.tag)),
        }
    }
}

/// An adjacently tagged enum's tag, read as serde's derive reads it: as a unit variant of the
/// enum.
#[derive(Clone, Copy)]
struct AdjacentTag(VariantIndex, &'static str);

impl<'de> DeserializeSeed<'de> for AdjacentTag {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_enum(self.1, self.0.1, self)
    }
}

impl<'de> Visitor<'de> for AdjacentTag {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "variant of enum {}", self.1)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<usize, A::Error> {
        let (index, access) = data.variant_seed(self.0)?;
        access.unit_variant()?;
        Ok(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variant(name: &str) -> usize {
        match name {
            "a" => 0,
            "b" => 1,
            _ => usize::MAX,
        }
    }

    const VARIANTS: VariantIndex = VariantIndex(variant, &["a", "b"], 2);

    #[test]
    fn a_tagged_object_keeps_every_other_entry_in_order() {
        let reader = TaggedObject { tag: "t", variant: VARIANTS, expecting: "internally tagged enum E" };
        let value = serde_json::json!({"x": 1, "t": "b", "x2": [true]});
        let (index, entries) = value.deserialize_map(reader).unwrap();
        assert_eq!(index, 1);
        assert_eq!(
            entries.0,
            vec![("x".to_owned(), serde_json::json!(1)), ("x2".to_owned(), serde_json::json!([true]))]
        );
    }

    #[test]
    fn a_tagged_object_needs_its_tag_once() {
        let reader = TaggedObject { tag: "t", variant: VARIANTS, expecting: "E" };
        let missing = serde_json::json!({"x": 1}).deserialize_map(reader).unwrap_err();
        assert_eq!(missing.to_string(), "missing field `t`");
        let mut de = serde_json::Deserializer::from_str(r#"{"t": "a", "t": "b"}"#);
        let twice = de.deserialize_map(reader).unwrap_err();
        assert!(twice.to_string().starts_with("duplicate field `t`"), "{twice}");
    }

    #[test]
    fn a_unit_content_is_null_or_absent() {
        unit_content(&Value::Null, "E::A").unwrap();
        unit_content(Absent::<serde_json::Error>("c", PhantomData), "E::A").unwrap();
        let error = unit_content(&serde_json::json!(5), "E::A").unwrap_err();
        assert_eq!(error.to_string(), "invalid type: integer `5`, expected unit variant E::A");
    }
}
