//! Reading the `#[serde(..)]` attributes that change the wire shape, so the schema, the
//! validator and serde's own `Deserialize` agree on every property.
//!
//! Keys that do not change what is accepted (`skip_serializing_if`, `bound`, …) are passed
//! over; keys that change it in ways a schema cannot follow (`with`, `deserialize_with`,
//! `transparent`, `from`, …) are compile errors, because the schema would otherwise lie.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, ExprPath, LitStr};

use crate::util::Result;

/// serde's `rename_all` rules, applied as serde applies them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    const ALL: &'static [(&'static str, RenameRule)] = &[
        ("lowercase", RenameRule::Lower),
        ("UPPERCASE", RenameRule::Upper),
        ("PascalCase", RenameRule::Pascal),
        ("camelCase", RenameRule::Camel),
        ("snake_case", RenameRule::Snake),
        ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
        ("kebab-case", RenameRule::Kebab),
        ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
    ];

    fn parse(lit: &LitStr) -> Result<Self> {
        let value = lit.value();
        Self::ALL.iter().find(|(name, _)| *name == value).map(|(_, rule)| *rule).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL.iter().map(|(name, _)| *name).collect();
            darling::Error::unknown_value_with_alts(&value, names.iter()).with_span(lit)
        })
    }

    /// A `snake_case` field name under this rule.
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut out = String::new();
                let mut capitalize = true;
                for c in field.chars() {
                    if c == '_' {
                        capitalize = true;
                    } else if capitalize {
                        out.push(c.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        out.push(c);
                    }
                }
                out
            }
            RenameRule::Camel => {
                let pascal = RenameRule::Pascal.apply_to_field(field);
                let mut chars = pascal.chars();
                chars.next().map_or_else(String::new, |first| first.to_ascii_lowercase().to_string() + chars.as_str())
            }
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.replace('_', "-").to_ascii_uppercase(),
        }
    }

    /// A `PascalCase` variant name under this rule.
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => {
                let mut chars = variant.chars();
                chars.next().map_or_else(String::new, |first| first.to_ascii_lowercase().to_string() + chars.as_str())
            }
            RenameRule::Snake => {
                let mut out = String::new();
                for (i, c) in variant.char_indices() {
                    if i > 0 && c.is_uppercase() {
                        out.push('_');
                    }
                    out.push(c.to_ascii_lowercase());
                }
                out
            }
            RenameRule::ScreamingSnake => RenameRule::Snake.apply_to_variant(variant).to_ascii_uppercase(),
            RenameRule::Kebab => RenameRule::Snake.apply_to_variant(variant).replace('_', "-"),
            RenameRule::ScreamingKebab => RenameRule::ScreamingSnake.apply_to_variant(variant).replace('_', "-"),
        }
    }
}

/// The container's serde attributes.
#[derive(Debug, Default)]
pub struct SerdeContainer {
    /// `rename_all = ".."` (or its `deserialize` half).
    pub rename_all: Option<RenameRule>,
    /// `rename_all_fields = ".."`: `rename_all` for every struct variant.
    pub rename_all_fields: Option<RenameRule>,
    /// `default`: every field may be absent.
    pub default: bool,
    /// `tag = ".."`: internally (or, with `content`, adjacently) tagged.
    pub tag: Option<String>,
    /// `content = ".."`: adjacently tagged.
    pub content: Option<String>,
    /// `untagged`.
    pub untagged: bool,
    /// `rename = ".."` (or its `deserialize` half): the name serde's errors give the type.
    pub rename: Option<String>,
    /// `deny_unknown_fields`: a key no field names is an error.
    pub deny_unknown_fields: bool,
    /// `expecting = ".."`: what a wrong value's error says was expected.
    pub expecting: Option<String>,
    /// The first key only serde's derive follows (`bound`, `variant_identifier`, …), with
    /// its span: `ToolArgs` then writes no `Deserialize` unless told to leave it to serde.
    pub unfollowed: Option<(String, Span)>,
}

