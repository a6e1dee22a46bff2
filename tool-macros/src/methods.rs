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
use crate::tool::{Names, Served, ServedFn, ToolFn, read_attr};
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
    let mut prompts = Vec::new();
    let mut resources = Vec::new();
    let mut marked = false;
    let mut attr_paths = Vec::new();
    for item in &mut block.items {
        let Item::Fn(method) = item else { continue };
        let Some((position, kind)) = method.attrs.iter().enumerate().find_map(|(i, attr)| Some((i, kind_of(attr)?)))
        else {
            continue;
        };
        let attribute = method.attrs.remove(position);
        marked = true;
        // Once each: `#[tool]` on every method is still one import.
        let path = attribute.path();
        if !attr_paths.iter().any(|seen: &syn::Path| seen == path) {
            attr_paths.push(path.clone());
        }
        let args = match &attribute.meta {
            syn::Meta::List(list) => list.tokens.clone(),
            _ => TokenStream::new(),
        };
        match kind {
            Kind::Tool => {
                let (parsed, read) = read_attr(args, &mut errors);
                let tool = ToolFn::read(parsed, read, &mut method.sig, &method.attrs, Some(&self_ty));
                if let Some(tool) = errors.handle(tool) {
                    method.sig = tool.sig.clone();
                    tools.push(tool);
                }
            }
            Kind::Served(served) => {
                let read = ServedFn::read(served, args, &mut method.sig, &method.attrs, Some(&self_ty), &mut errors);
                if let Some(read) = read {
                    method.sig = read.tool.sig.clone();
                    match served {
                        Served::Prompt => prompts.push(read),
                        Served::Resource => resources.push(read),
                    }
                }
            }
        }
    }
    if !marked {
        errors.push(
            darling::Error::custom(
                "this `#[tools]` block has no `#[tool]`, `#[prompt]` or `#[resource]` method: mark each with its attribute",
            )
            .with_span(&block.parsed.self_ty),
        );
    }
    errors.finish()?;
    let mut definitions = TokenStream::new();
    let served = prompts.iter().chain(&resources).map(|served| &served.tool);
    let args_structs: Vec<&TokenStream> = tools.iter().chain(served).filter_map(ToolFn::args_struct).collect();
    let mut define = |tool: &ToolFn| {
        let names = Names::new(Some(&tool.sig.ident));
        tool.definition(&names).to_tokens(&mut definitions);
        names.def
    };
    let defs: Vec<syn::Ident> = tools.iter().map(&mut define).collect();
    let prompt_defs: Vec<syn::Ident> = prompts.iter().map(|served| define(&served.tool)).collect();
    let resource_defs: Vec<TokenStream> = resources
        .iter()
        .map(|served| {
            let def = define(&served.tool);
            let (uri, mime_type) = served.uri_and_mime();
            quote!(_tool_core::__private::ResourceMethod { def: &#def, uri: #uri, mime_type: #mime_type })
        })
        .collect();
    let count = defs.len();
    // A block of tools alone (the common case) keeps the defaults: less for rustc to check.
    let prompt_list = (!prompt_defs.is_empty()).then(|| {
        let prompt_count = prompt_defs.len();
        (
            quote!(static __PROMPT_DEFS: [&_tool_core::ToolDef; #prompt_count] = [#(&#prompt_defs),*];),
            quote! {
                fn __prompt_defs() -> &'static [&'static _tool_core::ToolDef] {
                    &__PROMPT_DEFS
                }
            },
        )
    });
    let resource_list = (!resource_defs.is_empty()).then(|| {
        let resource_count = resource_defs.len();
        (
            quote!(static __RESOURCE_DEFS: [_tool_core::__private::ResourceMethod; #resource_count] = [#(#resource_defs),*];),
            quote! {
                fn __resource_defs() -> &'static [_tool_core::__private::ResourceMethod] {
                    &__RESOURCE_DEFS
                }
            },
        )
    });
    let (prompt_static, prompt_fn) = prompt_list.unzip();
    let (resource_static, resource_fn) = resource_list.unzip();
    let generated = wrap_in_const(
        &krate,
        quote! {
            // The attributes this block took off its methods, each named once on an item
            // it expands to nothing: the user's `use tool_core::tool` is then used, as it is
            // by a free fn's, and a missing import is rustc's own "cannot find attribute
            // `tool`" with the import to add.
            #(#[#attr_paths(__mark_used)] const _: () = ();)*
            #definitions
            static __TOOL_DEFS: [&_tool_core::ToolDef; #count] = [#(&#defs),*];
            #prompt_static
            #resource_static
            #[automatically_derived]
            impl _tool_core::__private::ToolSet for #self_ty {
                fn tool_defs() -> &'static [&'static _tool_core::ToolDef] {
                    &__TOOL_DEFS
                }
                #prompt_fn
                #resource_fn
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

/// What a method's attribute makes it.
#[derive(Clone, Copy)]
enum Kind {
    Tool,
    Served(Served),
}

/// `#[tool]`, `#[prompt]` or `#[resource]` (or `#[tool_core::tool]`, ..), with or without keys.
fn kind_of(attr: &syn::Attribute) -> Option<Kind> {
    let last = &attr.path().segments.last()?.ident;
    if last == "tool" {
        Some(Kind::Tool)
    } else if last == "prompt" {
        Some(Kind::Served(Served::Prompt))
    } else if last == "resource" {
        Some(Kind::Served(Served::Resource))
    } else {
        None
    }
}
