//! `#[prompt]` and `#[resource]`: a fn read as a tool fn is (its plain parameters or
//! argument struct, its doc, its return type), emitted with the same definition, and
//! implementing `mcp::PromptFn` or `mcp::ResourceFn` instead of `Tool`: nothing is
//! submitted to `inventory`, so `Registry::collect` never takes a prompt for a tool.

use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::util::SpannedValue;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};

use super::tool_fn::camel_case;
use super::{Names, ToolFn};
use crate::attr::{ToolAttr, scope_list, string_key};
use crate::fn_item::FnItem;
use crate::inputs::Args;
use crate::util::Result;

/// Which attribute is expanded.
#[derive(Clone, Copy)]
pub enum Served {
    Prompt,
    Resource,
}

/// `#[prompt(..)]` and `#[resource(..)]`: `uri` and `mime_type` are the resource's alone.
#[derive(Debug, Default, FromMeta)]
struct ServedAttr {
    #[darling(default, with = string_key)]
    uri: Option<SpannedValue<String>>,
    #[darling(default, with = string_key)]
    mime_type: Option<SpannedValue<String>>,
    #[darling(default, with = string_key)]
    name: Option<SpannedValue<String>>,
    #[darling(default, with = string_key)]
    title: Option<SpannedValue<String>>,
    #[darling(default, with = string_key)]
    description: Option<SpannedValue<String>>,
    #[darling(rename = "crate")]
    krate: Option<syn::Path>,
    #[darling(default, with = scope_list)]
    scopes: Vec<syn::LitStr>,
}

impl Served {
    fn attr_name(self) -> &'static str {
        match self {
            Served::Prompt => "prompt",
            Served::Resource => "resource",
        }
    }
}

