//! The `Deserialize` impl of a plain-parameter tool's hidden arguments struct, written here
//! rather than by serde's derive.
//!
//! Why: serde's derive names a field's type in three places (reading it from an array,
//! from a map, and when it is absent), and a type without `Deserialize` fails at each with a
//! note of its own, so under that derive a parameter type with neither a schema nor
//! `Deserialize` would be four errors. This impl names a parameter's type only through
//! `PlainParam`, as the struct's `ToolParam` impl does, so that type is one error. It is
//! also less code than serde's (no field enum and its visitor per struct, no reading from an
//! array, which no schema here allows), which the build benchmark shows.
//!
//! It follows the serde keys a parameter takes (`rename`, `alias`, `default`, `skip`,
//! `with`, `deserialize_with`, and those only about serializing); a parameter with any other
//! (`flatten`, a key serde refuses) gets serde's derive, which knows them all.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, ExprPath, Ident, Type};

use crate::serde_attr;
use crate::util::unraw;

/// How a parameter is read from the arguments object.
pub struct Wire {
    /// Its property's name.
    name: String,
    /// Other names accepted for it.
    aliases: Vec<String>,
    /// Its value when absent.
    absent: Absent,
    /// `skip`/`skip_deserializing`, with the key's span: never read, always its default.
    skip: Option<proc_macro2::Span>,
    /// `with = "m"` (`m::deserialize`) or `deserialize_with = "f"`.
    with: Option<ExprPath>,
    /// `#[param(as = ..)]`: a stand-in type has the schema, and the parameter's own type
    /// need only decode.
    stand_in: bool,
}

/// A parameter's value when its property is absent.
enum Absent {
    /// `None` for an `Option`, else "missing field".
    Missing,
    /// `#[serde(default)]`, with the key's span (where a type without `Default` fails).
    Default(proc_macro2::Span),
    /// `#[serde(default = "path")]`.
    Path(ExprPath),
}

impl Wire {
    /// Reads a parameter's serde attributes, or `None` when one is beyond what this impl
    /// follows (or in error, which the derive reports): the struct then derives serde's
    /// `Deserialize`.
    pub fn read(ident: &Ident, attrs: &[Attribute]) -> Option<Wire> {
        let stand_in = attrs.iter().any(names_stand_in);
        let serde = serde_attr::member(attrs, stand_in).ok()?;
        if serde.flatten || serde.only_serde || serde.rename_all.is_some() {
            return None;
        }
        let skip = serde.skipped();
        let absent = match (serde.span_of("default"), serde.default_path) {
            (_, Some(path)) => Absent::Path(path),
            (Some(span), None) => Absent::Default(span),
            (None, None) => Absent::Missing,
        };
        Some(Wire {
            name: serde.rename.unwrap_or_else(|| unraw(ident)),
            aliases: serde.aliases,
            absent,
            skip,
            with: serde.with,
            stand_in,
        })
    }
}

/// Whether `attr` is a `#[param(..)]` with an `as = ..` key.
fn names_stand_in(attr: &Attribute) -> bool {
    let syn::Meta::List(list) = &attr.meta else { return false };
    let mut trees = list.tokens.clone().into_iter().peekable();
    list.path.is_ident("param")
        && core::iter::from_fn(|| trees.next().map(|tree| (tree, trees.peek().cloned()))).any(|(tree, next)| {
            matches!(tree, proc_macro2::TokenTree::Ident(ident) if ident == "as")
                && matches!(next, Some(proc_macro2::TokenTree::Punct(punct)) if punct.as_char() == '=')
        })
}

