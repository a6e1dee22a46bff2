//! Internally tagged (`#[serde(tag = "type")]`): one object holding the tag beside the
//! variant's fields, or beside a newtype's own fields (flattened).

use proc_macro2::TokenStream;
use quote::quote;

use super::schema::{description_tokens, object_schema, property, string_enum_of};
use super::tagged::{self, tag_only};
use super::variant::{Variant, VariantShape, struct_fields};

/// The variant's branch of the `anyOf`.
pub fn branch(variant: &Variant, tag: &str) -> TokenStream {
    let description = description_tokens(variant.description.as_ref());
    let mut properties = vec![property(tag, &string_enum_of(&variant.name))];
    let mut flatten = Vec::new();
    match &variant.shape {
        VariantShape::Unit => {}
        VariantShape::Newtype(ty) => flatten.push(quote!(<#ty as __tc_ToolParam>::__SCHEMA_REF)),
        VariantShape::Struct(object) => {
            properties.extend(object.property_list());
            flatten.extend(object.flatten_list());
        }
    }
    object_schema(&description, &properties, &flatten)
}

/// The validator's body.
pub fn validate(variants: &[Variant], tag: &str, listed: &[&str]) -> TokenStream {
    tagged::validate(variants, tag, listed, |v| match &v.shape {
        VariantShape::Unit => tag_only(tag),
        VariantShape::Newtype(ty) => quote! {
            _tool_core::__private::validate_properties(map, <#ty as _tool_core::param::ToolObject>::__FIELDS, &[#tag], at, out);
        },
        VariantShape::Struct(object) => struct_fields(object, &[tag]),
    })
}
