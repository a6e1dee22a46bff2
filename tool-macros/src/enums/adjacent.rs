//! Adjacently tagged (`#[serde(tag = "t", content = "c")]`): an object holding the tag
//! and, unless the variant is a unit, its content under the content key.

use proc_macro2::TokenStream;
use quote::quote;

use super::schema::{content_schema, description_tokens, object_schema, property, string_enum_of};
use super::tagged::{self, tag_only};
use super::variant::{Variant, VariantShape, content};

/// The variant's branch of the `anyOf`.
pub fn branch(variant: &Variant, tag: &str, content_key: &str) -> TokenStream {
    let description = description_tokens(variant.description.as_ref());
    let mut properties = vec![property(tag, &string_enum_of(&variant.name))];
    if let Some(schema) = content_schema(&variant.shape) {
        properties.push(property(content_key, &schema));
    }
    object_schema(&description, &properties, &[])
}

/// The validator's body.
pub fn validate(variants: &[Variant], tag: &str, content_key: &str, listed: &[&str]) -> TokenStream {
    tagged::validate(variants, tag, listed, |v| match &v.shape {
        VariantShape::Unit => tag_only(tag),
        shape => {
            let inner = content(shape, &[]);
            quote! {
                match map.get_mut(#content_key) {
                    ::core::option::Option::Some(value) => {
                        let __tool_mark = at.push_key(#content_key);
                        #inner
                        at.truncate(__tool_mark);
                    }
                    ::core::option::Option::None => _tool_core::__private::missing(#content_key, at, out),
                }
                _tool_core::__private::reject_unknown(map, &|key: &str| key == #tag || key == #content_key, &[#tag, #content_key], at, out);
            }
        }
    })
}
