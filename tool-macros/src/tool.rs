//! `#[tool]`: reads the fn and `#[tool(..)]` into a [`ToolFn`], checks it, and emits the fn
//! unchanged followed by the `…Tool` type, its definition (the compile-time schema tree, the
//! dispatch shim, the options) and the `inventory` registration.

use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::util::SpannedValue;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::{FnArg, Ident, ItemFn, ReturnType, Type};

use crate::attr::ToolAttr;
use crate::util::{Doc, Result, crate_path, unraw, wrap_in_const};

/// The fn, as the shim needs it.
struct ToolFn {
    /// The fn, emitted as written.
    item: ItemFn,
    /// The tool's name.
    name: String,
    /// The tool's description.
    description: Doc,
    /// The argument struct, if the fn takes one.
    args: Option<Type>,
    /// Whether the fn takes `ctx: &ToolContext` first.
    takes_context: bool,
    /// The return type.
    output: Type,
    /// Where `tool_core` is.
    krate: TokenStream,
    /// `#[tool(strict)]`, `#[tool(strict = false)]`, or neither.
    strict: Option<SpannedValue<bool>>,
    /// The other keys, as the `ToolDef`'s `ToolOptions`.
    options: TokenStream,
}

/// Expands `#[tool]`; on error, the errors plus the item unchanged, so the rest of the crate
/// still sees the fn (bon's rule).
pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    match try_expand(attr, item.clone()) {
        Ok(tokens) => tokens,
        Err(error) => {
            let errors = error.write_errors();
            quote!(#errors #item)
        }
    }
}

/// Expands `#[tool]`, or returns every error found.
pub fn try_expand(attr: TokenStream, item: TokenStream) -> Result<TokenStream> {
    let mut errors = darling::Error::accumulator();
    // A malformed attribute is reported, and the fn is still checked with the defaults, but
    // for what the attribute may have said: its `description`, say, so no missing one is
    // reported on top of the misspelt key.
    let parsed = errors.handle(
        NestedMeta::parse_meta_list(attr).map_err(darling::Error::from).and_then(|items| ToolAttr::from_list(&items)),
    );
    let attr_read = parsed.is_some();
    let attr = parsed.unwrap_or_default();
    let Ok(item) = syn::parse2::<ItemFn>(item.clone()) else {
        let span = item.into_iter().next().map_or_else(Span::call_site, |t| t.span());
        errors.push(darling::Error::custom("`#[tool]` can only be applied to a `fn` item").with_span(&span));
        return errors.finish().map(|()| TokenStream::new());
    };
    let tool = errors.handle(ToolFn::from_syn(attr, attr_read, item));
    errors.finish()?;
    Ok(tool.map(|tool| tool.expand()).unwrap_or_default())
}

/// The span of the first lifetime or reference in `tokens`, if any.
fn borrowed(tokens: &TokenStream) -> Option<Span> {
    tokens.clone().into_iter().find_map(|tree| match tree {
        proc_macro2::TokenTree::Punct(p) if matches!(p.as_char(), '\'' | '&') => Some(p.span()),
        proc_macro2::TokenTree::Group(group) => borrowed(&group.stream()),
        _ => None,
    })
}

/// The name every provider accepts: `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`.
fn valid_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    matches!(bytes.first(), Some(b) if b.is_ascii_alphabetic() || *b == b'_')
        && bytes.len() <= 64
        && bytes.iter().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
}

