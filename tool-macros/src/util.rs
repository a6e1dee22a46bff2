//! Small helpers every module uses: the error type, doc comments, `r#` stripping and the
//! crate path of generated code.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{Attribute, Expr, Ident, Lit};

/// darling's error accumulates and carries "did you mean" suggestions, so it is the one
/// error type here (as in bon); a `syn::Error` converts into it.
pub type Result<T = (), E = darling::Error> = core::result::Result<T, E>;

/// `r#type` → `type`: the name a raw identifier has on the wire.
pub fn unraw(ident: &Ident) -> String {
    let text = ident.to_string();
    text.strip_prefix("r#").map_or(text.clone(), str::to_owned)
}

/// A `///` doc comment, as the description text.
#[derive(Debug, Clone)]
pub enum Doc {
    /// Every line was a string literal: joined at expansion.
    Text(String),
    /// Some line was a macro (`#[doc = include_str!(..)]`): joined by `concat!` at compile time.
    Expr(TokenStream),
}

impl Doc {
    /// The doc comment of an item, or `None` when it has none.
    pub fn from_attrs(attrs: &[Attribute]) -> Option<Doc> {
        let mut lines: Vec<&Expr> = Vec::new();
        for attr in attrs {
            if let syn::Meta::NameValue(nv) = &attr.meta
                && nv.path.is_ident("doc")
            {
                lines.push(&nv.value);
            }
        }
        if lines.is_empty() {
            return None;
        }
        let mut text_lines = Vec::with_capacity(lines.len());
        for line in &lines {
            if let Expr::Lit(syn::ExprLit { lit: Lit::Str(s), .. }) = line {
                text_lines.push(s.value());
            } else {
                let parts = lines.iter().map(|line| quote!(#line));
                return Some(Doc::Expr(quote!(::core::concat!(#(#parts, "\n"),*))));
            }
        }
        Doc::from_lines(&text_lines)
    }

    /// The description from the texts of `///` lines, as they arrive (" text").
    pub fn from_lines(lines: &[String]) -> Option<Doc> {
        // `/// text` arrives as " text": drop the one space rustdoc adds, keep indentation.
        let lines: Vec<&str> = lines.iter().map(|line| line.strip_prefix(' ').unwrap_or(line).trim_end()).collect();
        let text = join_markdown(&lines);
        (!text.is_empty()).then_some(Doc::Text(text))
    }
}

/// Doc lines as rustdoc reads them (Markdown): the lines of a paragraph joined with a space,
/// paragraphs with a blank line; a line that starts a block of its own (a list item, a
/// heading, a quote, a table row, a code fence) keeps its line break, and a fenced code
/// block is kept verbatim. A description wrapped at 100 columns is then one line of text to
/// the model, as it is on the rendered page.
fn join_markdown(lines: &[&str]) -> String {
    let mut out = String::new();
    let mut in_fence = false;
    let mut open = false;
    let mut blank = false;
    for line in lines {
        let trimmed = line.trim_start();
        let fence = trimmed.starts_with("```") || trimmed.starts_with("~~~");
        if in_fence {
            out.push('\n');
            out.push_str(line);
            in_fence = !fence;
            continue;
        }
        if trimmed.is_empty() {
            blank = !out.is_empty();
            open = false;
            continue;
        }
        let separator = match (out.is_empty(), blank, open && !starts_block(trimmed)) {
            (true, _, _) => "",
            (false, true, _) => "\n\n",
            (false, false, true) => " ",
            (false, false, false) => "\n",
        };
        out.push_str(separator);
        out.push_str(if separator == " " { trimmed } else { line });
        blank = false;
        in_fence = fence;
        open = !fence && !trimmed.starts_with('#');
    }
    out.trim().to_owned()
}

/// Whether a Markdown line starts a block of its own rather than continuing a paragraph.
fn starts_block(trimmed: &str) -> bool {
    let ordered = {
        let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0 && matches!(trimmed.as_bytes().get(digits..digits + 2), Some(b". " | b") "))
    };
    ordered
        || ["- ", "* ", "+ ", "#", ">", "|", "```", "~~~"].iter().any(|start| trimmed.starts_with(start))
        || trimmed == "-"
}

impl ToTokens for Doc {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Doc::Text(text) => text.to_tokens(tokens),
            Doc::Expr(expr) => expr.to_tokens(tokens),
        }
    }
}

/// The path generated code reaches `tool_core` by: `::tool_core` unless `crate = ..` says
/// otherwise, which must then be absolute (`::a::b` or `crate::a::b`, bon's rule) so it
/// resolves from any module the item sits in.
pub fn crate_path(krate: Option<&syn::Path>) -> Result<TokenStream> {
    match krate {
        None => Ok(quote!(::tool_core)),
        Some(path) if path.leading_colon.is_some() || path.segments.first().is_some_and(|s| s.ident == "crate") => {
            Ok(quote!(#path))
        }
        Some(path) => Err(darling::Error::custom(format!(
            "`crate` must be an absolute path, so it resolves from any module: write `crate = ::{0}` or `crate = crate::{0}`",
            path.to_token_stream().to_string().replace(' ', "")
        ))
        .with_span(path)),
    }
}

/// Wraps generated items in `const _: () = { use #krate as _tool_core; … };`, so they name
/// nothing in the user's scope and reach the runtime through one alias.
pub fn wrap_in_const(krate: &TokenStream, items: TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        #[allow(unused_qualifications, non_upper_case_globals)]
        const _: () = {
            use #krate as _tool_core;
            #[allow(unused_imports)]
            use _tool_core::__private::names::*;
            #items
        };
    }
}

/// `checks` (`assert!` expressions) evaluated at compile time: in a `const` item for a type
/// without generics, which `cargo check` evaluates too, else inline in a fn body (`in_body`),
/// where the type's parameters are in scope.
pub fn const_checks(checks: &[TokenStream], generic: bool) -> (TokenStream, TokenStream) {
    if checks.is_empty() {
        (TokenStream::new(), TokenStream::new())
    } else if generic {
        (TokenStream::new(), quote!(const { #(#checks;)* }))
    } else {
        // One item each: every failed check is reported, not just the first.
        (quote!(#(const _: () = #checks;)*), TokenStream::new())
    }
}

/// `generics` with `T: ToolParam` added for every type parameter.
pub fn bounded(generics: &syn::Generics) -> syn::Generics {
    let mut generics = generics.clone();
    let params: Vec<Ident> = generics.type_params().map(|p| p.ident.clone()).collect();
    let clause = generics.make_where_clause();
    for param in params {
        clause.predicates.push(syn::parse_quote!(#param: __tc_ToolParam));
    }
    generics
}

/// Whether the derive writes the elicitation-form impls (`ElicitForm`, `ElicitField`,
/// `ElicitChoice`): with tool-core's `elicit` feature, which turns on this crate's. The
/// expansion snapshots always show them, so they do not change with the features a build
/// happens to unify.
pub const ELICIT: bool = cfg!(any(feature = "elicit", test));

#[cfg(test)]
mod tests {
    use super::join_markdown;

    #[test]
    fn doc_lines_are_joined_as_rustdoc_reads_them() {
        let cases: [(&[&str], &str); 6] = [
            (&["Gets the weather", "for a city."], "Gets the weather for a city."),
            (&["First paragraph", "goes on.", "", "Second."], "First paragraph goes on.\n\nSecond."),
            (&["Units:", "- celsius", "- fahrenheit", "  (US)"], "Units:\n- celsius\n- fahrenheit (US)"),
            (&["Steps:", "1. look", "2) leap"], "Steps:\n1. look\n2) leap"),
            (
                &["# Heading", "text", "", "```", "let a = 1;", "", "  b", "```", "after"],
                "# Heading\ntext\n\n```\nlet a = 1;\n\n  b\n```\nafter",
            ),
            (&["", "  lead and trail  ", ""], "lead and trail"),
        ];
        for (lines, joined) in cases {
            assert_eq!(join_markdown(lines), joined, "{lines:?}");
        }
    }
}
