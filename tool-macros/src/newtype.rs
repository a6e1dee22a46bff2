//! `#[derive(ToolArgs)]` on a newtype (`struct UserId(#[param(min_length = 1)] String);`):
//! the field's type's schema and validation, plus the field's keywords and the newtype's doc
//! comment, wherever the newtype is used. The way to name a constrained value once, and the
//! way to give a foreign type a schema (`struct When(#[param(as = String, format =
//! "date-time")] #[serde(with = "..")] Foreign);`) without writing trait impls.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Generics;

use crate::attr::ParamField;
use crate::param::Param;
use crate::rules;
use crate::util::bounded;
use crate::util::{Doc, Result, const_checks};

/// The `ToolParam` impl of a newtype whose one field is `field`.
pub fn expand(
    ident: &syn::Ident,
    generics: &Generics,
    field: &syn::Field,
    description: Option<Doc>,
) -> Result<TokenStream> {
    let field = ParamField::read(field)?;
    rules::field(&field)?;
    let param = Param::from_newtype_field(field, description)?;
    let ty = param.schema_ty();
    let generics = bounded(generics);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let schema = if param.has_keywords() {
        let keywords = param.keywords();
        quote! {
            __tc_Schema::Constrained(&_tool_core::schema::Constrained {
                schema: <#ty as __tc_ToolParam>::__SCHEMA_REF,
                keywords: #keywords,
            })
        }
    } else {
        quote!(<#ty as __tc_ToolParam>::SCHEMA)
    };
    let fast = if param.fast_compatible() { quote!(<#ty as __tc_ToolParam>::SERDE_EXACT) } else { quote!(false) };
    let satisfies = param.satisfies_at(&quote!(&self.0));
    let (const_item, const_inline) = const_checks(&param.const_checks(), !generics.params.is_empty());
    let assertions = param.assertions();
    let patterns = Param::pattern_check(core::iter::once(&param));
    // A form field when its inner type is one; checked where `elicit::<T>` asks, through the
    // marker parameter.
    let mut marked = generics.clone();
    marked.params.push(syn::parse_quote!(__TcM));
    marked.make_where_clause().predicates.push(syn::parse_quote!(#ty: _tool_core::param::ElicitField<__TcM>));
    let (marked_generics, _, marked_where) = marked.split_for_impl();
    let elicit_field = crate::util::ELICIT.then(|| {
        quote! {
            #[automatically_derived]
            impl #marked_generics _tool_core::param::ElicitField<__TcM> for #ident #ty_generics #marked_where {}
        }
    });
    Ok(quote! {
        #const_item

        #[automatically_derived]
        impl #impl_generics __tc_ToolParam for #ident #ty_generics #where_clause {
            const SCHEMA: __tc_Schema = #schema;
            const SERDE_EXACT: bool = #fast;

            fn satisfies(&self) -> bool {
                #satisfies
            }

            fn validate(
                value: &mut _tool_core::__private::serde_json::Value,
                at: &mut _tool_core::Pointer,
                out: &mut _tool_core::Violations,
            ) {
                #assertions
                #const_inline
                _tool_core::__private::validate_constrained(
                    <Self as __tc_ToolParam>::__SCHEMA_REF,
                    <#ty as __tc_ToolParam>::__CHECK,
                    #patterns,
                    value,
                    at,
                    out,
                );
            }

            fn coerce(value: &mut _tool_core::__private::serde_json::Value) {
                <#ty as __tc_ToolParam>::coerce(value);
            }
        }

        #elicit_field
    })
}