/// `impl Deserialize for #ident`: reads the fields from a map, each through `PlainParam`
/// (or its `with` fn), refusing a key given twice, and leaves other keys to `IgnoredAny`
/// (which the dispatch's strict decoding refuses, as for serde's derive).
pub fn expand(ident: &Ident, params: &[(&Ident, &Type, Wire)]) -> TokenStream {
    let mut names: Vec<&str> =
        params.iter().filter(|(_, _, wire)| wire.skip.is_none()).map(|(_, _, w)| w.name.as_str()).collect();
    let mut slots = Vec::new();
    let mut arms = Vec::new();
    let mut keys_arms = Vec::new();
    let mut wrappers = Vec::new();
    let mut inits = Vec::new();
    let mut next_index = 0usize;
    for (i, (field, ty, wire)) in params.iter().enumerate() {
        let span = ty.span();
        let name = wire.name.as_str();
        let default = match &wire.absent {
            Absent::Missing => None,
            Absent::Default(span) => Some(quote_spanned!(*span=> ::core::default::Default::default())),
            Absent::Path(path) => Some(quote!(#path())),
        };
        if let Some(skip) = wire.skip {
            let value = default.unwrap_or_else(|| quote_spanned!(skip=> ::core::default::Default::default()));
            inits.push(quote!(#field: #value));
            continue;
        }
        let slot = format_ident!("__f{}", i);
        slots.push(quote!(let mut #slot = __tc_None;));
        let index = next_index;
        next_index += 1;
        // A name repeated among the aliases would be an unreachable pattern: a warning in
        // the user's crate.
        let mut keys = vec![name];
        for alias in &wire.aliases {
            if !keys.contains(&alias.as_str()) {
                keys.push(alias);
            }
        }
        keys_arms.push(quote!(#(#keys)|* => #index,));
        names.extend(wire.aliases.iter().map(String::as_str));
        let value = match &wire.with {
            None if wire.stand_in => quote!(__tc_MapAccess::next_value::<#ty>(&mut __map)?),
            None => quote_spanned!(span=> <#ty as __tc_PlainParam>::next_value(&mut __map)?),
            Some(path) => {
                let wrapper = format_ident!("__With{}", i);
                wrappers.push(with_wrapper(&wrapper, ty, path));
                quote!(__tc_MapAccess::next_value::<#wrapper>(&mut __map)?.0)
            }
        };
        arms.push(quote!(#index => {
            __tc_vacant(&#slot, #name)?;
            #slot = __tc_Some(#value);
        }));
        let absent = match (default, &wire.with) {
            (Some(default), _) => default,
            (None, None) if wire.stand_in => quote!(_tool_core::__private::missing_value::<#ty, __A::Error>(#name)?),
            (None, None) => quote_spanned!(span=> <#ty as __tc_PlainParam>::missing(#name)?),
            (None, Some(_)) => {
                quote!(return ::core::result::Result::Err(<__A::Error as __tc_DeError>::missing_field(#name)))
            }
        };
        inits.push(quote!(#field: match #slot { __tc_Some(__value) => __value, __tc_None => #absent }));
    }
    let type_name = ident.to_string();
    quote! {
        #[automatically_derived]
        impl<'de> __tc_Deserialize<'de> for #ident {
            fn deserialize<__D: __tc_Deserializer<'de>>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                const __NAMES: &[&::core::primitive::str] = &[#(#names),*];
                fn __field(__key: &::core::primitive::str) -> ::core::primitive::usize {
                    match __key {
                        #(#keys_arms)*
                        _ => ::core::primitive::usize::MAX,
                    }
                }
                #(#wrappers)*
                struct __Visitor;
                impl<'de> __tc_Visitor<'de> for __Visitor {
                    type Value = #ident;
                    fn expecting(&self, __formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        __formatter.write_str("an object of the tool's arguments")
                    }
                    fn visit_map<__A: __tc_MapAccess<'de>>(self, mut __map: __A) -> ::core::result::Result<#ident, __A::Error> {
                        #(#slots)*
                        while let __tc_Some(__key) = __tc_MapAccess::next_key_seed(&mut __map, __tc_FieldIndex(__field))? {
                            match __key {
                                #(#arms)*
                                _ => {
                                    __tc_MapAccess::next_value::<__tc_IgnoredAny>(&mut __map)?;
                                }
                            }
                        }
                        ::core::result::Result::Ok(#ident { #(#inits),* })
                    }
                }
                __tc_Deserializer::deserialize_struct(__deserializer, #type_name, __NAMES, __Visitor)
            }
        }
    }
}

/// A unit wrapper whose `Deserialize` is the parameter's `with` fn, as serde's derive
/// writes one.
fn with_wrapper(wrapper: &Ident, ty: &Type, path: &ExprPath) -> TokenStream {
    quote! {
        struct #wrapper(#ty);
        #[automatically_derived]
        impl<'de> __tc_Deserialize<'de> for #wrapper {
            fn deserialize<__D: __tc_Deserializer<'de>>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                ::core::result::Result::map(#path(__deserializer), #wrapper)
            }
        }
    }
}
