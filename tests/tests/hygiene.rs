//! Generated code compiles cleanly under the strictest settings a user may have: every lint
//! denied (clippy pedantic included, checked by CI's clippy run), `unsafe` forbidden, and
//! user items named like the prelude and the crates the macros use.
#![forbid(unsafe_code)]
#![deny(warnings, unused_qualifications, clippy::pedantic)]
#![allow(dead_code, unused_macros)] // the shadowing items below exist only to shadow

// Items that shadow the prelude and the crates generated code reaches.
struct Option;
struct Result;
struct String;
struct Vec;
struct Box;
mod serde {}
mod serde_json {}
mod inventory {}
mod core {}
mod std {}
mod tool_core {}
macro_rules! format {
    () => {};
}

/// Arguments.
#[derive(Debug, ::tool_core::ToolArgs)]
pub struct Args {
    /// A name.
    #[param(min_length = 1, max_length = 10, pattern = "^[a-z]+$")]
    name: ::std::string::String,
    #[param(minimum = 1, maximum = 5)]
    count: ::core::option::Option<u8>,
    #[param(enum = ["a", "b"])]
    kind: ::std::string::String,
    tags: ::std::vec::Vec<::std::string::String>,
    nested: Nested,
    choice: Choice,
}

/// Nested.
#[derive(Debug, ::tool_core::ToolArgs)]
pub struct Nested {
    #[param(exclusive_minimum = 0.5)]
    ratio: f64,
}

/// A choice.
#[derive(Debug, ::tool_core::ToolArgs)]
#[serde(tag = "type")]
pub enum Choice {
    /// One.
    One { value: u32 },
    /// Two.
    Two,
}

/// Uses every argument.
#[::tool_core::tool]
#[must_use]
pub fn strict_tool(args: Args) -> ::std::string::String {
    let _ = (args.name, args.count, args.kind, args.tags, args.nested.ratio, args.choice);
    ::std::string::String::from("ok")
}

/// Takes nothing.
#[::tool_core::tool(name = "no-args")]
#[must_use]
pub fn no_args() -> &'static str {
    "ok"
}

/// Async with context.
///
/// # Errors
/// Never; the type is here to exercise `Result` outputs.
#[::tool_core::tool]
pub async fn async_tool(
    ctx: &::tool_core::ToolContext,
    args: Nested,
) -> ::core::result::Result<::std::string::String, ::std::io::Error> {
    ::core::future::ready(()).await;
    let _ = ctx.call_id();
    ::core::result::Result::Ok(::std::format!("{}", args.ratio))
}

/// The runtime re-exported under another path, as a facade crate would.
pub mod facade {
    pub use ::tool_core as runtime;
}

/// Arguments reaching the runtime through the facade.
#[derive(Debug, ::tool_core::ToolArgs)]
#[tool_args(crate = crate::facade::runtime)]
pub struct ViaFacade {
    /// A value.
    #[param(maximum = 3)]
    value: u8,
}

/// Reaches the runtime through the facade.
#[::tool_core::tool(crate = crate::facade::runtime)]
#[must_use]
pub fn via_facade(args: ViaFacade) -> ::std::string::String {
    ::std::format!("{}", args.value)
}

/// A kind.
#[derive(Debug, ::tool_core::ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A.
    A,
    /// B.
    B,
}

/// Every other tagging, with each variant shape.
#[derive(Debug, ::tool_core::ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum External {
    /// A unit.
    Unit,
    /// A newtype.
    Newtype(u8),
    /// A struct.
    Struct {
        /// A field.
        #[serde(alias = "f")]
        field: ::std::string::String,
    },
}

/// Adjacently tagged.
#[derive(Debug, ::tool_core::ToolArgs)]
#[serde(tag = "t", content = "c", deny_unknown_fields)]
pub enum Adjacent {
    /// A unit.
    Unit,
    /// A newtype.
    Newtype(::core::option::Option<u8>),
    /// A struct.
    Struct {
        /// A field.
        field: u8,
    },
}

