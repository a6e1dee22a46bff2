//! `#[tools]` on an `impl` block: its `#[tool]` methods become tools called on a value of
//! the type. The block is emitted with those attributes taken off; beside it, one `const`
//! block holds each method's definition (as `tool/definition.rs` writes a fn's, with names
//! suffixed by the method's) and the `ToolSet` impl that lists them. Nothing is submitted to
//! `inventory`: a method needs its receiver, which `Registry::add_all` is given.

use darling::FromMeta;
use darling::ast::NestedMeta;
use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use crate::impl_block::{ImplBlock, Item};
use crate::tool::{Names, ToolFn, read_attr};
use crate::util::{Result, crate_path, wrap_in_const};

/// `#[tools(crate = ::path)]`.
#[derive(Debug, Default, FromMeta)]
struct ToolsAttr {
    /// Where `tool_core` is, when it is re-exported under another path.
    #[darling(rename = "crate")]
    krate: Option<syn::Path>,
}

/// Expands `#[tools]`; on error, the errors plus the block (its `#[tool]` attributes taken
/// off, so they do not also report that they need this attribute).
pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let Ok(mut block) = ImplBlock::parse(item.clone()) else {
        let error = darling::Error::custom("`#[tools]` goes on an `impl` block whose methods are `#[tool]`s")
            .with_span(&item.clone().into_iter().next().map_or_else(proc_macro2::Span::call_site, |t| t.span()));
        let errors = error.write_errors();
        return quote!(#errors #item);
    };
    match try_expand(attr, &mut block) {
        Ok(tokens) => tokens,
        Err(error) => {
            let errors = error.write_errors();
            quote!(#errors #block)
        }
    }
}

/// Expands `#[tools]` on `block`, taking the `#[tool]` attributes off its methods, or
/// returns every error found.
fn try_expand(attr: TokenStream, block: &mut ImplBlock) -> Result<TokenStream> {
    let mut errors = darling::Error::accumulator();
    let attr = errors
        .handle(NestedMeta::parse_meta_list(attr).map_err(darling::Error::from).and_then(|i| ToolsAttr::from_list(&i)))
        .unwrap_or_default();
    let krate = errors.handle(crate_path(attr.krate.as_ref())).unwrap_or_else(|| quote!(::tool_core));
    if let Some((path, _)) = &block.parsed.trait_ {
        errors.push(
            darling::Error::custom(
                "`#[tools]` goes on an inherent `impl Type { .. }` block: a trait's methods cannot be tools",
            )
            .with_span(path),
        );
    }
    if !block.parsed.generics.params.is_empty() {
        errors.push(
            darling::Error::custom(
                "a `#[tools]` block cannot be generic: each tool's schema must be known at compile time; implement the tools for a concrete type",
            )
            .with_span(&block.parsed.generics.params),
        );
    }
    let self_ty = (*block.parsed.self_ty).clone();
    let mut tools = Vec::new();
    let mut marked = false;
    let mut attr_paths = Vec::new();
    for item in &mut block.items {
        let Item::Fn(method) = item else { continue };
        let Some(position) = method.attrs.iter().position(is_tool_attr) else { continue };
        let tool_attr = method.attrs.remove(position);
        marked = true;
        attr_paths.push(tool_attr.path().clone());
        let args = match &tool_attr.meta {
            syn::Meta::List(list) => list.tokens.clone(),
            _ => TokenStream::new(),
        };
        let (parsed, read) = read_attr(args, &mut errors);
        if let Some(tool) = errors.handle(ToolFn::read(parsed, read, &mut method.sig, &method.attrs, Some(&self_ty))) {
            method.sig = tool.sig.clone();
            tools.push(tool);
        }
    }
    if !marked {
        errors.push(
            darling::Error::custom("this `#[tools]` block has no `#[tool]` method: mark each tool with `#[tool]`")
                .with_span(&block.parsed.self_ty),
        );
    }
    errors.finish()?;
    let mut definitions = TokenStream::new();
    let args_structs = tools.iter().filter_map(ToolFn::args_struct);
    let mut defs = Vec::with_capacity(tools.len());
    for tool in &tools {
        let names = Names::new(Some(&tool.sig.ident));
        tool.definition(&names).to_tokens(&mut definitions);
        defs.push(names.def);
    }
    let count = defs.len();
    let generated = wrap_in_const(
        &krate,
        quote! {
            // The `#[tool]`s this block took off its methods, named once: the user's
            // `use tool_core::tool` is then used, as it is by a free fn's.
            #(#[allow(unused_imports)] use #attr_paths as _;)*
            #definitions
            static __TOOL_DEFS: [&_tool_core::ToolDef; #count] = [#(&#defs),*];
            #[automatically_derived]
            impl _tool_core::__private::ToolSet for #self_ty {
                fn tool_defs() -> &'static [&'static _tool_core::ToolDef] {
                    &__TOOL_DEFS
                }
            }
        },
    );
    // The shims hand decoded arguments over by value, so the signatures are ours to
    // dictate; pedantic's "pass by reference" advice cannot apply to them.
    Ok(quote! {
        #[allow(clippy::needless_pass_by_value)]
        #block
        #(#args_structs)*
        #generated
    })
}

/// `#[tool]` or `#[tool_core::tool]`, with or without keys.
fn is_tool_attr(attr: &syn::Attribute) -> bool {
    attr.path().segments.last().is_some_and(|segment| segment.ident == "tool")
}
