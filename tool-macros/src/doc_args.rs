//! rustdoc's `# Arguments` convention, read for plain-parameter tools: Rust has no doc
//! comments on parameters, so a fn documents them in a list under that heading
//! (`` * `a` - the first addend ``). The section's lines are taken out of the fn's doc
//! (the tool's description) and each item becomes its parameter's description.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Lit};

use crate::util::Doc;

/// One `# Arguments` item: the parameter it names and what it says.
#[derive(Debug, Clone)]
pub struct ArgumentDoc {
    /// The parameter's name, as written in the list.
    pub name: String,
    /// Its description, continuation lines joined with a space.
    pub text: String,
    /// The doc line that names it, for an error about a name no parameter has.
    pub span: Span,
}

/// Splits the doc in `attrs` into the tool's description (the doc without its
/// `# Arguments` section) and the section's items. A doc with a line that is not a string
/// literal (`#[doc = include_str!(..)]`) is left whole: its text is not known here.
pub fn split(attrs: &[Attribute]) -> (Option<Doc>, Vec<ArgumentDoc>) {
    // Each line's text read once: a literal's text is a call into the compiler.
    let mut lines: Vec<(String, &Attribute)> = Vec::with_capacity(attrs.len());
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("doc")) {
        match doc_line(attr) {
            Some(line) => lines.push((line, attr)),
            None => return (Doc::from_attrs(attrs), Vec::new()),
        }
    }
    let mut kept: Vec<String> = Vec::with_capacity(lines.len());
    let mut items: Vec<ArgumentDoc> = Vec::new();
    let mut in_section = false;
    let mut in_fence = false;
    for (line, attr) in lines {
        let trimmed = line.trim();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        }
        if !in_fence && trimmed.starts_with('#') {
            in_section = trimmed.trim_start_matches('#').trim() == "Arguments";
            if in_section {
                continue;
            }
        }
        if !in_section {
            kept.push(line);
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("* ").or_else(|| trimmed.strip_prefix("- ")) {
            let (name, text) = item(rest);
            items.push(ArgumentDoc { name, text, span: attr.span() });
        } else if let Some(last) = items.last_mut().filter(|_| !trimmed.is_empty()) {
            if !last.text.is_empty() {
                last.text.push(' ');
            }
            last.text.push_str(trimmed);
        }
    }
    (Doc::from_lines(&kept), items)
}

/// The text of a `///` line, without the one space rustdoc adds; `None` for any other
/// attribute or a doc line that is not a literal.
fn doc_line(attr: &Attribute) -> Option<String> {
    match &attr.meta {
        syn::Meta::NameValue(pair) if pair.path.is_ident("doc") => match &pair.value {
            Expr::Lit(syn::ExprLit { lit: Lit::Str(text), .. }) => Some(text.value()),
            _ => None,
        },
        _ => None,
    }
}

/// `` `a` - the first addend `` (or `a: ..`, `a — ..`) → (`a`, `the first addend`).
fn item(rest: &str) -> (String, String) {
    let rest = rest.trim_start();
    let (name, after) = match rest.strip_prefix('`').and_then(|inner| inner.split_once('`')) {
        Some((name, after)) => (name, after),
        None => rest.split_at(rest.find(|c: char| c.is_whitespace() || c == ':').unwrap_or(rest.len())),
    };
    let text = after.trim_start().trim_start_matches(['-', ':', '–', '—']).trim();
    (name.trim().to_owned(), text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(lines: &[&str]) -> Vec<Attribute> {
        lines.iter().map(|line| syn::parse_quote!(#[doc = #line])).collect()
    }

    fn text(doc: Option<Doc>) -> String {
        match doc {
            Some(Doc::Text(text)) => text,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_section_becomes_items_and_leaves_the_description() {
        let attrs = docs(&[
            " Adds two numbers.",
            "",
            " # Arguments",
            "",
            " * `a` - the first addend",
            " * `b` - the second one,",
            "   wrapped over two lines",
            " - c: a third, in another style",
            "",
            " # Examples",
            " Some.",
        ]);
        let (kept, items) = split(&attrs);
        assert_eq!(text(kept), "Adds two numbers.\n\n# Examples\nSome.");
        let pairs: Vec<(&str, &str)> = items.iter().map(|item| (item.name.as_str(), item.text.as_str())).collect();
        assert_eq!(
            pairs,
            [
                ("a", "the first addend"),
                ("b", "the second one, wrapped over two lines"),
                ("c", "a third, in another style")
            ]
        );
    }

    #[test]
    fn a_doc_without_the_section_is_kept_whole() {
        let attrs = docs(&[" Adds.", " ```", " # Arguments inside a fence", " ```"]);
        let (kept, items) = split(&attrs);
        assert_eq!(text(kept), "Adds.\n```\n# Arguments inside a fence\n```");
        assert!(items.is_empty());
    }

    #[test]
    fn items_accept_a_dash_a_colon_or_nothing_after_the_name() {
        assert_eq!(item("`x` — text"), ("x".to_owned(), "text".to_owned()));
        assert_eq!(item("x: text"), ("x".to_owned(), "text".to_owned()));
        assert_eq!(item("`x`"), ("x".to_owned(), String::new()));
    }
}
