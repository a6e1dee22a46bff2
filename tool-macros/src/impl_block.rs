//! An `impl` block whose methods' bodies are kept as the tokens they came in, as
//! [`FnItem`] keeps a free fn's: `#[tools]` reads the header and each method's attributes
//! and signature, never a body, so parsing the bodies into syn's statements and printing
//! them back would only cost the build.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use quote::{ToTokens, TokenStreamExt};
use syn::parse::{Parse, ParseStream, Parser};
use syn::{Attribute, ImplItem, ItemImpl};

use crate::fn_item::FnItem;

/// `impl Type { items }`, each method's body unparsed.
pub struct ImplBlock {
    /// The tokens before the body's braces, as written.
    header: TokenStream,
    /// The header, parsed (with an empty body): what `#[tools]` checks of the block.
    pub parsed: ItemImpl,
    /// The body's braces, whose span the emitted block keeps.
    braces: Group,
    /// `#![..]` inside the braces.
    inner_attrs: Vec<Attribute>,
    /// The items, in order.
    pub items: Vec<Item>,
}

/// One item of the block.
pub enum Item {
    /// A method with a body.
    Fn(Box<FnItem>),
    /// Anything else (an associated const or type, a macro), as syn reads it.
    Other(Box<ImplItem>),
}

impl ImplBlock {
    /// Reads `tokens` as an `impl` block.
    ///
    /// # Errors
    /// When they are not one.
    pub fn parse(tokens: TokenStream) -> syn::Result<ImplBlock> {
        let mut trees: Vec<TokenTree> = tokens.into_iter().collect();
        let braces = match trees.pop() {
            Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Brace => group,
            other => {
                let span = other.map_or_else(proc_macro2::Span::call_site, |tree| tree.span());
                return Err(syn::Error::new(span, "expected an `impl` block"));
            }
        };
        let header: TokenStream = trees.into_iter().collect();
        let parsed: ItemImpl = syn::parse2(quote::quote!(#header {}))?;
        let (inner_attrs, items) = (|input: ParseStream| {
            let inner_attrs = input.call(Attribute::parse_inner)?;
            let mut items = Vec::new();
            while !input.is_empty() {
                items.push(input.parse()?);
            }
            Ok((inner_attrs, items))
        })
        .parse2(braces.stream())?;
        Ok(ImplBlock { header, parsed, braces, inner_attrs, items })
    }
}

impl Parse for Item {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let fork = input.fork();
        if let Ok(method) = fork.parse::<FnItem>() {
            syn::parse::discouraged::Speculative::advance_to(input, &fork);
            return Ok(Item::Fn(Box::new(method)));
        }
        input.parse().map(|item| Item::Other(Box::new(item)))
    }
}

impl ToTokens for ImplBlock {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.header.to_tokens(tokens);
        let mut body = TokenStream::new();
        body.append_all(&self.inner_attrs);
        for item in &self.items {
            match item {
                Item::Fn(method) => method.to_tokens(&mut body),
                Item::Other(other) => other.to_tokens(&mut body),
            }
        }
        let mut braces = Group::new(Delimiter::Brace, body);
        braces.set_span(self.braces.span());
        braces.to_tokens(tokens);
    }
}
