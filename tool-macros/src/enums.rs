//! `#[derive(ToolArgs)]` on an enum. A unit-only enum is a string `enum`; an enum with data
//! is an `anyOf` with one inline branch per variant, shaped by serde's tagging (external,
//! internal, adjacent, untagged), and a validator that picks the branch the way serde does.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Generics, Ident, Type};

use darling::FromVariant;

use crate::attr::VariantInput;
use crate::object::Object;
use crate::serde_attr::{self, SerdeContainer};
use crate::util::{Doc, Result, unraw};

/// How serde finds the variant on the wire.
enum Tagging {
    External,
    Internal { tag: String },
    Adjacent { tag: String, content: String },
    Untagged,
}

enum VariantShape {
    Unit,
    Newtype(Type),
    Struct(Object),
}

struct Variant {
    ident: Ident,
    name: String,
    aliases: Vec<String>,
    description: Option<Doc>,
    shape: VariantShape,
}

impl Variant {
    fn accepted_names(&self) -> impl Iterator<Item = &str> {
        core::iter::once(self.name.as_str()).chain(self.aliases.iter().map(String::as_str))
    }
}

/// Expands the derive for an enum.
pub fn expand(
    ident: &Ident,
    generics: &Generics,
    container: &SerdeContainer,
    description: Option<Doc>,
    inputs: Vec<syn::Variant>,
    enum_names: darling::util::Flag,
) -> Result<TokenStream> {
    let tagging = match (&container.tag, &container.content, container.untagged) {
        (None, None, false) => Tagging::External,
        (Some(tag), None, false) => Tagging::Internal { tag: tag.clone() },
        (Some(tag), Some(content), false) => Tagging::Adjacent { tag: tag.clone(), content: content.clone() },
        (None, None, true) => Tagging::Untagged,
        _ => {
            return Err(darling::Error::custom(
                "this combination of `tag`, `content` and `untagged` is not one serde accepts",
            )
            .with_span(ident));
        }
    };
    let mut errors = darling::Error::accumulator();
    let mut variants = Vec::new();
    for input in inputs {
        let Some(input) = errors.handle(VariantInput::from_variant(&input)) else { continue };
        if let Some(Some(variant)) = errors.handle(variant(input, container, &tagging)) {
            variants.push(variant);
        }
    }
    errors.finish()?;
    if variants.is_empty() {
        return Err(darling::Error::custom("an enum needs at least one variant to be a parameter").with_span(ident));
    }
    let generics = crate::util::bounded(generics);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let all_unit = variants.iter().all(|v| matches!(v.shape, VariantShape::Unit));
    let fast = all_unit && matches!(tagging, Tagging::External);
    if enum_names.is_present() && !fast {
        return Err(darling::Error::custom("`enum_names` applies to a unit-only enum: it titles its values")
            .with_span(&enum_names.span()));
    }
    // A unit enum is checked as data (its `__CHECK`, which the trait's `validate` runs); an
    // enum with data has a `validate` of its own.
    let (schema, check, validate) = if fast {
        let (schema, check) = unit_enum(description.as_ref(), &variants, enum_names.is_present());
        (schema, check, None)
    } else {
        let (schema, validate) = data_enum(description.as_ref(), &variants, &tagging);
        (schema, TokenStream::new(), Some(validate))
    };
    let checks: Vec<TokenStream> = variants
        .iter()
        .flat_map(|v| match &v.shape {
            VariantShape::Struct(object) => object.const_checks(),
            _ => Vec::new(),
        })
        .collect();
    let (const_item, const_inline) = crate::util::const_checks(&checks, !generics.params.is_empty());
    let assertions = variants.iter().map(|v| match &v.shape {
        VariantShape::Struct(object) => object.assertions(),
        VariantShape::Newtype(ty) if matches!(tagging, Tagging::Internal { .. }) => {
            quote_spanned!(ty.span()=> _tool_core::__private::assert_flatten::<#ty>();)
        }
        _ => TokenStream::new(),
    });
    let validate = validate.map(|body| {
        quote! {
            fn validate(
                value: &mut _tool_core::__private::serde_json::Value,
                at: &mut _tool_core::Pointer,
                out: &mut _tool_core::Violations,
            ) {
                #(#assertions)*
                #const_inline
                #body
            }
        }
    });
    // A string enum: a form field, and a choice a form's list can offer.
    let elicit = crate::util::ELICIT.then(|| {
        quote! {
            #[automatically_derived]
            impl<__TcM> _tool_core::param::ElicitField<__TcM> for #ident {}
            #[automatically_derived]
            impl _tool_core::param::ElicitChoice for #ident {}
        }
    });
    let string_param = fast.then(|| {
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
    });
    Ok(quote! {
        #string_param
        #const_item
        #[automatically_derived]
        impl #impl_generics __tc_ToolParam for #ident #ty_generics #where_clause {
            const SCHEMA: __tc_Schema = #schema;
            // serde accepts shapes of an enum with data that its `anyOf` does not (a unit
            // variant as `{"V": null}`, unknown keys in untagged struct variants).
            const SERDE_EXACT: bool = #fast;
            #check
            #validate
        }
    })
}

