//! A unit-only, externally tagged enum: a string `enum` checked as data, a `StringParam`
//! (plus, for forms, the elicitation impls) since each value is one string, and the
//! `Deserialize` impl `ToolArgs` writes.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Generics, Ident};

use super::schema::description_tokens;
use super::variant::Variant;
use crate::util::Doc;

/// `enum Units { Celsius, Fahrenheit }` → `{"type":"string","enum":["Celsius","Fahrenheit"]}`:
/// the schema, and the `__CHECK` that checks a value against it.
pub fn schema(description: Option<&Doc>, variants: &[Variant], enum_names: bool) -> (TokenStream, TokenStream) {
    let description = description_tokens(description);
    let listed = variants.iter().map(|v| v.name.as_str());
    let accepted = variants.iter().flat_map(Variant::accepted_names);
    let listed_again = listed.clone();
    let titles = variants.iter().map(|v| description_tokens(v.description.as_ref()));
    let schema = quote! {
        __tc_Schema::StringEnum(&_tool_core::schema::StringEnum {
            description: #description,
            values: &[#(#listed),*],
            titles: &[#(#titles),*],
            enum_names: #enum_names,
        })
    };
    // Checked as data: no code per enum.
    let check = quote! {
        const __CHECK: __tc_Check = __tc_Check::UnitVariant {
            accepted: &[#(#accepted),*],
            listed: &[#(#listed_again),*],
        };
    };
    (schema, check)
}

/// The `StringParam` impl, and the elicitation impls when they are emitted.
pub fn string_param(ident: &Ident, generics: &Generics, variants: &[Variant]) -> TokenStream {
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    // A string enum: a form field, and a choice a form's list can offer.
    let elicit = crate::util::ELICIT.then(|| {
        quote! {
            #[automatically_derived]
            impl<__TcM> _tool_core::param::ElicitField<__TcM> for #ident {}
            #[automatically_derived]
            impl _tool_core::param::ElicitChoice for #ident {}
        }
    });
    let arms = variants.iter().map(|v| {
        let variant = &v.ident;
        let name = &v.name;
        quote!(Self::#variant => #name,)
    });
    quote! {
        #elicit

        #[automatically_derived]
        impl #impl_generics _tool_core::param::StringParam for #ident #ty_generics #where_clause {
            #[allow(unreachable_patterns)] // a `#[serde(skip)]` variant has no string
            fn with_str<__R>(&self, f: impl ::core::ops::FnOnce(&str) -> __R) -> ::core::option::Option<__R> {
                ::core::option::Option::Some(f(match self {
                    #(#arms)*
                    _ => return ::core::option::Option::None,
                }))
            }
        }
    }
}
