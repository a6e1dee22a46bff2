//! The `ToolOptions` of a `ToolDef`, from the `#[tool(..)]` keys that are neither its name,
//! its description nor where `tool_core` is.

use proc_macro2::TokenStream;
use quote::quote;

use crate::attr::{TaskSupport, ToolAttr};

/// The `ToolOptions` of the `ToolDef`: the keys set, over the defaults (a tool that sets
/// none names `ToolOptions::DEFAULT`, which is less for the compiler to check).
pub fn options(attr: &ToolAttr) -> TokenStream {
    let mut members = Vec::new();
    if let Some(strict) = &attr.strict {
        let value = **strict;
        members.push(quote!(strict: ::core::option::Option::Some(#value)));
    }
    if let Some(title) = &attr.title {
        let title = title.as_str();
        members.push(quote!(title: ::core::option::Option::Some(#title)));
    }
    let hints = [
        (&attr.read_only, quote!(read_only)),
        (&attr.destructive, quote!(destructive)),
        (&attr.idempotent, quote!(idempotent)),
        (&attr.open_world, quote!(open_world)),
    ];
    if hints.iter().any(|(hint, _)| hint.is_some()) {
        // The builder, not a literal: `Annotations` is `#[non_exhaustive]`.
        let set = hints.iter().filter_map(|(hint, method)| {
            let value = (**hint)?;
            Some(quote!(.#method(#value)))
        });
        members.push(quote!(annotations: _tool_core::Annotations::new() #(#set)*));
    }
    if attr.sequential.is_present() {
        members.push(quote!(sequential: true));
    }
    if attr.early.is_present() {
        members.push(quote!(early: true));
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
        Some(TaskSupport::Optional) => members.push(quote!(task: _tool_core::TaskSupport::Optional)),
        Some(TaskSupport::Required) => members.push(quote!(task: _tool_core::TaskSupport::Required)),
        None => {}
    }
    if members.is_empty() {
        quote!(_tool_core::__private::ToolOptions::DEFAULT)
    } else {
        quote!(_tool_core::__private::ToolOptions { #(#members,)* .._tool_core::__private::ToolOptions::DEFAULT })
    }
}