/// A field's or variant's serde attributes.
#[derive(Debug, Default)]
pub struct SerdeMember {
    /// `rename = ".."` (or its `deserialize` half).
    pub rename: Option<String>,
    /// `alias = ".."`, each.
    pub aliases: Vec<String>,
    /// `default = "path"`: the fn that gives the value.
    pub default_path: Option<ExprPath>,
    /// `flatten`.
    pub flatten: bool,
    /// `rename_all = ".."` on a struct variant.
    pub rename_all: Option<RenameRule>,
    /// `with = "m"` (as `m::deserialize`) or `deserialize_with = "f"`, with a stand-in type.
    pub with: Option<ExprPath>,
    /// The span of each key read, by name (`default`, `skip`, …), for errors at the key.
    pub spans: Vec<(&'static str, Span)>,
    /// A key that changes decoding but none of the above holds (`bound`, `borrow`, …), or
    /// one of the above given twice: what only serde's derive follows.
    pub only_serde: bool,
    /// The first such key, with its span, for the error that names it.
    pub unfollowed: Option<(String, Span)>,
}

impl SerdeMember {
    /// `default` or `default = "path"`: serde fills the field when absent.
    pub fn has_default(&self) -> bool {
        self.span_of("default").is_some()
    }

    /// `skip` or `skip_deserializing`: the field is not on the wire.
    pub fn skipped(&self) -> Option<Span> {
        self.span_of("skip").or_else(|| self.span_of("skip_deserializing"))
    }

    /// The span of the key `name`, if it was given.
    pub fn span_of(&self, name: &str) -> Option<Span> {
        self.spans.iter().find(|(key, _)| *key == name).map(|(_, span)| *span)
    }
}

fn serde_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|attr| attr.path().is_ident("serde"))
}

/// Reads `#[serde(..)]` on a container.
pub fn container(attrs: &[Attribute]) -> Result<SerdeContainer> {
    let mut out = SerdeContainer::default();
    let mut errors = darling::Error::accumulator();
    for attr in serde_attrs(attrs) {
        let parsed = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename_all") {
                if let Some(lit) = deserialize_half(&meta)? {
                    out.rename_all = errors.handle(RenameRule::parse(&lit));
                }
            } else if meta.path.is_ident("rename_all_fields") {
                if let Some(lit) = deserialize_half(&meta)? {
                    out.rename_all_fields = errors.handle(RenameRule::parse(&lit));
                }
            } else if meta.path.is_ident("default") {
                skip_value(&meta)?;
                out.default = true;
            } else if meta.path.is_ident("tag") {
                out.tag = Some(meta.value()?.parse::<LitStr>()?.value());
            } else if meta.path.is_ident("content") {
                out.content = Some(meta.value()?.parse::<LitStr>()?.value());
            } else if meta.path.is_ident("untagged") {
                out.untagged = true;
            } else if meta.path.is_ident("rename") {
                out.rename = deserialize_half(&meta)?.map(|lit| lit.value());
            } else if meta.path.is_ident("deny_unknown_fields") {
                out.deny_unknown_fields = true;
            } else if meta.path.is_ident("expecting") {
                out.expecting = Some(meta.value()?.parse::<LitStr>()?.value());
            } else if CONTAINER_UNFOLLOWED.iter().any(|k| meta.path.is_ident(k)) {
                let key = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
                out.unfollowed.get_or_insert((key, meta.path.span()));
                skip_value(&meta)?;
            } else if ["transparent", "from", "try_from", "remote"].iter().any(|k| meta.path.is_ident(k)) {
                errors.push(
                    darling::Error::custom(
                        "`ToolArgs` cannot follow this serde attribute: the wire shape then comes from another type; derive `ToolArgs` on that type instead",
                    )
                    .with_span(&meta.path),
                );
                skip_value(&meta)?;
            } else {
                skip_value(&meta)?;
            }
            Ok(())
        });
        errors.handle(parsed.map_err(darling::Error::from));
    }
    errors.finish_with(out)
}

/// The container keys that change decoding in ways only serde's derive follows.
const CONTAINER_UNFOLLOWED: &[&str] = &["bound", "variant_identifier", "field_identifier"];

/// The member keys read here that serde refuses twice.
const FOLLOWED: &[&str] =
    &["rename", "default", "skip", "skip_deserializing", "flatten", "rename_all", "with", "deserialize_with"];

