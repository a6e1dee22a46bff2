//! [`DenyUnknown`]: a `Deserializer` adapter that refuses object keys a struct does not declare.
//!
//! serde ignores unknown keys unless the struct says `deny_unknown_fields`, while every
//! schema here says `additionalProperties: false`. Wrapping the deserializer lets dispatch
//! decode straight from the text in one pass (the fast path in `dispatch/mod.rs`) and still
//! refuse what the schema refuses: serde's derive reads the value of an undeclared key as
//! `IgnoredAny`, so inside a struct's map that request is refused. Two more shapes that serde
//! accepts and the schema does not are refused: a struct written as an array, and a unit
//! variant written as `{"Variant": null}`. Everything else is forwarded untouched, so the
//! wrapper costs a few inlined calls. Only types that can take the fast path (`SERDE_EXACT`) are
//! decoded through it, on both paths, so each has one `Deserialize` instance; the others
//! are decoded only once validated, by serde alone.

use core::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// Wraps a deserializer so that every struct inside refuses undeclared keys.
pub(crate) struct DenyUnknown<D> {
    inner: D,
    /// Whether this is the value of a struct's entry, where `IgnoredAny` means an
    /// undeclared key.
    field_value: bool,
}

impl<D> DenyUnknown<D> {
    pub(crate) fn new(inner: D) -> Self {
        DenyUnknown { inner, field_value: false }
    }
}

macro_rules! forward_deserialize {
    ($($method:ident)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.inner.$method(Wrap(visitor))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for DenyUnknown<D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64 deserialize_char deserialize_str deserialize_string deserialize_bytes
        deserialize_byte_buf deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier
    }

    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        if self.field_value {
            return Err(de::Error::custom("unknown field"));
        }
        self.inner.deserialize_ignored_any(Wrap(visitor))
    }

    #[inline]
    fn deserialize_unit_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_unit_struct(name, Wrap(visitor))
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_newtype_struct(name, Wrap(visitor))
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_tuple(len, Wrap(visitor))
    }

    #[inline]
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_tuple_struct(name, len, Wrap(visitor))
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_struct(name, fields, StructWrap(visitor))
    }

    /// Only types that take the fast path are decoded through this adapter, and the only
    /// enums among them are unit-only ones, whose variants are written as their names: serde
    /// would also take `{"Variant": null}`, which no schema here allows, so only a string is
    /// read. (Asking for a string rather than any value also keeps each enum's decoding small.)
    #[inline]
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_str(EnumForm(visitor))
    }

    #[inline]
    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// Reads a unit variant from its name.
struct EnumForm<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for EnumForm<V> {
    type Value = V::Value;

    #[inline]
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }

    #[inline]
    fn visit_str<E: de::Error>(self, name: &str) -> Result<Self::Value, E> {
        self.0.visit_enum(de::value::StrDeserializer::new(name))
    }

    // A variant name is only compared, so the borrowed and owned forms need no code of
    // their own: serde's defaults pass them to `visit_str`.
}

/// A visitor whose nested maps, sequences and values stay wrapped.
struct Wrap<V>(V);

macro_rules! forward_visit {
    ($($method:ident($ty:ty))*) => {$(
        #[inline]
        fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
            self.0.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    #[inline]
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }

    forward_visit! {
        visit_bool(bool) visit_i8(i8) visit_i16(i16) visit_i32(i32) visit_i64(i64) visit_i128(i128)
        visit_u8(u8) visit_u16(u16) visit_u32(u32) visit_u64(u64) visit_u128(u128) visit_f32(f32)
        visit_f64(f64) visit_char(char) visit_str(&str) visit_borrowed_str(&'de str) visit_string(String)
        visit_bytes(&[u8]) visit_borrowed_bytes(&'de [u8]) visit_byte_buf(Vec<u8>)
    }

    #[inline]
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.0.visit_none()
    }

    #[inline]
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.0.visit_unit()
    }

    #[inline]
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.0.visit_some(DenyUnknown::new(deserializer))
    }

    #[inline]
    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.0.visit_newtype_struct(DenyUnknown::new(deserializer))
    }

    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        self.0.visit_seq(Seq(seq))
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.0.visit_map(Map(map))
    }
}

/// The visitor of a struct: its map's values are read as a struct's entries, and an array
/// is refused. serde's derive also reads a struct from an array of its fields in order; a
/// schema object never is one. (Refusing it here, rather than forwarding, also spares each
/// struct the code of reading itself from an array.)
struct StructWrap<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for StructWrap<V> {
    type Value = V::Value;

    #[inline]
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.0.visit_map(StructMap(map))
    }
}

/// A seed whose deserializer is wrapped.
struct Seed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(DenyUnknown::new(deserializer))
    }
}

struct Seq<A>(A);

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Seq<A> {
    type Error = A::Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Seed(seed))
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// A map that is not a struct (`HashMap`), whose values stay wrapped.
struct Map<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Map<A> {
    type Error = A::Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        // Keys are strings: nothing inside them needs the wrapper.
        self.0.next_key_seed(seed)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(Seed(seed))
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// A struct's map, whose values are its entries.
struct StructMap<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for StructMap<A> {
    type Error = A::Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(seed)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(FieldSeed(seed))
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// The value of a struct's entry: serde's derive reads the value of a key it does not
/// know as `IgnoredAny`, so refusing `deserialize_ignored_any` here refuses unknown keys
/// without comparing a single key a second time.
struct FieldSeed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for FieldSeed<S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(DenyUnknown { inner: deserializer, field_value: true })
    }
}
