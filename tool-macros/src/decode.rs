//! The `Deserialize` impl the macros write: `#[derive(ToolArgs)]` for a struct, and
//! `#[tool]` for a plain-parameter tool's hidden arguments struct, rather than serde's derive.
//!
//! Why: one derive makes a type a tool's arguments, and it costs the build less than
//! serde's. This impl reads a map only (no field enum and its visitor per struct, no reading
//! from an array, which no object schema allows); the key lookup is one `match` per struct,
//! behind one shared seed. For a plain parameter it names the type only through
//! `PlainParam`, as the struct's `ToolParam` impl does, so a type with neither a schema nor
//! `Deserialize` fails with one message (serde's derive adds one per place it names it).
//!
//! It follows the serde keys a field takes (`rename`, `alias`, `default`, `skip`, `with`,
//! `deserialize_with`, and those only about serializing) and a struct's (`rename`,
//! `rename_all`, `default`, `deny_unknown_fields`, `expecting`). A key beyond these
//! (`flatten`, `bound`, `borrow`, …) is named by [`Unfollowed`]: the struct then needs
//! serde's derive (`#[tool_args(serde)]`), and a plain-parameter tool gets it.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, ExprPath, Generics, Ident, Type};

use crate::serde_attr::{self, RenameRule};
use crate::util::unraw;

/// How a field is read from the arguments object.
pub struct Wire {
    /// Its property's name.
    name: String,
    /// Other names accepted for it.
    aliases: Vec<String>,
    /// Its value when absent.
    absent: Absent,
    /// `skip`/`skip_deserializing`, with the key's span: never read, always its default.
    skip: Option<Span>,
    /// `with = "m"` (`m::deserialize`) or `deserialize_with = "f"`.
    with: Option<ExprPath>,
    /// `#[param(as = ..)]`: a stand-in type has the schema, and the field's own type need
    /// only decode.
    stand_in: bool,
}

/// A field's value when its property is absent.
enum Absent {
    /// `None` for an `Option`, else "missing field".
    Missing,
    /// `#[serde(default)]`, with the key's span (where a type without `Default` fails).
    Default(Span),
    /// `#[serde(default = "path")]`.
    Path(ExprPath),
    /// `#[param(default = ..)]` alone: its JSON text, decoded as the field's type.
    Stated(String),
}

/// A serde key this impl does not follow, and where it is.
pub struct Unfollowed {
    /// The key, as written.
    pub key: String,
    /// Its span.
    pub span: Span,
}

impl Unfollowed {
    /// The error for a struct deriving `ToolArgs` alone.
    pub fn error(&self) -> darling::Error {
        darling::Error::custom(format!(
            "`ToolArgs` does not decode `#[serde({})]`: derive `serde::Deserialize` beside it and add `#[tool_args(serde)]`, so that serde's derive decodes the type",
            self.key
        ))
        .with_span(&self.span)
    }
}

impl Wire {
    /// Reads a field's serde attributes. `Err(None)` when they are in error (the derive
    /// reports that); `Err(Some(key))` for a key beyond what this impl follows.
    pub fn read(
        ident: &Ident,
        attrs: &[Attribute],
        rename_all: Option<RenameRule>,
    ) -> Result<Wire, Option<Unfollowed>> {
        let stand_in = attrs.iter().any(names_stand_in);
        let serde = serde_attr::member(attrs, stand_in).map_err(|_| None)?;
        let unfollowed = |key: &str| {
            let span = serde.span_of(key).unwrap_or_else(|| ident.span());
            Some(Unfollowed { key: key.to_owned(), span })
        };
        if serde.flatten {
            return Err(unfollowed("flatten"));
        }
        if let Some((key, span)) = serde.unfollowed {
            return Err(Some(Unfollowed { key, span }));
        }
        if serde.rename_all.is_some() {
            return Err(unfollowed("rename_all"));
        }
        let skip = serde.skipped();
        let absent = match (serde.span_of("default"), serde.default_path) {
            (_, Some(path)) => Absent::Path(path),
            (Some(span), None) => Absent::Default(span),
            (None, None) => stated_default(ident, attrs).map_or(Absent::Missing, Absent::Stated),
        };
        let own = unraw(ident);
        let name =
            serde.rename.unwrap_or_else(|| rename_all.map_or_else(|| own.clone(), |rule| rule.apply_to_field(&own)));
        Ok(Wire { name, aliases: serde.aliases, absent, skip, with: serde.with, stand_in })
    }
}