fn variant(input: VariantInput, container: &SerdeContainer, tagging: &Tagging) -> Result<Option<Variant>> {
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
            let rename_all = serde.rename_all.or(container.rename_all_fields);
            VariantShape::Struct(Object::from_fields(input.fields.fields, None, rename_all, false)?)
        }
    };
    if matches!((&shape, tagging), (VariantShape::Unit, Tagging::Untagged)) {
        return Err(darling::Error::custom(
            "an untagged unit variant is `null` on the wire, which a tool parameter cannot express; tag the enum or give the variant data",
        )
        .with_span(&input.ident));
    }
    Ok(Some(Variant { ident: input.ident, name, aliases: serde.aliases, description, shape }))
}

fn description_tokens(doc: Option<&Doc>) -> TokenStream {
    if let Some(doc) = doc { quote!(__tc_Some(#doc)) } else { quote!(__tc_None) }
}

/// `enum Units { Celsius, Fahrenheit }` → `{"type":"string","enum":["Celsius","Fahrenheit"]}`.
fn unit_enum(description: Option<&Doc>, variants: &[Variant], enum_names: bool) -> (TokenStream, TokenStream) {
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

fn string_enum_of(name: &str) -> TokenStream {
    described_string_enum_of(name, &quote!(__tc_None))
}

fn described_string_enum_of(name: &str, description: &TokenStream) -> TokenStream {
    quote!(__tc_Schema::StringEnum(&_tool_core::schema::StringEnum {
        description: #description,
        values: &[#name],
        titles: &[],
        enum_names: false,
    }))
}

fn property(name: &str, schema: &TokenStream) -> TokenStream {
    quote!(__tc_Property { name: #name, schema: &#schema, keywords: &[], required: true })
}

fn object_schema(description: &TokenStream, properties: &[TokenStream], flatten: &[TokenStream]) -> TokenStream {
    quote!(__tc_Schema::Object(&__tc_ObjectSchema {
        description: #description,
        properties: &[#(#properties),*],
        flatten: &[#(#flatten),*],
        open: false,
    }))
}

/// The schema of one variant's branch under `tagging`.
fn branch(variant: &Variant, tagging: &Tagging) -> TokenStream {
    let description = description_tokens(variant.description.as_ref());
    let none = quote!(__tc_None);
    let content_schema = match &variant.shape {
        VariantShape::Unit => None,
        VariantShape::Newtype(ty) => Some(quote!(<#ty as __tc_ToolParam>::SCHEMA)),
        VariantShape::Struct(object) => Some(object_schema(&none, &object.property_list(), &object.flatten_list())),
    };
    match tagging {
        Tagging::External => match content_schema {
            None => described_string_enum_of(&variant.name, &description),
            Some(content) => object_schema(&description, &[property(&variant.name, &content)], &[]),
        },
        Tagging::Internal { tag } => {
            let mut properties = vec![property(tag, &string_enum_of(&variant.name))];
            let mut flatten = Vec::new();
            match &variant.shape {
                VariantShape::Unit => {}
                VariantShape::Newtype(ty) => flatten.push(quote!(<#ty as __tc_ToolParam>::__SCHEMA_REF)),
                VariantShape::Struct(object) => {
                    properties.extend(object.property_list());
                    flatten.extend(object.flatten_list());
                }
            }
            object_schema(&description, &properties, &flatten)
        }
        Tagging::Adjacent { tag, content } => {
            let mut properties = vec![property(tag, &string_enum_of(&variant.name))];
            if let Some(schema) = content_schema {
                properties.push(property(content, &schema));
            }
            object_schema(&description, &properties, &[])
        }
        Tagging::Untagged => match (&variant.shape, &variant.description) {
            (VariantShape::Struct(object), _) => {
                object_schema(&description, &object.property_list(), &object.flatten_list())
            }
            (VariantShape::Newtype(ty), Some(doc)) => quote! {
                __tc_Schema::Constrained(&_tool_core::schema::Constrained {
                    schema: <#ty as __tc_ToolParam>::__SCHEMA_REF,
                    keywords: &[__tc_Keyword {
                        kind: __tc_KeywordKind::Description,
                        value: __tc_KeywordValue::Text(#doc),
                    }],
                })
            },
            _ => content_schema.unwrap_or_else(|| quote!(__tc_Schema::Any)),
        },
    }
}

/// Checks `map` (an object in scope as `map`) as a struct variant's fields, with `extra`
/// more keys allowed (the tag).
fn struct_fields(object: &Object, extra: &[&str]) -> TokenStream {
    let schema = object.schema();
    let fields = object.fields(&quote!(&#schema));
    quote! {
        _tool_core::__private::validate_properties(map, const { &#fields }, &[#(#extra),*], at, out);
    }
}

/// The whole value (in scope as `value`) as one variant's content.
fn content(shape: &VariantShape, extra: &[&str]) -> TokenStream {
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

fn data_enum(description: Option<&Doc>, variants: &[Variant], tagging: &Tagging) -> (TokenStream, TokenStream) {
    let description = description_tokens(description);
    let branches = variants.iter().map(|v| branch(v, tagging));
    let schema = quote! {
        __tc_Schema::AnyOf(&_tool_core::schema::AnyOf {
            description: #description,
            branches: &[#(#branches),*],
        })
    };
    let listed: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    let validate = match tagging {
        Tagging::External => external(variants, &listed),
        Tagging::Internal { tag } => internal(variants, tag, &listed),
        Tagging::Adjacent { tag, content } => adjacent(variants, tag, content, &listed),
        Tagging::Untagged => untagged(variants),
    };
    (schema, validate)
}

fn external(variants: &[Variant], listed: &[&str]) -> TokenStream {
    let units: Vec<&str> =
        variants.iter().filter(|v| matches!(v.shape, VariantShape::Unit)).flat_map(Variant::accepted_names).collect();
    let unit_arm = if units.is_empty() { TokenStream::new() } else { quote!(#(#units)|* => {}) };
    let arms = variants.iter().filter(|v| !matches!(v.shape, VariantShape::Unit)).map(|v| {
        let names = v.accepted_names();
        let check = content(&v.shape, &[]);
        quote!(#(#names)|* => { let value = __tool_inner; #check })
    });
    quote! {
        match value {
            _tool_core::__private::serde_json::Value::String(__tool_name) => match __tool_name.as_str() {
                #unit_arm
                __tool_other => _tool_core::__private::unknown_variant(__tool_other, &[#(#listed),*], at, out),
            },
            _tool_core::__private::serde_json::Value::Object(__tool_map) if __tool_map.len() == 1 => {
                if let ::core::option::Option::Some((__tool_key, __tool_inner)) = __tool_map.iter_mut().next() {
                    let __tool_mark = at.push_key(__tool_key);
                    match __tool_key.as_str() {
                        #(#arms)*
                        __tool_other => _tool_core::__private::unknown_variant(__tool_other, &[#(#listed),*], at, out),
                    }
                    at.truncate(__tool_mark);
                }
            }
            other => _tool_core::__private::wrong_type(other, "a variant name, or an object with one variant name as its key", at, out),
        }
    }
}

/// Which variant a tag names: `Some(index)`, or `None` after reporting why not.
fn tag_lookup(variants: &[Variant], tag: &str, listed: &[&str]) -> TokenStream {
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let names = v.accepted_names();
        quote!(::core::option::Option::Some(#(#names)|*) => ::core::option::Option::Some(#i),)
    });
    quote! {
        let __tool_variant = match map.get(#tag).and_then(_tool_core::__private::serde_json::Value::as_str) {
            #(#arms)*
            _ => {
                _tool_core::__private::bad_tag(map.get(#tag), #tag, &[#(#listed),*], at, out);
                ::core::option::Option::None
            }
        };
    }
}

fn internal(variants: &[Variant], tag: &str, listed: &[&str]) -> TokenStream {
    let lookup = tag_lookup(variants, tag, listed);
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let check = match &v.shape {
            VariantShape::Unit => {
                quote!(_tool_core::__private::reject_unknown(map, &|key: &str| key == #tag, &[#tag], at, out);)
            }
            VariantShape::Newtype(ty) => quote! {
                _tool_core::__private::validate_properties(map, <#ty as _tool_core::param::ToolObject>::__FIELDS, &[#tag], at, out);
            },
            VariantShape::Struct(object) => struct_fields(object, &[tag]),
        };
        quote!(::core::option::Option::Some(#i) => { #check })
    });
    quote! {
        match value {
            _tool_core::__private::serde_json::Value::Object(map) => {
                #lookup
                match __tool_variant {
                    #(#arms)*
                    _ => {}
                }
            }
            other => _tool_core::__private::wrong_type(other, "an object", at, out),
        }
    }
}

fn adjacent(variants: &[Variant], tag: &str, content_key: &str, listed: &[&str]) -> TokenStream {
    let lookup = tag_lookup(variants, tag, listed);
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let check = match &v.shape {
            VariantShape::Unit => quote!(_tool_core::__private::reject_unknown(map, &|key: &str| key == #tag, &[#tag], at, out);),
            shape => {
                let inner = content(shape, &[]);
                quote! {
                    match map.get_mut(#content_key) {
                        ::core::option::Option::Some(value) => {
                            let __tool_mark = at.push_key(#content_key);
                            #inner
                            at.truncate(__tool_mark);
                        }
                        ::core::option::Option::None => _tool_core::__private::missing(#content_key, at, out),
                    }
                    _tool_core::__private::reject_unknown(map, &|key: &str| key == #tag || key == #content_key, &[#tag, #content_key], at, out);
                }
            }
        };
        quote!(::core::option::Option::Some(#i) => { #check })
    });
    quote! {
        match value {
            _tool_core::__private::serde_json::Value::Object(map) => {
                #lookup
                match __tool_variant {
                    #(#arms)*
                    _ => {}
                }
            }
            other => _tool_core::__private::wrong_type(other, "an object", at, out),
        }
    }
}

/// serde tries the variants in order and takes the first that deserializes; the validator
/// does the same, and when none fits it reports the closest variant's violations.
fn untagged(variants: &[Variant]) -> TokenStream {
    let trials = variants.iter().map(|v| {
        let check = content(&v.shape, &[]);
        let name = &v.name;
        quote! {
            {
                let mut __tool_trial = _tool_core::Violations::new();
                {
                    let out = &mut __tool_trial;
                    #check
                }
                if __tool_trial.is_empty() {
                    return;
                }
                __tool_closest.offer(#name, __tool_trial, at);
            }
        }
    });
    quote! {
        let mut __tool_closest = _tool_core::__private::Closest::default();
        #(#trials)*
        __tool_closest.report(at, out);
    }
}
