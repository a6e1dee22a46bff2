//! One property of an object: the [`Param`] model built from a field's `#[param]` and
//! `#[serde]` attributes, and the tokens it contributes to the schema (its `Property` and
//! keywords) and to the validator (its `Field` entry). The checks its keywords emit into
//! generated code are in `param_checks.rs`; the compile-time rules on them, in `rules.rs`.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use crate::attr::{Element, ParamField};
use crate::keyword::Key;
use crate::serde_attr::{self, RenameRule};
use crate::util::{Doc, Result, unraw};

/// A field as the schema sees it.
#[derive(Debug)]
pub struct Param {
    /// The field's own attributes, keywords included.
    pub field: ParamField,
    /// The property name on the wire.
    pub name: String,
    /// Other names serde accepts for it (`alias`).
    pub aliases: Vec<String>,
    /// The description: `#[param(description)]`, else the doc comment.
    pub description: Option<Doc>,
    /// Whether serde fills it when absent (`#[serde(default)]` here or on the container).
    pub has_default: bool,
    /// `#[serde(flatten)]`: its properties are merged into the parent's.
    pub flatten: bool,
    /// `#[serde(skip)]`/`skip_deserializing`: not on the wire at all.
    pub skip: bool,
    /// Which trait the impls reach the field's type through.
    pub reach: Reach,
}

/// The trait a field's type is reached through (see [`Param::param_trait`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// `ToolParam`: a field of a struct the user wrote.
    ToolParam,
    /// `PlainParam`: a plain parameter of a `#[tool]` fn.
    PlainParam,
}

impl Param {
    /// Builds the model of a named field.
    /// `fills_default`: the derive writes the `Deserialize` impl, which fills an absent field
    /// from `#[param(default = ..)]` itself; serde's derive cannot, so it needs serde's own key.
    pub fn from_field(
        field: ParamField,
        rename_all: Option<RenameRule>,
        container_default: bool,
        fills_default: bool,
    ) -> Result<Param> {
        let serde = serde_attr::member(&field.attrs, field.as_type.is_some())?;
        if let (Some(stand_in), true) = (&field.as_type, serde.flatten) {
            return Err(darling::Error::custom(
                "`as` cannot stand in for a flattened field: its properties come from its own `ToolArgs` impl",
            )
            .with_span(&stand_in.span()));
        }
        if serde.flatten && is_map(&field.ty) {
            return Err(darling::Error::custom(
                "a flattened map takes every key the struct does not name, which the closed object schema cannot state; make the map a field of its own (`extra: HashMap<String, T>`)",
            )
            .with_span(&field.ty));
        }
        let ident = field
            .ident
            .as_ref()
            .ok_or_else(|| darling::Error::custom("expected a named field").with_span(&field.ty))?;
        let own = unraw(ident);
        let name = serde
            .rename
            .clone()
            .unwrap_or_else(|| rename_all.map_or_else(|| own.clone(), |rule| rule.apply_to_field(&own)));
        let description = match field.keywords.text(Key::Description) {
            Some(text) => Some(Doc::Text((**text).clone())),
            None => Doc::from_attrs(&field.attrs),
        };
        let stated = field.keywords.json(Key::Default).is_some();
        let has_default = serde.has_default() || container_default || (stated && fills_default);
        if let Some(default) =
            field.keywords.json(Key::Default).filter(|_| !has_default && !is_option(schema_ty(&field)))
        {
            return Err(darling::Error::custom(format!(
                "`default = {default}` is what the model reads, but serde's decoding of this field (under `#[tool_args(serde)]`, or in an enum variant) fills nothing when it is absent: add `#[serde(default)]` (with `impl Default` giving the same value), or `#[serde(default = \"path\")]` naming a fn that returns it"
            ))
            .with_span(&default.span));
        }
        let skip = serde.skipped().is_some();
        Ok(Param {
            name,
            aliases: serde.aliases,
            description,
            has_default,
            flatten: serde.flatten,
            skip,
            reach: Reach::ToolParam,
            field,
        })
    }

    /// Builds the model of a newtype's one field: no name on the wire, and the newtype's
    /// own doc comment as the description when the field has none.
    pub fn from_newtype_field(field: ParamField, container_description: Option<Doc>) -> Result<Param> {
        let serde = serde_attr::member(&field.attrs, field.as_type.is_some())?;
        let refused = [
            (serde.flatten, "`#[serde(flatten)]`"),
            (serde.skipped().is_some(), "`#[serde(skip)]`"),
            (serde.has_default(), "`#[serde(default)]`"),
        ];
        if let Some((_, what)) = refused.iter().find(|(set, _)| *set) {
            return Err(darling::Error::custom(format!(
                "{what} does not apply to a newtype's field: the newtype is its field's value, not an object"
            ))
            .with_span(&field.ty));
        }
        if let Some(default) = field.keywords.json(Key::Default) {
            return Err(darling::Error::custom(
                "`default` belongs on the field that uses the newtype: whether a value may be absent is that field's business",
            )
            .with_span(&default.span));
        }
        let description = match field.keywords.text(Key::Description) {
            Some(text) => Some(Doc::Text((**text).clone())),
            None => Doc::from_attrs(&field.attrs).or(container_description),
        };
        Ok(Param {
            name: String::new(),
            aliases: Vec::new(),
            description,
            has_default: false,
            flatten: false,
            skip: false,
            reach: Reach::ToolParam,
            field,
        })
    }

    /// Whether the field carries a keyword or a description of its own.
    pub fn has_keywords(&self) -> bool {
        self.description.is_some() || !self.field.keywords.is_empty()
    }

