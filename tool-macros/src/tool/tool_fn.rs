//! [`ToolFn`]: a tool fn (free, or a method of a `#[tools]` block) read from its signature,
//! its doc comment and `#[tool(..)]`, with every mistake in them reported at once.

use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use darling::util::SpannedValue;
use proc_macro2::TokenStream;
use quote::quote;
use syn::{Attribute, Ident, ReturnType, Signature, Type};

use super::options::options;
use crate::attr::ToolAttr;
use crate::doc_args::ArgumentDoc;
use crate::inputs::{Args, Inputs, Place};
use crate::util::{Doc, Result, crate_path, unraw};

/// A tool fn (free, or a method of a `#[tools]` block), as the shim needs it.
pub struct ToolFn {
    /// The fn's signature, its parameters' `#[param]`/`#[serde]` attributes taken off.
    pub sig: Signature,
    /// The tool's name.
    pub(super) name: String,
    /// The tool's description.
    pub(super) description: Doc,
    /// What the fn takes.
    pub(super) inputs: Inputs,
    /// For plain parameters: the arguments struct's name and definition.
    pub(super) args_struct: Option<(Ident, TokenStream)>,
    /// The return type.
    pub(super) output: Type,
    /// Where `tool_core` is.
    pub(super) krate: TokenStream,
    /// `#[tool(strict)]`, `#[tool(strict = false)]`, or neither.
    pub(super) strict: Option<SpannedValue<bool>>,
    /// The other keys, as the `ToolDef`'s `ToolOptions`.
    pub(super) options: TokenStream,
    /// The type a method is declared on.
    pub(super) self_ty: Option<Type>,
    /// `#[tool(open)]`: keys the tool does not name are ignored.
    pub(super) open: bool,
}

/// Reads `#[tool(..)]`'s keys; a malformed attribute is reported and the defaults returned,
/// with `false` for "read": nothing it may have set is then reported missing.
pub fn read_attr(attr: TokenStream, errors: &mut Accumulator) -> (ToolAttr, bool) {
    let parsed = errors.handle(
        NestedMeta::parse_meta_list(attr).map_err(darling::Error::from).and_then(|items| ToolAttr::from_list(&items)),
    );
    let read = parsed.is_some();
    (parsed.unwrap_or_default(), read)
}

impl ToolFn {
    /// Reads a tool fn: `sig` loses its parameters' `#[param]`/`#[serde]` attributes, which
    /// move to the arguments struct; `self_ty` is the type of a `#[tools]` block.
    /// `attr_read`: whether the attribute was read; when it was not, nothing it may have set
    /// is reported missing.
    pub fn read(
        attr: ToolAttr,
        attr_read: bool,
        sig: &mut Signature,
        attrs: &[Attribute],
        self_ty: Option<&Type>,
    ) -> Result<ToolFn> {
        let mut errors = darling::Error::accumulator();
        let krate = errors.handle(crate_path(attr.krate.as_ref()));
        check_signature(sig, &mut errors);
        if let Some(group) = attr.group.as_ref().filter(|group| group.trim().is_empty()) {
            errors.push(
                darling::Error::custom("`group` needs a name: `Registry::collect_group` selects tools by it")
                    .with_span(&group.span()),
            );
        }
        let name = tool_name(&attr, &sig.ident, &mut errors);
        let place = if self_ty.is_some() { Place::Method } else { Place::Free };
        let inputs = Inputs::read(sig, place, &mut errors);
        let (description, argument_docs) = description(&attr, attr_read, attrs, &inputs, &sig.ident, &mut errors);
        if attr.open.is_present() && matches!(inputs.args, Args::Struct(_)) {
            errors.push(
                darling::Error::custom(
                    "`open` is for plain parameters: on an argument struct, write `#[tool_args(open)]` on the struct",
                )
                .with_span(&attr.open.span()),
            );
        }
        let args_struct = args_struct(&attr, &sig.ident, &inputs, krate.as_ref(), &argument_docs, &mut errors);
        let output = output(sig, &mut errors);
        errors.finish()?;
        Ok(ToolFn {
            name,
            description,
            inputs,
            args_struct,
            output,
            krate: krate.unwrap_or_else(|| quote!(::tool_core)),
            strict: attr.strict,
            options: options(&attr),
            self_ty: self_ty.cloned(),
            open: attr.open.is_present(),
            sig: sig.clone(),
        })
    }
}