/// The member keys only about serializing, which decoding need not follow.
const SERIALIZING: &[&str] = &["skip_serializing", "skip_serializing_if", "serialize_with"];

/// Reads `#[serde(..)]` on a field or variant. With `stand_in` (`#[param(as = ..)]`), a
/// `with` or `deserialize_with` is allowed: the stand-in type describes its wire form.
pub fn member(attrs: &[Attribute], stand_in: bool) -> Result<SerdeMember> {
    let mut out = SerdeMember::default();
    let mut errors = darling::Error::accumulator();
    for attr in serde_attrs(attrs) {
        let parsed = attr.parse_nested_meta(|meta| {
            if let Some(key) = FOLLOWED.iter().find(|key| meta.path.is_ident(key)) {
                if out.span_of(key).is_some() {
                    out.only_serde = true;
                    out.unfollowed.get_or_insert(((*key).to_owned(), meta.path.span()));
                }
                out.spans.push((key, meta.path.span()));
            }
            if meta.path.is_ident("rename") {
                if let Some(lit) = deserialize_half(&meta)? {
                    out.rename = Some(lit.value());
                }
            } else if meta.path.is_ident("alias") {
                out.aliases.push(meta.value()?.parse::<LitStr>()?.value());
            } else if meta.path.is_ident("default") {
                if meta.input.peek(syn::Token![=]) {
                    out.default_path = Some(meta.value()?.parse::<LitStr>()?.parse()?);
                }
            } else if meta.path.is_ident("skip") || meta.path.is_ident("skip_deserializing") {
                // Read above, as its span.
            } else if meta.path.is_ident("flatten") {
                out.flatten = true;
            } else if meta.path.is_ident("rename_all") {
                if let Some(lit) = deserialize_half(&meta)? {
                    out.rename_all = errors.handle(RenameRule::parse(&lit));
                }
            } else if meta.path.is_ident("other") {
                errors.push(
                    darling::Error::custom(
                        "`#[serde(other)]` takes any string the schema does not list, so the schema would lie to the model; remove it (an unknown value is then refused, naming the accepted ones), or take a `String` and match it in the tool",
                    )
                    .with_span(&meta.path),
                );
            } else if stand_in && ["with", "deserialize_with"].iter().any(|k| meta.path.is_ident(k)) {
                let lit = meta.value()?.parse::<LitStr>()?;
                let mut path: ExprPath = lit.parse()?;
                if meta.path.is_ident("with") {
                    path.path.segments.push(syn::Ident::new("deserialize", lit.span()).into());
                }
                out.with = Some(path);
            } else if ["with", "deserialize_with", "untagged"].iter().any(|k| meta.path.is_ident(k)) {
                errors.push(
                    darling::Error::custom(
                        "`ToolArgs` cannot follow this serde attribute: it changes the wire shape in code the schema cannot see; add `#[param(as = Type)]` with a type of the same wire form (`as = String` for text), or use a type with its own `ToolParam` impl",
                    )
                    .with_span(&meta.path),
                );
                skip_value(&meta)?;
            } else {
                if !SERIALIZING.iter().any(|key| meta.path.is_ident(key)) {
                    out.only_serde = true;
                    let key = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
                    out.unfollowed.get_or_insert((key, meta.path.span()));
                }
                skip_value(&meta)?;
            }
            Ok(())
        });
        errors.handle(parsed.map_err(darling::Error::from));
    }
    errors.finish_with(out)
}

/// `key = "x"` → `x`; `key(deserialize = "x", serialize = "y")` → `x`; `key(serialize = "y")`
/// → nothing (only deserialization matters here).
fn deserialize_half(meta: &ParseNestedMeta<'_>) -> syn::Result<Option<LitStr>> {
    if meta.input.peek(syn::Token![=]) {
        return Ok(Some(meta.value()?.parse()?));
    }
    let mut found = None;
    meta.parse_nested_meta(|inner| {
        let lit: LitStr = inner.value()?.parse()?;
        if inner.path.is_ident("deserialize") {
            found = Some(lit);
        }
        Ok(())
    })?;
    Ok(found)
}

/// Consumes whatever value a key we pass over carries: `= expr`, `(..)`, or nothing.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        content.parse::<proc_macro2::TokenStream>()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