/// Untagged.
#[derive(Debug, ::tool_core::ToolArgs)]
#[serde(untagged)]
pub enum Untagged {
    /// A newtype.
    Newtype(u8),
    /// A struct.
    Struct {
        /// A field.
        #[serde(default)]
        field: u8,
    },
}

/// Takes one of each.
#[::tool_core::tool]
#[must_use]
pub fn enums_tool(external: External, adjacent: Adjacent, untagged: Untagged) -> ::std::string::String {
    ::std::format!("{external:?} {adjacent:?} {untagged:?}")
}

fn seven() -> u8 {
    7
}

fn shouted<'de, D: ::serde::Deserializer<'de>>(
    deserializer: D,
) -> ::core::result::Result<::std::string::String, D::Error> {
    <::std::string::String as ::serde::Deserialize>::deserialize(deserializer).map(|text| text.to_uppercase())
}

/// Plain parameters with the serde keys their decoding follows.
///
/// # Arguments
/// * `count` - how many
#[::tool_core::tool]
#[must_use]
pub fn plain_tool(
    #[param(minimum = 1)]
    #[serde(alias = "n")]
    count: u8,
    #[serde(default = "seven")] limit: u8,
    #[serde(skip)] hidden: u8,
    #[serde(deserialize_with = "shouted")]
    #[param(as = ::std::string::String)]
    shout: ::std::string::String,
    label: ::core::option::Option<::std::vec::Vec<::std::string::String>>,
    r#type: ::core::option::Option<Kind>,
) -> ::std::string::String {
    ::std::format!("{count} {limit} {hidden} {shout} {label:?} {type:?}")
}

/// Plain parameters, through the facade.
#[::tool_core::tool(crate = crate::facade::runtime)]
#[must_use]
pub fn plain_via_facade(#[param(maximum = 3)] value: u8, #[serde(flatten)] nested: Nested) -> ::std::string::String {
    ::std::format!("{value} {}", nested.ratio)
}

/// A server whose methods are tools.
#[derive(Debug)]
pub struct Server {
    prefix: &'static str,
}

#[::tool_core::tools]
impl Server {
    /// Greets.
    #[::tool_core::tool]
    #[must_use]
    pub fn greet(&self, #[param(min_length = 1)] name: ::std::string::String) -> ::std::string::String {
        ::std::format!("{}{name}", self.prefix)
    }

    /// Not a tool.
    const LIMIT: u8 = 3;
}

#[test]
fn compiles_and_runs_under_strict_lints() {
    let mut registry = ::tool_core::Registry::collect().expect("names are unique");
    assert_eq!(
        registry.names(),
        ["async_tool", "enums_tool", "no-args", "plain_tool", "plain_via_facade", "strict_tool", "via_facade"]
    );
    let arguments = r#"{"external":{"struct":{"f":"x"}},"adjacent":{"c":null,"t":"Newtype"},"untagged":{}}"#;
    let output = registry.call("enums_tool", arguments).expect("valid arguments");
    assert_eq!(output.to_text(), r#"Struct { field: "x" } Newtype(None) Struct { field: 0 }"#);
    let output = registry.call("plain_tool", r#"{"n": 2, "shout": "hi", "type": "b"}"#).expect("valid arguments");
    assert_eq!(output.to_text(), "2 7 0 HI None Some(B)");
    assert!(registry.call("plain_tool", r#"{"count": 0, "shout": "hi"}"#).is_err());
    let output = registry.call("plain_via_facade", r#"{"value": 3, "ratio": 0.75}"#).expect("valid arguments");
    assert_eq!(output.to_text(), "3 0.75");
    registry.add_all(Server { prefix: "hi " }).expect("names are unique");
    assert_eq!(registry.call("greet", r#"{"name": "Ada"}"#).expect("valid arguments").to_text(), "hi Ada");
    assert_eq!(Server::LIMIT, 3);
    assert!(registry.call("via_facade", r#"{"value": 4}"#).is_err());
    let output = registry
        .call(
            "strict_tool",
            r#"{"name":"abc","count":2,"kind":"a","tags":[],"nested":{"ratio":1.0},"choice":{"type":"Two"}}"#,
        )
        .expect("valid arguments");
    assert_eq!(output.to_text(), "ok");
}
