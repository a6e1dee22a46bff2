//! A tool's definition, emitted inside the caller's `const` block: its name, the argument
//! and output parts, the dispatch shim (async or not, free fn or method) and the `ToolDef`
//! static, under the [`Names`] of one tool.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::Ident;

use super::tool_fn::ToolFn;
use crate::inputs::Args;
use crate::util::unraw;

impl ToolFn {
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
        let (args_ty, _, _) = self.args();
        let (handler, shim) = self.shim(names);
        let options = &self.options;
        // Asking for strict mode on a schema strict mode cannot express fails here, spanned
        // at `strict`, with the reason.
        let require_strict = if let Some(strict) = self.strict.as_ref().filter(|strict| ***strict) {
            let span = strict.span();
            quote_spanned!(span=> _tool_core::__require_strict!(#args_const.schema);)
        } else {
            TokenStream::new()
        };
        let owner = self.self_ty.as_ref().map(|self_ty| quote!(::core::stringify!(#self_ty), "::",));
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
                check: #args_const.check,
                rust_path: #rust_path,
                output: #output_const.schema,
                handler: _tool_core::__private::Handler::#handler(#shim_ident),
                context: #takes_context,
                options: #options,
            });
        }
    }

    /// The arguments' type, the shim closure's parameter, and what the fn is called with.
    fn args(&self) -> (TokenStream, TokenStream, TokenStream) {
        match (&self.inputs.args, &self.args_struct) {
            (Args::Struct(ty), _) => (quote!(#ty), quote!(__tool_args), quote!(__tool_args)),
            (Args::Plain(plain), Some((ident, _))) => (quote!(#ident), quote!(__tool_args: #ident), plain.call_args()),
            _ if self.open => (quote!(_tool_core::param::IgnoredArgs), quote!(_), TokenStream::new()),
            _ => (quote!(_tool_core::param::NoArgs), quote!(_), TokenStream::new()),
        }
    }

    /// The `Handler` variant and the shim it holds, for a sync or async fn, free or a method.
    fn shim(&self, names: &Names) -> (TokenStream, TokenStream) {
        let Names { name: name_const, args: args_const, output: output_const, shim: shim_ident, .. } = names;
        let fn_ident = &self.sig.ident;
        let takes_context = self.inputs.takes_context;
        let context = takes_context.then(|| quote!(__tool_context,));
        let context_param = if takes_context { quote!(__tool_context) } else { quote!(_) };
        let (_, args_param, call_args) = self.args();
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
                        _tool_core::__private::run_async(#name_const, #decoded, #output_const.convert, #call)
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
                        _tool_core::__private::run(#name_const, #decoded, #output_const.convert, #call)
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
                                _tool_core::__private::run_async(#name_const, #decoded, #output_const.convert, #call)
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
                        _tool_core::__private::run(#name_const, #decoded, #output_const.convert, #call)
                    }
                },
            ),
        };
        (handler, shim)
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
