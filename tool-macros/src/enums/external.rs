//! Externally tagged (serde's default): a unit variant is its name, any other an object
//! whose one key is the variant's name and whose value is its content.

use proc_macro2::TokenStream;
use quote::quote;

use super::schema::{content_schema, described_string_enum_of, description_tokens, object_schema, property};
use super::variant::{Variant, VariantShape, content};

/// The variant's branch of the `anyOf`.
pub fn branch(variant: &Variant) -> TokenStream {
    let description = description_tokens(variant.description.as_ref());
    match content_schema(&variant.shape) {
        None => described_string_enum_of(&variant.name, &description),
        Some(content) => object_schema(&description, &[property(&variant.name, &content)], &[]),
    }
}

/// The validator's body: `value` as a name, or as an object of one variant name.
pub fn validate(variants: &[Variant], listed: &[&str]) -> TokenStream {
    let units: Vec<&str> =
        variants.iter().filter(|v| matches!(v.shape, VariantShape::Unit)).flat_map(Variant::accepted_names).collect();
    let unit_arm = if units.is_empty() { TokenStream::new() } else { quote!(#(#units)|* => {}) };
    let arms = variants.iter().filter(|v| !matches!(v.shape, VariantShape::Unit)).map(|v| {
        let names = v.accepted_names();
        let check = content(&v.shape, &[]);
        quote!(#(#names)|* => { let value = __tool_inner; #check })
    });
    quote! {
        match value {
            _tool_core::__private::serde_json::Value::String(__tool_name) => match __tool_name.as_str() {
                #unit_arm
                __tool_other => _tool_core::__private::unknown_variant(__tool_other, &[#(#listed),*], at, out),
            },
            _tool_core::__private::serde_json::Value::Object(__tool_map) if __tool_map.len() == 1 => {
                if let ::core::option::Option::Some((__tool_key, __tool_inner)) = __tool_map.iter_mut().next() {
                    let __tool_mark = at.push_key(__tool_key);
                    match __tool_key.as_str() {
                        #(#arms)*
                        __tool_other => _tool_core::__private::unknown_variant(__tool_other, &[#(#listed),*], at, out),
                    }
                    at.truncate(__tool_mark);
                }
            }
            other => _tool_core::__private::wrong_type(other, "a variant name, or an object with one variant name as its key", at, out),
        }
    }
}
