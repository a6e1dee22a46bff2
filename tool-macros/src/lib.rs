//! Implementation detail of the `tool-core` crate: use the macros through its re-exports.
//!
//! Each entry point hands `proc_macro2` tokens to its module's `expand`, which never fails:
//! errors come out as `compile_error!` next to the user's item, so nothing else breaks.
#![forbid(unsafe_code)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing))]

mod args;
mod attr;
mod decode;
mod doc_args;
mod enums;
mod fn_item;
mod impl_block;
mod inputs;
mod keyword;
mod literal;
mod methods;
mod newtype;
mod object;
mod param;
mod param_checks;
mod param_keywords;
mod plain;
mod rules;
mod serde_attr;
#[cfg(test)]
mod snapshots;
mod tool;
mod util;

use proc_macro::TokenStream;

/// Turns a fn into a tool: the compile-time schema tree of its argument struct, a dispatch
/// shim that decodes, validates and calls it, and an automatic registration.
///
/// See the `tool-core` crate docs for the keys it takes.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand(attr.into(), item.into()).into()
}

/// Turns a fn into an MCP prompt: its parameters are the prompt's arguments, decoded and
/// validated as a tool's; it returns the messages.
///
/// See the `tool-core` crate docs (`mcp::Prompts`).
#[proc_macro_attribute]
pub fn prompt(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand_served(tool::Served::Prompt, attr.into(), item.into()).into()
}

/// Turns a fn into an MCP resource at a URI, or a resource template whose variables are
/// its parameters.
///
/// See the `tool-core` crate docs (`mcp::Resources`).
#[proc_macro_attribute]
pub fn resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand_served(tool::Served::Resource, attr.into(), item.into()).into()
}

/// Makes the `#[tool]` methods of an `impl` block tools, called on a value of the type:
/// implements `ToolSet`, whose tools `Registry::add_all` adds with that value.
///
/// See the `tool-core` crate docs.
#[proc_macro_attribute]
pub fn tools(attr: TokenStream, item: TokenStream) -> TokenStream {
    methods::expand(attr.into(), item.into()).into()
}

/// Derives `ToolParam` (and, for structs with named fields, `ToolObject`, so `ToolArgs`
/// through its blanket impl): the type's JSON Schema as a compile-time constant tree and the
/// checks that enforce it, read as data by the runtime.
///
/// See the `tool-core` crate docs for the `#[param(..)]` keys.
#[proc_macro_derive(ToolArgs, attributes(param, tool_args, serde))]
pub fn derive_tool_args(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    args::expand(input).into()
}

/// `ToolArgs` for output types (`Structured<T>`): the schema and its checks, without a
/// `Deserialize` impl.
#[proc_macro_derive(ToolSchema, attributes(param, tool_args, serde))]
pub fn derive_tool_schema(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    args::expand_schema(input).into()
}
