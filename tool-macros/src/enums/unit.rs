//! A unit-only, externally tagged enum: a string `enum` checked as data, a `StringParam`
//! (plus, for forms, the elicitation impls) since each value is one string, and the
//! `Deserialize` impl `ToolArgs` writes.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Generics, Ident};

use super::schema::description_tokens;
use super::variant::Variant;
use crate::serde_attr::SerdeContainer;
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

/// The `Deserialize` impl `ToolArgs` writes for a unit-only enum: read as serde's derive reads
/// it (`deserialize_enum`: a variant named, or numbered, then a unit), each name looked up by
/// one `match` behind the shared `VariantIndex` seed, with serde's derive's errors.
pub fn deserialize(ident: &Ident, container: &SerdeContainer, variants: &[Variant]) -> TokenStream {
    let mut names = Vec::new();
    let mut arms = Vec::new();
    let mut values = Vec::new();
    for (index, variant) in variants.iter().enumerate() {
        // serde's derive lists each variant's names sorted, its own among its aliases.
        let mut keys: Vec<&str> =
            core::iter::once(variant.name.as_str()).chain(variant.aliases.iter().map(String::as_str)).collect();
        keys.sort_unstable();
        keys.dedup();
        names.extend(keys.iter().map(|key| (*key).to_owned()));
        arms.push(quote!(#(#keys)|* => #index,));
        let value = &variant.ident;
        // The last arm takes every index the seed lets through: no unreachable arm.
        values.push(if index + 1 == variants.len() {
            quote!(_ => #ident::#value,)
        } else {
            quote!(#index => #ident::#value,)
        });
    }
    let count = variants.len();
    let expecting = container.expecting.clone().unwrap_or_else(|| format!("enum {ident}"));
    let name = container.rename.clone().unwrap_or_else(|| ident.to_string());
    quote! {
        #[automatically_derived]
        impl<'de> __tc_Deserialize<'de> for #ident {
            fn deserialize<__D: __tc_Deserializer<'de>>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                const __VARIANTS: &[&::core::primitive::str] = &[#(#names),*];
                fn __variant(__name: &::core::primitive::str) -> ::core::primitive::usize {
                    match __name {
                        #(#arms)*
                        _ => ::core::primitive::usize::MAX,
                    }
                }
                struct __Visitor;
                impl<'de> __tc_Visitor<'de> for __Visitor {
                    type Value = #ident;
                    fn expecting(&self, __formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        __formatter.write_str(#expecting)
                    }
                    fn visit_enum<__A: _tool_core::__private::serde::de::EnumAccess<'de>>(
                        self,
                        __data: __A,
                    ) -> ::core::result::Result<#ident, __A::Error> {
                        let (__index, __access) = _tool_core::__private::serde::de::EnumAccess::variant_seed(
                            __data,
                            _tool_core::__private::VariantIndex(__variant, __VARIANTS, #count),
                        )?;
                        _tool_core::__private::serde::de::VariantAccess::unit_variant(__access)?;
                        ::core::result::Result::Ok(match __index {
                            #(#values)*
                        })
                    }
                }
                __tc_Deserializer::deserialize_enum(__deserializer, #name, __VARIANTS, __Visitor)
            }
        }
    }
}
