//! One property of an object: the [`Param`] model built from a field's `#[param]` and
//! `#[serde]` attributes, and the tokens it contributes to the schema, the validator and
//! lenient decoding. The compile-time rules on its keywords are in `rules.rs`.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

use crate::attr::{Element, JsonLit, JsonValue, KeyValue, Num, NumValue, ParamField};
use crate::keyword::{Fit, Key};
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
    pub fn from_field(field: ParamField, rename_all: Option<RenameRule>, container_default: bool) -> Result<Param> {
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
        let has_default = serde.has_default() || container_default;
        if let Some(default) =
            field.keywords.json(Key::Default).filter(|_| !has_default && !is_option(schema_ty(&field)))
        {
            return Err(darling::Error::custom(format!(
                "`default = {}` is what the model reads, but serde fills nothing when the field is absent: add `#[serde(default)]` (with `impl Default` giving the same value), or `#[serde(default = \"path\")]` naming a fn that returns it",
                default.json
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

    /// The trait the impls name the field's type through: `ToolParam`, or for a plain
    /// parameter `PlainParam`, which the hidden struct's `Deserialize` impl names too, so
    /// that a type with neither a schema nor `Deserialize` is one error (see
    /// `tool_core::__private::PlainParam`). A stand-in type (`as`) is not decoded: it is
    /// reached through `ToolParam`.
    pub fn param_trait(&self) -> TokenStream {
        if self.reach == Reach::PlainParam && self.field.as_type.is_none() {
            quote!(__tc_PlainParam)
        } else {
            quote!(__tc_ToolParam)
        }
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

    /// The schema type's tokens, re-spanned to `span`, so a failed bound points at the keyword.
    fn ty_at(&self, span: Span) -> TokenStream {
        respan(self.schema_ty(), span)
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
            if let Some(text) = value.json() {
                return Some(keyword(key, quote!(__tc_KeywordValue::Json(#text))));
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
        let param = self.param_trait();
        let keywords = self.keywords();
        // A field serde fills when absent is never required; any other, unless its type may
        // be absent (an `Option`).
        let required = if self.has_default { quote!(false) } else { quote!(!<#ty as #param>::OPTIONAL) };
        quote! {
            __tc_Property {
                name: #name,
                schema: <#ty as #param>::__SCHEMA_REF,
                keywords: #keywords,
                required: #required,
            }
        }
    }

    /// `Field::Own { .. }`: the aliases serde accepts and how the field type is checked; the
    /// keywords are read from the property at run time.
    pub fn field_entry(&self) -> TokenStream {
        let ty = self.schema_ty();
        let param = self.param_trait();
        let aliases = &self.aliases;
        quote! {
            __tc_Field::Own {
                aliases: &[#(#aliases),*],
                check: <#ty as #param>::__CHECK,
            }
        }
    }

    /// Whether the fast path may decode this field with serde and check it typed: not for
    /// keywords serde's decoding loses (`unique_items` on a `Vec`) or that compare arrays.
    pub fn fast_compatible(&self) -> bool {
        let keywords = &self.field.keywords;
        let unique = keywords.flag(Key::UniqueItems).is_some_and(|unique| **unique);
        let array_enum = keywords
            .json(Key::Enum)
            .is_some_and(|e| matches!(&e.value, JsonValue::Array(items) if items.iter().any(|i| matches!(i.value, JsonValue::Array(_)))));
        // A stand-in type (`as`) checks the JSON; the field's own type has no typed checks.
        // Keywords on elements and map sizes are checked on the JSON only.
        let json_only = keywords.get(Key::Items).is_some()
            || keywords.get(Key::Values).is_some()
            || self.field.property_counts().next().is_some();
        !self.flatten && !unique && !array_enum && !json_only && self.field.as_type.is_none()
    }

    /// A `bool` expression: whether the decoded field (`&self.field`) satisfies every
    /// keyword, and the keywords nested in its type.
    ///
    /// Each call names the field type and is spanned at its keyword, so a keyword on a type
    /// it does not fit (`minimum` on a `String`) fails here, at the keyword, with the marker
    /// trait's message.
    pub fn satisfies(&self) -> TokenStream {
        self.field.ident.as_ref().map_or_else(|| quote!(true), |ident| self.satisfies_at(&quote!(&self.#ident)))
    }

    /// [`Param::satisfies`] of the value `value` (a `&FieldType` expression).
    pub fn satisfies_at(&self, value: &TokenStream) -> TokenStream {
        let f = &self.field;
        let ty = &f.ty;
        if f.as_type.is_some() {
            // Never consulted (the field is not `fast_compatible`); `assertions` checks the
            // keywords against the stand-in type.
            return quote!(true);
        }
        let call = |function: TokenStream, span: Span, rest: TokenStream| {
            let ty = self.ty_at(span);
            quote_spanned!(span=> #function::<#ty>(#value, #rest))
        };
        let param = self.param_trait();
        let mut checks = vec![quote!(<#ty as #param>::satisfies(#value))];
        // Counting characters is the costly part of a length check: count once for both.
        let both_lengths = match (f.keywords.count(Key::MinLength), f.keywords.count(Key::MaxLength)) {
            (Some(min), Some(max)) => {
                let (low, high) = (min.value, max.value);
                let between = quote_spanned!(min.span=> __tc_satisfies::length_between);
                checks.push(call(between, min.span, quote!(#low, #high)));
                true
            }
            _ => false,
        };
        for (key, value) in f.keywords.iter() {
            let span = value.span();
            let Some(function) = key.typed_check(span) else { continue };
            let argument = match value {
                KeyValue::Count(_) if both_lengths && matches!(key, Key::MinLength | Key::MaxLength) => continue,
                KeyValue::Count(count) => {
                    let n = count.value;
                    quote!(#n)
                }
                KeyValue::Number(num) => bound_tokens(num),
                KeyValue::Text(pattern) if key == Key::Pattern => {
                    let source = pattern.as_str();
                    let check = call(function, span, quote!(&__TOOL_PATTERN));
                    checks.push(quote!({
                        static __TOOL_PATTERN: _tool_core::__private::Pattern = _tool_core::__private::Pattern::new(#source);
                        #check
                    }));
                    continue;
                }
                KeyValue::Text(text) => {
                    let text = text.as_str();
                    quote!(#text)
                }
                KeyValue::Flag(_) | KeyValue::Json(_) | KeyValue::Nested(_) => continue,
            };
            checks.push(call(function, span, argument));
        }
        if let Some(JsonLit { value: JsonValue::Array(items), json, span }) = f.keywords.json(Key::Enum) {
            let function = match items.first().map(|item| &item.value) {
                Some(JsonValue::String(_)) => Some(quote!(enum_str)),
                Some(JsonValue::Number(_)) => Some(quote!(enum_number)),
                Some(JsonValue::Bool(_)) => Some(quote!(enum_bool)),
                _ => None, // arrays of arrays: never on the fast path (`fast_compatible`)
            };
            if let Some(function) = function {
                let check = call(quote_spanned!(*span=> __tc_satisfies::#function), *span, quote!(&__TOOL_ENUM));
                checks.push(quote!({
                    static __TOOL_ENUM: _tool_core::__private::EnumSet = _tool_core::__private::EnumSet::new(#json);
                    #check
                }));
            }
        }
        quote!(#(#checks)&&*)
    }

    /// Trait assertions spanned at the keywords `satisfies` does not already name the type
    /// for: those without a typed check (`unique_items`, map sizes, `items`, `values`), every
    /// keyword of a stand-in type (`as`), and `enum` and `default` values that need a float,
    /// a string or an array.
    pub fn assertions(&self) -> TokenStream {
        let f = &self.field;
        let mut out = Vec::new();
        let mut assert = |fit: Fit, span: Span| out.push(fit.assertion(span, &self.ty_at(span)));
        for (key, value) in f.keywords.iter() {
            let span = value.span();
            if let Some(fit) = key.spec().fits
                && (f.as_type.is_some() || key.typed_check(span).is_none())
            {
                assert(fit, span);
            }
        }
        if let Some(JsonLit { value: JsonValue::Array(items), .. }) = f.keywords.json(Key::Enum) {
            for item in items {
                match &item.value {
                    JsonValue::Number(NumValue::Float(x)) if x.fract() != 0.0 => assert(Fit::Float, item.span),
                    JsonValue::Array(_) => assert(Fit::Array, item.span),
                    _ => {}
                }
            }
        }
        if let Some(default) = f.keywords.json(Key::Default) {
            match &default.value {
                JsonValue::String(_) => assert(Fit::String, default.span),
                JsonValue::Number(NumValue::Float(x)) if x.fract() != 0.0 => assert(Fit::Float, default.span),
                JsonValue::Number(_) => assert(Fit::Number, default.span),
                JsonValue::Bool(_) => assert(Fit::Bool, default.span),
                JsonValue::Array(_) => assert(Fit::Array, default.span),
            }
        }
        for (_, _, element) in self.elements() {
            out.push(element.assertions());
        }
        quote!(#(#out)*)
    }

    /// `assert!`s that hold in const evaluation, each spanned at its keyword: a string
    /// `default` among an enum's values, a `default` only where the value may be absent, an
    /// integer bound inside the field type's range. The caller places them in a `const` item
    /// where it can, so `cargo check` reports them too.
    pub fn const_checks(&self) -> Vec<TokenStream> {
        let f = &self.field;
        let mut out = Vec::new();
        if let Some(default) = f.keywords.json(Key::Default) {
            let ty = self.ty_at(default.span);
            if let JsonValue::String(text) = &default.value {
                out.push(quote_spanned! {default.span=>
                    ::core::assert!(
                        _tool_core::__private::string_default_fits(<#ty as __tc_ToolParam>::__SCHEMA_REF, #text),
                        "`default` is not one of the enum's values"
                    )
                });
            }
            let has_default = self.has_default;
            out.push(quote_spanned! {default.span=>
                ::core::assert!(
                    <#ty as __tc_ToolParam>::OPTIONAL || #has_default,
                    "`default` describes a field that may be absent: make the field an `Option` or add `#[serde(default)]`"
                )
            });
        }
        // A primitive integer's range is known while expanding (`rules.rs`): no item needed.
        let known_range = crate::rules::primitive_integer_range(self.schema_ty()).is_some();
        for (key, num) in f.bounds().filter(|_| !known_range) {
            if let (NumValue::Int(n), false) = (num.value, key == Key::MultipleOf) {
                let ty = self.ty_at(num.span);
                let message = format!(
                    "`{} = {n}` is outside the range of the field's integer type, so it constrains nothing; check the bound or the type",
                    key.name()
                );
                out.push(quote_spanned! {num.span=>
                    ::core::assert!(
                        _tool_core::__private::integer_bound_fits(<#ty as __tc_ToolParam>::__SCHEMA_REF, #n),
                        #message
                    )
                });
            }
        }
        for (_, _, element) in self.elements() {
            out.extend(element.const_checks());
        }
        out
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

/// A numeric keyword's value as a runtime `Bound`, exact for integers.
fn bound_tokens(num: &Num) -> TokenStream {
    match num.value {
        NumValue::Int(n) => quote!(_tool_core::__private::Bound::Int(#n)),
        NumValue::Float(x) => quote!(_tool_core::__private::Bound::Float(#x)),
    }
}

/// `tokens` with every span set to `span`.
pub fn respan(tokens: &impl quote::ToTokens, span: Span) -> TokenStream {
    quote::ToTokens::to_token_stream(tokens)
        .into_iter()
        .map(|mut tree| {
            if let proc_macro2::TokenTree::Group(group) = &tree {
                let mut inner = proc_macro2::Group::new(group.delimiter(), respan(&group.stream(), span));
                inner.set_span(span);
                tree = proc_macro2::TokenTree::Group(inner);
            } else {
                tree.set_span(span);
            }
            tree
        })
        .collect()
}
