//! An object with named properties: a struct, or a struct variant of an enum. [`Object`]
//! gathers its [`Param`]s and emits the pieces both derives need: the `ObjectSchema`, the
//! property checks, lenient decoding, and which keys belong to it.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::attr::ParamField;
use crate::param::Param;
use crate::rules;
use crate::serde_attr::RenameRule;
use crate::util::{Doc, Result};

/// The properties of one object.
#[derive(Debug)]
pub struct Object {
    /// The doc comment of the struct or variant.
    pub description: Option<Doc>,
    /// The fields on the wire (skipped ones are left out).
    pub params: Vec<Param>,
    /// `#[tool_args(open)]`: unknown keys ignored.
    pub open: bool,
}

impl Object {
    /// Builds the model from named fields, reporting every bad field at once.
    pub fn from_fields(
        fields: Vec<syn::Field>,
        description: Option<Doc>,
        rename_all: Option<RenameRule>,
        container_default: bool,
    ) -> Result<Object> {
        let (object, result) = Object::read(fields, description, rename_all, container_default, false);
        result.map(|()| object)
    }

    /// [`Object::from_fields`], keeping the fields that could be read beside the errors, so
    /// that their keyword/type mismatches are reported in the same build (see
    /// [`Object::type_checks`]).
    pub fn read(
        fields: Vec<syn::Field>,
        description: Option<Doc>,
        rename_all: Option<RenameRule>,
        container_default: bool,
        fills_default: bool,
    ) -> (Object, Result) {
        let mut errors = darling::Error::accumulator();
        let mut params = Vec::new();
        for field in fields {
            let Some(field) = errors.handle(ParamField::read(&field)) else { continue };
            // A field whose keywords are already in error is left out of the type checks, so
            // one mistake gives one error.
            let checked = errors.handle(rules::field(&field)).is_some();
            if let Some(param) = errors.handle(Param::from_field(field, rename_all, container_default, fills_default))
                && !param.skip
                && checked
            {
                // One name, two fields: serde would give the wire's value to one of them, and
                // the schema would state a property twice.
                let names = || core::iter::once(&param.name).chain(&param.aliases);
                let taken = params
                    .iter()
                    .filter(|other: &&Param| !other.flatten && !param.flatten)
                    .find(|other| names().any(|name| other.name == *name || other.aliases.contains(name)));
                if let Some(taken) = taken {
                    let name = names().find(|name| taken.name == **name || taken.aliases.contains(name)).cloned();
                    errors.push(
                        darling::Error::custom(format!(
                            "two fields are named {:?} on the wire: rename one with `#[serde(rename = \"..\")]`",
                            name.unwrap_or_default()
                        ))
                        .with_span(
                            &param.field.ident.as_ref().map_or_else(proc_macro2::Span::call_site, syn::Ident::span),
                        ),
                    );
                } else {
                    params.push(param);
                }
            }
        }
        (Object { description, params, open: false }, errors.finish())
    }

    /// A never-called fn that names each keyword's trait against its field's type, as the
    /// real impls do: emitted beside the errors of a failed expansion, so a keyword on the
    /// wrong type (or an integer bound outside its type, in `const` evaluation) is reported
    /// in the same build as a bad regex.
    pub fn type_checks(&self, ident: &syn::Ident, generics: &syn::Generics) -> TokenStream {
        let generics = crate::util::bounded(generics);
        let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
        let satisfies =
            self.own().filter_map(|p| p.field.ident.as_ref().map(|field| p.satisfies_at(&quote!(&__tool_self.#field))));
        let assertions = self.assertions();
        let (const_item, const_inline) = crate::util::const_checks(&self.const_checks(), !generics.params.is_empty());
        quote! {
            #const_item
            #[allow(dead_code, unused_variables)]
            fn __tool_type_checks #impl_generics (__tool_self: &#ident #ty_generics) -> bool #where_clause {
                #assertions
                #const_inline
                true #(&& #satisfies)*
            }
        }
    }

    fn flattened(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|p| p.flatten)
    }

    fn own(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|p| !p.flatten)
    }

    /// `ObjectSchema { .. }`.
    pub fn schema(&self) -> TokenStream {
        let description = self.description_tokens();
        let properties = self.property_list();
        let flatten = self.flatten_list();
        let open = self.open;
        quote! {
            __tc_ObjectSchema {
                description: #description,
                properties: &[#(#properties),*],
                flatten: &[#(#flatten),*],
                open: #open,
            }
        }
    }

    /// `Option<&str>` tokens for the description.
    pub fn description_tokens(&self) -> TokenStream {
        if let Some(doc) = &self.description { quote!(__tc_Some(#doc)) } else { quote!(__tc_None) }
    }

    /// One `Property { .. }` per own field.
    pub fn property_list(&self) -> Vec<TokenStream> {
        self.own().map(Param::property).collect()
    }

    /// One `&Schema` per flattened field.
    pub fn flatten_list(&self) -> Vec<TokenStream> {
        self.flattened()
            .map(|p| {
                let ty = &p.field.ty;
                quote!(<#ty as __tc_ToolParam>::__SCHEMA_REF)
            })
            .collect()
    }

    /// `Fields { .. }`: how the full path checks this object, as data (`object`: a
    /// `&'static ObjectSchema` expression holding [`Object::property_list`]).
    pub fn fields(&self, object: &TokenStream) -> TokenStream {
        let fields = self.params.iter().map(|p| {
            let ty = &p.field.ty;
            if p.flatten {
                quote!(__tc_Field::Flatten(<#ty as _tool_core::param::ToolObject>::__FIELDS))
            } else {
                p.field_entry()
            }
        });
        let patterns = Param::pattern_check(self.own());
        quote! {
            __tc_Fields {
                object: #object,
                fields: &[#(#fields),*],
                patterns: #patterns,
            }
        }
    }

    /// A `bool` constant expression: whether the fast path is exact for this object.
    pub fn fast(&self) -> TokenStream {
        if self.params.iter().any(|p| !p.fast_compatible()) {
            return quote!(false);
        }
        let exact = self.params.iter().map(|p| {
            let through = p.reach(&p.field.ty);
            quote!(#through::SERDE_EXACT)
        });
        quote!(true #(&& #exact)*)
    }

    /// A `bool` expression over `self`: whether every field satisfies its keywords.
    pub fn satisfies(&self) -> TokenStream {
        let checks = self.params.iter().map(Param::satisfies);
        quote!(true #(&& #checks)*)
    }

    /// Compile-time assertions: keyword/type fit, and flattened types being structs.
    pub fn assertions(&self) -> TokenStream {
        let checks = self.params.iter().map(|p| {
            if p.flatten {
                let ty = &p.field.ty;
                quote_spanned!(ty.span()=> _tool_core::__private::assert_flatten::<#ty>();)
            } else {
                p.assertions()
            }
        });
        quote!(#(#checks)*)
    }

    /// Every property's [`Param::const_checks`].
    pub fn const_checks(&self) -> Vec<TokenStream> {
        self.params.iter().flat_map(Param::const_checks).collect()
    }
}
