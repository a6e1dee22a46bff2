//! The `#[param]` keywords as data: [`KEYS`], one row per key (its name, how its value is
//! written, whether it may describe elements, the kind of field it needs), and exhaustive
//! `match`es for what a row cannot hold as data: the `KeywordKind` the schema states it as
//! (whose meaning on a JSON value the runtime's `validate/apply.rs` interprets) and the
//! typed check on a decoded value. The links between the macro and the runtime go through a
//! `match` here (or, for the few checks that take a key's arguments together, such as
//! `length_between` and the `enum_*` checks, through named functions in `param_checks.rs`),
//! never an identifier built from a string, so a key without a check is a compile error
//! here rather than a missing function in a user's build.
//!
//! Parsing (`param_keywords.rs`), the schema tokens (`param.rs`), the trait assertions and
//! the typed checks (`param_checks.rs`) all read this table, so a new keyword is a row and
//! two `match` arms here, plus its rule in `rules.rs` if it has one.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

/// A `#[param]` key. The order is the order keywords are written in a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    Title,
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
    MinProperties,
    MaxProperties,
    UniqueItems,
    Default,
    Examples,
    Deprecated,
    Items,
    Values,
}

/// How a key's value is written in `#[param(..)]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueSyntax {
    /// A string literal: `pattern = "^[a-z]+$"`.
    Text,
    /// A number, kept exact when it is an integer: `minimum = 1`, `maximum = 0.5`.
    Number,
    /// A non-negative integer: `min_length = 1`.
    Count,
    /// A flag: `unique_items`, or `unique_items = false`.
    Flag,
    /// A literal or an array of literals: `enum = ["a", "b"]`, `default = 5`.
    Json,
    /// Keywords on the elements of a sequence or the values of a map: `items(max_length = 8)`.
    Nested,
}

/// One row of [`KEYS`].
#[derive(Debug)]
pub struct Spec {
    /// The key this row describes (its index in [`KEYS`]).
    pub key: Key,
    /// The key as written in `#[param(..)]`.
    pub name: &'static str,
    /// How its value is written.
    pub shape: ValueSyntax,
    /// Whether it describes one value, so it may also sit in `items(..)` and `values(..)`.
    pub on_elements: bool,
    /// The kind of field it needs, asserted at the key; `None` where any field takes it or
    /// its value decides (`enum`, `default`).
    pub fits: Option<Fit>,
}

const fn row(key: Key, name: &'static str, shape: ValueSyntax, on_elements: bool, fits: Option<Fit>) -> Spec {
    Spec { key, name, shape, on_elements, fits }
}

/// Every key, in [`Key`]'s order.
pub const KEYS: [Spec; 22] = [
    row(Key::Title, "title", ValueSyntax::Text, false, None),
    row(Key::Description, "description", ValueSyntax::Text, true, None),
    row(Key::Minimum, "minimum", ValueSyntax::Number, true, Some(Fit::Number)),
    row(Key::Maximum, "maximum", ValueSyntax::Number, true, Some(Fit::Number)),
    row(Key::ExclusiveMinimum, "exclusive_minimum", ValueSyntax::Number, true, Some(Fit::Number)),
    row(Key::ExclusiveMaximum, "exclusive_maximum", ValueSyntax::Number, true, Some(Fit::Number)),
    row(Key::MultipleOf, "multiple_of", ValueSyntax::Number, true, Some(Fit::Number)),
    row(Key::MinLength, "min_length", ValueSyntax::Count, true, Some(Fit::String)),
    row(Key::MaxLength, "max_length", ValueSyntax::Count, true, Some(Fit::String)),
    row(Key::Pattern, "pattern", ValueSyntax::Text, true, Some(Fit::String)),
    row(Key::Format, "format", ValueSyntax::Text, true, Some(Fit::String)),
    row(Key::Enum, "enum", ValueSyntax::Json, true, None),
    row(Key::MinItems, "min_items", ValueSyntax::Count, true, Some(Fit::Array)),
    row(Key::MaxItems, "max_items", ValueSyntax::Count, true, Some(Fit::Array)),
    row(Key::MinProperties, "min_properties", ValueSyntax::Count, false, Some(Fit::Map)),
    row(Key::MaxProperties, "max_properties", ValueSyntax::Count, false, Some(Fit::Map)),
    row(Key::UniqueItems, "unique_items", ValueSyntax::Flag, true, Some(Fit::Array)),
    row(Key::Default, "default", ValueSyntax::Json, false, None),
    row(Key::Examples, "examples", ValueSyntax::Json, false, None),
    row(Key::Deprecated, "deprecated", ValueSyntax::Flag, false, None),
    row(Key::Items, "items", ValueSyntax::Nested, false, Some(Fit::Array)),
    row(Key::Values, "values", ValueSyntax::Nested, false, Some(Fit::Map)),
];

impl Key {
    /// Its row of [`KEYS`].
    #[expect(
        clippy::indexing_slicing,
        reason = "in range: the assertion below KEYS proves each row sits at its key's index"
    )]
    pub const fn spec(self) -> &'static Spec {
        &KEYS[self as usize]
    }

    /// The key as written in `#[param(..)]`.
    pub const fn name(self) -> &'static str {
        self.spec().name
    }

    /// The key written `name`.
    pub fn from_name(name: &str) -> Option<Key> {
        KEYS.iter().find(|spec| spec.name == name).map(|spec| spec.key)
    }

    /// The `KeywordKind` the schema states it as.
    pub fn kind(self) -> TokenStream {
        let variant = match self {
            Key::Title => quote!(Title),
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
            Key::Deprecated => quote!(Deprecated),
            Key::MinProperties => quote!(MinProperties),
            Key::MaxProperties => quote!(MaxProperties),
            Key::Items => quote!(Items),
            Key::Values => quote!(Values),
        };
        quote!(__tc_KeywordKind::#variant)
    }

    /// The check of the key on a decoded value, spanned at the key so a type it does not fit
    /// fails there: `satisfies::NAME::<T>(value, its value)`. `None` for keys checked only on the
    /// JSON (map sizes, keywords on elements, `unique_items`), whose field kind `param_checks.rs`
    /// asserts instead, and for those a value decides (`enum`, `default`).
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
            Key::Pattern => quote_spanned!(span=> pattern),
            Key::Format => quote_spanned!(span=> format),
            Key::Title
            | Key::Description
            | Key::Enum
            | Key::UniqueItems
            | Key::Default
            | Key::Examples
            | Key::Deprecated
            | Key::MinProperties
            | Key::MaxProperties
            | Key::Items
            | Key::Values => return None,
        };
        Some(quote_spanned!(span=> __tc_satisfies::#function))
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

// `Key::spec` indexes the table by the key: each row must sit at its key's position.
const _: () = {
    let (mut rest, mut i): (&[Spec], usize) = (&KEYS, 0);
    while let [spec, tail @ ..] = rest {
        assert!(spec.key as usize == i, "KEYS lists every key once, in Key's order");
        (rest, i) = (tail, i + 1);
    }
    assert!(Key::Values as usize + 1 == KEYS.len(), "a key declared after `Values` needs its row in KEYS");
};

#[cfg(test)]
mod tests {
    use super::KEYS;

    #[test]
    fn the_readme_documents_every_key() {
        let docs = include_str!("../../tool-core/docs/tool_args.md");
        let table = &docs[docs.find("#### `#[param(..)]` keys").expect("the table")..];
        for spec in &KEYS {
            assert!(table.contains(&format!("`{}", spec.name)), "the #[param] table lacks `{}`", spec.name);
        }
    }
}