impl ToolFn {
    /// `attr_read`: whether the attribute was read; when it was not, nothing it may have set
    /// is reported missing.
    fn from_syn(attr: ToolAttr, attr_read: bool, item: ItemFn) -> Result<ToolFn> {
        let mut errors = darling::Error::accumulator();
        let krate = errors.handle(crate_path(attr.krate.as_ref()));
        let sig = &item.sig;
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
        if let Some(group) = attr.group.as_ref().filter(|group| group.trim().is_empty()) {
            errors.push(
                darling::Error::custom("`group` needs a name: `Registry::collect_group` selects tools by it")
                    .with_span(&group.span()),
            );
        }
        let name = if let Some(name) = &attr.name {
            if !valid_name(name) {
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
            let name = unraw(&sig.ident);
            if !valid_name(&name) {
                errors.push(
                    darling::Error::custom(format!(
                        "the fn name {name:?} is not a valid tool name; set one with `#[tool(name = \"..\")]`"
                    ))
                    .with_span(&sig.ident),
                );
            }
            name
        };
        let description = match &attr.description {
            Some(text) => Some(Doc::Text((**text).clone())),
            None => Doc::from_attrs(&item.attrs),
        };
        if description.is_none() && attr_read {
            errors.push(
                darling::Error::custom(
                    "a tool needs a description for the model: add a `///` doc comment or `#[tool(description = \"..\")]`",
                )
                .with_span(&sig.ident),
            );
        }
        let mut args = None;
        let mut takes_context = false;
        for (position, input) in sig.inputs.iter().enumerate() {
            match input {
                FnArg::Receiver(receiver) => errors.push(
                    darling::Error::custom(
                        "`#[tool]` cannot be applied to a method: write a free fn, and reach shared state through `ctx: &ToolContext`",
                    )
                    .with_span(receiver),
                ),
                // The context is the one parameter taken by reference: argument structs are
                // owned (`DeserializeOwned`), so the shape tells them apart without reading
                // type names. rustc then checks that the reference is `&ToolContext`.
                FnArg::Typed(typed) if matches!(*typed.ty, Type::Reference(_)) => {
                    if position != 0 || takes_context {
                        errors.push(
                            darling::Error::custom("`ctx: &ToolContext` must be the first parameter of a `#[tool]` fn")
                                .with_span(&typed.ty),
                        );
                    }
                    takes_context = true;
                }
                FnArg::Typed(typed) => {
                    if args.is_some() {
                        errors.push(
                            darling::Error::custom(
                                "a `#[tool]` fn takes at most one argument struct: put every argument in one struct deriving `ToolArgs`",
                            )
                            .with_span(&typed.ty),
                        );
                    } else if let Some(span) = borrowed(&quote::ToTokens::to_token_stream(&*typed.ty)) {
                        errors.push(
                            darling::Error::custom(
                                "a tool's arguments cannot borrow: they are decoded from a JSON text that is gone when the tool runs; use owned fields (`String` rather than `&str`, `Vec<T>` rather than `&[T]`) and drop the lifetime",
                            )
                            .with_span(&span),
                        );
                    } else {
                        args = Some((*typed.ty).clone());
                    }
                }
            }
        }
        let output = match &sig.output {
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
        };
        errors.finish()?;
        Ok(ToolFn {
            name,
            description: description.unwrap_or(Doc::Text(String::new())),
            args,
            takes_context,
            output,
            krate: krate.unwrap_or_else(|| quote!(::tool_core)),
            strict: attr.strict,
            options: options(&attr),
            item,
        })
    }

    fn expand(&self) -> TokenStream {
        let item = &self.item;
        let fn_ident = &item.sig.ident;
        let vis = &item.vis;
        let krate = &self.krate;
        let name = &self.name;
        let description = &self.description;
        let type_ident = tool_type_ident(fn_ident);
        let args_ty = self.args.clone().unwrap_or_else(|| syn::parse_quote!(_tool_core::param::NoArgs));
        let output = &self.output;
        let context = self.takes_context.then(|| quote!(__tool_context,));
        let context_param = if self.takes_context { quote!(__tool_context) } else { quote!(_) };
        let (args_param, call_args) = if self.args.is_some() {
            (quote!(__tool_args), quote!(__tool_args))
        } else {
            (quote!(_), TokenStream::new())
        };
        let decoded = quote!((__TOOL_ARGS.decode)(__TOOL_NAME, __tool_arguments, __tool_options));
        // One call into the runtime: decoding's error, the fn's `Err` and its panic are
        // handled there, once, rather than in each tool's shim.
        let (handler, shim) = if item.sig.asyncness.is_some() {
            (
                quote!(Async),
                quote! {
                    fn __tool_shim<'a>(
                        #context_param: &'a _tool_core::ToolContext,
                        __tool_arguments: _tool_core::__private::Arguments<'a>,
                        __tool_options: &'a _tool_core::DecodeOptions,
                    ) -> _tool_core::__private::ToolFuture<'a> {
                        _tool_core::__private::call_async(__TOOL_NAME, #decoded, __TOOL_OUTPUT.convert, move |#args_param| #fn_ident(#context #call_args))
                    }
                },
            )
        } else {
            (
                quote!(Sync),
                quote! {
                    fn __tool_shim(
                        #context_param: &_tool_core::ToolContext,
                        __tool_arguments: _tool_core::__private::Arguments<'_>,
                        __tool_options: &_tool_core::DecodeOptions,
                    ) -> ::core::result::Result<_tool_core::ToolOutput, _tool_core::ToolError> {
                        _tool_core::__private::call(__TOOL_NAME, #decoded, __TOOL_OUTPUT.convert, move |#args_param| #fn_ident(#context #call_args))
                    }
                },
            )
        };
        let options = &self.options;
        // Asking for strict mode on a schema strict mode cannot express fails here, spanned
        // at `strict`, with the reason.
        let require_strict = if let Some(strict) = self.strict.as_ref().filter(|strict| ***strict) {
            let span = strict.span();
            quote_spanned!(span=> _tool_core::__require_strict!(__TOOL_ARGS.schema);)
        } else {
            TokenStream::new()
        };
        let doc = format!("The `{name}` tool, generated by `#[tool]` from [`{fn_ident}`]: pass it to `Registry::add`.");
        let generated = quote! {
            const __TOOL_NAME: &str = #name;
            const __TOOL_ARGS: _tool_core::__private::ArgsParts<#args_ty> = _tool_core::__private::args_parts::<#args_ty>();
            const __TOOL_OUTPUT: _tool_core::__private::OutputParts<#output> = _tool_core::__private::output_parts::<#output>();
            #shim
            #require_strict
            static __TOOL_DEF: _tool_core::ToolDef = _tool_core::ToolDef::__new(_tool_core::__private::ToolDefParts {
                name: __TOOL_NAME,
                description: #description,
                schema: __TOOL_ARGS.schema,
                rust_path: ::core::concat!(::core::module_path!(), "::", ::core::stringify!(#fn_ident)),
                output: __TOOL_OUTPUT.schema,
                handler: _tool_core::__private::Handler::#handler(__tool_shim),
                options: #options,
            });
            #[automatically_derived]
            impl _tool_core::Tool for #type_ident {
                fn def(&self) -> &'static _tool_core::ToolDef {
                    &__TOOL_DEF
                }
            }
            #[automatically_derived]
            impl #type_ident {
                /// The tool's name.
                pub const NAME: &'static str = __TOOL_NAME;
                /// The tool's definition.
                pub const DEF: &'static _tool_core::ToolDef = &__TOOL_DEF;
            }
            _tool_core::__private::inventory::submit! {
                _tool_core::__private::Registration(&__TOOL_DEF)
            }
        };
        let generated = wrap_in_const(krate, generated);
        // The shim hands the decoded struct over by value, so the signature is ours to
        // dictate; pedantic's "pass by reference" advice cannot apply to it.
        quote! {
            #[allow(clippy::needless_pass_by_value)]
            #item

            #[doc = #doc]
            #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy)]
            #vis struct #type_ident;

            #generated
        }
    }
}

