//! The schema pieces the branches of every tagging are built from: descriptions, a
//! one-value string enum for a tag, a required property, a closed object, and a variant's
//! content.

use proc_macro2::TokenStream;
use quote::quote;

use super::variant::VariantShape;
use crate::util::Doc;

/// `Some(doc)` or `None`, as the schema's `Option<&str>`.
pub fn description_tokens(doc: Option<&Doc>) -> TokenStream {
    if let Some(doc) = doc { quote!(__tc_Some(#doc)) } else { quote!(__tc_None) }
}

/// The string enum whose one value is `name`: a tag's schema.
pub fn string_enum_of(name: &str) -> TokenStream {
    described_string_enum_of(name, &quote!(__tc_None))
}

/// [`string_enum_of`] with a description: an externally tagged unit variant.
pub fn described_string_enum_of(name: &str, description: &TokenStream) -> TokenStream {
    quote!(__tc_Schema::StringEnum(&_tool_core::schema::StringEnum {
        description: #description,
        values: &[#name],
        titles: &[],
        enum_names: false,
    }))
}

/// A required property named `name`.
pub fn property(name: &str, schema: &TokenStream) -> TokenStream {
    quote!(__tc_Property { name: #name, schema: &#schema, keywords: &[], required: true })
}

/// A closed object.
pub fn object_schema(description: &TokenStream, properties: &[TokenStream], flatten: &[TokenStream]) -> TokenStream {
    quote!(__tc_Schema::Object(&__tc_ObjectSchema {
        description: #description,
        properties: &[#(#properties),*],
        flatten: &[#(#flatten),*],
        open: false,
    }))
}

/// The schema of what a variant holds; `None` for a unit variant.
pub fn content_schema(shape: &VariantShape) -> Option<TokenStream> {
    let none = quote!(__tc_None);
    match shape {
        VariantShape::Unit => None,
        VariantShape::Newtype(ty) => Some(quote!(<#ty as __tc_ToolParam>::SCHEMA)),
        VariantShape::Struct(object) => Some(object_schema(&none, &object.property_list(), &object.flatten_list())),
    }
}
