//! The `Deserialize` impl `#[derive(ToolArgs)]` writes for an enum with data, read as serde's
//! derive reads each tagging, with serde's errors: the variant's name looked up by one
//! `match` behind the shared `VariantIndex` seed, each struct variant's fields read by the
//! same map reader a struct's are (`crate::decode`), and what each tagging shares (finding
//! the tag, buffering, trying untagged variants in turn) in `tool_core`'s hidden helpers.
//! A unit-only enum has a shorter impl of its own ([`unit_only`]).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

use super::Tagging;
use super::variant::{Variant, VariantShape};
use crate::decode::{Target, Through, Unfollowed, Wire};
use crate::serde_attr::{self, SerdeContainer};

/// The impl for `ident`, whose variants on the wire are `variants`; or the error naming each
/// serde key it does not follow.
pub fn deserialize(
    ident: &Ident,
    container: &SerdeContainer,
    tagging: &Tagging,
    variants: &[Variant],
) -> crate::util::Result<TokenStream> {
    let mut errors = darling::Error::accumulator();
    if let Some((key, span)) = &container.unfollowed {
        errors.push(Unfollowed { key: key.clone(), span: *span }.error());
    }
    let externally = matches!(tagging, Tagging::External);
    let mut readers = Vec::new();
    let mut arms = Vec::new();
    for (index, variant) in variants.iter().enumerate() {
        if let Some((key, span)) = variant.unfollowed.clone() {
            errors.push(Unfollowed { key, span }.error());
        }
        let value = &variant.ident;
        let arm = match &variant.shape {
            VariantShape::Unit => match tagging {
                Tagging::External => quote! {{
                    _tool_core::__private::serde::de::VariantAccess::unit_variant(__access)?;
                    ::core::result::Result::Ok(#ident::#value)
                }},
                Tagging::Internal { .. } => quote! {{
                    _tool_core::__private::tagged_unit(__deserializer)?;
                    ::core::result::Result::Ok(#ident::#value)
                }},
                Tagging::Adjacent { .. } | Tagging::Untagged => {
                    let path = format!("{ident}::{value}");
                    quote! {{
                        _tool_core::__private::unit_content(__deserializer, #path)?;
                        ::core::result::Result::Ok(#ident::#value)
                    }}
                }
            },
            VariantShape::Newtype(ty) => {
                // serde's keys on a newtype variant's field change its decoding only.
                if let Some(field) = variant.fields.first() {
                    match serde_attr::member(&field.attrs, false) {
                        Ok(serde) => {
                            let first = serde.spans.first().map(|(key, span)| ((*key).to_owned(), *span));
                            if let Some((key, span)) = first.or(serde.unfollowed) {
                                errors.push(Unfollowed { key, span }.error());
                            }
                        }
                        Err(error) => errors.push(error),
                    }
                }
                let content = if externally {
                    quote!(_tool_core::__private::serde::de::VariantAccess::newtype_variant::<#ty>(__access))
                } else {
                    quote!(<#ty as __tc_Deserialize>::deserialize(__deserializer))
                };
                quote!(::core::result::Result::map(#content, #ident::#value))
            }
            VariantShape::Struct(_) => {
                let mut wires = Vec::new();
                let mut unread = false;
                for field in &variant.fields {
                    let Some(field_ident) = &field.ident else { continue };
                    match Wire::read(field_ident, &field.attrs, variant.fields_rename) {
                        Ok(wire) => wires.push((field_ident, &field.ty, wire)),
                        Err(Some(unfollowed)) => errors.push(unfollowed.error()),
                        Err(None) => unread = true,
                    }
                }
                if unread {
                    continue;
                }
                let target = Target {
                    ident,
                    generics: &syn::Generics::default(),
                    expecting: format!("struct variant {ident}::{value}"),
                    name: String::new(),
                    through: Through::Serde,
                    container_default: false,
                    deny_unknown_fields: container.deny_unknown_fields,
                };
                let suffix = index.to_string();
                readers.push(crate::decode::map_reader(&target, &wires, &suffix, &quote!(#ident::#value)));
                let names = format_ident!("__NAMES{}", suffix);
                let visitor = format_ident!("__Visitor{}", suffix);
                if externally {
                    quote! {
                        _tool_core::__private::serde::de::VariantAccess::struct_variant(
                            __access, #names, #visitor(::core::marker::PhantomData),
                        )
                    }
                } else {
                    quote!(__tc_Deserializer::deserialize_any(__deserializer, #visitor(::core::marker::PhantomData)))
                }
            }
        };
        // The last arm takes every index the seed lets through: no unreachable arm.
        arms.push(if index + 1 == variants.len() { quote!(_ => #arm,) } else { quote!(#index => #arm,) });
    }
    errors.finish()?;
    let lookup = variant_lookup(variants);
    let count = variants.len();
    let seed = quote!(_tool_core::__private::VariantIndex(__variant, __VARIANTS, #count));
    let rust_name = ident.to_string();
    let name = container.rename.clone().unwrap_or_else(|| rust_name.clone());
    let expecting = |default: String| container.expecting.clone().unwrap_or(default);
    let body = match tagging {
        Tagging::External => {
            let after = quote!(match __index { #(#arms)* });
            external(ident, container, &seed, &after)
        }
        Tagging::Internal { tag } => {
            let expecting = expecting(format!("internally tagged enum {ident}"));
            quote! {
                let (__index, __entries) = __tc_Deserializer::deserialize_any(
                    __deserializer,
                    _tool_core::__private::TaggedObject { tag: #tag, variant: #seed, expecting: #expecting },
                )?;
                _tool_core::__private::from_entries(__Seed(__index), __entries)
            }
        }
        Tagging::Adjacent { tag, content } => {
            let expecting = expecting(format!("adjacently tagged enum {ident}"));
            let deny = container.deny_unknown_fields;
            quote! {
                __tc_Deserializer::deserialize_struct(
                    __deserializer,
                    #name,
                    &[#tag, #content],
                    _tool_core::__private::AdjacentlyTagged {
                        tag: #tag,
                        content: #content,
                        variant: #seed,
                        enum_name: #rust_name,
                        deny_unknown_fields: #deny,
                        expecting: #expecting,
                        seed: __Seed,
                    },
                )
            }
        }
        Tagging::Untagged => {
            let fallthrough = expecting(format!("data did not match any variant of untagged enum {ident}"));
            quote! {
                let __value: _tool_core::__private::serde_json::Value = __tc_Deserialize::deserialize(__deserializer)?;
                for __index in 0..#count {
                    if let __tc_Some(__ok) = _tool_core::__private::untagged(__Seed(__index), &__value) {
                        return ::core::result::Result::Ok(__ok);
                    }
                }
                ::core::result::Result::Err(<__D::Error as __tc_DeError>::custom(#fallthrough))
            }
        }
    };
    // Every tagging but the external one reads the variant's content through one seed.
    let seed_item = (!externally).then(|| {
        quote! {
            struct __Seed(::core::primitive::usize);
            impl<'de> _tool_core::__private::serde::de::DeserializeSeed<'de> for __Seed {
                type Value = #ident;
                fn deserialize<__D: __tc_Deserializer<'de>>(self, __deserializer: __D) -> ::core::result::Result<#ident, __D::Error> {
                    match self.0 { #(#arms)* }
                }
            }
        }
    });
    Ok(quote! {
        #[automatically_derived]
        impl<'de> __tc_Deserialize<'de> for #ident {
            fn deserialize<__D: __tc_Deserializer<'de>>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                #lookup
                #(#readers)*
                #seed_item
                #body
            }
        }
    })
}

/// The `Deserialize` impl of a unit-only enum: read as serde's derive reads it (a variant
/// named, or numbered, then a unit).
pub fn unit_only(ident: &Ident, container: &SerdeContainer, variants: &[Variant]) -> TokenStream {
    let lookup = variant_lookup(variants);
    let values = variants.iter().enumerate().map(|(index, variant)| {
        let value = &variant.ident;
        // The last arm takes every index the seed lets through: no unreachable arm.
        if index + 1 == variants.len() { quote!(_ => #ident::#value,) } else { quote!(#index => #ident::#value,) }
    });
    let count = variants.len();
    let seed = quote!(_tool_core::__private::VariantIndex(__variant, __VARIANTS, #count));
    let after = quote! {
        _tool_core::__private::serde::de::VariantAccess::unit_variant(__access)?;
        ::core::result::Result::Ok(match __index {
            #(#values)*
        })
    };
    let body = external(ident, container, &seed, &after);
    quote! {
        #[automatically_derived]
        impl<'de> __tc_Deserialize<'de> for #ident {
            fn deserialize<__D: __tc_Deserializer<'de>>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                #lookup
                #body
            }
        }
    }
}

/// The externally tagged reading (serde's default): `deserialize_enum`, the variant's index
/// by `seed`, then `after`, with the index and the variant's access in scope.
fn external(ident: &Ident, container: &SerdeContainer, seed: &TokenStream, after: &TokenStream) -> TokenStream {
    let expecting = container.expecting.clone().unwrap_or_else(|| format!("enum {ident}"));
    let name = container.rename.clone().unwrap_or_else(|| ident.to_string());
    quote! {
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
                let (__index, __access) = _tool_core::__private::serde::de::EnumAccess::variant_seed(__data, #seed)?;
                #after
            }
        }
        __tc_Deserializer::deserialize_enum(__deserializer, #name, __VARIANTS, __Visitor)
    }
}

/// `__VARIANTS` (serde's derive lists each variant's names sorted, its own among its
/// aliases) and `__variant`, the index of the variant a name names.
fn variant_lookup(variants: &[Variant]) -> TokenStream {
    let mut names = Vec::new();
    let mut arms = Vec::new();
    for (index, variant) in variants.iter().enumerate() {
        let mut keys: Vec<&str> = variant.accepted_names().collect();
        keys.sort_unstable();
        keys.dedup();
        names.extend(keys.iter().map(|key| (*key).to_owned()));
        arms.push(quote!(#(#keys)|* => #index,));
    }
    quote! {
        const __VARIANTS: &[&::core::primitive::str] = &[#(#names),*];
        fn __variant(__name: &::core::primitive::str) -> ::core::primitive::usize {
            match __name {
                #(#arms)*
                _ => ::core::primitive::usize::MAX,
            }
        }
    }
}