fn optional<T: quote::ToTokens>(value: Option<&T>) -> TokenStream {
    value.map_or_else(|| quote!(::core::option::Option::None), |value| quote!(::core::option::Option::Some(#value)))
}

/// The `ToolOptions` of the `ToolDef`: the keys set, over the defaults (a tool that sets
/// none names `ToolOptions::DEFAULT`, which is less for the compiler to check).
fn options(attr: &ToolAttr) -> TokenStream {
    let mut members = Vec::new();
    if let Some(strict) = &attr.strict {
        let value = **strict;
        members.push(quote!(strict: ::core::option::Option::Some(#value)));
    }
    if let Some(title) = &attr.title {
        let title = title.as_str();
        members.push(quote!(title: ::core::option::Option::Some(#title)));
    }
    let hints = [&attr.read_only, &attr.destructive, &attr.idempotent, &attr.open_world];
    if hints.iter().any(|hint| hint.is_some()) {
        let [read_only, destructive, idempotent, open_world] = hints.map(|hint| optional(hint.as_ref()));
        members.push(quote! {
            annotations: _tool_core::Annotations {
                read_only: #read_only,
                destructive: #destructive,
                idempotent: #idempotent,
                open_world: #open_world,
            }
        });
    }
    if attr.sequential.is_present() {
        members.push(quote!(sequential: true));
    }
    if attr.requires_approval.is_present() {
        members.push(quote!(requires_approval: true));
    }
    if let Some(group) = &attr.group {
        members.push(quote!(group: ::core::option::Option::Some(#group)));
    }
    if members.is_empty() {
        quote!(_tool_core::__private::ToolOptions::DEFAULT)
    } else {
        quote!(_tool_core::__private::ToolOptions { #(#members,)* .._tool_core::__private::ToolOptions::DEFAULT })
    }
}

/// `get_weather` → `GetWeatherTool`, spanned at the fn ident.
fn tool_type_ident(fn_ident: &Ident) -> Ident {
    let camel: String = unraw(fn_ident)
        .split('_')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |c| c.to_ascii_uppercase().to_string() + chars.as_str())
        })
        .collect();
    format_ident!("{}Tool", camel, span = fn_ident.span())
}
