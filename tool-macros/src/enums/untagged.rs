//! Untagged (`#[serde(untagged)]`): a variant is its content alone, so the validator
//! tries them in order.

use proc_macro2::TokenStream;
use quote::quote;

use super::schema::{content_schema, description_tokens, object_schema};
use super::variant::{Variant, VariantShape, content};

/// The variant's branch of the `anyOf`: its content's schema, carrying its description.
pub fn branch(variant: &Variant) -> TokenStream {
    let description = description_tokens(variant.description.as_ref());
    match (&variant.shape, &variant.description) {
        (VariantShape::Struct(object), _) => {
            object_schema(&description, &object.property_list(), &object.flatten_list())
        }
        (VariantShape::Newtype(ty), Some(doc)) => quote! {
            __tc_Schema::Constrained(&_tool_core::schema::Constrained {
                schema: <#ty as __tc_ToolParam>::__SCHEMA_REF,
                keywords: &[__tc_Keyword {
                    kind: __tc_KeywordKind::Description,
                    value: __tc_KeywordValue::Text(#doc),
                }],
            })
        },
        (shape, _) => content_schema(shape).unwrap_or_else(|| quote!(__tc_Schema::Any)),
    }
}

/// The validator's body. serde tries the variants in order and takes the first that
/// deserializes; the validator does the same, and when none fits it reports the closest
/// variant's violations.
pub fn validate(variants: &[Variant]) -> TokenStream {
    let trials = variants.iter().map(|v| {
        let check = content(&v.shape, &[]);
        let name = &v.name;
        quote! {
            {
                let mut __tool_trial = _tool_core::Violations::new();
                {
                    let out = &mut __tool_trial;
                    #check
                }
                if __tool_trial.is_empty() {
                    return;
                }
                __tool_closest.offer(#name, __tool_trial, at);
            }
        }
    });
    quote! {
        let mut __tool_closest = _tool_core::__private::Closest::default();
        #(#trials)*
        __tool_closest.report(at, out);
    }
}
