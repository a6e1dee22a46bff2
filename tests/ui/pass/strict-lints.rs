//! Generated code compiles under `deny(warnings)` and `forbid(unsafe_code)`, beside user
//! items that shadow the prelude (`Option`, `Result`, `String`) and the crates it uses.
#![forbid(unsafe_code)]
#![deny(warnings, missing_docs, unused_qualifications)]
#![allow(dead_code)]

struct Option;
struct Result;
struct String;
mod serde {}
mod serde_json {}

/// Arguments.
#[derive(::tool_core::ToolArgs)]
pub struct Args {
    /// A count.
    #[param(minimum = 1, maximum = 9)]
    count: u8,
    /// An optional label.
    label: ::core::option::Option<::std::string::String>,
    /// An id.
    id: Id,
    /// A name read through a stand-in type.
    #[param(as = ::std::string::String, min_length = 1)]
    name: Name,
    /// A generic stand-in type, unquoted.
    #[param(as = ::core::option::Option<::std::vec::Vec<::std::string::String>>, max_items = 3)]
    aliases: ::core::option::Option<Names>,
}

/// Names, with no schema of their own.
#[derive(::serde::Deserialize)]
pub struct Names(::std::vec::Vec<::std::string::String>);

/// An id.
#[derive(::tool_core::ToolArgs)]
pub struct Id(#[param(min_length = 1, pattern = "^[a-z]+$")] ::std::string::String);

/// A name, with no schema of its own.
#[derive(::serde::Deserialize)]
pub struct Name(::std::string::String);

/// Counts.
#[::tool_core::tool]
pub fn count(args: Args) -> ::std::string::String {
    ::std::format!("{}{:?}", args.count, args.label)
}

/// Counts, maybe failing.
#[::tool_core::tool]
pub async fn count_async(ctx: &::tool_core::ToolContext, args: Args) -> ::core::result::Result<::std::string::String, ::std::fmt::Error> {
    let _ = ctx;
    ::core::result::Result::Ok(::std::format!("{}", args.count))
}

fn main() {
    let registry = ::tool_core::Registry::collect();
    assert!(registry.is_ok());
}