/// What a tool fn cannot be: a model calls it, by name, with any arguments, and its schema
/// is fixed at compile time.
fn check_signature(sig: &Signature, errors: &mut Accumulator) {
    if !sig.generics.params.is_empty() {
        errors.push(
            darling::Error::custom(
                "a `#[tool]` fn cannot be generic: its schema must be known at compile time; use concrete types",
            )
            .with_span(&sig.generics.params),
        );
    }
    if let syn::Safety::Unsafe(token) = &sig.safety {
        errors.push(
            darling::Error::custom("a `#[tool]` fn cannot be `unsafe`: a model calls it with any arguments")
                .with_span(token),
        );
    }
    if let Some(variadic) = &sig.variadic {
        errors.push(darling::Error::custom("a `#[tool]` fn cannot be variadic").with_span(variadic));
    }
}

/// `#[tool(name = "..")]`, else the fn's name, either reported when a provider would refuse it
/// (a prompt's or a resource's name is free text, only not empty).
fn tool_name(attr: &ToolAttr, fn_ident: &Ident, errors: &mut Accumulator) -> String {
    if let Some(name) = &attr.name {
        if attr.free_name {
            if name.trim().is_empty() {
                errors.push(darling::Error::custom("a name cannot be empty").with_span(&name.span()));
            }
        } else if !valid_name(name) {
            errors.push(
                darling::Error::custom(format!(
                    "{:?} is not a tool name every provider accepts: use letters, digits, `_` and `-`, start with a letter or `_`, at most 64 characters",
                    name.as_str()
                ))
                .with_span(&name.span()),
            );
        }
        (**name).clone()
    } else {
        let name = unraw(fn_ident);
        if !valid_name(&name) {
            errors.push(
                darling::Error::custom(format!(
                    "the fn name {name:?} is not a valid tool name; set one with `#[tool(name = \"..\")]`"
                ))
                .with_span(fn_ident),
            );
        }
        name
    }
}

/// The name every provider accepts: `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`.
fn valid_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    matches!(bytes.first(), Some(b) if b.is_ascii_alphabetic() || *b == b'_')
        && bytes.len() <= 64
        && bytes.iter().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
}

/// The tool's description, and for plain parameters the doc of each from the fn doc's
/// `# Arguments` list.
fn description(
    attr: &ToolAttr,
    attr_read: bool,
    attrs: &[Attribute],
    inputs: &Inputs,
    fn_ident: &Ident,
    errors: &mut Accumulator,
) -> (Doc, Vec<ArgumentDoc>) {
    // Plain parameters are described in the fn doc's `# Arguments` list, which is then
    // no part of the tool's own description.
    let (doc, argument_docs) = match &inputs.args {
        Args::Plain(_) => crate::doc_args::split(attrs),
        _ if attr.description.is_some() => (None, Vec::new()),
        _ => (Doc::from_attrs(attrs), Vec::new()),
    };
    let description = match &attr.description {
        Some(text) => Some(Doc::Text((**text).clone())),
        None => doc,
    };
    if description.is_none() && attr_read {
        errors.push(
            darling::Error::custom(
                "a tool needs a description for the model: add a `///` doc comment or `#[tool(description = \"..\")]`",
            )
            .with_span(fn_ident),
        );
    }
    (description.unwrap_or(Doc::Text(String::new())), argument_docs)
}

/// For plain parameters, the arguments struct's name and definition.
fn args_struct(
    attr: &ToolAttr,
    fn_ident: &Ident,
    inputs: &Inputs,
    krate: Option<&TokenStream>,
    argument_docs: &[ArgumentDoc],
    errors: &mut Accumulator,
) -> Option<(Ident, TokenStream)> {
    let Args::Plain(plain) = &inputs.args else { return None };
    let ident = plain.struct_ident(&camel_case(fn_ident), fn_ident.span());
    let default_crate = quote!(::tool_core);
    let krate = (krate.unwrap_or(&default_crate), attr.krate.as_ref());
    let definition = plain.args_struct(&ident, argument_docs, krate, attr.open.is_present(), errors);
    Some((ident, definition))
}

/// The return type; a fn without one is reported, since the model needs the result.
fn output(sig: &Signature, errors: &mut Accumulator) -> Type {
    match &sig.output {
        ReturnType::Type(_, ty) => (**ty).clone(),
        ReturnType::Default => {
            errors.push(
                darling::Error::custom(
                    "a `#[tool]` fn must return its result for the model: `-> String` or `-> Result<String, E>`",
                )
                .with_span(&sig.ident),
            );
            syn::parse_quote!(())
        }
    }
}

/// `get_weather` → `GetWeather`.
pub(super) fn camel_case(fn_ident: &Ident) -> String {
    unraw(fn_ident)
        .split('_')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |c| c.to_ascii_uppercase().to_string() + chars.as_str())
        })
        .collect()
}
