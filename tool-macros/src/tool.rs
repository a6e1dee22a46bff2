//! `#[tool]`: reads the fn and `#[tool(..)]` into a [`ToolFn`], checks it, and emits the fn
//! followed by the `…Tool` type, its definition (for plain parameters the arguments struct,
//! the compile-time schema tree, the dispatch shim, the options) and the `inventory`
//! registration. A method's definition is the same, emitted by `#[tools]` (`methods.rs`).

use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::util::SpannedValue;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::{Attribute, Ident, ReturnType, Signature, Type};

use crate::attr::ToolAttr;
use crate::fn_item::FnItem;
use crate::inputs::{Args, Inputs, Place};
use crate::util::{Doc, Result, crate_path, unraw, wrap_in_const};

/// A tool fn (free, or a method of a `#[tools]` block), as the shim needs it.
pub struct ToolFn {
    /// The fn's signature, its parameters' `#[param]`/`#[serde]` attributes taken off.
    pub sig: Signature,
    /// The tool's name.
    name: String,
    /// The tool's description.
    description: Doc,
    /// What the fn takes.
    inputs: Inputs,
    /// For plain parameters: the arguments struct's name and definition.
    args_struct: Option<(Ident, TokenStream)>,
    /// The return type.
    output: Type,
    /// Where `tool_core` is.
    krate: TokenStream,
    /// `#[tool(strict)]`, `#[tool(strict = false)]`, or neither.
    strict: Option<SpannedValue<bool>>,
    /// The other keys, as the `ToolDef`'s `ToolOptions`.
    options: TokenStream,
    /// The type a method is declared on.
    self_ty: Option<Type>,
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

/// Reads `#[tool(..)]`'s keys; a malformed attribute is reported and the defaults returned,
/// with `false` for "read": nothing it may have set is then reported missing.
pub fn read_attr(attr: TokenStream, errors: &mut darling::error::Accumulator) -> (ToolAttr, bool) {
    let parsed = errors.handle(
        NestedMeta::parse_meta_list(attr).map_err(darling::Error::from).and_then(|items| ToolAttr::from_list(&items)),
    );
    let read = parsed.is_some();
    (parsed.unwrap_or_default(), read)
}

/// Expands `#[tool]`, or returns every error found.
pub fn try_expand(attr: TokenStream, item: TokenStream) -> Result<TokenStream> {
    let mut errors = darling::Error::accumulator();
    // A malformed attribute is reported, and the fn is still checked with the defaults, but
    // for what the attribute may have said: its `description`, say, so no missing one is
    // reported on top of the misspelt key.
    let (attr, attr_read) = read_attr(attr, &mut errors);
    let Ok(mut item) = syn::parse2::<FnItem>(item.clone()) else {
        let span = item.into_iter().next().map_or_else(Span::call_site, |t| t.span());
        errors.push(darling::Error::custom("`#[tool]` can only be applied to a `fn` item").with_span(&span));
        return errors.finish().map(|()| TokenStream::new());
    };
    let tool = errors.handle(ToolFn::read(attr, attr_read, &mut item.sig, &item.attrs, None));
    errors.finish()?;
    Ok(tool.map(|tool| tool.expand_free(item)).unwrap_or_default())
}

/// The name every provider accepts: `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`.
fn valid_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    matches!(bytes.first(), Some(b) if b.is_ascii_alphabetic() || *b == b'_')
        && bytes.len() <= 64
        && bytes.iter().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
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
        let place = if self_ty.is_some() { Place::Method } else { Place::Free };
        let inputs = Inputs::read(sig, place, &mut errors);
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
                .with_span(&sig.ident),
            );
        }
        if attr.open.is_present() && !matches!(inputs.args, Args::Plain(_)) {
            errors.push(
                darling::Error::custom(
                    "`open` is for plain parameters: on an argument struct, write `#[tool_args(open)]` on the struct",
                )
                .with_span(&attr.open.span()),
            );
        }
        let args_struct = match &inputs.args {
            Args::Plain(plain) => {
                let ident = plain.struct_ident(&camel_case(&sig.ident), sig.ident.span());
                let default_crate = quote!(::tool_core);
                let krate = (krate.as_ref().unwrap_or(&default_crate), attr.krate.as_ref());
                let definition = plain.args_struct(&ident, &argument_docs, krate, attr.open.is_present(), &mut errors);
                Some((ident, definition))
            }
            _ => None,
        };
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
            inputs,
            args_struct,
            output,
            krate: krate.unwrap_or_else(|| quote!(::tool_core)),
            strict: attr.strict,
            options: options(&attr),
            self_ty: self_ty.cloned(),
            sig: sig.clone(),
        })
    }

    /// A free fn's expansion: the fn (its parameters' attributes taken off), the `…Tool`
    /// type, and in one `const` block its definition and registration.
    fn expand_free(&self, mut item: FnItem) -> TokenStream {
        item.sig = self.sig.clone();
        let fn_ident = &item.sig.ident;
        let vis = &item.vis;
        let name = &self.name;
        let type_ident = tool_type_ident(fn_ident);
        let definition = self.definition(&Names::new(None));
        let doc = format!("The `{name}` tool, generated by `#[tool]` from [`{fn_ident}`]: pass it to `Registry::add`.");
        let generated = quote! {
            #definition
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
        let generated = wrap_in_const(&self.krate, generated);
        let args_struct = self.args_struct();
        // The shim hands the decoded struct over by value, so the signature is ours to
        // dictate; pedantic's "pass by reference" advice cannot apply to it.
        quote! {
            #[allow(clippy::needless_pass_by_value)]
            #item

            #args_struct

            #[doc = #doc]
            #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy)]
            #vis struct #type_ident;

            #generated
        }
    }

    /// For plain parameters, the arguments struct and its `ToolArgs` impl, to emit beside
    /// the fn (or the `#[tools]` block): the definition names it.
    pub fn args_struct(&self) -> Option<&TokenStream> {
        self.args_struct.as_ref().map(|(_, definition)| definition)
    }

    /// The definition's items (inside the caller's `const` block): the name, the argument
    /// and output parts, the shim and the `ToolDef` static, named by `names`.
    pub fn definition(&self, names: &Names) -> TokenStream {
        let Names { name: name_const, args: args_const, output: output_const, shim: shim_ident, def: def_static } =
            names;
        let fn_ident = &self.sig.ident;
        let name = &self.name;
        let description = &self.description;
        let output = &self.output;
        let takes_context = self.inputs.takes_context;
        let context = takes_context.then(|| quote!(__tool_context,));
        let context_param = if takes_context { quote!(__tool_context) } else { quote!(_) };
        let (args_ty, args_param, call_args) = match (&self.inputs.args, &self.args_struct) {
            (Args::Struct(ty), _) => (quote!(#ty), quote!(__tool_args), quote!(__tool_args)),
            (Args::Plain(plain), Some((ident, _))) => (quote!(#ident), quote!(__tool_args: #ident), plain.call_args()),
            _ => (quote!(_tool_core::param::NoArgs), quote!(_), TokenStream::new()),
        };
        let decoded = quote!((#args_const.decode)(#name_const, __tool_arguments, __tool_options));
        let is_async = self.sig.asyncness.is_some();
        let method = self.self_ty.as_ref();
        let callee = if method.is_some() { quote!(__tool_self.#fn_ident) } else { quote!(#fn_ident) };
        let call = quote!(move |#args_param| #callee(#context #call_args));
        let receiver_param = method.map(|_| quote!(__tool_receiver: &'a _tool_core::__private::Receiver,));
        let sync_receiver_param = method.map(|_| quote!(__tool_receiver: &_tool_core::__private::Receiver,));
        // One call into the runtime: decoding's error, the fn's `Err` and its panic are
        // handled there, once, rather than in each tool's shim.
        let (handler, shim) = match (is_async, method) {
            (true, None) => (
                quote!(Async),
                quote! {
                    fn #shim_ident<'a>(
                        #context_param: &'a _tool_core::ToolContext,
                        __tool_arguments: _tool_core::__private::Arguments<'a>,
                        __tool_options: &'a _tool_core::__private::DecodeOptions,
                    ) -> _tool_core::__private::ToolFuture<'a> {
                        _tool_core::__private::call_async(#name_const, #decoded, #output_const.convert, #call)
                    }
                },
            ),
            (false, None) => (
                quote!(Sync),
                quote! {
                    fn #shim_ident(
                        #context_param: &_tool_core::ToolContext,
                        __tool_arguments: _tool_core::__private::Arguments<'_>,
                        __tool_options: &_tool_core::__private::DecodeOptions,
                    ) -> ::core::result::Result<_tool_core::ToolOutput, _tool_core::ToolError> {
                        _tool_core::__private::call(#name_const, #decoded, #output_const.convert, #call)
                    }
                },
            ),
            (true, Some(self_ty)) => (
                quote!(AsyncMethod),
                quote! {
                    fn #shim_ident<'a>(
                        #receiver_param
                        #context_param: &'a _tool_core::ToolContext,
                        __tool_arguments: _tool_core::__private::Arguments<'a>,
                        __tool_options: &'a _tool_core::__private::DecodeOptions,
                    ) -> _tool_core::__private::ToolFuture<'a> {
                        match _tool_core::__private::receiver::<#self_ty>(__tool_receiver, #name_const) {
                            ::core::result::Result::Ok(__tool_self) => {
                                _tool_core::__private::call_async(#name_const, #decoded, #output_const.convert, #call)
                            }
                            ::core::result::Result::Err(error) => _tool_core::__private::ready(::core::result::Result::Err(error)),
                        }
                    }
                },
            ),
            (false, Some(self_ty)) => (
                quote!(SyncMethod),
                quote! {
                    fn #shim_ident(
                        #sync_receiver_param
                        #context_param: &_tool_core::ToolContext,
                        __tool_arguments: _tool_core::__private::Arguments<'_>,
                        __tool_options: &_tool_core::__private::DecodeOptions,
                    ) -> ::core::result::Result<_tool_core::ToolOutput, _tool_core::ToolError> {
                        let __tool_self = _tool_core::__private::receiver::<#self_ty>(__tool_receiver, #name_const)?;
                        _tool_core::__private::call(#name_const, #decoded, #output_const.convert, #call)
                    }
                },
            ),
        };
        let options = &self.options;
        // Asking for strict mode on a schema strict mode cannot express fails here, spanned
        // at `strict`, with the reason.
        let require_strict = if let Some(strict) = self.strict.as_ref().filter(|strict| ***strict) {
            let span = strict.span();
            quote_spanned!(span=> _tool_core::__require_strict!(#args_const.schema);)
        } else {
            TokenStream::new()
        };
        let owner = method.map(|self_ty| quote!(::core::stringify!(#self_ty), "::",));
        let rust_path = quote!(::core::concat!(::core::module_path!(), "::", #owner ::core::stringify!(#fn_ident)));
        quote! {
            const #name_const: &str = #name;
            const #args_const: _tool_core::__private::ArgsParts<#args_ty> = _tool_core::__private::args_parts::<#args_ty>();
            const #output_const: _tool_core::__private::OutputParts<#output> = _tool_core::__private::output_parts::<#output>();
            #shim
            #require_strict
            static #def_static: _tool_core::ToolDef = _tool_core::ToolDef::__new(_tool_core::__private::ToolDefParts {
                name: #name_const,
                description: #description,
                schema: #args_const.schema,
                rust_path: #rust_path,
                output: #output_const.schema,
                handler: _tool_core::__private::Handler::#handler(#shim_ident),
                context: #takes_context,
                options: #options,
            });
        }
    }
}

/// The names of one tool's generated items: plain for a free fn (its own `const` block),
/// suffixed with the method's name in a `#[tools]` block, which holds them all.
pub struct Names {
    name: Ident,
    args: Ident,
    output: Ident,
    shim: Ident,
    /// The `ToolDef` static.
    pub def: Ident,
}

impl Names {
    /// The names, suffixed with `method` when there is one.
    pub fn new(method: Option<&Ident>) -> Names {
        let suffix = method.map(|ident| format!("_{}", unraw(ident))).unwrap_or_default();
        Names {
            name: format_ident!("__TOOL_NAME{suffix}"),
            args: format_ident!("__TOOL_ARGS{suffix}"),
            output: format_ident!("__TOOL_OUTPUT{suffix}"),
            shim: format_ident!("__tool_shim{suffix}"),
            def: format_ident!("__TOOL_DEF{suffix}"),
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
    if attr.inline.is_present() {
        members.push(quote!(inline: true));
    }
    if attr.requires_approval.is_present() {
        members.push(quote!(requires_approval: true));
    }
    if let Some(group) = &attr.group {
        members.push(quote!(group: ::core::option::Option::Some(#group)));
    }
    if !attr.scopes.is_empty() {
        let scopes = &attr.scopes;
        members.push(quote!(scopes: &[#(#scopes),*]));
    }
    match attr.task {
        Some(crate::attr::TaskSupport::Optional) => members.push(quote!(task: _tool_core::TaskSupport::Optional)),
        Some(crate::attr::TaskSupport::Required) => members.push(quote!(task: _tool_core::TaskSupport::Required)),
        None => {}
    }
    if members.is_empty() {
        quote!(_tool_core::__private::ToolOptions::DEFAULT)
    } else {
        quote!(_tool_core::__private::ToolOptions { #(#members,)* .._tool_core::__private::ToolOptions::DEFAULT })
    }
}

/// `get_weather` → `GetWeatherTool`, spanned at the fn ident.
fn tool_type_ident(fn_ident: &Ident) -> Ident {
    format_ident!("{}Tool", camel_case(fn_ident), span = fn_ident.span())
}

/// `get_weather` → `GetWeather`.
fn camel_case(fn_ident: &Ident) -> String {
    unraw(fn_ident)
        .split('_')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |c| c.to_ascii_uppercase().to_string() + chars.as_str())
        })
        .collect()
}
