//! Untagged (`#[serde(untagged)]`): a variant is its content alone, so the validator
//! tries them in order.

use proc_macro2::TokenStream;
use quote::quote;

use super::schema::{content_schema, object_schema};
use super::variant::{Variant, VariantShape, content};

/// The variant's branch of the `anyOf`: its content's schema, titled with the variant's
/// name (what a refusal names it by, whichever validator refuses) and carrying its
/// description.
pub fn branch(variant: &Variant) -> TokenStream {
    let inner = match &variant.shape {
        VariantShape::Struct(object) => {
            object_schema(&quote!(__tc_None), &object.property_list(), &object.flatten_list())
        }
        shape => content_schema(shape).unwrap_or_else(|| quote!(__tc_Schema::Any)),
    };
    let name = &variant.name;
    let description = variant
        .description
        .as_ref()
        .map(|doc| quote!(__tc_Keyword { kind: __tc_KeywordKind::Description, value: __tc_KeywordValue::Text(#doc) }));
    quote! {
        __tc_Schema::Constrained(&_tool_core::schema::Constrained {
            schema: &#inner,
            keywords: &[
                __tc_Keyword { kind: __tc_KeywordKind::Title, value: __tc_KeywordValue::Text(#name) },
                #description
            ],
        })
    }
}

/// The validator's body. serde tries the variants in order and takes the first that
/// deserializes; the validator does the same, and when none fits it reports the closest
/// variant's violations. Each variant is tried on a copy (a check may normalize what it
/// reads, `3.0` into `3`), kept only for the variant that fits: a refused call is reported on
/// the value as it was sent.
pub fn validate(variants: &[Variant]) -> TokenStream {
    let trials = variants.iter().map(|v| {
        let check = content(&v.shape, &[]);
        let name = &v.name;
        quote! {
            {
                let mut __tool_trial = _tool_core::Violations::new();
                let mut __tool_copy = ::core::clone::Clone::clone(&*value);
                {
                    let out = &mut __tool_trial;
                    let value = &mut __tool_copy;
                    #check
                }
                if __tool_trial.is_empty() {
                    *value = __tool_copy;
                    return;
                }
                __tool_closest.offer(#name, __tool_trial, at);
            }
        }
    });
    quote! {
        let mut __tool_closest = _tool_core::__private::Closest::default();
        #(#trials)*
        __tool_closest.report(value, at, out);
    }
}
