//! What internal and adjacent tagging share: the variant is the one an object's tag key
//! names, so both validators find it the same way and differ only in how they check the
//! rest of the object.

use proc_macro2::TokenStream;
use quote::quote;

use super::variant::Variant;

/// The validator's body: `value` as an object whose `tag` names a variant, checked (in
/// scope as `map`) by that variant's `check`.
pub fn validate(
    variants: &[Variant],
    tag: &str,
    listed: &[&str],
    check: impl Fn(&Variant) -> TokenStream,
) -> TokenStream {
    let lookup = tag_lookup(variants, tag, listed);
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let check = check(v);
        quote!(::core::option::Option::Some(#i) => { #check })
    });
    quote! {
        match value {
            _tool_core::__private::serde_json::Value::Object(map) => {
                #lookup
                match __tool_variant {
                    #(#arms)*
                    _ => {}
                }
            }
            other => _tool_core::__private::wrong_type(other, "an object", at, out),
        }
    }
}

/// A unit variant's object: the tag and nothing else.
pub fn tag_only(tag: &str) -> TokenStream {
    quote!(_tool_core::__private::reject_unknown(map, &|key: &str| key == #tag, &[#tag], at, out);)
}

/// Which variant a tag names: `Some(index)`, or `None` after reporting why not.
fn tag_lookup(variants: &[Variant], tag: &str, listed: &[&str]) -> TokenStream {
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let names = v.accepted_names();
        quote!(::core::option::Option::Some(#(#names)|*) => ::core::option::Option::Some(#i),)
    });
    quote! {
        let __tool_variant = match map.get(#tag).and_then(_tool_core::__private::serde_json::Value::as_str) {
            #(#arms)*
            _ => {
                _tool_core::__private::bad_tag(map.get(#tag), #tag, &[#(#listed),*], at, out);
                ::core::option::Option::None
            }
        };
    }
}