    /// The type whose schema and validation the property has: `#[param(as = ..)]`, else the
    /// field's own.
    pub fn schema_ty(&self) -> &syn::Type {
        schema_ty(&self.field)
    }

    /// The path the impls name the field's type `ty` through: `<ty as ToolParam>`, or for a
    /// plain parameter `<Plain<ty>>`, which the hidden struct's `Deserialize` impl names too,
    /// and which falls back to stand-ins when `ty` is no `PlainParam`: the one error about
    /// such a type is then the one place that names `<ty as PlainParam>`, its property's
    /// schema (see `tool_core::__private::PlainParam`). A stand-in type (`as`) is not
    /// decoded: it is reached through `ToolParam`.
    pub fn reach(&self, ty: &impl quote::ToTokens) -> TokenStream {
        if self.is_plain() { quote!(<__tc_Plain<#ty>>) } else { quote!(<#ty as __tc_ToolParam>) }
    }

    fn is_plain(&self) -> bool {
        self.reach == Reach::PlainParam && self.field.as_type.is_none()
    }

    /// `items(..)` and `values(..)`: the elements' keywords as a property of the element type,
    /// with the key's span.
    pub fn elements(&self) -> Vec<(Element, Span, Param)> {
        [Element::Items, Element::Values]
            .into_iter()
            .filter_map(|which| {
                let (span, field) = self.field.element(which)?;
                let description = field.keywords.text(Key::Description).map(|text| Doc::Text((**text).clone()));
                let param = Param {
                    field,
                    name: String::new(),
                    aliases: Vec::new(),
                    description,
                    has_default: true,
                    flatten: false,
                    skip: false,
                    reach: Reach::ToolParam,
                };
                Some((which, span, param))
            })
            .collect()
    }

    /// Whether a `pattern` keyword is on the field or its elements: the full path then needs
    /// the regex engine, which is linked only where a pattern is.
    pub fn has_pattern(&self) -> bool {
        self.field.keywords.get(Key::Pattern).is_some()
            || self.elements().iter().any(|(_, _, element)| element.has_pattern())
    }

    /// `Option<PatternCheck>` tokens for the keywords of `params`.
    pub fn pattern_check<'p>(mut params: impl Iterator<Item = &'p Param>) -> TokenStream {
        if params.any(Param::has_pattern) {
            quote!(__tc_Some(_tool_core::__private::validate_pattern))
        } else {
            quote!(__tc_None)
        }
    }

    /// `Keyword { .. }` values for the schema, in [`Key`]'s order.
    pub fn keywords(&self) -> TokenStream {
        let keyword = |key: Key, value: TokenStream| {
            let kind = key.kind();
            quote!(__tc_Keyword { kind: #kind, value: #value })
        };
        // The description is the doc comment's when `description` is not set.
        let description =
            self.description.as_ref().map(|doc| keyword(Key::Description, quote!(__tc_KeywordValue::Text(#doc))));
        let mut elements = self.elements().into_iter();
        let rest = self.field.keywords.iter().filter(|(key, _)| *key != Key::Description).filter_map(|(key, value)| {
            if let Some(typed) = value.typed() {
                return Some(keyword(key, typed));
            }
            // `elements()` lists `items` and `values` in this order too.
            let (_, _, element) = elements.next()?;
            let nested = element.keywords();
            Some(keyword(key, quote!(__tc_KeywordValue::Keywords(#nested))))
        });
        let keywords: Vec<TokenStream> = description.into_iter().chain(rest).collect();
        quote!(&[#(#keywords),*])
    }

    /// `Property { .. }` for the parent object's schema.
    pub fn property(&self) -> TokenStream {
        let name = &self.name;
        let ty = self.schema_ty();
        // The one body that names a plain parameter's type as a `PlainParam` (the object's
        // schema): the one error when it is not one.
        let through = if self.is_plain() { quote!(<#ty as __tc_PlainParam>) } else { self.reach(&ty) };
        let keywords = self.keywords();
        // A field serde fills when absent is never required; any other, unless its type may
        // be absent (an `Option`).
        let required = if self.has_default { quote!(false) } else { quote!(!#through::OPTIONAL) };
        quote! {
            __tc_Property {
                name: #name,
                schema: #through::__SCHEMA_REF,
                keywords: #keywords,
                required: #required,
            }
        }
    }

    /// `Field::Own { .. }`: the aliases serde accepts and how the field type is checked; the
    /// keywords are read from the property at run time.
    pub fn field_entry(&self) -> TokenStream {
        let through = self.reach(&self.schema_ty());
        let aliases = &self.aliases;
        quote! {
            __tc_Field::Own {
                aliases: &[#(#aliases),*],
                check: #through::__CHECK,
            }
        }
    }
}

/// The type whose schema a field has: `#[param(as = ..)]`, else its own.
fn schema_ty(field: &ParamField) -> &syn::Type {
    field.as_type.as_deref().unwrap_or(&field.ty)
}

/// Whether `ty` reads as a map or any JSON value (a type alias of one does not; the
/// `ToolObject` bound then catches it).
fn is_map(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(path) if path.path.segments.last().is_some_and(|s| ["HashMap", "BTreeMap", "IndexMap", "Value"].iter().any(|name| s.ident == name)))
}

/// Whether `ty` reads as `Option<..>` (a type alias of one does not; the const check in
/// [`Param::const_checks`] still catches it).
fn is_option(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(path) if path.path.segments.last().is_some_and(|s| s.ident == "Option"))
}
