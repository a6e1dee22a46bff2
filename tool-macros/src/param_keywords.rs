//! The keywords of one `#[param(..)]`, as read: [`Keywords`], each key found in the table
//! of `keyword.rs` and its value ([`KeyValue`]) read as that row's [`ValueSyntax`] says.
//! Every unknown key (with "did you mean"), duplicate key and malformed value is reported.

use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::util::SpannedValue;
use proc_macro2::{Literal, Span, TokenStream};
use quote::quote;

use crate::keyword::{KEYS, Key, ValueSyntax};
use crate::literal::{Count, JsonLit, Num};

/// The keywords of one `#[param(..)]` (or of one `items(..)`/`values(..)` in it), in
/// [`Key`]'s order, each read as its row of [`KEYS`](crate::keyword::KEYS) says.
#[derive(Debug, Clone, Default)]
pub struct Keywords(Vec<(Key, KeyValue)>);

/// A keyword's value, as its [`ValueSyntax`] reads it.
#[derive(Debug, Clone)]
pub enum KeyValue {
    /// [`ValueSyntax::Text`].
    Text(SpannedValue<String>),
    /// [`ValueSyntax::Number`].
    Number(Num),
    /// [`ValueSyntax::Count`].
    Count(Count),
    /// [`ValueSyntax::Flag`].
    Flag(SpannedValue<bool>),
    /// [`ValueSyntax::Json`].
    Json(JsonLit),
    /// [`ValueSyntax::Nested`].
    Nested(SpannedValue<Keywords>),
}

impl KeyValue {
    /// Reads `item`, the key's meta item, as `shape` says.
    fn read(shape: ValueSyntax, item: &NestedMeta) -> darling::Result<KeyValue> {
        Ok(match shape {
            ValueSyntax::Text => KeyValue::Text(value_of(item)?),
            ValueSyntax::Number => KeyValue::Number(value_of(item)?),
            ValueSyntax::Count => KeyValue::Count(value_of(item)?),
            ValueSyntax::Flag => KeyValue::Flag(value_of(item)?),
            ValueSyntax::Json => KeyValue::Json(value_of(item)?),
            ValueSyntax::Nested => {
                let elements: SpannedValue<ElementKeywords> = value_of(item)?;
                let span = elements.span();
                KeyValue::Nested(SpannedValue::new(elements.into_inner().0, span))
            }
        })
    }

    /// The span of the value.
    pub fn span(&self) -> Span {
        match self {
            KeyValue::Text(text) => text.span(),
            KeyValue::Number(num) => num.span,
            KeyValue::Count(count) => count.span,
            KeyValue::Flag(flag) => flag.span(),
            KeyValue::Json(json) => json.span,
            KeyValue::Nested(nested) => nested.span(),
        }
    }

