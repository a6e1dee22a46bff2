//! A `fn` item whose body is kept as the tokens it came in: `#[tool]` reads the attributes,
//! the visibility and the signature, and never looks inside the body, so parsing it into
//! syn's statements and printing them back would only cost the build (as
//! `tracing::instrument` does, for the same reason).

use proc_macro2::{Delimiter, Group, TokenStream};
use quote::{ToTokens, TokenStreamExt};
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, Signature, Visibility};

/// `#[attrs] vis fn name(..) -> T { body }`, the body unparsed.
pub struct FnItem {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub sig: Signature,
    /// The body's braces and what is inside them, as written.
    pub body: Group,
}

impl Parse for FnItem {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis = input.parse()?;
        let sig = input.parse()?;
        let body: Group = input.parse()?;
        if body.delimiter() != Delimiter::Brace {
            return Err(syn::Error::new(body.span(), "expected the fn's body"));
        }
        Ok(FnItem { attrs, vis, sig, body })
    }
}

impl ToTokens for FnItem {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.append_all(&self.attrs);
        self.vis.to_tokens(tokens);
        self.sig.to_tokens(tokens);
        self.body.to_tokens(tokens);
    }
}
