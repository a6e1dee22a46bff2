//! `#[derive(ToolArgs)]` on an enum. A unit-only enum is a string `enum` (`unit.rs`); an
//! enum with data is an `anyOf` with one inline branch per variant, shaped by serde's
//! tagging, and a validator that picks the branch the way serde does: one file per tagging
//! (`external.rs`, `internal.rs`, `adjacent.rs`, `untagged.rs`) writes both. Its
//! `Deserialize` impl is `decode.rs`'s. The entry point is
//! [`expand`], which reads the tagging and the variants (`variant.rs`).

mod adjacent;
mod decode;
mod external;
mod internal;
mod schema;
mod tagged;
mod unit;
mod untagged;
mod variant;

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Generics, Ident};

use darling::FromVariant;

use self::schema::description_tokens;
use self::variant::{Variant, VariantShape};
use crate::attr::VariantInput;
use crate::serde_attr::SerdeContainer;
use crate::util::{Doc, Result};

/// How serde finds the variant on the wire.
enum Tagging {
    External,
    Internal { tag: String },
    Adjacent { tag: String, content: String },
    Untagged,
}

impl Tagging {
    /// The container's tagging; `None` for a combination serde refuses.
    fn of(container: &SerdeContainer) -> Option<Tagging> {
        Some(match (&container.tag, &container.content, container.untagged) {
            (None, None, false) => Tagging::External,
            (Some(tag), None, false) => Tagging::Internal { tag: tag.clone() },
            (Some(tag), Some(content), false) => Tagging::Adjacent { tag: tag.clone(), content: content.clone() },
            (None, None, true) => Tagging::Untagged,
            _ => return None,
        })
    }

    /// One variant's branch of the `anyOf`.
    fn branch(&self, variant: &Variant) -> TokenStream {
        match self {
            Tagging::External => external::branch(variant),
            Tagging::Internal { tag } => internal::branch(variant, tag),
            Tagging::Adjacent { tag, content } => adjacent::branch(variant, tag, content),
            Tagging::Untagged => untagged::branch(variant),
        }
    }

    /// The body of the validator of an enum with data.
    fn validate(&self, variants: &[Variant]) -> TokenStream {
        let listed: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
        match self {
            Tagging::External => external::validate(variants, &listed),
            Tagging::Internal { tag } => internal::validate(variants, tag, &listed),
            Tagging::Adjacent { tag, content } => adjacent::validate(variants, tag, content, &listed),
            Tagging::Untagged => untagged::validate(variants),
        }
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
    decodes: bool,
) -> Result<TokenStream> {
    let Some(tagging) = Tagging::of(container) else {
        return Err(darling::Error::custom(
            "this combination of `tag`, `content` and `untagged` is not one serde accepts",
        )
        .with_span(ident));
    };
    let decodes = decodes && generics.params.is_empty();
    let variants = read_variants(inputs, container, &tagging)?;
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
    let checks: Vec<TokenStream> = variants
        .iter()
        .flat_map(|v| match &v.shape {
            VariantShape::Struct(object) => object.const_checks(),
            _ => Vec::new(),
        })
        .collect();
    let (const_item, const_inline) = crate::util::const_checks(&checks, !generics.params.is_empty());
    // A unit enum is checked as data (its `__CHECK`, which the trait's `validate` runs); an
    // enum with data has a `validate` of its own.
    let (schema, check, validate) = if fast {
        let (schema, check) = unit::schema(description.as_ref(), &variants, enum_names.is_present());
        (schema, check, None)
    } else {
        let schema = data_schema(description.as_ref(), &variants, &tagging);
        (schema, TokenStream::new(), Some(validate_fn(&variants, &tagging, &const_inline)))
    };
    let string_param = fast.then(|| unit::string_param(ident, &generics, &variants));
    // `ToolArgs` writes the `Deserialize` of a non-generic enum; a generic one derives
    // serde's beside it.
    let deserialize = match (decodes, fast) {
        (false, _) => None,
        (true, true) => Some(decode::unit_only(ident, container, &variants)),
        (true, false) => Some(decode::deserialize(ident, container, &tagging, &variants)?),
    };
    Ok(quote! {
        #string_param
        #deserialize
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

/// The variants on the wire, every mistake in any of them reported.
fn read_variants(inputs: Vec<syn::Variant>, container: &SerdeContainer, tagging: &Tagging) -> Result<Vec<Variant>> {
    let mut errors = darling::Error::accumulator();
    let mut variants = Vec::new();
    for input in inputs {
        let Some(input) = errors.handle(VariantInput::from_variant(&input)) else { continue };
        let Some(Some(variant)) = errors.handle(Variant::read(input, container)) else { continue };
        if matches!((&variant.shape, tagging), (VariantShape::Unit, Tagging::Untagged)) {
            errors.push(
                darling::Error::custom(
                    "an untagged unit variant is `null` on the wire, which a tool parameter cannot express; tag the enum or give the variant data",
                )
                .with_span(&variant.ident),
            );
            continue;
        }
        variants.push(variant);
    }
    errors.finish_with(variants)
}

/// The `anyOf` of an enum with data.
fn data_schema(description: Option<&Doc>, variants: &[Variant], tagging: &Tagging) -> TokenStream {
    let description = description_tokens(description);
    let branches = variants.iter().map(|v| tagging.branch(v));
    quote! {
        __tc_Schema::AnyOf(&_tool_core::schema::AnyOf {
            description: #description,
            branches: &[#(#branches),*],
        })
    }
}

/// The `validate` of an enum with data: the trait assertions and const checks of its
/// variants' types, then the tagging's checks.
fn validate_fn(variants: &[Variant], tagging: &Tagging, const_inline: &TokenStream) -> TokenStream {
    let body = tagging.validate(variants);
    let assertions = variants.iter().map(|v| match &v.shape {
        VariantShape::Struct(object) => object.assertions(),
        VariantShape::Newtype(ty) if matches!(tagging, Tagging::Internal { .. }) => {
            quote_spanned!(ty.span()=> _tool_core::__private::assert_flatten::<#ty>();)
        }
        _ => TokenStream::new(),
    });
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
}