    /// The value as typed `KeywordValue` tokens (`__tc_KeywordValue::Count(1)`), which the
    /// runtime reads without parsing; `None` for nested keywords, which are keywords, not a
    /// value.
    pub fn typed(&self) -> Option<TokenStream> {
        let ty = quote!(__tc_KeywordValue);
        Some(match self {
            KeyValue::Text(text) => {
                let text = text.as_str();
                quote!(#ty::Str(#text))
            }
            KeyValue::Number(num) => num.value.typed(&ty),
            KeyValue::Count(count) => {
                let n = Literal::u64_unsuffixed(count.value);
                quote!(#ty::Count(#n))
            }
            KeyValue::Flag(flag) => {
                let flag = **flag;
                quote!(#ty::Bool(#flag))
            }
            KeyValue::Json(json) => json.typed(&ty),
            KeyValue::Nested(_) => return None,
        })
    }
}

/// `T` read from a key's meta item, as darling reads a field of a derived receiver.
fn value_of<T: FromMeta>(item: &NestedMeta) -> darling::Result<T> {
    match item {
        NestedMeta::Meta(meta) => T::from_meta(meta),
        NestedMeta::NameValueInvalidExpr(invalid) => T::from_invalid_expr(invalid),
        NestedMeta::Lit(lit) => Err(darling::Error::unsupported_format("literal").with_span(lit)),
    }
}

impl Keywords {
    /// Reads the keys of `items`; `elements` when they describe the elements of a sequence
    /// or the values of a map, where only the keys that describe one value are known.
    fn read(items: &[NestedMeta], elements: bool) -> darling::Result<Keywords> {
        let mut errors = darling::Error::accumulator();
        let mut keywords: Vec<(Key, KeyValue)> = Vec::new();
        let known = || KEYS.iter().filter(move |spec| spec.on_elements || !elements).map(|spec| spec.name);
        for item in items {
            let path = match item {
                NestedMeta::Meta(meta) => meta.path(),
                NestedMeta::NameValueInvalidExpr(invalid) => &invalid.path,
                NestedMeta::Lit(lit) => {
                    errors.push(darling::Error::unsupported_format("literal").with_span(lit));
                    continue;
                }
            };
            let name = darling::util::path_to_string(path);
            let Some(key) = Key::from_name(&name).filter(|key| key.spec().on_elements || !elements) else {
                errors
                    .push(darling::Error::unknown_field_with_alts(&name, &known().collect::<Vec<_>>()).with_span(item));
                continue;
            };
            if keywords.iter().any(|(set, _)| *set == key) {
                errors.push(darling::Error::duplicate_field(&name).with_span(item));
                continue;
            }
            let value = KeyValue::read(key.spec().shape, item).map_err(|e| e.with_span(item).at(&name));
            if let Some(value) = errors.handle(value) {
                keywords.push((key, value));
            }
        }
        keywords.sort_by_key(|(key, _)| *key);
        errors.finish_with(Keywords(keywords))
    }

    /// The keywords that are set, in [`Key`]'s order.
    pub fn iter(&self) -> impl Iterator<Item = (Key, &KeyValue)> {
        self.0.iter().map(|(key, value)| (*key, value))
    }

    /// The value of `key`, if set.
    pub fn get(&self, key: Key) -> Option<&KeyValue> {
        self.0.iter().find(|(set, _)| *set == key).map(|(_, value)| value)
    }

    /// Whether no keyword is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The value of a [`ValueSyntax::Text`] key.
    pub fn text(&self, key: Key) -> Option<&SpannedValue<String>> {
        match self.get(key)? {
            KeyValue::Text(text) => Some(text),
            _ => None,
        }
    }

    /// The value of a [`ValueSyntax::Number`] key.
    pub fn num(&self, key: Key) -> Option<&Num> {
        match self.get(key)? {
            KeyValue::Number(num) => Some(num),
            _ => None,
        }
    }

    /// The value of a [`ValueSyntax::Count`] key.
    pub fn count(&self, key: Key) -> Option<Count> {
        match self.get(key)? {
            KeyValue::Count(count) => Some(*count),
            _ => None,
        }
    }

    /// The value of a [`ValueSyntax::Flag`] key.
    pub fn flag(&self, key: Key) -> Option<&SpannedValue<bool>> {
        match self.get(key)? {
            KeyValue::Flag(flag) => Some(flag),
            _ => None,
        }
    }

    /// The value of a [`ValueSyntax::Json`] key.
    pub fn json(&self, key: Key) -> Option<&JsonLit> {
        match self.get(key)? {
            KeyValue::Json(json) => Some(json),
            _ => None,
        }
    }

    /// The keywords of a [`ValueSyntax::Nested`] key, spanned at the key.
    pub fn nested(&self, key: Key) -> Option<&SpannedValue<Keywords>> {
        match self.get(key)? {
            KeyValue::Nested(nested) => Some(nested),
            _ => None,
        }
    }
}

impl FromMeta for Keywords {
    fn from_list(items: &[NestedMeta]) -> darling::Result<Self> {
        Keywords::read(items, false)
    }
}

/// The keywords in `items(..)` or `values(..)`: those that describe one value.
struct ElementKeywords(Keywords);

impl FromMeta for ElementKeywords {
    fn from_list(items: &[NestedMeta]) -> darling::Result<Self> {
        Keywords::read(items, true).map(ElementKeywords)
    }
}