/// The JSON text of `#[param(default = ..)]` among `attrs`, if the field states one.
fn stated_default(ident: &Ident, attrs: &[Attribute]) -> Option<String> {
    let field: syn::Field = syn::parse_quote!(#(#attrs)* #ident: ());
    // A malformed attribute is the schema side's to report.
    let field = crate::attr::ParamField::read(&field).ok()?;
    field.keywords.json(crate::keyword::Key::Default).map(ToString::to_string)
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

/// How the fields' types are read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Through {
    /// `PlainParam`: a plain parameter's type.
    Plain,
    /// serde's `Deserialize`: a field of a struct the user wrote.
    Serde,
}

/// The struct an impl is written for.
pub struct Target<'a> {
    /// Its name.
    pub ident: &'a Ident,
    /// Its generics: each type parameter must decode, owning its data.
    pub generics: &'a Generics,
    /// What a wrong value's error says was expected.
    pub expecting: String,
    /// The name serde's `deserialize_struct` is given.
    pub name: String,
    /// How its fields' types are read.
    pub through: Through,
    /// `#[serde(default)]` on the struct: an absent field takes the struct default's.
    pub container_default: bool,
    /// `#[serde(deny_unknown_fields)]`.
    pub deny_unknown_fields: bool,
}

/// The `Deserialize` impl of a struct deriving `ToolArgs`, or the error naming each serde
/// key it does not follow.
pub fn for_struct(
    target: &Target<'_>,
    fields: &[syn::Field],
    container: &serde_attr::SerdeContainer,
) -> crate::util::Result<TokenStream> {
    let mut errors = darling::Error::accumulator();
    if let Some((key, span)) = &container.unfollowed {
        errors.push(Unfollowed { key: key.clone(), span: *span }.error());
    }
    if container.tag.is_some() {
        errors.push(Unfollowed { key: "tag".to_owned(), span: target.ident.span() }.error());
    }
    let mut wires = Vec::new();
    let mut unread = false;
    for field in fields {
        let Some(ident) = &field.ident else { continue };
        match Wire::read(ident, &field.attrs, container.rename_all) {
            Ok(wire) => wires.push((ident, &field.ty, wire)),
            Err(Some(unfollowed)) => errors.push(unfollowed.error()),
            // The derive reports the attribute's error.
            Err(None) => unread = true,
        }
    }
    errors.finish()?;
    Ok(if unread { TokenStream::new() } else { expand(target, &wires) })
}

/// The `Deserialize` impl of a newtype deriving `ToolArgs`: its field's value (or its
/// `with` fn's, under a stand-in type), as serde's derive reads a newtype from JSON.
pub fn newtype(ident: &Ident, generics: &Generics, field: &syn::Field) -> crate::util::Result<TokenStream> {
    let mut errors = darling::Error::accumulator();
    let stand_in = field.attrs.iter().any(names_stand_in);
    // An attribute in error is the schema side's to report.
    let serde = serde_attr::member(&field.attrs, stand_in).unwrap_or_default();
    if let Some((key, span)) = serde.unfollowed {
        errors.push(Unfollowed { key, span }.error());
    }
    errors.finish()?;
    let ty = &field.ty;
    let value = if let Some(path) = &serde.with {
        quote!(#path(__deserializer))
    } else {
        quote!(<#ty as __tc_Deserialize<'de>>::deserialize(__deserializer))
    };
    let (_, ty_generics, _) = generics.split_for_impl();
    let de_generics = owned_generics(generics);
    let (de_impl_generics, _, de_where) = de_generics.split_for_impl();
    Ok(quote! {
        #[automatically_derived]
        impl #de_impl_generics __tc_Deserialize<'de> for #ident #ty_generics #de_where {
            fn deserialize<__D: __tc_Deserializer<'de>>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                ::core::result::Result::map(#value, #ident)
            }
        }
    })
}

