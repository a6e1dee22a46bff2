//! The `#[param]` keywords as data: one table saying, for each key, its name, the
//! `KeywordKind` it becomes in the schema (whose meaning on a JSON value the runtime's
//! `validate/apply.rs` interprets) and the typed check on a decoded one. Every link between the macro and the runtime goes through an
//! exhaustive `match` here, never an identifier built from a string, so a key without a
//! check is a compile error in this file rather than a missing function in a user's build.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

/// A `#[param]` key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Description,
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
    MultipleOf,
    MinLength,
    MaxLength,
    Pattern,
    Format,
    Enum,
    MinItems,
    MaxItems,
    UniqueItems,
    Default,
    Examples,
    MinProperties,
    MaxProperties,
    Items,
    Values,
}

impl Key {
    /// The key as written in `#[param(..)]`.
    pub const fn name(self) -> &'static str {
        match self {
            Key::Description => "description",
            Key::Minimum => "minimum",
            Key::Maximum => "maximum",
            Key::ExclusiveMinimum => "exclusive_minimum",
            Key::ExclusiveMaximum => "exclusive_maximum",
            Key::MultipleOf => "multiple_of",
            Key::MinLength => "min_length",
            Key::MaxLength => "max_length",
            Key::Pattern => "pattern",
            Key::Format => "format",
            Key::Enum => "enum",
            Key::MinItems => "min_items",
            Key::MaxItems => "max_items",
            Key::UniqueItems => "unique_items",
            Key::Default => "default",
            Key::Examples => "examples",
            Key::MinProperties => "min_properties",
            Key::MaxProperties => "max_properties",
            Key::Items => "items",
            Key::Values => "values",
        }
    }

    /// The `KeywordKind` the schema states it as.
    pub fn kind(self) -> TokenStream {
        let variant = match self {
            Key::Description => quote!(Description),
            Key::Minimum => quote!(Minimum),
            Key::Maximum => quote!(Maximum),
            Key::ExclusiveMinimum => quote!(ExclusiveMinimum),
            Key::ExclusiveMaximum => quote!(ExclusiveMaximum),
            Key::MultipleOf => quote!(MultipleOf),
            Key::MinLength => quote!(MinLength),
            Key::MaxLength => quote!(MaxLength),
            Key::Pattern => quote!(Pattern),
            Key::Format => quote!(Format),
            Key::Enum => quote!(Enum),
            Key::MinItems => quote!(MinItems),
            Key::MaxItems => quote!(MaxItems),
            Key::UniqueItems => quote!(UniqueItems),
            Key::Default => quote!(Default),
            Key::Examples => quote!(Examples),
            Key::MinProperties => quote!(MinProperties),
            Key::MaxProperties => quote!(MaxProperties),
            Key::Items => quote!(Items),
            Key::Values => quote!(Values),
        };
        quote!(__tc_KeywordKind::#variant)
    }

    /// The check of a numeric or counting key on a decoded value, spanned at the key so a
    /// type it does not fit fails there: `typed::NAME::<T>(value, bound)`. `None` for keys
    /// checked only on the JSON (map sizes) or with a check of their own shape.
    pub fn typed_check(self, span: Span) -> Option<TokenStream> {
        let function = match self {
            Key::Minimum => quote_spanned!(span=> minimum),
            Key::Maximum => quote_spanned!(span=> maximum),
            Key::ExclusiveMinimum => quote_spanned!(span=> exclusive_minimum),
            Key::ExclusiveMaximum => quote_spanned!(span=> exclusive_maximum),
            Key::MultipleOf => quote_spanned!(span=> multiple_of),
            Key::MinLength => quote_spanned!(span=> min_length),
            Key::MaxLength => quote_spanned!(span=> max_length),
            Key::MinItems => quote_spanned!(span=> min_items),
            Key::MaxItems => quote_spanned!(span=> max_items),
            Key::Description
            | Key::Pattern
            | Key::Format
            | Key::Enum
            | Key::UniqueItems
            | Key::Default
            | Key::Examples
            | Key::MinProperties
            | Key::MaxProperties
            | Key::Items
            | Key::Values => return None,
        };
        Some(quote_spanned!(span=> __tc_typed::#function))
    }

    /// The key that counts the other kind of thing: `min_length` ↔ `min_items`.
    pub const fn counterpart(self) -> Option<Key> {
        match self {
            Key::MinLength => Some(Key::MinItems),
            Key::MaxLength => Some(Key::MaxItems),
            Key::MinItems => Some(Key::MinLength),
            Key::MaxItems => Some(Key::MaxLength),
            _ => None,
        }
    }
}

/// The kinds of field a key fits: each is a marker trait of `tool_core`, asserted at the key.
#[derive(Debug, Clone, Copy)]
pub enum Fit {
    String,
    Number,
    Float,
    Bool,
    Array,
    Map,
}

impl Fit {
    /// `assert_KIND::<T>()`, spanned at the key.
    pub fn assertion(self, span: Span, ty: &TokenStream) -> TokenStream {
        let function = match self {
            Fit::String => quote_spanned!(span=> assert_string),
            Fit::Number => quote_spanned!(span=> assert_number),
            Fit::Float => quote_spanned!(span=> assert_float),
            Fit::Bool => quote_spanned!(span=> assert_bool),
            Fit::Array => quote_spanned!(span=> assert_array),
            Fit::Map => quote_spanned!(span=> assert_map),
        };
        quote_spanned!(span=> _tool_core::__private::#function::<#ty>();)
    }
}

#[cfg(test)]
mod tests {
    use super::Key;

    /// Every key, in declaration order: each position is checked against the enum's
    /// discriminant, and the last against `Key::Values`, the last variant.
    const ALL: [Key; 20] = [
        Key::Description,
        Key::Minimum,
        Key::Maximum,
        Key::ExclusiveMinimum,
        Key::ExclusiveMaximum,
        Key::MultipleOf,
        Key::MinLength,
        Key::MaxLength,
        Key::Pattern,
        Key::Format,
        Key::Enum,
        Key::MinItems,
        Key::MaxItems,
        Key::UniqueItems,
        Key::Default,
        Key::Examples,
        Key::MinProperties,
        Key::MaxProperties,
        Key::Items,
        Key::Values,
    ];

    const fn position(key: Key) -> usize {
        key as usize
    }

    #[test]
    fn the_readme_documents_every_key() {
        let docs = include_str!("../../tool-core/docs/tool_args.md");
        let table = &docs[docs.find("#### `#[param(..)]` keys").expect("the table")..];
        for (i, key) in ALL.iter().enumerate() {
            assert_eq!(position(*key), i, "ALL lists every key once, in order");
            assert!(table.contains(&format!("`{}", key.name())), "the #[param] table lacks `{}`", key.name());
        }
        assert_eq!(position(Key::Values) + 1, ALL.len(), "a key declared after `Values` must be listed here");
    }
}
