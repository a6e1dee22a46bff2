//! One variant as every tagging sees it: [`Variant`], read from its receiver and its
//! `#[serde]` attributes, and the check of a value as the variant's content.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Ident, Type};

use crate::attr::VariantInput;
use crate::object::Object;
use crate::serde_attr::{self, RenameRule, SerdeContainer};
use crate::util::{Doc, Result, unraw};

/// What a variant holds.
pub enum VariantShape {
    Unit,
    Newtype(Type),
    Struct(Object),
}

/// A variant on the wire (a `#[serde(skip)]` one never is).
pub struct Variant {
    /// The Rust variant.
    pub ident: Ident,
    /// Its name on the wire.
    pub name: String,
    /// Other names serde accepts for it (`alias`).
    pub aliases: Vec<String>,
    /// `#[param(description)]`, else the doc comment.
    pub description: Option<Doc>,
    /// What it holds.
    pub shape: VariantShape,
    /// Its fields as written, with their attributes (for the `Deserialize` impl).
    pub fields: Vec<syn::Field>,
    /// How its fields are named on the wire: its own `rename_all`, else the enum's
    /// `rename_all_fields`.
    pub fields_rename: Option<RenameRule>,
    /// A serde key on it that only serde's derive follows, and where.
    pub unfollowed: Option<(String, Span)>,
}

impl Variant {
    /// Reads a variant; `None` when serde skips it.
    pub fn read(input: VariantInput, container: &SerdeContainer) -> Result<Option<Variant>> {
        let serde = serde_attr::member(&input.attrs, false)?;
        if serde.skipped().is_some() {
            return Ok(None);
        }
        let own = unraw(&input.ident);
        let name = serde
            .rename
            .clone()
            .unwrap_or_else(|| container.rename_all.map_or_else(|| own.clone(), |rule| rule.apply_to_variant(&own)));
        let description = match &input.description {
            Some(text) => Some(Doc::Text((**text).clone())),
            None => Doc::from_attrs(&input.attrs),
        };
        let fields_rename = serde.rename_all.or(container.rename_all_fields);
        let fields = input.fields.fields.clone();
        let shape = match input.fields.style {
            darling::ast::Style::Unit => VariantShape::Unit,
            darling::ast::Style::Tuple => {
                let mut fields = input.fields.fields;
                match (fields.pop(), fields.is_empty()) {
                    (Some(field), true) => VariantShape::Newtype(field.ty),
                    _ => {
                        return Err(darling::Error::custom(
                            "tuple variants with several fields have no JSON Schema shape here; use a struct variant",
                        )
                        .with_span(&input.ident));
                    }
                }
            }
            darling::ast::Style::Struct => {
                VariantShape::Struct(Object::from_fields(input.fields.fields, None, fields_rename, false)?)
            }
        };
        Ok(Some(Variant {
            ident: input.ident,
            name,
            aliases: serde.aliases,
            description,
            shape,
            fields,
            fields_rename,
            unfollowed: serde.unfollowed,
        }))
    }

    /// Its name and aliases: every name serde accepts for it.
    pub fn accepted_names(&self) -> impl Iterator<Item = &str> {
        core::iter::once(self.name.as_str()).chain(self.aliases.iter().map(String::as_str))
    }
}

/// Checks `map` (an object in scope as `map`) as a struct variant's fields, with `extra`
/// more keys allowed (the tag).
pub fn struct_fields(object: &Object, extra: &[&str]) -> TokenStream {
    let schema = object.schema();
    let fields = object.fields(&quote!(&#schema));
    quote! {
        _tool_core::__private::validate_properties(map, const { &#fields }, &[#(#extra),*], at, out);
    }
}

/// The whole value (in scope as `value`) as one variant's content.
pub fn content(shape: &VariantShape, extra: &[&str]) -> TokenStream {
    match shape {
        VariantShape::Unit => quote!(_tool_core::__private::expect_null(value, at, out);),
        VariantShape::Newtype(ty) => quote!(<#ty as __tc_ToolParam>::__CHECK.validate(&mut *value, at, out);),
        VariantShape::Struct(object) => {
            let fields = struct_fields(object, extra);
            quote! {
                match &mut *value {
                    _tool_core::__private::serde_json::Value::Object(map) => { #fields }
                    other => _tool_core::__private::wrong_type(other, "an object", at, out),
                }
            }
        }
    }
}