/// Expands `#[prompt]` or `#[resource]`; on error, the errors plus the item unchanged.
pub fn expand(kind: Served, attr: TokenStream, item: TokenStream) -> TokenStream {
    if super::is_mark(&attr) {
        return TokenStream::new();
    }
    match try_expand(kind, attr, item.clone()) {
        Ok(tokens) => tokens,
        Err(error) => {
            let errors = error.write_errors();
            quote!(#errors #item)
        }
    }
}

fn try_expand(kind: Served, attr: TokenStream, item: TokenStream) -> Result<TokenStream> {
    let mut errors = darling::Error::accumulator();
    let Ok(mut item) = syn::parse2::<FnItem>(item.clone()) else {
        let span = item.into_iter().next().map_or_else(Span::call_site, |t| t.span());
        let message = format!("`#[{}]` can only be applied to a `fn` item", kind.attr_name());
        errors.push(darling::Error::custom(message).with_span(&span));
        return errors.finish().map(|()| TokenStream::new());
    };
    let served = ServedFn::read(kind, attr, &mut item.sig, &item.attrs, None, &mut errors);
    errors.finish()?;
    Ok(served.map(|served| served.tool.expand_served(kind, &served, item)).unwrap_or_default())
}

/// A prompt or resource fn (free, or a method of a `#[tools]` block), read as a tool fn is,
/// with a resource's URI and MIME type.
pub struct ServedFn {
    pub tool: ToolFn,
    uri: Option<String>,
    mime_type: Option<String>,
}

impl ServedFn {
    /// Reads `#[prompt(..)]` or `#[resource(..)]` (`attr`, the tokens inside) on a fn;
    /// `self_ty` is the type of a `#[tools]` block. Every mistake goes to `errors`.
    pub fn read(
        kind: Served,
        attr: TokenStream,
        sig: &mut syn::Signature,
        attrs: &[syn::Attribute],
        self_ty: Option<&syn::Type>,
        errors: &mut darling::error::Accumulator,
    ) -> Option<ServedFn> {
        let attr = errors
            .handle(
                NestedMeta::parse_meta_list(attr).map_err(darling::Error::from).and_then(|i| ServedAttr::from_list(&i)),
            )
            .unwrap_or_default();
        match (kind, &attr.uri, &attr.mime_type) {
            (Served::Resource, None, _) => errors.push(
                darling::Error::custom("a resource needs its URI: `#[resource(uri = \"memory://graph\")]`, or a template `uri = \"file:///{+path}\"`")
                    .with_span(&sig.ident),
            ),
            (Served::Prompt, Some(uri), _) => {
                errors.push(darling::Error::custom("`uri` is a resource's: a prompt has a name").with_span(&uri.span()));
            }
            (Served::Prompt, _, Some(mime)) => {
                errors.push(darling::Error::custom("`mime_type` is a resource's").with_span(&mime.span()));
            }
            _ => {}
        }
        let tool_attr = ToolAttr {
            name: attr.name.clone(),
            free_name: true,
            description: attr.description.clone(),
            krate: attr.krate.clone(),
            title: attr.title.clone(),
            scopes: attr.scopes.clone(),
            ..ToolAttr::default()
        };
        // Read as unread: a prompt or a resource may go without a description.
        let tool = errors.handle(ToolFn::read(tool_attr, false, sig, attrs, self_ty))?;
        if let Some(uri) = &attr.uri {
            check_variables(uri, &tool.inputs.args, errors);
        }
        let uri = attr.uri.map(|uri| uri.as_str().to_owned());
        Some(ServedFn { tool, uri, mime_type: attr.mime_type.map(|mime| mime.as_str().to_owned()) })
    }

    /// A resource's `uri` and `mime_type` as the `ResourceFn` methods (or the `#[tools]`
    /// block's resource list) return them.
    pub fn uri_and_mime(&self) -> (TokenStream, TokenStream) {
        let uri = self.uri.clone().unwrap_or_default();
        let mime = self
            .mime_type
            .as_ref()
            .map_or_else(|| quote!(::core::option::Option::None), |mime| quote!(::core::option::Option::Some(#mime)));
        (quote!(#uri), mime)
    }
}

/// The variables of a resource URI must be the fn's plain parameters, one for one: nothing
/// else could fill a parameter, and a variable no parameter takes would be lost.
fn check_variables(uri: &SpannedValue<String>, args: &Args, errors: &mut darling::error::Accumulator) {
    let mut variables = Vec::new();
    let mut rest = uri.as_str();
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            errors.push(darling::Error::custom("this URI opens a `{` it never closes").with_span(&uri.span()));
            return;
        };
        let expression = &rest[open + 1..open + close];
        let name = expression.strip_prefix('+').unwrap_or(expression);
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            errors.push(
                darling::Error::custom(format!(
                    "`{{{expression}}}` is not supported: write `{{name}}` (no `/`) or `{{+name}}` (any text), a name of letters, digits and `_`"
                ))
                .with_span(&uri.span()),
            );
            // Which parameter it stands for is unknown: nothing more to say of them.
            return;
        }
        variables.push(name.to_owned());
        rest = &rest[open + close + 1..];
    }
    match args {
        Args::Plain(plain) => {
            for param in &plain.params {
                let name = param.wire_name();
                if !variables.contains(&name) {
                    let message = if variables.is_empty() {
                        format!(
                            "a resource at a fixed URI takes no parameters: write `{{{name}}}` in its URI to make it a template"
                        )
                    } else {
                        format!(
                            "`{name}` is no variable of the URI: write `{{{name}}}` in it, or take the parameter out"
                        )
                    };
                    errors.push(darling::Error::custom(message).with_span(&param.ident));
                }
            }
            for variable in &variables {
                if !plain.params.iter().any(|param| param.wire_name() == *variable) {
                    errors.push(
                        darling::Error::custom(format!(
                            "`{{{variable}}}` needs a parameter of the fn: `{variable}: String`"
                        ))
                        .with_span(&uri.span()),
                    );
                }
            }
        }
        Args::None => {
            if let Some(variable) = variables.first() {
                let message = format!("the URI's variables need parameters of the fn: `{variable}: String`");
                errors.push(darling::Error::custom(message).with_span(&uri.span()));
            }
        }
        // An argument struct's fields are checked against the URI when the resource is added.
        Args::Struct(_) => {}
    }
}

impl ToolFn {
    /// The fn, the arguments struct of plain parameters, the `…Prompt` or `…Resource` type
    /// and, in one `const` block, the definition and the trait impl that hands it over.
    fn expand_served(&self, kind: Served, served_fn: &ServedFn, mut item: FnItem) -> TokenStream {
        item.sig = self.sig.clone();
        let fn_ident = &item.sig.ident;
        let name = &self.name;
        let definition = self.definition(&Names::new(None));
        let suffix = match kind {
            Served::Prompt => "Prompt",
            Served::Resource => "Resource",
        };
        let type_ident = format_ident!("{}{suffix}", camel_case(fn_ident), span = fn_ident.span());
        let (doc, served) = match kind {
            Served::Prompt => (
                format!(
                    "The `{name}` prompt, generated by `#[prompt]` from [`{fn_ident}`]: pass it to `Prompts::add`."
                ),
                quote! {
                    #[automatically_derived]
                    impl _tool_core::mcp::PromptFn for #type_ident {
                        fn def(&self) -> &'static _tool_core::ToolDef {
                            &__TOOL_DEF
                        }
                    }
                },
            ),
            Served::Resource => {
                let (uri, mime) = served_fn.uri_and_mime();
                (
                    format!(
                        "The `{name}` resource, generated by `#[resource]` from [`{fn_ident}`]: pass it to `Resources::add`."
                    ),
                    quote! {
                        #[automatically_derived]
                        impl _tool_core::mcp::ResourceFn for #type_ident {
                            fn def(&self) -> &'static _tool_core::ToolDef {
                                &__TOOL_DEF
                            }
                            fn uri(&self) -> &'static str {
                                #uri
                            }
                            fn mime_type(&self) -> ::core::option::Option<&'static str> {
                                #mime
                            }
                        }
                    },
                )
            }
        };
        self.emit(&item, &type_ident, &doc, &quote!(#definition #served))
    }
}