/// `generics` with `'de` first and each type parameter bound to decode owning its data.
fn owned_generics(generics: &Generics) -> Generics {
    let mut de_generics = generics.clone();
    for param in de_generics.type_params_mut() {
        param.bounds.push(syn::parse_quote!(_tool_core::__private::serde::de::DeserializeOwned));
    }
    de_generics.params.insert(0, syn::parse_quote!('de));
    de_generics
}

/// `impl Deserialize for #ident`: reads the fields from a map ([`map_reader`]) through
/// `deserialize_struct`.
pub fn expand(target: &Target<'_>, fields: &[(&Ident, &Type, Wire)]) -> TokenStream {
    let ident = target.ident;
    let reader = map_reader(target, fields, "", &quote!(#ident));
    let (_, ty_generics, _) = target.generics.split_for_impl();
    let de_generics = owned_generics(target.generics);
    let (de_impl_generics, _, de_where) = de_generics.split_for_impl();
    let name = &target.name;
    quote! {
        #[automatically_derived]
        impl #de_impl_generics __tc_Deserialize<'de> for #ident #ty_generics #de_where {
            fn deserialize<__D: __tc_Deserializer<'de>>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                #reader
                __tc_Deserializer::deserialize_struct(__deserializer, #name, __NAMES, __Visitor(::core::marker::PhantomData))
            }
        }
    }
}

/// The items that read a struct's fields (or a struct variant's) from a map, named with
/// `suffix` (`__NAMES`, `__field`, `__Visitor`, each followed by it): each field through its
/// type's `Deserialize` (or `PlainParam`, or its `with` fn), a key given twice refused, other
/// keys left to `IgnoredAny` (which the dispatch's strict decoding refuses, as for serde's
/// derive) unless the struct denies them; the value is `#constructor { .. }`.
pub fn map_reader(
    target: &Target<'_>,
    fields: &[(&Ident, &Type, Wire)],
    suffix: &str,
    constructor: &TokenStream,
) -> TokenStream {
    let ident = target.ident;
    let through = target.through;
    // serde's derive lists each field's names sorted, its own among its aliases.
    let names: Vec<String> = fields
        .iter()
        .filter(|(_, _, wire)| wire.skip.is_none())
        .flat_map(|(_, _, wire)| {
            let mut names: Vec<String> = core::iter::once(&wire.name).chain(&wire.aliases).cloned().collect();
            names.sort();
            names.dedup();
            names
        })
        .collect();
    let mut slots = Vec::new();
    let mut arms = Vec::new();
    let mut keys_arms = Vec::new();
    let mut wrappers = Vec::new();
    let mut inits = Vec::new();
    let mut next_index = 0usize;
    let from_default = |field: &Ident| target.container_default.then(|| quote!(__default.#field));
    for (i, (field, ty, wire)) in fields.iter().enumerate() {
        let span = ty.span();
        let name = wire.name.as_str();
        let default = match &wire.absent {
            Absent::Missing => from_default(field),
            Absent::Default(span) => Some(quote_spanned!(*span=> ::core::default::Default::default())),
            Absent::Path(path) => Some(quote!(#path())),
            Absent::Stated(json) => {
                Some(quote!(_tool_core::__private::stated_default::<#ty, __A::Error>(#name, #json)?))
            }
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
        let plain = through == Through::Plain && !wire.stand_in;
        let value = match &wire.with {
            None if plain => quote_spanned!(span=> <__tc_Plain<#ty>>::next_value(&mut __map)?),
            None => quote!(__tc_MapAccess::next_value::<#ty>(&mut __map)?),
            Some(path) => {
                let wrapper = format_ident!("__With{}F{}", suffix, i);
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
            (None, None) if plain => quote_spanned!(span=> <__tc_Plain<#ty>>::missing(#name)?),
            (None, None) => quote!(_tool_core::__private::missing_value::<#ty, __A::Error>(#name)?),
            (None, Some(_)) => {
                quote!(return ::core::result::Result::Err(<__A::Error as __tc_DeError>::missing_field(#name)))
            }
        };
        inits.push(quote!(#field: match #slot { __tc_Some(__value) => __value, __tc_None => #absent }));
    }
    let names_const = format_ident!("__NAMES{}", suffix);
    let field_fn = format_ident!("__field{}", suffix);
    let visitor = format_ident!("__Visitor{}", suffix);
    // Under `deny_unknown_fields` the seed refuses a key no field names, so the last arm
    // only ever skips a value for the other seed.
    let key_seed = if target.deny_unknown_fields {
        quote!(__tc_KnownField(#field_fn, #names_const))
    } else {
        quote!(__tc_FieldIndex(#field_fn))
    };
    let default =
        target.container_default.then(|| quote!(let __default: Self::Value = ::core::default::Default::default();));
    let (visitor_generics, ty_generics, where_clause) = target.generics.split_for_impl();
    let de_generics = owned_generics(target.generics);
    let (de_impl_generics, _, de_where) = de_generics.split_for_impl();
    let expecting = &target.expecting;
    quote! {
        const #names_const: &[&::core::primitive::str] = &[#(#names),*];
        fn #field_fn(__key: &::core::primitive::str) -> ::core::primitive::usize {
            match __key {
                #(#keys_arms)*
                _ => ::core::primitive::usize::MAX,
            }
        }
        #(#wrappers)*
        struct #visitor #visitor_generics (::core::marker::PhantomData<fn() -> #ident #ty_generics>) #where_clause;
        impl #de_impl_generics __tc_Visitor<'de> for #visitor #ty_generics #de_where {
            type Value = #ident #ty_generics;
            fn expecting(&self, __formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                __formatter.write_str(#expecting)
            }
            fn visit_map<__A: __tc_MapAccess<'de>>(self, mut __map: __A) -> ::core::result::Result<Self::Value, __A::Error> {
                #(#slots)*
                while let __tc_Some(__key) = __tc_MapAccess::next_key_seed(&mut __map, #key_seed)? {
                    match __key {
                        #(#arms)*
                        _ => {
                            __tc_MapAccess::next_value::<__tc_IgnoredAny>(&mut __map)?;
                        }
                    }
                }
                #default
                ::core::result::Result::Ok(#constructor { #(#inits),* })
            }
        }
    }
}

/// A unit wrapper whose `Deserialize` is the field's `with` fn, as serde's derive writes
/// one.
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
